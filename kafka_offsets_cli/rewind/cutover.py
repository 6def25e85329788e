"""Disaster-recovery cutover per partition (``rewind --from-cluster``, or ``--from-lag-file`` with a
saved ``lag -o json --time-lag``: :mod:`.lagfile`): where a group stopped on the primary cluster,
found again on the DR cluster by record timestamp (docs/recipes.md: "Disaster-recovery cutover per
partition"). The resume times are ``lag --time-lag``'s ``resume_timestamp``
(:func:`~kafka_offsets_cli.measures.lag.timelag.search_offset`, the one rule for both).

MirrorMaker 2 copies each record of a primary partition to the same partition of the DR topic
(``--remote-topic-prefix`` + name), keeping its timestamp and the partition's order (a retry copies
a stretch again; the first copy of each record still comes in order). For committed offset ``c``:

* records left (``c < end``): ``T = M(c)`` (:mod:`kafka_offsets_cli.measures.lag`, "Time lag"). Some record
  at an offset ``<= c`` carries ``T``, so the first DR record stamped ``>= T`` is at or before the
  copy of record ``c``, and every unread record (copied after it) is read: nothing is skipped.
  ``T`` is the latest such time, so of all timestamp lookups it re-reads the fewest: the records
  from ``offsetsForTimes(T)`` to ``c - 1`` on the primary (:attr:`Resume.rereads`).
* read to the end (``c == end``, a marker left, ``c > end``): ``T = M(c - 1)``, the newest time
  read. ``T + 1`` or DR's end would skip a record appended later with an older CreateTime.
* ``c`` below the log start: ``T = M(log start)``; no record or no timestamps: DR's log start.

No DR record stamped ``>= T``: the record carrying ``T`` is not copied yet and all on DR was read:
DR's end offset; but DR's log start when it is past 0 (DR retention may have deleted that copy
and kept later unread ones). The offsets then make an ordinary plan (``--from-file``'s path).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..errors import KafkaOffsetsError, NotFound
from ..measures.lag.rows import LagRow
from ..measures.lag.timelag import Why, search_offset
from ..measures.timestamps import TimeLag
from ..models.offsets import Isolation, OffsetResult, OffsetSpec
from ..models.topics import TopicPartition
from ..plan.requests import plan_queries
from .plan import Plan, PlanRow

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..parse.selection import Selection
    from ..sources import LagSource, OffsetSource

__all__ = [
    "Resume",
    "Step",
    "Why",
    "dr_steps",
    "primary_resumes",
    "report_lines",
    "requested",
    "row_resume",
    "search_offset",
]


@dataclass(frozen=True, kw_only=True)
class Resume:
    """Where ``group`` resumes on one primary partition: the time ``time_ms`` to look up on DR."""

    group: str
    tp: TopicPartition
    committed: int | None
    why: Why
    searched: int | None = None  # the offset whose M() is the time
    time_ms: int | None = None
    first_at_time: int | None = None  # offsetsForTimes(time_ms) on the primary
    error: str | None = None

    @property
    def rereads(self) -> int | None:
        """Records read again on an exact copy: ``first_at_time`` up to the last record read."""
        if self.searched is None or self.first_at_time is None:
            return None
        last_read = self.searched + (1 if self.why is Why.READ_TO_END else 0)
        return max(0, last_read - self.first_at_time)


def resume(row: LagRow, searched: int | None, why: Why, found: TimeLag | None, first: int | None) -> Resume:
    """One partition's :class:`Resume`: its lag row, M(searched) (``found``) and offsetsForTimes
    of that time on the primary (``first``). Pure."""
    base = Resume(group=row.group, tp=row.tp, committed=row.committed, why=why, searched=searched)
    if why is Why.ERROR:
        return replace(base, error=row.error or "OFFSET_NOT_AVAILABLE")
    if searched is None or found is None:
        return base
    if found.error is not None:
        return replace(base, why=Why.ERROR, error=found.error)
    if found.timestamp is None:
        return replace(base, why=Why.NO_TIMESTAMP)
    return replace(base, time_ms=found.timestamp, first_at_time=first)


def row_resume(row: LagRow) -> Resume:
    """A partition's resume point from its ``lag --time-lag`` row (``resume_timestamp``): the same
    for the live primary (:func:`primary_resumes`) and a saved ``lag -o json`` file. Pure."""
    off, why = search_offset(row)
    if why not in (Why.ERROR, Why.NO_COMMIT) and row.error is not None:  # a failed search
        return Resume(group=row.group, tp=row.tp, committed=row.committed, why=Why.ERROR, error=row.error)
    found = TimeLag(row.resume_timestamp, 0) if off is not None else None
    return resume(row, off, why, found, None)


def primary_resumes(
    source: LagSource, groups: Sequence[str], selection: Selection | None, *, isolation: Isolation | None
) -> tuple[list[Resume], list[str]]:
    """Each group's resume point on every partition it committed on the primary (the selection's),
    and the groups that still have members there (they keep consuming after this is read)."""
    from ..measures.lag.collect import collect

    report = collect(source, groups, selection, isolation=isolation, time_lag=True)
    for p in report.problems:
        if p.error == "GROUP_ID_NOT_FOUND":
            raise NotFound(f"group {p.group!r} does not exist on the primary cluster")
        if p.error is not None:
            raise KafkaOffsetsError(f"cannot read group {p.group!r} on the primary cluster: {p.error}")
    if report.missing:
        gone = ", ".join(f"{m.topic}:{m.partition} ({m.error})" for m in report.missing)
        raise NotFound(f"on the primary cluster: {gone.replace(':None', '')}")
    resumes = [row_resume(row) for row in report.rows]
    specs = sorted({(r.tp, OffsetSpec.at(r.time_ms)) for r in resumes if r.time_ms is not None})
    answers = source.list_offsets(plan_queries(specs), isolation=isolation) if specs else []
    first = {(a.tp, a.spec): a.offset for a in answers if a.error is None}
    out = [
        replace(r, first_at_time=first.get((r.tp, OffsetSpec.at(r.time_ms)))) if r.time_ms is not None else r
        for r in resumes
    ]
    active = sorted(g for g, d in report.groups.items() if d.error is None and d.active)
    return out, active


@dataclass(frozen=True, kw_only=True)
class Step:
    """One partition of the cutover: the primary's resume point and the DR offset it becomes."""

    resume: Resume
    dr_tp: TopicPartition
    offset: int | None  # None: not planned (no commit on the primary, or an error)
    note: str | None = None  # dr-behind, dr-log-start
    error: str | None = None


