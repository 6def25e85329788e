"""How ListOffsets queries become requests: the protocol's minimum (pure; no client library).

A request goes to one broker, carries one timestamp per partition and names a partition once.
:func:`batches` merges the plan's calls (:mod:`..plan.requests`) per leader while their partitions
are disjoint; :func:`place` groups queries by the leaders of fresh metadata, in :func:`rounds` (a
partition asked with two specs is in two requests); :func:`waves` keeps the requests in flight to
one broker under what kafka-python's connections take; :class:`Answers` keeps each query's last
answer. Used by :mod:`.list_offsets_kafka_python`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from typing import Protocol

from ..models.offset_results import OffsetResults
from ..models.offsets import OffsetResult, OffsetSpec
from ..models.topics import ClusterMetadata, TopicPartition
from ..plan.requests import OffsetRequest

__all__ = ["Answers", "Batch", "Key", "batches", "error", "place", "rounds", "waves"]

#: What one query asks: (partition, spec).
Key = tuple[TopicPartition, OffsetSpec]
#: One request's worth: a leader and queries naming each partition at most once.
Batch = tuple[int, list[Key]]

_first = itemgetter(0)


class Answers:
    """Each query's latest answer or error (a query asked again keeps its last), per spec then partition.

    Not one dict keyed by (partition, spec): an OffsetSpec hashes in Python (models/offsets.py), a
    TopicPartition in C, and a request's queries share one spec, so its 50,000 answers go in with one
    ``dict.update`` in C; only failures and requests mixing specs are put one by one.
    """

    def __init__(self) -> None:
        self._by_spec: dict[OffsetSpec, dict[TopicPartition, OffsetResult]] = {}

    def of(self, spec: OffsetSpec) -> dict[TopicPartition, OffsetResult]:
        """The answers to ``spec`` by partition, to read or fill."""
        got = self._by_spec.get(spec)
        if got is None:
            got = self._by_spec[spec] = {}
        return got

    def get(self, key: Key) -> OffsetResult | None:
        """The answer to ``key``, if it has one."""
        got = self._by_spec.get(key[1])
        return None if got is None else got.get(key[0])

    def merge(self, other: Answers) -> None:
        """Keep ``other``'s answers (replacing earlier ones to the same queries)."""
        for spec, got in other._by_spec.items():
            self.of(spec).update(got)

    def __setitem__(self, key: Key, answer: OffsetResult) -> None:
        self.of(key[1])[key[0]] = answer

    def __len__(self) -> int:
        return sum(map(len, self._by_spec.values()))

    def results(self) -> OffsetResults:
        """Every answer, once per query, with these answers by spec and partition as its index (the
        snapshot check and lag's rows take it rather than index 100,000 answers again)."""
        answers = chain.from_iterable(map(dict.values, self._by_spec.values()))  # in C: 100,000 of them
        return OffsetResults(answers, self._by_spec)


def batches(requests: Sequence[OffsetRequest]) -> tuple[list[Batch], list[Key]]:
    """The planned calls merged into as few requests as the protocol allows, and the queries whose
    leader the plan did not know.

    A call names each partition once and, with a leader, holds only that leader's partitions
    (:mod:`..plan.requests`): lag's 100,000 queries over 3 leaders become 6 requests (librdkafka's
    route sends 204 calls of 500). The chunks of one planned group (the same ``run``) merge as they
    come, with no check: the plan cut them from one group naming each partition once. Other calls of
    one leader merge while their partitions are disjoint (a set per request, checked), never into a
    run's request.
    """
    placed: list[Batch] = []
    seen: list[set[TopicPartition] | None] = []  # None: a run's request
    runs: dict[tuple[int, int], list[Key]] = {}
    unplaced: list[Key] = []
    for r in requests:
        if r.leader is None:
            unplaced.extend(r.queries)
            continue
        if r.run is not None:
            keys = runs.get((r.run, r.leader))
            if keys is None:
                keys = runs[(r.run, r.leader)] = []
                placed.append((r.leader, keys))
                seen.append(None)
            keys.extend(r.queries)
            continue
        tps = list(map(_first, r.queries))  # in C
        for i, (leader, keys) in enumerate(placed):
            s = seen[i]
            if leader == r.leader and s is not None and s.isdisjoint(tps):
                keys.extend(r.queries)
                s.update(tps)
                break
        else:
            placed.append((r.leader, list(r.queries)))
            seen.append(set(tps))
    return placed, unplaced


def rounds(queries: Sequence[Key]) -> list[list[Key]]:
    """``queries`` split so that no partition is twice in a round (a request takes it once)."""
    out: list[list[Key]] = []
    seen: dict[TopicPartition, int] = {}
    for key in queries:
        k = seen.get(key[0], 0)
        seen[key[0]] = k + 1
        if k == len(out):
            out.append([])
        out[k].append(key)
    return out


def waves(placed: Sequence[Batch], per_leader: int) -> list[list[Batch]]:
    """``placed`` in waves holding at most ``per_leader`` requests of each leader (in order).

    kafka-python refuses a request to a connection with 5 in flight already (``NodeNotReadyError``,
    its default ``max_in_flight_requests_per_connection``): a time-lag round that asks one partition
    at 25 times is 25 requests to its leader, sent 4 at a time."""
    seen: dict[int, int] = {}
    out: list[list[Batch]] = []
    for leader, keys in placed:
        n = seen.get(leader, 0)
        seen[leader] = n + 1
        wave = n // per_leader
        if wave == len(out):
            out.append([])
        out[wave].append((leader, keys))
    return out


class _Errors(Protocol):
    """Where :func:`place` puts its errors: a dict, or the run's :class:`Answers`."""

    def __setitem__(self, key: Key, answer: OffsetResult, /) -> None: ...


def place(keys: Sequence[Key], metadata: ClusterMetadata, out: _Errors) -> list[Batch]:
    """Batches for ``keys`` by their leaders in ``metadata``; a query with no leader gets its error in
    ``out`` (the topic's error, ``UNKNOWN_TOPIC_OR_PARTITION``, ``LEADER_NOT_AVAILABLE``)."""
    leaders: dict[tuple[str, int], int] = {}
    for t in metadata.topics.values():
        for p in t.partitions:
            leaders[(p.topic, p.partition)] = p.leader
    placed: list[Batch] = []
    for batch in rounds(keys):
        by_leader: dict[int, list[Key]] = {}
        for key in batch:
            tp = key[0]
            leader = leaders.get((tp[0], tp[1]))
            if leader is None:
                info = metadata.topics.get(tp[0])
                out[key] = error(
                    key, (info.error if info is not None else None) or "UNKNOWN_TOPIC_OR_PARTITION"
                )
            elif leader < 0:
                out[key] = error(key, "LEADER_NOT_AVAILABLE")
            else:
                by_leader.setdefault(leader, []).append(key)
        placed.extend(by_leader.items())
    return placed


def error(key: Key, name: str) -> OffsetResult:
    """The answer of a query that failed with Kafka's error ``name``."""
    tp, spec = key
    return OffsetResult(tp[0], tp[1], spec, None, error=name)
