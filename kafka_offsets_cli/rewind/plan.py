"""Plan a consumer-group offset reset (KIP-79's use cases), the way kafka-consumer-groups does.

The targets (:mod:`.target`) are decided here, per partition, in :func:`plan_row`:
a time resolves to the earliest offset whose timestamp is ``>= TIME``
(``offsetsForTimes``), or to the end offset with a note when there is no such record,
as ``kafka-consumer-groups --reset-offsets --to-datetime`` does; ``--to-offset``,
``--shift-by`` and ``--from-file`` offsets are clamped to [log start, end] as Kafka's
tool clamps; a partition without a committed offset cannot be shifted, and
``--to-current`` gives it the end offset, as Kafka's tool does. ``--delete-offsets`` plans no
new offset: each partition with a committed offset gets :attr:`Note.DELETE` (one without has
nothing to delete and no row). ``--to-group`` clamps the source's offsets as ``--from-file``
does; a partition the source has none on gets :attr:`Note.NO_SOURCE_OFFSET` and is left untouched.

A plan row says what the reset does to the group: ``delta = target - current``;
a negative delta re-reads ``-delta`` offsets, a positive one skips ``delta``.
Plan files (export, import, undo) are in :mod:`.planfile`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..models.offsets import OffsetResult, OffsetSpec
from ..models.topics import TopicPartition
from .target import Target, TargetKind

__all__ = ["COLUMNS", "Note", "Plan", "PlanRow", "Target", "TargetKind", "make_plan", "plan_row", "specs_for"]

#: Keys of the plan record, in order.
COLUMNS = ("group", "topic", "partition", "current", "target", "log_start", "end", "delta", "note", "error")


class Note(str, Enum):
    """Remarks on a plan row (``None`` when nothing is remarkable)."""

    NO_RECORD_AT_TIME = "no-record-at-time"  # no record at or after the time: end offset used
    CLAMPED_TO_START = "clamped-to-start"
    CLAMPED_TO_END = "clamped-to-end"
    NO_COMMIT = "no-commit"  # --shift-by without a committed offset: not planned
    NO_COMMIT_END = "no-commit-end"  # --to-current without a committed offset: the end offset
    DELETE = "delete"  # --delete-offsets: the committed offset is deleted (no new offset)
    NO_SOURCE_OFFSET = "no-source-offset"  # --to-group: the source has none here; left untouched


@dataclass(frozen=True, kw_only=True)
class PlanRow:
    """The planned new offset of ``group`` on one partition (``target`` ``None``: not planned)."""

    group: str
    topic: str
    partition: int
    current: int | None
    target: int | None
    log_start: int | None
    end: int | None
    note: Note | None = None
    error: str | None = None

    @property
    def tp(self) -> TopicPartition:
        """The row's topic partition."""
        return TopicPartition(self.topic, self.partition)

    @property
    def planned(self) -> bool:
        """True when the row has a target offset, or deletes its offset (no error, not skipped)."""
        return self.error is None and (self.target is not None or self.note is Note.DELETE)

    @property
    def delta(self) -> int | None:
        """``target - current``: negative re-reads, positive skips; ``None`` without both."""
        if self.target is None or self.current is None:
            return None
        return self.target - self.current

    @property
    def untouched(self) -> bool:
        """True when the plan leaves the partition as it is on purpose (``--to-group``: the source
        group has no committed offset there), so it is neither planned nor a problem."""
        return self.error is None and self.note is Note.NO_SOURCE_OFFSET

    @property
    def why_not_planned(self) -> str | None:
        """Why the row has no target: Kafka's error name or the note (``None`` when planned)."""
        if self.planned:
            return None
        return self.error or (self.note.value if self.note is not None else "not planned")

    def to_record(self) -> dict[str, Any]:
        """The documented JSON/CSV record.

        Keys: group, topic, partition, current (committed offset or null), target
        (new offset or null), log_start, end, delta (target - current), note
        (no-record-at-time, clamped-to-start, clamped-to-end, no-commit, no-commit-end, delete
        (``--delete-offsets``: the committed offset is deleted, target null), no-source-offset
        (``--to-group``: the source group has none; left untouched, target null) or null),
        error (Kafka's error name or null).
        """
        return {
            "group": self.group,
            "topic": self.topic,
            "partition": self.partition,
            "current": self.current,
            "target": self.target,
            "log_start": self.log_start,
            "end": self.end,
            "delta": self.delta,
            "note": self.note.value if self.note is not None else None,
            "error": self.error,
        }