def dr_step(
    r: Resume, dr_tp: TopicPartition, start: OffsetResult, end: OffsetResult, at: OffsetResult | None
) -> Step:
    """The DR offset for one resume point, from DR's log start, end and the lookup of its time (pure)."""
    if r.why is Why.NO_COMMIT:
        return Step(resume=r, dr_tp=dr_tp, offset=None)
    if r.error is not None:
        return Step(resume=r, dr_tp=dr_tp, offset=None, error=f"primary: {r.error}")
    err = start.error or end.error or (at.error if at is not None else None)
    if err is not None or start.offset is None or end.offset is None:
        return Step(resume=r, dr_tp=dr_tp, offset=None, error=err or "OFFSET_NOT_AVAILABLE")
    if r.time_ms is None or at is None:  # nothing on the primary to take a time from
        return Step(resume=r, dr_tp=dr_tp, offset=start.offset, note="dr-log-start")
    if at.offset is not None:
        return Step(resume=r, dr_tp=dr_tp, offset=at.offset)
    if start.offset == 0:  # nothing deleted on DR: the record carrying T is not copied yet
        return Step(resume=r, dr_tp=dr_tp, offset=end.offset, note="dr-behind")
    return Step(resume=r, dr_tp=dr_tp, offset=start.offset, note="dr-log-start")


def dr_steps(
    source: OffsetSource, resumes: Iterable[Resume], prefix: str, *, isolation: Isolation | None
) -> list[Step]:
    """Look every resume time up on DR (one batch with the log starts and ends)."""
    items = [(r, TopicPartition(prefix + r.tp.topic, r.tp.partition)) for r in resumes]
    queries = {(d, s) for _, d in items for s in (OffsetSpec.earliest(), OffsetSpec.latest())}
    queries |= {(d, OffsetSpec.at(r.time_ms)) for r, d in items if r.time_ms is not None}
    answers = source.list_offsets(plan_queries(sorted(queries)), isolation=isolation) if queries else []
    by = {(a.tp, a.spec): a for a in answers}

    def get(tp: TopicPartition, spec: OffsetSpec) -> OffsetResult:
        return by.get((tp, spec)) or OffsetResult(tp.topic, tp.partition, spec, None, error="NO_ANSWER")

    return [
        dr_step(
            r,
            d,
            get(d, OffsetSpec.earliest()),
            get(d, OffsetSpec.latest()),
            get(d, OffsetSpec.at(r.time_ms)) if r.time_ms is not None else None,
        )
        for r, d in items
    ]


