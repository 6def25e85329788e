"""What ``rewind`` says on stderr about what a plan could not do: partitions left out of the
export, no record at the time, no commit to shift (the plan itself is the front end's to show)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .plan import Note, Plan, TargetKind, left_out

if TYPE_CHECKING:
    from datetime import tzinfo

    from .io import RewindIO


def export_gaps(plans: Sequence[Plan], export: str, io: RewindIO) -> None:
    """Name, on one line, every topic and partition the exported plan file leaves out."""
    gaps = [f"{p.group} {g}" if len(plans) > 1 else g for p in plans for g in left_out(p)]
    if gaps:
        io.warn(f"{export} leaves out what could not be planned: {', '.join(gaps)}")


def plan_warnings(plans: Sequence[Plan], zone: tzinfo, io: RewindIO) -> None:
    """On stderr, one line each: topics not planned, groups without commits, partitions without a target."""
    from ..parse.times import format_time

    for topic, err in sorted({m for p in plans for m in p.missing_topics}):
        io.warn(f"{topic}: {err}; not planned")
    for plan in plans:
        if not plan.rows and not plan.missing_topics:  # else the missing topics' lines said why
            deleting = plan.target.kind is TargetKind.DELETE
            what = (
                "on the selected partitions: nothing to delete"
                if deleting
                else "nothing to plan (name topics with --topic)"
            )
            io.warn(f"group {plan.group!r} has no committed offsets{'' if deleting else ':'} {what}")
        who = f"{plan.group} " if len(plans) > 1 else ""
        for row in plan.rows:
            where = f"{who}{row.topic}:{row.partition}"
            if row.note is Note.NO_RECORD_AT_TIME:
                when = format_time(plan.target.time_ms, zone)
                io.warn(f"{where}: no record at or after {when}; using end offset {row.target}")
            elif row.note is Note.NO_COMMIT:
                io.warn(f"{where}: no committed offset to shift; not planned")
            elif row.untouched:
                io.warn(f"{where}: group {plan.target.text!r} has no committed offset; left untouched")
            elif row.error is not None:
                io.warn(f"{where}: {row.error}; not planned")
