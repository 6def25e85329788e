"""Renderers for ``kafka-offsets rewind``.

Record schema (json, jsonl, csv), one record per partition of the plan::

    {"group": str, "topic": str, "partition": int, "current": int|null,
     "target": int|null, "log_start": int|null, "end": int|null,
     "delta": int|null, "note": str|null, "error": str|null}

``current`` is the committed offset (null: none), ``target`` the new offset (null:
not planned), ``delta = target - current`` (negative: re-read, positive: skip).
``note`` is ``no-record-at-time`` (no record at or after the time: the end offset
is used, as Kafka's tool does), ``clamped-to-start``, ``clamped-to-end`` or
``no-commit`` (``--shift-by`` without a committed offset: not planned) or
``no-commit-end`` (``--to-current`` without a committed offset: the end offset, as
Kafka's tool does) or ``delete`` (``--delete-offsets``: the committed offset is deleted,
``target`` null) or ``no-source-offset`` (``--to-group``: the source group has no committed
offset there, the partition is left untouched, ``target`` null). Several groups' plans are one
list of records, by group.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported only where a table is drawn (fast machine output)
    from rich.text import Text

from ..parse.times import format_time
from ..rewind.plan import COLUMNS, Note, Plan, PlanRow, TargetKind
from .fit import Column, Forms, Kind
from .fitted import FittedTable

__all__ = ["COLUMNS", "effect", "records", "rich_table", "summary", "target_text"]


def records(plans: Sequence[Plan]) -> list[dict[str, Any]]:
    """One record per partition, sorted by group, topic and partition."""
    return [r.to_record() for p in sorted(plans, key=lambda p: p.group) for r in p.rows]


def effect(row: PlanRow) -> str:
    """What the reset does on one partition: ``re-reads 120``, ``skips 5``, ``unchanged``, ``new``."""
    if row.error is not None:
        return f"error: {row.error}"
    if row.note is Note.DELETE:
        return "deletes the offset"
    if row.untouched:
        return "untouched: no offset in source"
    if row.target is None:
        return "not planned: no committed offset to shift" if row.note is not None else "not planned"
    d = row.delta
    if d is None:
        return "sets a first offset"
    if d < 0:
        return f"re-reads {-d}"
    if d > 0:
        return f"skips {d}"
    return "unchanged"


def _note(row: PlanRow) -> str:
    if row.note is None or row.target is None:
        return ""
    return {
        "no-record-at-time": "no record at or after the time: end offset",
        "clamped-to-start": "clamped to log start",
        "clamped-to-end": "clamped to log end",
        "no-commit": "",
        "no-commit-end": "no committed offset: end offset",
        "delete": "",
        "no-source-offset": "",
    }[row.note.value]


def rich_table(
    plans: Sequence[Plan], *, header: bool = True, columns: Sequence[str] | None = None
) -> FittedTable:
    """GROUP TOPIC PARTITION CURRENT-OFFSET NEW-OFFSET LOG-START LOG-END EFFECT NOTE, fitted to the terminal.

    ``columns`` (``--columns``) keeps the columns of these record fields (EFFECT shows ``delta``).
    Priorities (:mod:`.fit`): GROUP, TOPIC, PARTITION, NEW-OFFSET, EFFECT 0; CURRENT-OFFSET 1;
    NOTE, LOG-END-OFFSET 2; LOG-START-OFFSET 3.
    """
    from rich.text import Text

    t = FittedTable(header=header, keep=columns)
    num, right = Kind.NUMBER, "right"
    t.add_column(Column(key="group", headers=("GROUP",)))
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="partition", headers=("PARTITION", "PART"), kind=num, justify=right))
    t.add_column(
        Column(key="current", headers=("CURRENT-OFFSET", "CURRENT"), kind=num, priority=1, justify=right)
    )
    t.add_column(Column(key="target", headers=("NEW-OFFSET", "NEW"), kind=num, justify=right))
    t.add_column(
        Column(
            key="log_start", headers=("LOG-START-OFFSET", "LOG-START"), kind=num, priority=3, justify=right
        )
    )
    t.add_column(
        Column(key="end", headers=("LOG-END-OFFSET", "LOG-END"), kind=num, priority=2, justify=right)
    )
    t.add_column(Column(key="delta", headers=("EFFECT",)))  # never cut: "re-reads 12" (errors: short forms)
    t.add_column(Column(key="note", headers=("NOTE",), kind=Kind.TEXT, priority=2, min_width=12))

    def cell(v: int | None) -> str | Text:
        return str(v) if v is not None else Text("-", style="dim")

    for r in (r for p in sorted(plans, key=lambda p: p.group) for r in p.rows):
        eff = effect(r)
        deleted = r.note is Note.DELETE and r.error is None
        style = (
            "yellow" if deleted else "dim" if r.untouched else "red" if r.error or r.target is None else ""
        )
        style = style or ("yellow" if r.delta and r.delta > 0 else "")
        t.add_row(
            r.group,
            r.topic,
            str(r.partition),
            cell(r.current),
            Text("deleted", style="yellow") if deleted else cell(r.target),
            cell(r.log_start),
            cell(r.end),
            Forms((eff, eff.split(":")[0]), style=style),  # "not planned: why" -> "not planned"
            Text(_note(r), style="yellow"),
        )
    return t


def target_text(plan: Plan, tz: tzinfo) -> str:
    """The target in words: ``2026-11-21T06:00:00.000Z``, ``earliest``, ``latest``, ``shift by -100``."""
    tgt = plan.target
    if tgt.kind is TargetKind.TIME:
        return f"the first record at or after {format_time(tgt.time_ms, tz)}"
    if tgt.kind is TargetKind.SHIFT:
        return f"the committed offset shifted by {tgt.shift:+d}"
    if tgt.kind is TargetKind.OFFSET:
        return f"offset {tgt.offset}"
    if tgt.kind is TargetKind.CURRENT:
        return "the committed offset"
    if tgt.kind is TargetKind.FILE:
        return f"the offsets of {tgt.text}"
    if tgt.kind is TargetKind.DELETE:
        return f"the partitions of {tgt.text}" if tgt.text else "the selected partitions"
    if tgt.kind is TargetKind.GROUP:
        return f"the committed offsets of group {tgt.text!r}"
    return f"the {tgt.kind.value} offset"


def summary(
    plan: Plan, tz: tzinfo, *, executed: bool, cluster: str | None = None, exported: str | None = None
) -> str:
    """One paragraph for stderr: what was (or would be) done, and on which ``cluster`` (its description).

    A dry run ends with how to commit: ``--execute``, or after ``--export FILE`` (``exported``) the
    exported plan itself, ``--from-file FILE --execute`` (which checks that nothing moved since).
    """
    where = f" on {cluster}" if cluster else ""
    if plan.target.kind is TargetKind.DELETE:
        text = _delete_headline(plan, tz, executed=executed, where=where)
        step = _DELETE_STEP
    else:
        text = _commit_headline(plan, tz, executed=executed, where=where)
        step = _COMMIT_STEP
    if plan.problems:
        text += f"; {len(plan.problems)} partition(s) not planned"
    if not executed:
        text += _next_step(exported, *step)
    return text


#: how a dry run is applied (:func:`_next_step`'s lead, flags, verb and caveat), per kind of plan
_COMMIT_STEP = ("To commit this plan", "", "commit", "the group must have no active members")
_DELETE_STEP = (
    "To delete exactly these",
    "--delete-offsets ",
    "delete",
    "Kafka keeps the offsets of topics the group's members read",
)


def _commit_headline(plan: Plan, tz: tzinfo, *, executed: bool, where: str) -> str:
    """:func:`summary`'s first sentence for a plan of offsets to commit."""
    n = len(plan.planned)
    verb = "Committed" if executed else "Dry run: would commit"
    text = (
        f"{verb} {n} offset(s) for group {plan.group!r}{where} ({target_text(plan, tz)}): "
        f"{plan.reread()} offset(s) re-read, {plan.skipped()} skipped, "
        f"{n - len(plan.changes)} unchanged"
    )
    untouched = sum(r.untouched for r in plan.rows)
    if untouched:
        text += f"; {untouched} partition(s) untouched (no offset in the source group)"
    return text


def _delete_headline(plan: Plan, tz: tzinfo, *, executed: bool, where: str) -> str:
    """:func:`summary`'s first sentence for a ``--delete-offsets`` plan."""
    n = len(plan.deletions())
    verb = "Deleted" if executed else "Dry run: would delete"
    return f"{verb} {n} committed offset(s) of group {plan.group!r}{where} ({target_text(plan, tz)})"


def _next_step(exported: str | None, lead: str, flags: str, verb: str, caveat: str) -> str:
    """How a dry run is applied: the exported plan (``--from-file FILE … --execute``, which checks
    that nothing moved since) when one was written to a file, else ``--execute``."""
    if exported is not None and exported != "-":
        return f". {lead}: --from-file {exported} {flags}--execute ({caveat})."
    return f". Add --execute to {verb} ({caveat})."
