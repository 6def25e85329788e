"""Lookups the broker answers with "no record" because the record is not yet visible.

The broker answers a ``max-timestamp`` or timestamp lookup from the whole log, then drops
the answer (offset ``-1``, no error) when its offset is at or past the *last fetchable
offset*: the high watermark under read_uncommitted, the last stable offset under
read_committed (see the write-up of the broker's ListOffsets handling in the project's
reference texts: ``fetchOffsetForTimestamp(...).filter(offset < lastFetchableOffset)``).
So "no offset" means one of three things:

* the partition is empty: its log start equals its end (a true none);
* for a timestamp lookup, no record has a timestamp at or after the target (a true none,
  proven when the partition's newest record by timestamp is visible and older);
* the record that answers is beyond the high watermark (an ``acks=all`` write still being
  replicated, which catches up within milliseconds) or the last stable offset (an open
  transaction): not knowable yet.

Measured on a 3-node cluster with RF=3 and an ``acks=all`` producer at a few hundred
records/s: about a third of max-timestamp answers were withheld. Before this module they
read as "empty partition" and ``liveness`` said CRITICAL. :func:`settle` asks again with
short pauses, proves the true nones, and marks what stays withheld as :data:`PENDING`: an
honest "not knowable now", never a made-up offset and never "empty".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ..models.topics import TopicPartition
from .requests import DEFAULT_CHUNK, plan_queries

if TYPE_CHECKING:
    from ..sources import OffsetSource

#: The error name of a lookup whose answer stayed beyond the high watermark (or last stable
#: offset) through every retry. Not a Kafka error code: the broker reports none for it.
PENDING = "PENDING"

#: Pauses (seconds) before each new look: ~0.6 s in all. Replication moves the high watermark
#: within milliseconds, so under a few hundred records/s a withheld answer (one in three) stays
#: withheld through all seven looks about once in 2,000; an open transaction stays PENDING.
RETRY_PAUSES = (0.0, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32)

_EARLIEST = OffsetSpec.earliest()
_LATEST = OffsetSpec.latest()
_MAX_TS = OffsetSpec.max_timestamp()
_EARLIEST_LOCAL = OffsetSpec(SpecKind.EARLIEST_LOCAL)

Key = tuple[TopicPartition, OffsetSpec]


#: The lookups the broker may withhold (see the module docstring): nothing else is ever unsettled.
#: A tuple: ``in`` finds a member by identity, where a set would call the enum's Python ``__hash__``.
WITHHELD_KINDS = (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP)


def unsettled(result: OffsetResult) -> bool:
    """True for a max-timestamp or timestamp lookup that came back with no record and no error."""
    return result.offset is None and result.error is None and result.spec.kind in WITHHELD_KINDS


def verdict(key: Key, answers: Mapping[Key, OffsetResult]) -> OffsetResult | None:
    """The settled answer for ``key`` from one round of probes, or ``None`` when still withheld.

    ``answers`` holds, for the key's partition, ``earliest``, ``latest`` and
    ``max-timestamp`` (and the key's own timestamp lookup) asked in the same round.
    A record or an error settles it; so does an empty partition, and, for a timestamp
    lookup, a visible newest record older than the target.
    """
    tp, spec = key
    again = answers.get(key)
    if again is None:
        return None
    if again.offset is not None or again.error is not None:
        return again
    start, end = answers.get((tp, _EARLIEST)), answers.get((tp, _LATEST))
    if start is not None and end is not None and start.ok and end.ok and start.offset == end.offset:
        return again  # log start == log end (of what is visible): truly no record
    if spec.kind is SpecKind.TIMESTAMP and spec.timestamp_ms is not None:
        newest = answers.get((tp, _MAX_TS))
        if (
            newest is not None
            and newest.error is None
            and newest.offset is not None
            and newest.timestamp is not None
            and newest.timestamp < spec.timestamp_ms
        ):
            return again  # every record is older than the target: truly none
    return None


def settle(
    source: OffsetSource,
    results: Sequence[OffsetResult],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
    pauses: Sequence[float] = RETRY_PAUSES,
    sleep: Callable[[float], None] = time.sleep,
    as_kafka: bool = False,
) -> list[OffsetResult]:
    """``results`` with every withheld "no record" answer settled (see the module docstring).

    Each round asks, for the partitions still open only, ``earliest``, ``latest``,
    ``max-timestamp`` and the open timestamp lookups: one request per leader and spec,
    never one per partition. Results that were answered stay as they are; order is kept.
    What is still withheld after the last pause becomes an error record :data:`PENDING`;
    with ``as_kafka`` (``list``, GetOffsetShell's answers), a max-timestamp of a partition
    whose records are all in remote storage is none instead (see :func:`_all_remote`).
    """
    out: dict[Key, OffsetResult] = {(r.tp, r.spec): r for r in results}
    open_keys = [k for k, r in out.items() if unsettled(r)]
    for pause in pauses:
        if not open_keys:
            break
        if pause:
            sleep(pause)
        answers = _probe(source, open_keys, isolation=isolation, chunk_size=chunk_size, leaders=leaders)
        still: list[Key] = []
        for key in open_keys:
            settled = verdict(key, answers)
            if settled is None:
                still.append(key)
            else:
                out[key] = settled
        open_keys = still
    if as_kafka and open_keys:
        open_keys = _all_remote(
            source, open_keys, isolation=isolation, chunk_size=chunk_size, leaders=leaders
        )
    for tp, spec in open_keys:
        out[(tp, spec)] = OffsetResult(tp.topic, tp.partition, spec, None, error=PENDING)
    return [out[(r.tp, r.spec)] for r in results]


def _all_remote(
    source: OffsetSource,
    keys: Sequence[Key],
    *,
    isolation: Isolation | None,
    chunk_size: int,
    leaders: Mapping[TopicPartition, int] | None,
) -> list[Key]:
    """The keys still open, less the max-timestamp lookups of partitions with no local record.

    The broker (Kafka 4.3.1's UnifiedLog) finds max-timestamp in the local segments only: once
    tiered storage has moved every record off the leader's disk (earliest-local == latest) it
    answers "no record" for good, as GetOffsetShell then shows. One more look (earliest-local,
    ListOffsets v8), only for what would otherwise be PENDING, tells that apart.
    """
    tps = sorted({tp for tp, spec in keys if spec.kind is SpecKind.MAX_TIMESTAMP})
    if not tps:
        return list(keys)
    queries: list[Key] = [(tp, s) for s in (_EARLIEST_LOCAL, _LATEST) for tp in tps]
    answers = {
        (a.tp, a.spec): a
        for a in source.list_offsets(plan_queries(queries, chunk_size, leaders), isolation=isolation)
    }

    def remote_only(tp: TopicPartition) -> bool:
        local, end = answers.get((tp, _EARLIEST_LOCAL)), answers.get((tp, _LATEST))
        return local is not None and end is not None and local.ok and end.ok and local.offset == end.offset

    return [k for k in keys if not (k[1].kind is SpecKind.MAX_TIMESTAMP and remote_only(k[0]))]


def _probe(
    source: OffsetSource,
    keys: Sequence[Key],
    *,
    isolation: Isolation | None,
    chunk_size: int,
    leaders: Mapping[TopicPartition, int] | None,
) -> dict[Key, OffsetResult]:
    """One round: the open lookups again, with each partition's ends and newest record."""
    tps = sorted({tp for tp, _ in keys})
    queries: list[Key] = [(tp, s) for s in (_EARLIEST, _LATEST, _MAX_TS) for tp in tps]
    queries += [k for k in keys if k[1].kind is SpecKind.TIMESTAMP]
    answers = source.list_offsets(plan_queries(queries, chunk_size, leaders), isolation=isolation)
    return {(a.tp, a.spec): a for a in answers}
