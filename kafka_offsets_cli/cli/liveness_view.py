"""How ``liveness`` shows a report: once, or refreshed with ``--watch``.

Under ``--watch`` each partition gets a records/s rate from the ``latest``
offsets of consecutive refreshes (listed in the same ListOffsets round as
max-timestamp; the max-timestamp offset is not monotonic, so it cannot give a
rate): a RECORDS/S table column and an ``in_per_s`` field in json, jsonl and csv
records (``null`` on the first refresh and for topics that could not be listed).
nagios and prometheus print one block per refresh, unchanged. The live table on a terminal also
draws each partition's age over the refreshes (AGE-TREND, a sparkline) and each topic's after its
age in the topic lines.

``--problems`` and ``--state`` keep only some rows of the table and the records; the
status, nagios and prometheus are the whole run's. A table is followed (on stderr,
or under the live table) by the per-topic lines and one summary line for the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

from ..liveness.report import LivenessReport
from ..liveness.run import LivenessSnapshot
from ..measures.liveness import COLUMNS
from ..models.topics import TopicPartition
from ..render import liveness as render_liveness
from ..render.liveness import summary_line, topic_lines
from ..render.offset_compat import Compat
from .emit import Refresh, block_text, records_text
from .emit import show as show_output
from .options import Format
from .output import Screen, err_console, warn
from .watch import Counters, Rates, run_watch

#: The extra record field of ``liveness --watch``.
RATE_FIELD = "in_per_s"


@dataclass(frozen=True, kw_only=True)
class LivenessView:
    """The output options of one ``liveness`` run."""

    fmt: Format
    zone: tzinfo
    columns: tuple[str, ...] | None = None
    no_headers: bool = False
    problems: bool = False
    states: frozenset[str] | None = None
    #: the constant labels of every Prometheus series (``cluster``, ``--label``)
    labels: Mapping[str, str] = field(default_factory=dict)
    #: ``--metrics-compat``: the exporters' latest-offset families after the primary ones
    compat: tuple[Compat, ...] = ()

    @property
    def filtered(self) -> bool:
        """Whether ``--problems`` or ``--state`` filters the rows."""
        return self.problems or self.states is not None

    def shown(self, report: LivenessReport) -> LivenessReport:
        """The report with only the rows ``--problems`` / ``--state`` keep."""
        return report.shown(problems=self.problems, states=self.states)


def render(
    report: LivenessReport,
    view: LivenessView,
    rates: Mapping[TopicPartition, float | None] | None = None,
    refresh: Refresh | None = None,
    trends: Mapping[Any, tuple[int | None, ...]] | None = None,
    ends: Mapping[TopicPartition, int] | None = None,
) -> Any:
    """The output of ``liveness`` as text, or (table format) a rich table; ``rates`` and ``refresh``
    under ``--watch``, ``trends`` (each partition's age over the refreshes) for its live table,
    ``ends`` (the latest offsets) for the ``--metrics-compat`` families.

    The table's per-topic summary lines are not part of it (see :func:`topic_lines`).
    """
    if view.fmt is Format.nagios:
        return render_liveness.nagios(report)
    if view.fmt is Format.prometheus:
        return render_liveness.prometheus(report, view.labels, ends, view.compat)
    report = view.shown(report)
    if view.fmt is Format.table:
        return render_liveness.rich_table(
            report, view.zone, header=not view.no_headers, rates=rates, columns=view.columns, trends=trends
        )
    recs = render_liveness.records(report)
    columns: tuple[str, ...] = COLUMNS
    if rates is not None:
        for rec in recs:
            p = rec["partition"]
            value = rates.get(TopicPartition(str(rec["topic"]), p)) if p is not None else None
            rec[RATE_FIELD] = None if value is None else round(value, 3)
        columns = (*COLUMNS, RATE_FIELD)
    return records_text(recs, view.fmt, columns, view.columns, header=not view.no_headers, refresh=refresh)


def show(
    report: LivenessReport,
    view: LivenessView,
    screen: Screen,
    ends: Mapping[TopicPartition, int] | None = None,
) -> None:
    """Print the output of one ``liveness`` run: data on stdout, topic and run summaries (table) on stderr."""
    out = render(report, view, ends=ends)
    show_output(out, screen)
    if not isinstance(out, str):
        _topic_lines(report, view)
    elif view.fmt in (Format.json, Format.jsonl, Format.csv):  # the record says it; stderr too
        for t in report.topics:
            if t.error is not None:
                warn(f"{t.topic}: {t.error}", screen.env)


def footer(
    report: LivenessReport, view: LivenessView, trends: Mapping[Any, tuple[int | None, ...]] | None = None
) -> list[Any]:
    """What follows a table: a line per topic (only non-OK ones under ``--problems``; with ``trends``,
    its age's), then the run's."""
    topics = topic_lines(report, problems_only=view.problems, trends=trends)
    shown = len(view.shown(report).rows) if view.filtered else None
    return [*topics, summary_line(report, shown)]


def _topic_lines(report: LivenessReport, view: LivenessView) -> None:
    """The table's footer lines, on stderr."""
    c = err_console()
    for line in footer(report, view):
        c.print(line, highlight=False, soft_wrap=True)


def counters(snap: LivenessSnapshot) -> Counters[TopicPartition]:
    """The latest offsets, for records/s in."""
    return Counters(produced=dict(snap.ends))


def aged(snap: LivenessSnapshot) -> Counters[TopicPartition]:
    """:func:`counters`, and the ages AGE-TREND and the topic lines follow: each partition's (by
    :class:`TopicPartition`) and each topic's deciding age (by name)."""
    ages: dict[Any, int | None] = {r.tp: r.age_ms for r in snap.report.rows}
    ages.update((t.topic, t.age_ms) for t in snap.report.topics if t.error is None)
    return Counters(produced=dict(snap.ends), levels=ages)


def _block(view: LivenessView) -> Callable[[LivenessSnapshot, Rates[TopicPartition]], str]:
    def block(snap: LivenessSnapshot, rates: Rates[TopicPartition]) -> str:
        out = render(
            snap.report, view, dict(rates.records_in), Refresh(rates.refresh, rates.taken_ms), ends=snap.ends
        )
        text = block_text(out, view.fmt)
        if not isinstance(out, str):
            _topic_lines(snap.report, view)
        return text

    return block


def watch(
    client: Any, interval: float, fetch: Callable[[Any], LivenessSnapshot], view: LivenessView, screen: Screen
) -> None:
    """``liveness --watch``: refresh ``fetch(client)`` every ``interval`` seconds until Ctrl-C.

    A live table (with the per-topic status lines under it) on a terminal with
    ``-o table``; one block per refresh in the chosen format otherwise.
    """

    def live(snap: LivenessSnapshot, rates: Rates[TopicPartition]) -> Any:
        from rich.console import Group

        table = render(snap.report, view, dict(rates.records_in), trends=rates.trends)
        return Group(table, *footer(snap.report, view, rates.trends))

    tty = screen.tty and view.fmt is Format.table
    count = aged if tty else counters  # the trends are drawn on a terminal only
    run_watch(client, interval, fetch, count, live, _block(view), screen=screen, tty=tty)
