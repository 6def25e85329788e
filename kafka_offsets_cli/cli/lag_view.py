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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..lag.monitor import LagStatus, LagThresholds, lag_statuses, shown_state
from ..lag.summary import SortKey, lag_levels, sort_rows
from ..measures.lag.collect import LagReport
from ..measures.lag.rows import LagRow, LagState
from ..parse.durations import format_duration
from ..parse.times import now_ms
from ..render import lag as render_lag
from ..render import lag_metrics
from ..render.lag_compat import Compat
from ..render.lag_summary import summary_fields, summary_records, summary_table
from .emit import Refresh, block_text, records_text
from .emit import show as show_output
from .lag_records import MEMBER_FIELDS as MEMBER_FIELDS
from .lag_records import LagKey, beside, key, records
from .lag_records import record_fields as record_fields
from .options import Format
from .output import Screen, note

if TYPE_CHECKING:  # --watch's modules are loaded only to watch
    from .watch import Counters, Rates


@dataclass(frozen=True, kw_only=True)
class LagView:
    """The output options of one ``lag`` run.

    ``monitor``: a monitoring run (a threshold, ``-o nagios|prometheus`` or
    ``--prometheus-file``): records gain ``status``, the exit status is the run's status.
    """

    fmt: Format
    columns: tuple[str, ...] | None = None
    no_headers: bool = False
    only_lagging: bool = False
    sort: SortKey = SortKey.name
    min_lag: int | None = None
    min_time_lag_ms: int | None = None
    thresholds: LagThresholds = field(default_factory=LagThresholds)
    monitor: bool = False
    #: the constant labels of every Prometheus series (``cluster``, ``--label``)
    labels: Mapping[str, str] = field(default_factory=dict)
    #: ``--summary`` (True), ``--by-partition`` (False), or neither (None: :meth:`summary_of` decides)
    summary: bool | None = None
    #: whether groups were named with ``--group`` (then a table stays per partition by default)
    named: bool = False
    #: wall-clock epoch milliseconds, the metrics' stamp (the run's :class:`~.environment.Environment`)
    now_ms: Callable[[], int] = now_ms
    #: ``--members``: each partition's consumer (CONSUMER-ID, HOST, CLIENT-ID, MEMBER-EPOCH; MEMBER_FIELDS)
    members: bool = False
    #: ``--loss-eta`` (or a loss-ETA threshold): the LOSS-ETA column, records' ``loss_eta_ms``
    loss_eta: bool = False
    #: ``--staleness`` (or a staleness threshold, ``--sort staleness``): STALE, ``commit_stale_ms``
    staleness: bool = False
    compat: tuple[Compat, ...] = ()  # --metrics-compat: alias families after the primary ones

    def summary_of(self, report: LagReport, watching: bool = False) -> bool:
        """One row per group: ``--summary``, or by default a table of several groups none named with
        ``-g``, unless ``watching`` (the rates of ``--watch`` are per partition)."""
        if self.summary is not None:
            return self.summary
        if self.fmt is not Format.table or self.named or watching:
            return False
        return len({r.group for r in report.rows}) > 1  # a set of every row's group: asked last

    def rows(self, report: LagReport) -> list[LagRow]:
        """The rows to show, in ``--sort`` order, filtered by ``--only-lagging``, ``--min-lag``
        and ``--min-time-lag`` (a ``below-start`` row, which lost records, passes both minimums)."""
        rows = sort_rows(report.rows, self.sort, report.loss_etas, report.stale_ms)
        if self.only_lagging:
            rows = [row for row in rows if row.lagging]
        if self.min_lag is not None:
            rows = [r for r in rows if _at_least(r, r.lag, self.min_lag)]
        if self.min_time_lag_ms is not None:
            rows = [r for r in rows if _at_least(r, r.time_lag_ms, self.min_time_lag_ms)]
        return rows

    def status(self, report: LagReport) -> LagStatus:
        """Every row's, group's and the run's status against the thresholds (all rows, unfiltered)."""
        return lag_statuses(
            report.rows,
            report.problems,
            self.thresholds,
            missing=len(report.missing),
            loss_etas=report.loss_etas,
            stale_ms=report.stale_ms,
        )

    def monitoring(self, report: LagReport) -> str | None:
        """The nagios line or the Prometheus text of ``report`` (``None`` for the other formats)."""
        if self.fmt is Format.nagios:
            not_read = len(report.missing) + sum(1 for p in report.problems if p.error)
            return lag_metrics.nagios(
                report.rows, self.status(report), self.thresholds, not_read, time_lag=report.time_lag,
                loss_etas=report.loss_etas if self.loss_eta else None,
                stale_ms=report.stale_ms if self.staleness else None,
            )  # fmt: skip
        if self.fmt is Format.prometheus:
            return self.prometheus(report)
        return None

    def prometheus(self, report: LagReport) -> str:
        """The Prometheus text of ``report`` (``-o prometheus``, ``--prometheus-file``)."""
        members = {g: d.members for g, d in report.groups.items() if d.error is None}
        return lag_metrics.prometheus(
            report.rows,
            self.status(report),
            self.thresholds,
            self.now_ms(),
            self.labels,
            members,
            time_lag=report.time_lag,
            loss_etas=report.loss_etas if self.loss_eta else None,
            stale_ms=report.stale_ms if self.staleness else None,
            compat=self.compat,
            owners=report.owners() if self.members and self.compat else None,
        )


def _at_least(row: LagRow, value: int | None, minimum: int) -> bool:
    return row.state is LagState.BELOW_START or (value is not None and value >= minimum)


