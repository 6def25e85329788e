"""What ``rewind`` shows besides its summaries: the plan (stdout), and on stderr what the plan
could not do (partitions left out of the export, no record at the time, no commit to shift)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..render import rewind as r
from ..rewind.plan import COLUMNS, Note, Plan, left_out
from .emit import records_text, show
from .options import Format
from .output import warn

if TYPE_CHECKING:
    from datetime import tzinfo


def export_gaps(plans: Sequence[Plan], export: str) -> None:
    """Name, on one line, every topic and partition the exported plan file leaves out."""
    gaps = [f"{p.group} {g}" if len(plans) > 1 else g for p in plans for g in left_out(p)]
    if gaps:
        warn(f"{export} leaves out what could not be planned: {', '.join(gaps)}")


def show_plans(plans: Sequence[Plan], fmt: Format, cols: list[str] | None, *, header: bool) -> None:
    """The plans on stdout, as a table or records (``cols``: ``--columns``, ``None`` for all)."""
    if fmt is Format.table:
        show(r.rich_table(plans, header=header, columns=cols))
    else:
        show(records_text(r.records(plans), fmt, COLUMNS, cols, header=header))


def plan_warnings(plans: Sequence[Plan], zone: tzinfo) -> None:
    """On stderr, one line each: topics not planned, groups without commits, partitions without a target."""
    from ..parse.times import format_time

    for topic, err in sorted({m for p in plans for m in p.missing_topics}):
        warn(f"{topic}: {err}; not planned")
    for plan in plans:
        if not plan.rows:
            warn(f"group {plan.group!r} has no committed offsets: nothing to plan (name topics with --topic)")
        who = f"{plan.group} " if len(plans) > 1 else ""
        for row in plan.rows:
            where = f"{who}{row.topic}:{row.partition}"
            if row.note is Note.NO_RECORD_AT_TIME:
                when = format_time(plan.target.time_ms, zone)
                warn(f"{where}: no record at or after {when}; using end offset {row.target}")
            elif row.note is Note.NO_COMMIT:
                warn(f"{where}: no committed offset to shift; not planned")
            elif row.error is not None:
                warn(f"{where}: {row.error}; not planned")
