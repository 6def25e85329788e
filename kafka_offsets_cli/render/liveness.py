"""Renderers for ``kafka-offsets liveness``.

Record schema (json, jsonl, csv), one record per partition::

    {"topic": str, "partition": int, "offset": int|null, "timestamp": int|null,
     "age_ms": int|null, "state": str, "timestamp_type": str|null, "error": str|null}

``offset``/``timestamp`` are those of the newest record by timestamp (KIP-734
max-timestamp); ``state`` is ``ok``, ``warning``, ``critical``, ``empty``,
``future`` or ``error``; ``timestamp_type`` is the topic's
``message.timestamp.type`` (``CreateTime`` or ``LogAppendTime``). A selected topic
that cannot be listed gets one record with ``partition`` null and state ``error``.

``nagios`` is one status line; ``prometheus`` the textfile-collector metrics
documented in :func:`prometheus_families`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported only where a table is drawn (fast machine output)
    from rich.table import Table
    from rich.text import Text

from ..errors import MonitoringStatus
from ..liveness.report import LivenessReport
from ..liveness.rules import COLUMNS, LiveState
from ..models.topics import TopicPartition
from ..parse.durations import format_duration
from ..parse.times import format_time
from .monitoring import MetricFamily, PerfDatum, Sample, nagios_line, prometheus_text, status_families
from .offsets import rate

__all__ = [
    "COLUMNS",
    "PREFIX",
    "SERVICE",
    "nagios",
    "prometheus",
    "prometheus_families",
    "records",
    "rich_table",
]

#: Nagios service name.
SERVICE = "KAFKA LIVENESS"
#: Prometheus metric name prefix.
PREFIX = "kafka_offsets_liveness"

_STYLE = {
    LiveState.OK: "green",
    LiveState.WARNING: "yellow",
    LiveState.CRITICAL: "red",
    LiveState.EMPTY: "magenta",
    LiveState.PENDING: "blue",
    LiveState.FUTURE: "cyan",
    LiveState.ERROR: "red",
}
_STATUS_STYLE = {
    MonitoringStatus.OK: "green",
    MonitoringStatus.WARNING: "yellow",
    MonitoringStatus.CRITICAL: "red",
    MonitoringStatus.UNKNOWN: "magenta",
}


def records(report: LivenessReport) -> list[dict[str, Any]]:
    """One record per partition (and per topic that could not be listed), sorted by topic and partition."""
    out: list[dict[str, Any]] = []
    for t in report.topics:
        if t.error is not None:
            out.append(
                {
                    "topic": t.topic,
                    "partition": None,
                    "offset": None,
                    "timestamp": None,
                    "age_ms": None,
                    "state": LiveState.ERROR.value,
                    "timestamp_type": t.timestamp_type,
                    "error": t.error,
                }
            )
    out += [r.to_record(report.timestamp_type(r.topic)) for r in report.rows]
    return sorted(out, key=lambda r: (r["topic"], -1 if r["partition"] is None else r["partition"]))


def _age(ms: int | None, state: LiveState) -> str | Text:
    from rich.text import Text

    if ms is None:
        return Text("-", style="dim")
    if state is LiveState.FUTURE:
        return Text(f"in {format_duration(-ms)}", style="cyan")
    return format_duration(ms)


def rich_table(
    report: LivenessReport,
    tz: tzinfo,
    *,
    header: bool = True,
    rates: Mapping[TopicPartition, float | None] | None = None,
) -> Table:
    """One row per partition: newest record's offset, time and age, state and timestamp type.

    ``rates`` (``--watch``) adds a RECORDS/S column (records/s appended, from the latest offsets).
    """
    from rich.table import Table
    from rich.text import Text

    t = Table(show_header=header, header_style="bold", box=None, pad_edge=False)
    heads = [
        ("TOPIC", "left"),
        ("PARTITION", "right"),
        ("OFFSET", "right"),
        ("MAX-TIMESTAMP", "left"),
        ("AGE", "right"),
    ]
    if rates is not None:
        heads.append(("RECORDS/S", "right"))
    heads += [("STATE", "left"), ("TIMESTAMP-TYPE", "left")]
    for name, justify in heads:
        t.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    extra: list[Any] = [""] if rates is not None else []
    for topic in report.topics:
        if topic.error is not None:
            t.add_row(
                topic.topic,
                Text("-", style="dim"),
                "",
                "",
                "",
                *extra,
                Text(f"error ({topic.error})", style="red"),
                topic.timestamp_type or "",
            )
    for r in report.rows:
        state = r.state.value + (f" ({r.error})" if r.error else "")
        rate_cell: list[Any] = [rate(rates.get(r.tp))] if rates is not None else []
        t.add_row(
            r.topic,
            str(r.partition),
            str(r.offset) if r.offset is not None else Text("-", style="dim"),
            format_time(r.timestamp, tz) if r.timestamp is not None else Text("-", style="dim"),
            _age(r.age_ms, r.state),
            *rate_cell,
            Text(state, style=_STYLE[r.state]),
            report.timestamp_type(r.topic) or Text("?", style="dim"),
        )
    return t


def topic_lines(report: LivenessReport) -> list[Text]:
    """One summary line per topic (for stderr under the table): status, alive count, deciding age."""
    from rich.text import Text

    out = []
    for t in report.topics:
        if t.error is not None:
            detail = f"cannot list: {t.error}"
        else:
            detail = f"{t.alive}/{t.partitions} partitions ok"
            if t.age_ms is not None:
                detail += f", age {format_duration(t.age_ms)}"
        line = Text(f"{t.topic}: ")
        line.append(t.status.name, style=_STATUS_STYLE[t.status])
        line.append(f" ({detail}; {t.timestamp_type or 'timestamp type unknown'})")
        out.append(line)
    return out


# ----------------------------------------------------------------------------- nagios


def _problem(report: LivenessReport, topic: str) -> str:
    """The worst partition of a topic, e.g. ``orders:3 critical 17m 02s``."""
    rows = [r for r in report.rows if r.topic == topic and r.state is not LiveState.OK]
    order = [
        LiveState.CRITICAL,
        LiveState.EMPTY,
        LiveState.ERROR,
        LiveState.PENDING,
        LiveState.FUTURE,
        LiveState.WARNING,
    ]
    rows.sort(key=lambda r: (order.index(r.state), -(r.age_ms or 0)))
    if not rows:
        return ""
    r = rows[0]
    if r.state is LiveState.FUTURE and r.age_ms is not None:
        what = f"future by {format_duration(-r.age_ms)}"
    elif r.state is LiveState.ERROR:
        what = f"error {r.error}"
    elif r.age_ms is not None:
        what = f"{r.state.value} {format_duration(r.age_ms)}"
    else:
        what = r.state.value
    more = f" +{len(rows) - 1}" if len(rows) > 1 else ""
    return f"{topic}:{r.partition} {what}{more}"


def nagios_summary(report: LivenessReport) -> str:
    """The status line's text: partition counts by state, then each non-OK topic with its worst partition."""
    counts = [f"{report.count(s)} {s.value}" for s in LiveState if report.count(s)]
    parts = [
        f"{len(report.rows)} partition(s) in {len(report.topics)} topic(s): " + ", ".join(counts or ["none"])
    ]
    for t in report.topics:
        if t.status is MonitoringStatus.OK:
            continue
        if t.error is not None:
            parts.append(f"{t.topic} {t.status.name}: {t.error}")
        else:
            alive = f" ({t.alive}/{t.partitions} ok, need {report.min_alive})" if report.min_alive else ""
            parts.append(f"{t.topic} {t.status.name}{alive}: {_problem(report, t.topic)}")
    parts.append(f"warn {format_duration(report.warn_ms)}, crit {format_duration(report.crit_ms)}")
    return "; ".join(parts)


