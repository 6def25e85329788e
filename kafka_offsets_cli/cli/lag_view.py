"""How ``lag`` shows a lag report: once, or refreshed with ``--watch``.

Under ``--watch`` every row (group, topic, partition) gets two rates: records/s
in (from the log end offset, since the previous refresh) and records/s consumed
(from the group's committed offset, over the commit steps of a window of refreshes:
:mod:`kafka_offsets_cli.lag.rates`; committed offsets move in auto-commit steps, so a
rate between two refreshes would flip between 0 and inflated values). The table
gets IN/S and CONSUMED/S columns and a line saying what they are based on; json,
jsonl and csv records get ``in_per_s``, ``consumed_per_s`` and ``consumed_window_s``
(the seconds of commit steps the consumed rate spans), ``null`` when not known yet,
for rows without the offset, and for records that are not partitions (missing
topics, group problems).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..lag.collect import LagReport
from ..lag.rates import MIN_STEPS, window_for
from ..lag.rows import COLUMNS, LagRow
from ..lag.summary import SortKey, sort_rows
from ..parse.durations import format_duration
from ..render import lag as render_lag
from . import output  # called as output.stdout_is_tty(): tests patch it there
from . import watch as watch_loop  # called as watch_loop.run_watch(): tests bound the loop there
from .emit import block_text, records_text
from .emit import show as show_output
from .options import Format
from .output import err_console
from .watch import Counters, Rates

#: The extra record fields of ``lag --watch``.
RATE_FIELDS = ("in_per_s", "consumed_per_s", "consumed_window_s")

#: A lag row's key: (group, topic, partition).
LagKey = tuple[str, str, int]


@dataclass(frozen=True)
class LagView:
    """The output options of one ``lag`` run."""

    fmt: Format
    columns: tuple[str, ...] | None = None
    no_headers: bool = False
    only_lagging: bool = False
    sort: SortKey = SortKey.name

    def rows(self, report: LagReport) -> list[LagRow]:
        """The rows to show, in ``--sort`` order, filtered by ``--only-lagging``."""
        rows = sort_rows(report.rows, self.sort)
        return [row for row in rows if row.lagging] if self.only_lagging else rows


def key(row: LagRow) -> LagKey:
    """The watch key of a row."""
    return (row.group, row.topic, row.partition)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def render(report: LagReport, view: LagView, rates: Rates[LagKey] | None = None) -> Any:
    """The output of ``lag`` as text, or (table format) a rich renderable; ``rates`` under ``--watch``."""
    rows = view.rows(report)
    if view.fmt is Format.table:
        table_rates = (
            {key(row): (rates.in_rate(key(row)), rates.consumed_rate(key(row))) for row in rows}
            if rates is not None
            else None
        )
        return render_lag.rich_table(
            rows,
            header=not view.no_headers,
            time_lag=report.time_lag,
            rates=table_rates,
            columns=view.columns,
        )
    recs = report.missing_records() + [p.to_record() for p in report.problems]
    if rates is not None:
        recs = [{**rec, **dict.fromkeys(RATE_FIELDS)} for rec in recs]
        for row in rows:
            rec = row.to_record()
            rec[RATE_FIELDS[0]] = _round(rates.in_rate(key(row)))
            rec[RATE_FIELDS[1]] = _round(rates.consumed_rate(key(row)))
            rec[RATE_FIELDS[2]] = rates.consumed_window.get(key(row))
            recs.append(rec)
        columns: Sequence[str] = (*COLUMNS, *RATE_FIELDS)
    else:
        recs += render_lag.records(rows)
        columns = COLUMNS
    return records_text(recs, view.fmt, columns, view.columns, header=not view.no_headers)


def show(report: LagReport, view: LagView) -> None:
    """Print the output of one ``lag`` run on stdout."""
    show_output(render(report, view))


def counters(report: LagReport) -> Counters[LagKey]:
    """Log end offsets (records in) and committed offsets (records consumed), by row."""
    produced = {key(r): r.end for r in report.rows if r.end is not None and r.error is None}
    consumed = {key(r): r.committed for r in report.rows if r.committed is not None and r.error is None}
    return Counters(produced=produced, consumed=consumed)


def rate_note(interval: float) -> str:
    """What the table's rate columns are based on (under a live table; on stderr once when piped)."""
    window = format_duration(int(window_for(interval) * 1000))
    return (
        f"CONSUMED/S: records/s committed, over the commit steps of the last {window} (committed offsets "
        f"move in steps, e.g. auto-commit every 5s; '-' until {MIN_STEPS} steps are seen). "
        "IN/S: records/s appended since the previous refresh."
    )


def _block(view: LagView, interval: float = 0.0) -> Callable[[LagReport, Rates[LagKey]], str]:
    noted = [False]

    def block(report: LagReport, rates: Rates[LagKey]) -> str:
        out = render(report, view, rates)
        if not isinstance(out, str) and not noted[0]:
            noted[0] = True
            err_console().print(rate_note(interval), style="dim", highlight=False, soft_wrap=True)
        return block_text(out, view.fmt)

    return block


def watch(client: Any, interval: float, fetch: Callable[[Any], LagReport], view: LagView) -> None:
    """``lag --watch``: refresh ``fetch(client)`` every ``interval`` seconds until Ctrl-C.

    A live table on a terminal (with ``-o table``, the default there); one block
    per refresh in the chosen format otherwise.
    """

    def live(report: LagReport, rates: Rates[LagKey]) -> Any:
        from rich.console import Group
        from rich.text import Text

        return Group(render(report, view, rates), Text(rate_note(interval), style="dim"))

    tty = output.stdout_is_tty() and view.fmt is Format.table
    watch_loop.run_watch(client, interval, fetch, counters, live, _block(view, interval), tty=tty)
