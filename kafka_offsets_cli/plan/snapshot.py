"""One snapshot per partition: the answers of one output hold together.

Each spec goes out as its own ListOffsets request (the protocol carries one timestamp per
partition), and a withheld lookup is asked again in later rounds (:mod:`.settle`), so the
answers of one partition are taken at different moments. Under load the log moves in
between: a max-timestamp answered after ``latest`` can be at or beyond it (measured on 3
nodes, RF=3, an ``acks=all`` producer: in 49 of 120 rows, up to 21 offsets beyond). Read
together, such rows say a record exists past the end of the log.

The log's ends only move forward: the log start (``earliest``) and the high watermark or
last stable offset (``latest``). An answer taken at time t lies within [earliest(t),
latest(t)], a record's offset strictly below latest(t). So a ``latest`` asked after every
other answer is in bounds them all, and an ``earliest`` asked before them is below them all.
:func:`close_snapshot` finds the partitions whose answers break that order and repairs them
with the fewest requests: a lookup below the ``earliest`` of the same output (answered
before the log start moved past it) is asked again, and then the ``latest`` of every broken
partition is asked once more, last. A consistent output costs nothing (no request).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, cast

from ..models.offset_results import SpecIndex, index_of
from ..models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ..models.topics import TopicPartition
from .requests import DEFAULT_CHUNK, plan_queries
from .settle import settle, unsettled

if TYPE_CHECKING:
    from ..sources import OffsetSource

_LATEST = OffsetSpec.latest()

#: Answers that are the offset of an existing record: strictly below ``latest``.
_RECORDS = (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP, SpecKind.LATEST_TIERED)
#: Answers at or above the log start. (``latest-tiered`` and ``earliest-pending-upload`` are
#: left out: once remote retention has deleted what was uploaded they may lie below it.)
_ABOVE_START = (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP, SpecKind.EARLIEST_LOCAL)

Key = tuple[TopicPartition, OffsetSpec]
#: an answer with an offset and no error (an :class:`OffsetResult`)
_Known = tuple[str, int, OffsetSpec, int, "int | None", "int | None", None]


def needs_closing(specs: Sequence[OffsetSpec]) -> bool:
    """True when ``specs`` can disagree within a partition: an end of the log and something else."""
    kinds = {s.kind for s in specs}
    return len(set(specs)) > 1 and bool(kinds & {SpecKind.EARLIEST, SpecKind.LATEST})


def breaches(results: Sequence[OffsetResult]) -> tuple[list[Key], set[TopicPartition]]:
    """What breaks the snapshot: lookups below their partition's ``earliest``, and the
    partitions with an answer at or beyond their ``latest`` (or a ``latest`` below ``earliest``).

    Errors and "no record" answers have no offset and no relation to hold.
    """
    earliest, latest = SpecKind.EARLIEST, SpecKind.LATEST
    index = index_of(results)
    if index is not None and (breached := _ends_breached(index)) is not None:
        return [], breached  # lag's answers, already by spec and partition
    # comprehensions, not a loop of statements: this runs over every answer (100,000 for lag at 50,000
    # partitions, 150,000 for liveness); a tuple's (topic, partition) slice keys as a TopicPartition.
    # Errors and "no record" answers have no offset.
    known = cast(list[_Known], [r for r in results if r[3] is not None and r[6] is None])
    firsts = [r for r in known if r[2].kind is earliest]
    lasts = [r for r in known if r[2].kind is latest]
    below: list[Key] = []
    beyond: set[TopicPartition] = set()
    if not firsts and not lasts:
        return below, beyond
    starts: dict[tuple[str, int], int] = {r[:2]: r[3] for r in firsts}
    get = starts.get
    beyond.update(
        TopicPartition(r[0], r[1]) for r in lasts if (start := get(r[:2])) is not None and r[3] < start
    )
    if len(firsts) + len(lasts) == len(known):  # lag's answers: nothing else to hold
        return below, beyond
    ends: dict[tuple[str, int], int] = {r[:2]: r[3] for r in lasts}
    for topic, partition, spec, off, _ts, _epoch, _error in known:
        kind = spec.kind
        if kind is earliest or kind is latest:
            continue
        tp = (topic, partition)
        start = starts.get(tp)
        if start is not None and off < start and kind in _ABOVE_START:
            below.append((TopicPartition(topic, partition), spec))
        end = ends.get(tp)
        if end is not None and (off > end or (off == end and kind in _RECORDS)):
            beyond.add(TopicPartition(topic, partition))
    return below, beyond


def _ends_breached(index: SpecIndex) -> set[TopicPartition] | None:
    """The partitions whose ``latest`` lies below their ``earliest`` (both with an offset and no error),
    read from answers indexed by spec and partition (:func:`breaches`' rule, no key built); ``None``
    unless the index holds one ``earliest`` and one ``latest`` spec at most, and nothing else."""
    by_kind = {s.kind: answers for s, answers in index.items()}
    if len(by_kind) < len(index) or not by_kind.keys() <= {SpecKind.EARLIEST, SpecKind.LATEST}:
        return None
    early, late = by_kind.get(SpecKind.EARLIEST), by_kind.get(SpecKind.LATEST)
    if not early or not late:
        return set()
    get = early.get
    return {
        tp
        for tp, a in late.items()
        if a[3] is not None
        and a[6] is None
        and (e := get(tp)) is not None
        and e[3] is not None
        and e[6] is None
        and a[3] < e[3]
    }


def close_snapshot(
    source: OffsetSource,
    results: Sequence[OffsetResult],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
    as_kafka: bool = False,
    sleep: Callable[[float], None] = time.sleep,
) -> list[OffsetResult]:
    """``results`` with every partition's answers made one snapshot (see the module docstring).

    At most two more rounds, only for the partitions that need them, one request per leader:
    the lookups below ``earliest`` again (settled as the first answers were), then ``latest``.
    Order is kept. A closing answer that fails is reported as it came (an error row, as any).
    """
    below, beyond = breaches(results)
    if not below and not beyond:
        return results if isinstance(results, list) else list(results)  # no copy of 100,000 answers
    out: dict[Key, OffsetResult] = {(r.tp, r.spec): r for r in results}
    if below:
        again = source.list_offsets(plan_queries(below, chunk_size, leaders), isolation=isolation)
        if any(map(unsettled, again)):
            again = settle(
                source,
                again,
                isolation=isolation,
                chunk_size=chunk_size,
                leaders=leaders,
                sleep=sleep,
                as_kafka=as_kafka,
            )
        out.update(((a.tp, a.spec), a) for a in again)
        beyond.update(tp for tp, _ in below)  # asked after this output's latest: close them too
    closing = sorted(tp for tp in beyond if (tp, _LATEST) in out)
    if closing:
        last = source.list_offsets(
            plan_queries([(tp, _LATEST) for tp in closing], chunk_size, leaders), isolation=isolation
        )
        out.update(((a.tp, a.spec), a) for a in last)
    return [out[(r.tp, r.spec)] for r in results]
