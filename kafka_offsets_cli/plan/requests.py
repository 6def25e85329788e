"""Plan ListOffsets requests: which partitions go out together for which spec.

The protocol's minimum is one ListOffsets request per partition leader per spec: a
request carries one timestamp (spec) per partition and goes to one broker. librdkafka
sends one request per leader for each ``list_offsets`` call, and matches each answered
partition against the call's list with a linear search, so a call's CPU cost grows with
the square of its size (10,000 partitions x 4 specs on 3 leaders: 0.29 s in calls of 500,
0.86 s in one call per leader and spec; bench/README.md). The plan therefore groups
partitions by leader and cuts each leader's group into calls of at most ``chunk_size``:
every call is exactly one request, and a leader with up to ``chunk_size`` selected
partitions gets the minimum, one request per spec. All calls are submitted at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count, repeat
from typing import TypeVar

from ..models.offsets import OffsetSpec
from ..models.topics import TopicPartition

#: Partitions per ``list_offsets`` call (one leader's). librdkafka's cost per call grows with
#: the square of its size: 10,000 partitions x 4 specs took ~2.7 s CPU in calls of 10,000,
#: ~0.8 s in calls of 2,000 and ~0.3 s in calls of 200-500 (bench/README.md).
DEFAULT_CHUNK = 500

T = TypeVar("T")

#: :attr:`OffsetRequest.run` ids (``next`` is atomic in CPython: threads planning at once get distinct ones)
_runs = count()


@dataclass(frozen=True)
class OffsetRequest:
    """One ``list_offsets`` call: (partition, spec) queries, each partition at most once.

    ``leader``: the broker the plan's metadata names as the leader of every partition of the
    call (``None``: not known, or the plan had no leaders); a client may send the call there
    without asking for metadata again.

    ``run``: calls of the plan with the same ``run`` are the chunks of one leader's group, each
    partition in one of them only: a client sending one request per leader may merge them without
    checking (:func:`..kafka.list_offsets_batches.batches`; 100,000 queries, no set of them).
    Unique in the process, so calls of two plans never share one.
    """

    queries: tuple[tuple[TopicPartition, OffsetSpec], ...]
    leader: int | None = None
    run: int | None = field(default=None, compare=False)

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
    leaders: Mapping[TopicPartition, int] | None = None,
) -> list[OffsetRequest]:
    """All calls needed for ``partitions`` x ``specs``: per spec, per leader, chunks of partitions.

    ``leaders`` (partition -> leader broker id, from metadata) makes each call one
    leader's, hence one request; a partition it does not know goes with the others
    whose leader is unknown. Without it, partitions are chunked in (topic, partition)
    order and librdkafka splits each call by leader.
    """
    # dict.fromkeys keeps the caller's order, which is usually sorted already: the sort then only
    # checks it (a set's order costs a whole sort, 0.1 s over 50,000 partitions)
    groups = _per_leader(sorted(dict.fromkeys(partitions)), leaders, None)
    return [
        OffsetRequest(tuple(zip(chunk, repeat(spec))), leader, run)  # (tp, spec) pairs, built in C
        for spec in dict.fromkeys(specs)
        for leader, group in groups
        for run in (next(_runs),)
        for chunk in chunked(group, chunk_size)
    ]


def plan_queries(
    queries: Sequence[tuple[TopicPartition, OffsetSpec]],
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
) -> list[OffsetRequest]:
    """Calls for heterogeneous queries (each partition its own spec, e.g. a bisection round).

    A partition asked more than once goes to separate calls, as librdkafka rejects
    duplicates within one call; ``leaders`` groups each call's partitions by leader,
    as in :func:`plan_requests`.
    """
    rounds: list[list[tuple[TopicPartition, OffsetSpec]]] = []
    counts: dict[TopicPartition, int] = {}
    for tp, spec in queries:
        k = counts.get(tp, 0)
        counts[tp] = k + 1
        if k == len(rounds):
            rounds.append([])
        rounds[k].append((tp, spec))
    return [
        OffsetRequest(chunk, leader, run)
        for r in rounds
        for leader, group in _per_leader(r, leaders, lambda q: q[0])
        for run in (next(_runs),)
        for chunk in chunked(group, chunk_size)
    ]


def _per_leader(
    items: list[T],
    leaders: Mapping[TopicPartition, int] | None,
    partition_of: Callable[[T], TopicPartition] | None,
) -> list[tuple[int | None, list[T]]]:
    """``items`` split by their partition's leader (brokers in id order), in order, each group with its
    leader: ``None`` for the partitions with no known leader (and for all without ``leaders``).

    ``partition_of`` ``None``: the items are the partitions (no call per item).
    """
    if not leaders:
        return [(None, items)]
    by_leader: dict[int, list[T]] = {}
    get = leaders.get
    if partition_of is None:
        for item in items:
            by_leader.setdefault(get(item, -1), []).append(item)  # type: ignore[call-overload]
    else:
        for item in items:
            by_leader.setdefault(get(partition_of(item), -1), []).append(item)
    return [(b if b >= 0 else None, by_leader[b]) for b in sorted(by_leader)]
