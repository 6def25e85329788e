"""Renderers for ``kafka-offsets lag``.

Record schema (json, jsonl, csv), one record per group and partition::

    {"group": str, "topic": str, "partition": int, "committed": int|null,
     "log_start": int|null, "end": int|null, "lag": int|null,
     "time_lag_ms": int|null, "state": str, "error": str|null}

``state`` is ``ok``, ``no-commit``, ``below-start``, ``ahead``, ``marker`` or
``error`` (see :mod:`kafka_offsets_cli.lag`). ``time_lag_ms`` is ``null`` unless
``--time-lag`` was given (and for states without a lag).

The table mirrors ``kafka-consumer-groups --describe`` with a line of totals per
topic and per group.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from ..lag import COLUMNS, LagRow, LagState, LagTotal, totals
from ..timeparse import format_duration

__all__ = ["COLUMNS", "records", "rich_table", "time_lag_note"]

_STATE_STYLE = {
    LagState.OK: "",
    LagState.MARKER: "dim",
    LagState.NO_COMMIT: "yellow",
    LagState.AHEAD: "yellow",
    LagState.BELOW_START: "red",
    LagState.ERROR: "red",
}


def records(rows: Sequence[LagRow]) -> list[dict[str, Any]]:
    """The records of ``rows``, in the given order."""
    return [r.to_record() for r in rows]


def _cell(v: int | None) -> str | Text:
    return str(v) if v is not None else Text("-", style="dim")


def _time_cell(ms: int | None, computed: bool) -> str | Text:
    if ms is None:
        return Text("-", style="dim") if computed else Text("")
    return format_duration(ms)


def rich_table(
    rows: Sequence[LagRow], *, header: bool = True, time_lag: bool = False, show_totals: bool = True
) -> Table:
    """One row per group and partition, then totals per group (and per topic when a group has several)."""
    t = Table(show_header=header, header_style="bold", box=None, pad_edge=False)
    t.add_column("GROUP", overflow="fold")
    t.add_column("TOPIC", overflow="fold")
    t.add_column("PARTITION", justify="right")
    t.add_column("CURRENT-OFFSET", justify="right")
    t.add_column("LOG-START-OFFSET", justify="right")
    t.add_column("LOG-END-OFFSET", justify="right")
    t.add_column("LAG", justify="right")
    if time_lag:
        t.add_column("TIME-LAG", justify="right")
    t.add_column("STATE")
    for r in rows:
        cells: list[Any] = [
            r.group,
            r.topic,
            str(r.partition),
            _cell(r.committed),
            _cell(r.log_start),
            _cell(r.end),
            _cell(r.lag),
        ]
        if time_lag:
            cells.append(_time_cell(r.time_lag_ms, True))
        state = r.state.value + (f" ({r.error})" if r.error else "")
        cells.append(Text(state, style=_STATE_STYLE[r.state]))
        t.add_row(*cells)
    if show_totals and rows:
        t.add_section()
        topics_of: dict[str, set[str]] = {}
        for r in rows:
            topics_of.setdefault(r.group, set()).add(r.topic)
        for tot in totals(rows):
            if tot.topic is not None and len(topics_of[tot.group]) == 1:
                continue  # the group total says the same
            t.add_row(*_total_cells(tot, time_lag))
    return t


def _total_cells(tot: LagTotal, time_lag: bool) -> list[Any]:
    style = "bold" if tot.topic is None else ""
    where = tot.topic if tot.topic is not None else Text("(all topics)", style="dim")
    cells: list[Any] = [Text(tot.group, style=style), where, "", "", "", "", Text(str(tot.lag), style=style)]
    if time_lag:
        cells.append(_time_cell(tot.max_time_lag_ms, False))
    what = f"total: {tot.partitions} partition(s), {tot.lagging} lagging"
    if tot.problems:
        what += f", {tot.problems} flagged"
    cells.append(Text(what, style="dim"))
    return cells


def time_lag_note(rounds: int, searched: int, failed: int) -> str:
    """A footnote on how time lag was computed and how exact it is."""
    if searched == 0:
        return "time lag: no lagging partition to search"
    text = (
        f"time lag: exact to 1 ms — bisection on record timestamps with ListOffsets, "
        f"{searched} partition(s) in {rounds} round(s); for out-of-order timestamps it is the age of the "
        "newest record up to the first unconsumed one"
    )
    if failed:
        text += f"; {failed} search(es) failed"
    return text
