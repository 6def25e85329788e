"""Renderers for ``kafka-offsets lag``.

Record schema (json, jsonl, csv), one record per group and partition::

    {"group": str, "topic": str, "partition": int, "committed": int|null,
     "log_start": int|null, "end": int|null, "lag": int|null,
     "time_lag_ms": int|null, "state": str, "error": str|null}

``state`` is ``ok``, ``no-commit``, ``below-start``, ``ahead``, ``marker`` or
``error`` (see :mod:`kafka_offsets_cli.lag`). ``time_lag_ms`` is ``null`` unless
``--time-lag`` was given (and for states without a lag).

The table mirrors ``kafka-consumer-groups --describe`` with a line of totals per
topic and per group. Under ``--watch`` it has two more columns, IN/S (records/s
appended to the partition) and CONSUMED/S (records/s committed by the group),
summed on the totals lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported only where a table is drawn (fast machine output)
    from rich.table import Table
    from rich.text import Text

from ..lag.rows import COLUMNS, LagRow, LagState
from ..lag.summary import LagTotal, totals
from ..parse.durations import format_duration
from .offsets import rate

__all__ = ["COLUMNS", "LagRates", "records", "rich_table", "time_lag_note"]

#: Rates by (group, topic, partition): (records/s in, records/s consumed), ``None`` when not known.
LagRates = Mapping[tuple[str, str, int], tuple[float | None, float | None]]

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
    from rich.text import Text

    return str(v) if v is not None else Text("-", style="dim")


def _time_cell(ms: int | None, computed: bool) -> str | Text:
    from rich.text import Text

    if ms is None:
        return Text("-", style="dim") if computed else Text("")
    return format_duration(ms)


def _sum(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def rich_table(
    rows: Sequence[LagRow],
    *,
    header: bool = True,
    time_lag: bool = False,
    show_totals: bool = True,
    rates: LagRates | None = None,
) -> Table:
    """One row per group and partition, then totals per group (and per topic when a group has several).

    ``rates`` (``--watch``) adds the IN/S and CONSUMED/S columns.
    """
    from rich.table import Table
    from rich.text import Text

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
    if rates is not None:
        t.add_column("IN/S", justify="right")
        t.add_column("CONSUMED/S", justify="right")
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
        if rates is not None:
            rin, rcons = rates.get((r.group, r.topic, r.partition), (None, None))
            cells += [rate(rin), rate(rcons)]
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
            cells = _total_cells(tot, time_lag)
            if rates is not None:
                mine = [
                    rates.get((r.group, r.topic, r.partition), (None, None))
                    for r in rows
                    if r.group == tot.group and (tot.topic is None or r.topic == tot.topic)
                ]
                cells[-1:-1] = [rate(_sum([m[0] for m in mine])), rate(_sum([m[1] for m in mine]))]
            t.add_row(*cells)
    return t


def _total_cells(tot: LagTotal, time_lag: bool) -> list[Any]:
    from rich.text import Text

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