def plan_row(
    group: str,
    tp: TopicPartition,
    current: int | None,
    target: Target,
    earliest: OffsetResult,
    latest: OffsetResult,
    by_time: OffsetResult | None = None,
    requested: int | None = None,
) -> PlanRow:
    """The new offset of ``group`` on ``tp`` for ``target`` (the one place that decides it).

    ``earliest``/``latest`` are the partition's log start and end; ``by_time`` the
    timestamp lookup's result for a time target; ``requested`` the plan file's offset
    for a ``--from-file`` target, the source group's for ``--to-group``.
    """
    start = earliest.offset if earliest.error is None else None
    end = latest.offset if latest.error is None else None

    def row(new: int | None, note: Note | None = None, error: str | None = None) -> PlanRow:
        return PlanRow(
            group=group,
            topic=tp.topic,
            partition=tp.partition,
            current=current,
            target=new,
            log_start=start,
            end=end,
            note=note,
            error=error,
        )

    if target.kind is TargetKind.DELETE:  # no new offset: the log's answers do not matter
        return row(None, Note.DELETE)
    err = earliest.error or latest.error
    if target.kind is TargetKind.TIME:
        if by_time is None:
            return row(None, error="OFFSET_NOT_AVAILABLE")
        err = err or by_time.error
    if err is not None:
        return row(None, error=err)
    if start is None or end is None:
        return row(None, error="OFFSET_NOT_AVAILABLE")
    if target.kind is TargetKind.EARLIEST:
        return row(start)
    if target.kind is TargetKind.LATEST:
        return row(end)
    if target.kind is TargetKind.TIME:
        assert by_time is not None
        if by_time.offset is None:
            return row(end, Note.NO_RECORD_AT_TIME)
        return row(by_time.offset)
    if target.kind is TargetKind.CURRENT:
        return row(end, Note.NO_COMMIT_END) if current is None else row(current)
    if target.kind is TargetKind.OFFSET:
        wanted = target.offset or 0
    elif target.kind is TargetKind.FILE or target.kind is TargetKind.GROUP:
        if requested is None:
            grouped = target.kind is TargetKind.GROUP
            return row(None, Note.NO_SOURCE_OFFSET) if grouped else row(None, error="NOT_IN_PLAN_FILE")
        wanted = requested
    elif current is None:
        return row(None, Note.NO_COMMIT)
    else:
        wanted = current + (target.shift or 0)
    # Kafka's checkOffsetsRange: above the end -> the end, else below the log start -> the start
    if wanted > end:
        return row(end, Note.CLAMPED_TO_END)
    if wanted < start:
        return row(start, Note.CLAMPED_TO_START)
    return row(wanted)


@dataclass(frozen=True)
class Plan:
    """A whole rewind plan for one group."""

    group: str
    target: Target
    rows: tuple[PlanRow, ...]
    #: selected topics that do not exist or cannot be described: (topic, error name)
    missing_topics: tuple[tuple[str, str], ...] = ()

    @property
    def complete(self) -> bool:
        """True when every selected topic exists and every partition was planned."""
        return not self.missing_topics and not self.problems

    @property
    def planned(self) -> tuple[PlanRow, ...]:
        """Rows with a target offset."""
        return tuple(r for r in self.rows if r.planned)

    @property
    def problems(self) -> tuple[PlanRow, ...]:
        """Rows that could not be planned (an error, or no committed offset to shift)."""
        return tuple(r for r in self.rows if not r.planned and not r.untouched)

    @property
    def changes(self) -> tuple[PlanRow, ...]:
        """Planned rows whose target differs from the committed offset (or that have none)."""
        return tuple(r for r in self.planned if r.current != r.target)

    def deletions(self) -> tuple[TopicPartition, ...]:
        """The partitions whose committed offset the plan deletes (``--delete-offsets``)."""
        return tuple(r.tp for r in self.planned if r.note is Note.DELETE)

    def offsets(self) -> dict[TopicPartition, int]:
        """The offsets to commit: every planned row."""
        return {r.tp: r.target for r in self.planned if r.target is not None}

    def reread(self) -> int:
        """Offsets re-read in total (sum of negative deltas, as a positive number)."""
        return sum(-d for r in self.planned if (d := r.delta) is not None and d < 0)

    def skipped(self) -> int:
        """Offsets skipped in total (sum of positive deltas)."""
        return sum(d for r in self.planned if (d := r.delta) is not None and d > 0)


def make_plan(
    group: str,
    target: Target,
    partitions: Sequence[TopicPartition],
    committed: Mapping[TopicPartition, int | None],
    results: Iterable[OffsetResult],
    requested: Mapping[TopicPartition, int] | None = None,
) -> Plan:
    """Plan every partition from ListOffsets results (earliest, latest and the target's lookup).

    ``requested``: the plan file's offsets (``--from-file``), or the source group's (``--to-group``).
    """
    by_key = {(r.tp, r.spec): r for r in results}
    lookup = target.lookup
    rows = []
    for tp in sorted(set(partitions)):
        if target.kind is TargetKind.DELETE and committed.get(tp) is None:
            continue  # nothing committed: nothing to delete
        missing = OffsetResult(tp.topic, tp.partition, OffsetSpec.latest(), None, error="NO_ANSWER")
        rows.append(
            plan_row(
                group,
                tp,
                committed.get(tp),
                target,
                by_key.get((tp, OffsetSpec.earliest()), missing),
                by_key.get((tp, OffsetSpec.latest()), missing),
                by_key.get((tp, lookup), missing) if lookup is not None else None,
                (requested or {}).get(tp),
            )
        )
    return Plan(group, target, tuple(rows))


def specs_for(target: Target) -> tuple[OffsetSpec, ...]:
    """The ListOffsets specs a plan for ``target`` needs."""
    lookup = target.lookup
    base = (OffsetSpec.earliest(), OffsetSpec.latest())
    return (*base, lookup) if lookup is not None else base


def left_out(plan: Plan) -> list[str]:
    """What the plan (and so its export) leaves out: ``topic T (ERROR)`` and ``topic:partition (why)``.

    An exported plan lists planned rows only (the CSV has no place for a partition without
    an offset), so the command names each of these on stderr and exits non-zero: a plan file
    is an approved change, and a partial one must never pass silently.
    """
    out = [f"topic {t} ({e})" for t, e in plan.missing_topics]
    out += [f"{r.topic}:{r.partition} ({r.why_not_planned})" for r in plan.problems]
    return out


def mismatches(
    plan: Plan, committed: Mapping[TopicPartition, int | None]
) -> list[tuple[TopicPartition, int, int | None]]:
    """Planned partitions whose committed offset differs from the plan: (partition, planned, committed)."""
    return [
        (tp, off, committed.get(tp)) for tp, off in sorted(plan.offsets().items()) if committed.get(tp) != off
    ]
