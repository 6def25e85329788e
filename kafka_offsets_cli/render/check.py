"""Renderers for ``kafka-offsets check`` (pure: a :class:`CheckReport` in, text or rich renderables out).

* ``json``: the document of :meth:`CheckReport.to_document` (schema in
  :mod:`kafka_offsets_cli.check.report`);
* ``table``: a summary of the checks, then liveness topics and lag groups that
  are not OK (every group with history, with its lag trend as a sparkline),
  then the worst partitions.

The monitoring formats (``nagios``, ``prometheus``) are :mod:`.check_monitoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..check.history import sparkline
from ..check.report import CheckReport, CheckResult, GroupResult, PartitionRecord, TopicResult
from ..errors import MonitoringStatus
from ..liveness.rules import severity
from ..parse.durations import format_duration
from ..parse.times import format_time
from .formats import to_json_document

__all__ = [
    "json_document",
    "rich_summary",
]

_STATUS_STYLE = {
    MonitoringStatus.OK: "green",
    MonitoringStatus.WARNING: "yellow",
    MonitoringStatus.CRITICAL: "red",
    MonitoringStatus.UNKNOWN: "magenta",
}


def _status(s: MonitoringStatus) -> Text:
    return Text(s.name, style=_STATUS_STYLE[s])


def _num(v: int | None) -> str | Text:
    return Text("-", style="dim") if v is None else str(v)


def _dur(ms: int | None) -> str | Text:
    return Text("-", style="dim") if ms is None else format_duration(ms)


def _rate(v: float | None) -> str | Text:
    return Text("-", style="dim") if v is None else f"{v:,.1f}/s"


def json_document(report: CheckReport) -> str:
    """The ``--output json`` text."""
    return to_json_document(report.to_document())


# ----------------------------------------------------------------------------- table


def checks_table(checks: Sequence[CheckResult]) -> Table:
    """One row per check: status, type, clusters, partitions evaluated and a summary."""
    t = Table(title="Checks", title_justify="left", header_style="bold", box=None, pad_edge=False)
    for col in ("CHECK", "TYPE", "STATUS", "CLUSTERS"):
        t.add_column(col)
    t.add_column("PARTITIONS", justify="right")
    t.add_column("SUMMARY", overflow="fold")
    for c in checks:
        t.add_row(c.name, c.type, _status(c.status), ",".join(c.clusters), str(c.partitions), c.summary)
    return t


def topics_table(topics: Sequence[TopicResult]) -> Table:
    """Liveness topics: status, partitions alive, the deciding age, timestamp type."""
    t = Table(title="Liveness topics", title_justify="left", header_style="bold", box=None, pad_edge=False)
    for col in ("CHECK", "CLUSTER", "TOPIC", "STATUS"):
        t.add_column(col, overflow="fold")
    t.add_column("ALIVE", justify="right")
    t.add_column("AGE", justify="right")
    t.add_column("TIMESTAMP-TYPE")
    for x in topics:
        t.add_row(
            x.check,
            x.cluster,
            x.topic,
            _status(x.status),
            f"{x.alive}/{x.partitions}",
            Text(x.error, style="red") if x.error else _dur(x.age_ms),
            x.timestamp_type or Text("-", style="dim"),
        )
    return t


def groups_table(groups: Sequence[GroupResult], *, history: bool) -> Table:
    """Lag groups: status, total and max lag, time lag; with history the Burrow verdict, trend, rates, ETA."""
    t = Table(title="Lag groups", title_justify="left", header_style="bold", box=None, pad_edge=False)
    for col in ("CHECK", "CLUSTER", "GROUP", "STATUS"):
        t.add_column(col, overflow="fold")
    t.add_column("LAG", justify="right")
    t.add_column("MAX LAG", justify="right")
    t.add_column("TIME LAG", justify="right")
    t.add_column("PROBLEMS", justify="right")
    if history:
        t.add_column("HISTORY")
        t.add_column("TREND")
        t.add_column("PRODUCE", justify="right")
        t.add_column("CONSUME", justify="right")
        t.add_column("CATCH-UP", justify="right")
    errors = any(g.error for g in groups)
    if errors:
        t.add_column("ERROR", style="red", overflow="fold")
    for g in groups:
        row: list[Any] = [
            g.check,
            g.cluster,
            g.group,
            _status(g.status),
            Text("-", style="dim") if g.error else str(g.lag),
            _num(g.max_lag),
            _dur(g.max_time_lag_ms),
            str(g.problems),
        ]
        if history:
            row += [
                g.history or Text("-", style="dim"),
                Text(sparkline(g.trend), style="cyan") if g.trend else Text("-", style="dim"),
                _rate(g.produce_rate),
                _rate(g.consume_rate),
                _dur(g.eta_ms),
            ]
        if errors:
            row.append(g.error or "")
        t.add_row(*row)
    return t


def partitions_table(records: Sequence[PartitionRecord], tz: tzinfo, *, title: str) -> Table:
    """Partition records (lag and liveness columns side by side)."""
    t = Table(title=title, title_justify="left", header_style="bold", box=None, pad_edge=False)
    for col in ("CHECK", "CLUSTER", "GROUP", "TOPIC"):
        t.add_column(col, overflow="fold")
    t.add_column("PARTITION", justify="right")
    t.add_column("STATUS")
    t.add_column("STATE")
    t.add_column("LAG", justify="right")
    t.add_column("TIME LAG", justify="right")
    t.add_column("NEWEST RECORD")
    t.add_column("AGE", justify="right")
    t.add_column("ERROR", style="red", overflow="fold")
    for r in records:
        t.add_row(
            r.check,
            r.cluster,
            r.group or Text("-", style="dim"),
            r.topic or Text("-", style="dim"),
            _num(r.partition),
            _status(r.status),
            r.state + (f" ({r.history})" if r.history else ""),
            _num(r.lag),
            _dur(r.time_lag_ms),
            format_time(r.timestamp, tz) if r.timestamp is not None else Text("-", style="dim"),
            _dur(r.age_ms),
            r.error or "",
        )
    return t


def rich_summary(report: CheckReport, tz: tzinfo, *, worst: int = 20) -> Group:
    """Checks; topics and groups that need attention (every group with history); the worst partitions."""
    parts: list[Any] = [checks_table(report.checks)]
    topics = [t for c in report.checks for t in c.topics if t.status is not MonitoringStatus.OK]
    if topics:
        parts += [Text(""), topics_table(topics)]
    history = report.history_runs is not None
    groups = [g for c in report.checks for g in c.groups if history or g.status is not MonitoringStatus.OK]
    if groups:
        parts += [Text(""), groups_table(groups, history=history)]
    bad = sorted(
        (r for r in report.partitions if r.status is not MonitoringStatus.OK),
        key=lambda r: (-_sev(r.status), -(r.lag or 0), -(r.age_ms or 0), r.key),
    )[:worst]
    if bad:
        parts += [Text(""), partitions_table(bad, tz, title=f"Worst partitions ({len(bad)} shown)")]
    footer = f"{report.total_partitions} partition records; status {report.status.name}"
    if history:
        footer += f"; history: {report.history_runs} run(s) in the window"
    parts += [Text(""), Text(footer, style="dim")]
    return Group(*parts)


def _sev(s: MonitoringStatus) -> int:
    return severity(s)