def nagios(report: LivenessReport) -> str:
    """The monitoring-plugin line, with per-topic perfdata: deciding age (s) and partitions alive."""
    perf: list[PerfDatum] = []
    for t in report.topics:
        perf.append(
            PerfDatum(
                label=f"{t.topic} age",
                value=None if t.age_ms is None else t.age_ms / 1000,
                uom="s",
                warn=report.warn_ms / 1000,
                crit=report.crit_ms / 1000,
                min=0,
            )
        )
        perf.append(
            PerfDatum(
                label=f"{t.topic} alive", value=t.alive, uom="", warn=None, crit=None, min=0, max=t.partitions
            )
        )
    return nagios_line(SERVICE, report.status, nagios_summary(report), perf)


# ----------------------------------------------------------------------------- prometheus


def prometheus_families(report: LivenessReport, *, up: bool = True) -> list[MetricFamily]:
    """Metric families (all gauges), prefix ``kafka_offsets_liveness_``.

    Per partition (labels topic, partition): ``age_seconds``,
    ``max_timestamp_seconds`` (epoch), ``max_timestamp_offset`` (absent for
    empty/error partitions), ``partition_status`` (0-3) and ``partition_state``
    (1, label ``state``). Per topic: ``topic_status``, ``topic_partitions``,
    ``topic_alive_partitions``, ``timestamp_type_info`` (1, label
    ``timestamp_type``). Run: ``up``, ``status``, ``last_run_timestamp_seconds``,
    ``warn_seconds``, ``crit_seconds``.
    """

    def tp(r: Any) -> dict[str, str]:
        return {"topic": r.topic, "partition": str(r.partition)}

    rows = report.rows
    fams = [
        MetricFamily(
            f"{PREFIX}_age_seconds",
            "Age of the newest record by timestamp (KIP-734 max-timestamp); negative if in the future.",
            samples=tuple(Sample(tp(r), r.age_ms / 1000) for r in rows if r.age_ms is not None),
        ),
        MetricFamily(
            f"{PREFIX}_max_timestamp_seconds",
            "Timestamp of the partition's newest record, Unix seconds.",
            samples=tuple(Sample(tp(r), r.timestamp / 1000) for r in rows if r.timestamp is not None),
        ),
        MetricFamily(
            f"{PREFIX}_max_timestamp_offset",
            "Offset of the partition's newest record by timestamp.",
            samples=tuple(Sample(tp(r), r.offset) for r in rows if r.offset is not None),
        ),
        MetricFamily(
            f"{PREFIX}_partition_status",
            "Partition status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample(tp(r), int(report.status_of(r))) for r in rows),
        ),
        MetricFamily(
            f"{PREFIX}_partition_state",
            "Partition state (ok, warning, critical, empty, future, error), always 1.",
            samples=tuple(Sample({**tp(r), "state": r.state.value}, 1) for r in rows),
        ),
        MetricFamily(
            f"{PREFIX}_topic_status",
            "Topic status after the roll-up: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample({"topic": t.topic}, int(t.status)) for t in report.topics),
        ),
        MetricFamily(
            f"{PREFIX}_topic_partitions",
            "Partitions checked per topic.",
            samples=tuple(Sample({"topic": t.topic}, t.partitions) for t in report.topics),
        ),
        MetricFamily(
            f"{PREFIX}_topic_alive_partitions",
            "Partitions per topic whose own status is OK.",
            samples=tuple(Sample({"topic": t.topic}, t.alive) for t in report.topics),
        ),
        MetricFamily(
            f"{PREFIX}_timestamp_type_info",
            "The topic's message.timestamp.type (CreateTime: producer clocks; LogAppendTime: broker clock).",
            samples=tuple(
                Sample({"topic": t.topic, "timestamp_type": t.timestamp_type}, 1)
                for t in report.topics
                if t.timestamp_type
            ),
        ),
        MetricFamily(
            f"{PREFIX}_warn_seconds", "Warning age threshold.", samples=(Sample({}, report.warn_ms / 1000),)
        ),
        MetricFamily(
            f"{PREFIX}_crit_seconds", "Critical age threshold.", samples=(Sample({}, report.crit_ms / 1000),)
        ),
    ]
    return status_families(PREFIX, report.status, report.now_ms, up) + fams


def prometheus(report: LivenessReport) -> str:
    """The textfile-collector text of :func:`prometheus_families`."""
    return prometheus_text(prometheus_families(report))


def prometheus_down(status: MonitoringStatus, now_ms: int) -> str:
    """The textfile written when the cluster could not be asked: ``up 0`` and the status (UNKNOWN)."""
    return prometheus_text(status_families(PREFIX, status, now_ms, up=False))