def render(
    report: LagReport, view: LagView, rates: Rates[LagKey] | None = None, *, live: bool = False
) -> Any:
    """The output of ``lag`` as text, or (table format) a rich renderable; ``rates`` under ``--watch``,
    ``live`` for the table redrawn on a terminal (with the lag trends of ``rates``)."""
    monitoring = view.monitoring(report)
    if monitoring is not None:
        return monitoring
    rows = view.rows(report)
    trends = rates.trends if live and rates is not None else None
    if view.summary_of(report, watching=rates is not None):
        status = view.status(report)
        types = report.group_types()
        sums = _group_rates(rows, rates) if rates is not None else None
        etas = report.loss_etas if view.loss_eta else None
        recs = summary_records(
            rows,
            report.problems,
            report.groups,
            status,
            types,
            time_lag=report.time_lag,
            rates=sums,
            loss_etas=etas,
            stale_ms=report.stale_ms if view.staleness else None,
        )
        if view.fmt is Format.table:
            return summary_table(
                recs,
                header=not view.no_headers,
                time_lag=report.time_lag,
                rates=sums is not None,
                loss_eta=view.loss_eta,
                staleness=view.staleness,
                trends=None if trends is None else {g: trends.get((g, None, None), ()) for g in sums or ()},
            )
        fields = summary_fields(sums is not None, view.loss_eta, view.staleness)
        return records_text(
            recs, view.fmt, fields, view.columns, header=not view.no_headers, refresh=_refresh(rates)
        )
    if view.fmt is Format.table:
        status = view.status(report)
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
            states={key(row): shown_state(row, status.of(row)) for row in rows},
            owners=_owners(report) if view.members else None,
            loss_etas=report.loss_etas if view.loss_eta else None,
            stale_ms=report.stale_ms if view.staleness else None,
            trends=trends,
        )
    # records show a status only in a monitoring run (no rules run over 50,000 rows otherwise)
    shown = view.status(report) if view.monitor else None
    values = beside(report, view.loss_eta, view.staleness)
    return records_text(
        records(report, rows, shown, rates, members=view.members, values=values),
        view.fmt,
        record_fields(view.monitor, rates is not None, view.members, view.loss_eta, view.staleness),
        view.columns,
        header=not view.no_headers,
        refresh=_refresh(rates),
    )


def _refresh(rates: Rates[LagKey] | None) -> Refresh | None:
    """The ``--watch`` refresh records carry (``None``: not watching)."""
    return None if rates is None else Refresh(rates.refresh, rates.taken_ms)


def _group_rates(
    rows: Sequence[LagRow], rates: Rates[LagKey]
) -> dict[str, tuple[float | None, float | None]]:
    """Each group's records/s in and consumed: its partitions' rates summed (``None``: one unknown)."""
    out: dict[str, tuple[float | None, float | None]] = {}
    for group in dict.fromkeys(r.group for r in rows):
        mine = [key(r) for r in rows if r.group == group and r.error is None]
        ins = [rates.in_rate(k) for k in mine]
        cons = [rates.consumed_rate(k) for k in mine]
        out[group] = (_total(ins), _total(cons))
    return out


def _total(values: Sequence[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else sum(v for v in values if v is not None)


def _owners(report: LagReport) -> dict[LagKey, tuple[str, str, str, int | None]]:
    return {k: (m.member_id, m.host, m.client_id, m.member_epoch) for k, m in report.owners().items()}


def show(report: LagReport, view: LagView, screen: Screen) -> None:
    """Print the output of one ``lag`` run on stdout."""
    show_output(render(report, view), screen)


def counters(report: LagReport, view: LagView | None = None) -> Counters[LagKey]:
    """Log end offsets (records in) and committed offsets (records consumed), by row; with the
    ``view`` of a live table, the lags its LAG-TREND follows (its rows' and totals')."""
    produced = {key(r): r.end for r in report.rows if r.end is not None and r.error is None}
    consumed = {key(r): r.committed for r in report.rows if r.committed is not None and r.error is None}
    from .watch import Counters  # here: only --watch counts

    levels = lag_levels(view.rows(report)) if view is not None else {}
    return Counters(produced=produced, consumed=consumed, levels=levels)


def rate_note(interval: float) -> str:
    """One line on what the rate columns are based on (under a live table; on stderr once when
    piped, on a terminal); ``lag --help`` tells the whole method."""
    from ..lag.rates import MIN_STEPS, window_for  # here: only --watch shows rates

    window = format_duration(int(window_for(interval) * 1000))
    return f"IN/S since the last refresh; CONSUMED/S over {window} of commits ('-' until {MIN_STEPS} steps)"


def _block(view: LagView, interval: float = 0.0) -> Callable[[LagReport, Rates[LagKey]], str]:
    noted = [False]

    def block(report: LagReport, rates: Rates[LagKey]) -> str:
        out = render(report, view, rates)
        if not isinstance(out, str) and not noted[0]:
            noted[0] = True
            note(rate_note(interval))  # on a terminal only: off one, stderr has warnings and errors
        return block_text(out, view.fmt)

    return block


def watch(
    client: Any, interval: float, fetch: Callable[[Any], LagReport], view: LagView, screen: Screen
) -> None:
    """``lag --watch``: refresh ``fetch(client)`` every ``interval`` seconds until Ctrl-C.

    A live table on a terminal (with ``-o table``, the default there); one block
    per refresh in the chosen format otherwise.
    """

    def live(report: LagReport, rates: Rates[LagKey]) -> Any:
        from rich.console import Group
        from rich.text import Text

        return Group(render(report, view, rates, live=True), Text(rate_note(interval), style="dim"))

    from .watch import run_watch  # here: --watch's loop, not loaded by a single run

    tty = screen.tty and view.fmt is Format.table
    count = (lambda r: counters(r, view)) if tty else counters  # the trends are drawn on a terminal only
    run_watch(client, interval, fetch, count, live, _block(view, interval), screen=screen, tty=tty)
