"""Plan a consumer-group offset reset (KIP-79's use cases), the way kafka-consumer-groups does.

Targets:

* ``--to TIME``: the earliest offset whose timestamp is ``>= TIME``
  (``offsetsForTimes``); a partition with no such record resolves to its end offset
  with a note, as ``kafka-consumer-groups --reset-offsets --to-datetime`` does;
* ``--to earliest`` / ``--to latest``: the log start / end offset;
* ``--shift-by N``: the committed offset plus N, clamped to [log start, end] as
  Kafka's tool clamps; a partition without a committed offset cannot be shifted.

A plan row says what the reset does to the group: ``delta = target - current``;
a negative delta re-reads ``-delta`` offsets, a positive one skips ``delta``.
The exported plan is the headerless ``topic,partition,offset`` CSV that
``kafka-consumer-groups --reset-offsets --from-file FILE --group G`` reads.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..models.offsets import OffsetResult, OffsetSpec, SpecKind
from ..models.topics import TopicPartition

#: Keys of the plan record, in order.
COLUMNS = ("group", "topic", "partition", "current", "target", "log_start", "end", "delta", "note", "error")


class TargetKind(str, Enum):
    """What the new offset is derived from."""

    TIME = "time"
    EARLIEST = "earliest"
    LATEST = "latest"
    SHIFT = "shift"


@dataclass(frozen=True)
class Target:
    """A rewind target: a time (epoch ms), earliest, latest, or a shift of the committed offset."""

    kind: TargetKind
    time_ms: int | None = None
    shift: int | None = None

    @classmethod
    def from_spec(cls, spec: OffsetSpec) -> Target:
        """``earliest``, ``latest`` or a time from a parsed offset spec (max-timestamp is not a target)."""
        if spec.kind is SpecKind.EARLIEST:
            return cls(TargetKind.EARLIEST)
        if spec.kind is SpecKind.LATEST:
            return cls(TargetKind.LATEST)
        if spec.kind is SpecKind.TIMESTAMP:
            return cls(TargetKind.TIME, time_ms=spec.timestamp_ms)
        raise ValueError(f"{spec.name} is not a rewind target")

    @classmethod
    def shift_by(cls, n: int) -> Target:
        """Move the committed offset by ``n`` (negative: back)."""
        return cls(TargetKind.SHIFT, shift=n)

    @property
    def lookup(self) -> OffsetSpec | None:
        """The timestamp lookup this target needs, if any."""
        return (
            OffsetSpec.at(self.time_ms) if self.kind is TargetKind.TIME and self.time_ms is not None else None
        )


class Note(str, Enum):
    """Remarks on a plan row (``None`` when nothing is remarkable)."""

    NO_RECORD_AT_TIME = "no-record-at-time"  # no record at or after the time: end offset used
    CLAMPED_TO_START = "clamped-to-start"
    CLAMPED_TO_END = "clamped-to-end"
    NO_COMMIT = "no-commit"  # --shift-by without a committed offset: not planned


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
        """True when the row has a target offset (no error, not skipped)."""
        return self.target is not None and self.error is None

    @property
    def delta(self) -> int | None:
        """``target - current``: negative re-reads, positive skips; ``None`` without both."""
        if self.target is None or self.current is None:
            return None
        return self.target - self.current

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
        (no-record-at-time, clamped-to-start, clamped-to-end, no-commit or null),
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
) -> PlanRow:
    """The new offset of ``group`` on ``tp`` for ``target`` (the one place that decides it).

    ``earliest``/``latest`` are the partition's log start and end; ``by_time`` the
    timestamp lookup's result for a time target.
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
    if current is None:
        return row(None, Note.NO_COMMIT)
    wanted = current + (target.shift or 0)
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
        return tuple(r for r in self.rows if not r.planned)

    @property
    def changes(self) -> tuple[PlanRow, ...]:
        """Planned rows whose target differs from the committed offset (or that have none)."""
        return tuple(r for r in self.planned if r.current != r.target)

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
) -> Plan:
    """Plan every partition from ListOffsets results (earliest, latest and the target's lookup)."""
    by_key = {(r.tp, r.spec): r for r in results}
    lookup = target.lookup
    rows = []
    for tp in sorted(set(partitions)):
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
            )
        )
    return Plan(group, target, tuple(rows))


def specs_for(target: Target) -> tuple[OffsetSpec, ...]:
    """The ListOffsets specs a plan for ``target`` needs."""
    lookup = target.lookup
    base = (OffsetSpec.earliest(), OffsetSpec.latest())
    return (*base, lookup) if lookup is not None else base


def export_csv(plan: Plan) -> str:
    """The plan as ``kafka-consumer-groups --reset-offsets --from-file`` reads it.

    Headerless ``topic,partition,offset`` lines (the single-group format), planned
    rows only, sorted by topic and partition; topic names are CSV-quoted when needed.
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in sorted(plan.planned, key=lambda r: (r.topic, r.partition)):
        w.writerow([r.topic, r.partition, r.target])
    return buf.getvalue()


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