def requested(steps: Iterable[Step]) -> dict[str, dict[TopicPartition, int]]:
    """The DR offsets to plan, by group (the ``--from-file`` plan's shape)."""
    out: dict[str, dict[TopicPartition, int]] = {}
    for s in steps:
        if s.offset is not None:
            out.setdefault(s.resume.group, {})[s.dr_tp] = s.offset
    return out


def with_step_errors(plans: Sequence[Plan], steps: Iterable[Step]) -> tuple[Plan, ...]:
    """The plans with an error row for each partition the cutover could not place (so that
    ``--execute`` is refused and the command exits 1, as for any plan with a gap)."""
    bad: dict[str, list[PlanRow]] = {}
    for s in steps:
        if s.error is not None:
            row = PlanRow(
                group=s.resume.group,
                topic=s.dr_tp.topic,
                partition=s.dr_tp.partition,
                current=None,
                target=None,
                log_start=None,
                end=None,
                error=s.error,
            )
            bad.setdefault(s.resume.group, []).append(row)
    out = []
    for p in plans:
        extra = bad.get(p.group, [])
        rows = sorted(p.rows + tuple(extra), key=lambda r: (r.topic, r.partition))
        out.append(replace(p, rows=tuple(rows)))
    return tuple(out)


def report_lines(steps: Sequence[Step], zone: tzinfo, *, several: bool) -> list[str]:
    """One line per partition for stderr: the primary's resume point, the DR offset, the re-reads."""
    from ..parse.times import format_time

    lines = []
    for s in steps:
        r = s.resume
        who = f"{r.group} " if several else ""
        head = f"{who}{r.tp.topic}:{r.tp.partition} -> {s.dr_tp.topic}:{s.dr_tp.partition}: "
        if r.why is Why.NO_COMMIT:
            lines.append(head + "no committed offset on the primary; left out (auto.offset.reset decides)")
            continue
        if s.error is not None:
            lines.append(head + f"not planned ({s.error})")
            continue
        if r.time_ms is None:
            why = "no record on the primary" if r.why is Why.EMPTY else "no record timestamp on the primary"
            lines.append(head + f"{why}; DR log start {s.offset} (may re-read everything DR has)")
            continue
        what = {
            Why.FIRST_UNREAD: f"first unread offset {r.committed}",
            Why.READ_TO_END: f"read to the end (committed {r.committed}): the last record read",
            Why.BELOW_START: f"committed {r.committed} is below the log start: from offset {r.searched}",
        }.get(r.why, r.why.value)
        text = head + f"{what}, resume time {format_time(r.time_ms, zone)} -> DR offset {s.offset}"
        if s.note == "dr-behind":
            text += " (DR end: no DR record at or after that time yet, replication is behind)"
        elif s.note == "dr-log-start":
            text += " (DR log start: DR retention may have deleted the record at that time)"
        n, a = r.rereads, r.first_at_time
        if n is not None and a is not None:
            text += (
                f"; re-reads up to {n} (read offsets {a}..{a + n - 1}: from the first record stamped at "
                "or after that time)"
                if n
                else "; re-reads none"
            )
        lines.append(text)
    return lines


def summary_line(steps: Sequence[Step], profile: str) -> str:
    """The cutover in one sentence: how many partitions, at most how many re-reads, what CURRENT means."""
    placed = [s for s in steps if s.offset is not None]
    bound = sum(n for s in placed if (n := s.resume.rereads) is not None)
    unknown = sum(1 for s in placed if s.resume.time_ms is None)
    untold = sum(1 for s in placed if s.resume.time_ms is not None and s.resume.rereads is None)
    text = f"Cutover from {profile!r}: {len(placed)} partition(s) placed by record time, no unread record "
    if untold:  # a lag file holds the resume times, not where they fall among the primary's offsets
        text += f"skipped; re-reads not known on {untold} partition(s) (a lag file does not record them)"
    else:
        text += f"skipped; at most {bound} record(s) read again"
    if unknown:
        text += f" (and, on {unknown} partition(s) resumed at DR's log start, whatever DR holds before)"
    return text + (
        " (more only where MirrorMaker copied records twice). CURRENT is the group's offset on DR now "
        "(MirrorMaker's synced one, if any): EFFECT compares with it, not with the primary."
    )
