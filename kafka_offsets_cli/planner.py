"""Plan ListOffsets requests: which partitions go out together for which spec.

librdkafka sends one ListOffsets request per partition leader for each
``list_offsets`` call, and a call carries one spec per partition. A call with
thousands of partitions costs much more CPU than several calls of a few hundred
submitted at once, so partitions are chunked per spec. Every chunk of every spec
is submitted concurrently by the client.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from .models import OffsetSpec, TopicPartition

#: Partitions per ``list_offsets`` call. librdkafka's cost per call grows faster than
#: linearly with its size: 10,000 partitions x 4 specs took ~2.7 s CPU in calls of
#: 10,000, ~0.8 s in calls of 2,000 and ~0.35 s in calls of 200-500 (bench/README.md).
DEFAULT_CHUNK = 500

T = TypeVar("T")


@dataclass(frozen=True)
class OffsetRequest:
    """One ``list_offsets`` call: (partition, spec) queries, each partition at most once."""

    queries: tuple[tuple[TopicPartition, OffsetSpec], ...]

    def __len__(self) -> int:
        return len(self.queries)


def chunked(items: Sequence[T], size: int) -> list[tuple[T, ...]]:
    """Split ``items`` into tuples of at most ``size``, balanced in length."""
    if size <= 0:
        raise ValueError("chunk size must be positive")
    n = len(items)
    if n == 0:
        return []
    count = -(-n // size)
    base, extra = divmod(n, count)
    out = []
    start = 0
    for i in range(count):
        end = start + base + (1 if i < extra else 0)
        out.append(tuple(items[start:end]))
        start = end
    return out


def plan_requests(
    partitions: Sequence[TopicPartition],
    specs: Sequence[OffsetSpec],
    chunk_size: int = DEFAULT_CHUNK,
) -> list[OffsetRequest]:
    """All calls needed for ``partitions`` x ``specs``: per spec, chunks of partitions."""
    # same order as sorting the dataclasses, without ~10 Python-level __lt__ calls per partition
    unique = sorted(set(partitions), key=lambda tp: (tp.topic, tp.partition))
    return [
        OffsetRequest(tuple((tp, spec) for tp in chunk))
        for spec in dict.fromkeys(specs)
        for chunk in chunked(unique, chunk_size)
    ]


def plan_queries(
    queries: Sequence[tuple[TopicPartition, OffsetSpec]], chunk_size: int = DEFAULT_CHUNK
) -> list[OffsetRequest]:
    """Calls for heterogeneous queries (each partition its own spec, e.g. a bisection round).

    A partition asked more than once goes to separate calls, as librdkafka rejects
    duplicates within one call.
    """
    rounds: list[list[tuple[TopicPartition, OffsetSpec]]] = []
    counts: dict[TopicPartition, int] = {}
    for tp, spec in queries:
        k = counts.get(tp, 0)
        counts[tp] = k + 1
        if k == len(rounds):
            rounds.append([])
        rounds[k].append((tp, spec))
    return [OffsetRequest(chunk) for r in rounds for chunk in chunked(r, chunk_size)]
