"""Renderers for ``kafka-offsets check`` (pure: a :class:`CheckReport` in, text or rich renderables out).

* ``json``: the document of :meth:`CheckReport.to_document` (schema in
  :mod:`kafka_offsets_cli.check_report`);
* ``table``: a summary of the checks, then liveness topics and lag groups that
  are not OK (every group with history, with its lag trend as a sparkline),
  then the worst partitions;
* ``nagios``: one status line with per-topic ages and per-group lags as perfdata;
* ``prometheus``: node_exporter textfile metrics, prefix ``kafka_offsets_check_``
  (see :func:`prometheus_families`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..check_report import CheckReport, CheckResult, GroupResult, PartitionRecord, TopicResult
from ..errors import MonitoringStatus
from ..history import sparkline
from ..timeparse import format_duration, format_time
from .formats import to_json_document
from .monitoring import MetricFamily, PerfDatum, Sample, nagios_line, prometheus_text, status_families

__all__ = [
    "PREFIX",
    "SERVICE",
    "json_document",
    "nagios",
    "prometheus",
    "prometheus_families",
    "rich_summary",
]

#: Nagios service name.
SERVICE = "KAFKA CHECK"
#: Prometheus metric name prefix.
PREFIX = "kafka_offsets_check"

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
    from ..liveness import severity

    return severity(s)


# ----------------------------------------------------------------------------- nagios


def nagios_summary(report: CheckReport) -> str:
    """``N checks: a OK, b WARNING…; <check> STATUS: summary`` for every check that is not OK."""
    counts: dict[MonitoringStatus, int] = {}
    for c in report.checks:
        counts[c.status] = counts.get(c.status, 0) + 1
    head = f"{len(report.checks)} check(s): " + ", ".join(
        f"{counts[s]} {s.name}" for s in MonitoringStatus if counts.get(s)
    )
    bad = [
        f"{c.name} {c.status.name}: {c.summary}" for c in report.checks if c.status is not MonitoringStatus.OK
    ]
    return "; ".join([head, *bad])


def nagios(report: CheckReport) -> str:
    """The monitoring-plugin line; perfdata per liveness topic (age, s) and lag group (lag)."""
    perf: list[PerfDatum] = []
    for c in report.checks:
        for t in c.topics:
            age = None if t.age_ms is None else t.age_ms / 1000
            perf.append(PerfDatum(f"{c.name}/{t.cluster}/{t.topic} age", age, "s", min=0))
        for g in c.groups:
            perf.append(
                PerfDatum(f"{c.name}/{g.cluster}/{g.group} lag", None if g.error else g.lag, "", min=0)
            )
    return nagios_line(SERVICE, report.status, nagios_summary(report), perf)


# ----------------------------------------------------------------------------- prometheus


def prometheus_families(report: CheckReport) -> list[MetricFamily]:
    """Metric families (gauges), prefix ``kafka_offsets_check_``.

    Run: ``up`` (0 if any cluster could not be reached), ``status``,
    ``last_run_timestamp_seconds``; per cluster ``cluster_up``. Per check (label
    ``check``): ``check_status``. Per liveness topic (check, cluster, topic):
    ``topic_status``, ``topic_age_seconds``, ``topic_alive_partitions``. Per lag
    group (check, cluster, group): ``group_status``, ``group_lag``,
    ``group_max_time_lag_seconds``, with history ``group_history_state`` (1, label
    ``state``) and ``group_catch_up_seconds``. Per partition: ``partition_status``;
    lag records also ``partition_lag`` and ``partition_time_lag_seconds`` (labels
    check, cluster, group, topic, partition); liveness records
    ``partition_age_seconds`` (check, cluster, topic, partition).
    """
    checks = report.checks
    topics = [t for c in checks for t in c.topics]
    groups = [g for c in checks for g in c.groups]

    def tl(t: TopicResult) -> dict[str, str]:
        return {"check": t.check, "cluster": t.cluster, "topic": t.topic}

    def gl(g: GroupResult) -> dict[str, str]:
        return {"check": g.check, "cluster": g.cluster, "group": g.group}

    def pl(r: PartitionRecord) -> dict[str, str]:
        labels = {"check": r.check, "cluster": r.cluster}
        if r.group is not None:
            labels["group"] = r.group
        labels["topic"] = r.topic
        labels["partition"] = "" if r.partition is None else str(r.partition)
        return labels

    parts = [r for r in report.partitions if r.partition is not None]
    fams = [
        MetricFamily(
            f"{PREFIX}_cluster_up",
            "1 if the cluster answered while the run was planned, 0 if not.",
            samples=tuple(Sample({"cluster": c}, int(c not in report.down)) for c in report.clusters),
        ),
        MetricFamily(
            f"{PREFIX}_check_status",
            "Check status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample({"check": c.name}, int(c.status)) for c in checks),
        ),
        MetricFamily(
            f"{PREFIX}_topic_status",
            "Liveness topic status after the roll-up.",
            samples=tuple(Sample(tl(t), int(t.status)) for t in topics),
        ),
        MetricFamily(
            f"{PREFIX}_topic_age_seconds",
            "Age of the newest record that decided the topic's status.",
            samples=tuple(Sample(tl(t), t.age_ms / 1000) for t in topics if t.age_ms is not None),
        ),
        MetricFamily(
            f"{PREFIX}_topic_alive_partitions",
            "Partitions of the topic whose own status is OK.",
            samples=tuple(Sample(tl(t), t.alive) for t in topics),
        ),
        MetricFamily(
            f"{PREFIX}_group_status",
            "Lag group status (thresholds and, with history, Burrow's rules).",
            samples=tuple(Sample(gl(g), int(g.status)) for g in groups),
        ),
        MetricFamily(
            f"{PREFIX}_group_lag",
            "Sum of the group's lag over the check's partitions (records).",
            samples=tuple(Sample(gl(g), g.lag) for g in groups if g.error is None),
        ),
        MetricFamily(
            f"{PREFIX}_group_max_time_lag_seconds",
            "Largest time lag among the group's partitions.",
            samples=tuple(
                Sample(gl(g), g.max_time_lag_ms / 1000) for g in groups if g.max_time_lag_ms is not None
            ),
        ),
        MetricFamily(
            f"{PREFIX}_group_history_state",
            "Burrow's verdict over the history window (ok, warn, stop, stall, rewind, incomplete), always 1.",
            samples=tuple(Sample({**gl(g), "state": g.history}, 1) for g in groups if g.history),
        ),
        MetricFamily(
            f"{PREFIX}_group_catch_up_seconds",
            "Estimated time for the group to catch up at the window's rates.",
            samples=tuple(Sample(gl(g), g.eta_ms / 1000) for g in groups if g.eta_ms is not None),
        ),
        MetricFamily(
            f"{PREFIX}_partition_status",
            "Partition status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample(pl(r), int(r.status)) for r in parts),
        ),
        MetricFamily(
            f"{PREFIX}_partition_lag",
            "The group's lag on the partition (records).",
            samples=tuple(Sample(pl(r), r.lag) for r in parts if r.kind == "lag" and r.lag is not None),
        ),
        MetricFamily(
            f"{PREFIX}_partition_time_lag_seconds",
            "Age of the first unconsumed record.",
            samples=tuple(
                Sample(pl(r), r.time_lag_ms / 1000)
                for r in parts
                if r.kind == "lag" and r.time_lag_ms is not None
            ),
        ),
        MetricFamily(
            f"{PREFIX}_partition_age_seconds",
            "Age of the partition's newest record (max-timestamp).",
            samples=tuple(
                Sample(pl(r), r.age_ms / 1000) for r in parts if r.kind == "liveness" and r.age_ms is not None
            ),
        ),
    ]
    return status_families(PREFIX, report.status, report.now_ms, not report.down) + fams


def prometheus(report: CheckReport) -> str:
    """The textfile-collector text of :func:`prometheus_families`."""
    return prometheus_text(prometheus_families(report))


def prometheus_down(status: MonitoringStatus, now_ms: int) -> str:
    """The textfile when the check could not run: ``up 0`` and the status."""
    return prometheus_text(status_families(PREFIX, status, now_ms, up=False))
