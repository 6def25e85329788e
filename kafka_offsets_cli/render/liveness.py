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
documented in :func:`.liveness_metrics.prometheus_families`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported only where a table is drawn (fast machine output)
    from rich.text import Text

    from ..liveness.report import LivenessReport

from ..errors import MonitoringStatus
from ..measures.liveness import COLUMNS, LiveState
from ..models.topics import TopicPartition
from ..parse.durations import format_duration
from ..severity import severity
from .fit import Column, Kind, Time
from .fitted import FittedTable
from .liveness_metrics import PREFIX, SERVICE, prometheus, prometheus_down, prometheus_families
from .monitoring import PerfDatum, nagios_line, status_text
from .offsets import rate
from .sparkline import sparkline, trend_cell

__all__ = [
    "COLUMNS",
    "PREFIX",
    "SERVICE",
    "nagios",
    "prometheus",
    "prometheus_down",
    "prometheus_families",
    "records",
    "rich_table",
]


_STYLE = {
    LiveState.OK: "green",
    LiveState.WARNING: "yellow",
    LiveState.CRITICAL: "red",
    LiveState.EMPTY: "magenta",
    LiveState.PENDING: "blue",
    LiveState.FUTURE: "cyan",
    LiveState.ERROR: "red",
}


def records(report: LivenessReport) -> list[dict[str, Any]]:
    """One record per partition (and per topic that could not be listed), sorted by topic and partition."""
    return report.records()


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
    columns: Sequence[str] | None = None,
    trends: Mapping[TopicPartition, Sequence[int | None]] | None = None,
) -> FittedTable:
    """One row per partition: newest record's offset, time and age, state and timestamp type.

    ``rates`` (``--watch``) adds a RECORDS/S column (records/s appended, from the latest offsets);
    ``trends`` (``--watch`` on a terminal: each partition's age over the refreshes) AGE-TREND, a
    sparkline (:mod:`.sparkline`); ``columns`` (``--columns``) keeps the columns of these record
    fields. Priorities (:mod:`.fit`): TOPIC, PARTITION, AGE, STATE 0; AGE-TREND 1 (asked for by
    ``--watch``); MAX-TIMESTAMP 2; OFFSET, RECORDS/S 3; TIMESTAMP-TYPE 4.
    """
    from rich.text import Text

    t = FittedTable(header=header, keep=columns, tz=tz)
    num, right = Kind.NUMBER, "right"
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="partition", headers=("PARTITION", "PART"), kind=num, justify=right))
    t.add_column(Column(key="offset", headers=("OFFSET",), kind=num, priority=3, justify=right))
    # no relative form: AGE beside it says that already
    t.add_column(
        Column(
            key="timestamp", headers=("MAX-TIMESTAMP", "MAX-TS"), kind=Kind.TIME, priority=2, relative=False
        )
    )
    t.add_column(Column(key="age_ms", headers=("AGE",), kind=num, justify=right))
    if rates is not None:
        t.add_column(
            Column(key="in_per_s", headers=("RECORDS/S", "REC/S"), kind=num, priority=3, justify=right)
        )
    if trends is not None:
        t.add_column(Column(key="age_trend", headers=("AGE-TREND", "TREND"), priority=1))
    t.add_column(Column(key="state", headers=("STATE",), kind=Kind.TEXT, min_width=8))
    t.add_column(Column(key="timestamp_type", headers=("TIMESTAMP-TYPE", "TS-TYPE"), priority=4))
    extra: list[Any] = [""] * ((rates is not None) + (trends is not None))
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
        if trends is not None:
            rate_cell.append(trend_cell(trends.get(r.tp, ())))
        t.add_row(
            r.topic,
            str(r.partition),
            str(r.offset) if r.offset is not None else Text("-", style="dim"),
            Time(r.timestamp) if r.timestamp is not None else Text("-", style="dim"),
            _age(r.age_ms, r.state),
            *rate_cell,
            Text(state, style=_STYLE[r.state]),
            report.timestamp_type(r.topic) or Text("?", style="dim"),
        )
    return t


def topic_lines(
    report: LivenessReport,
    *,
    problems_only: bool = False,
    trends: Mapping[str, Sequence[int | None]] | None = None,
) -> list[Text]:
    """One summary line per topic (for stderr under the table): status, alive count, deciding age.

    ``problems_only``: only the topics whose status is not OK; ``trends`` (``--watch`` on a
    terminal): each topic's deciding age over the refreshes, a sparkline after the age.
    """
    out = []
    for t in report.topics:
        if problems_only and t.status is MonitoringStatus.OK:
            continue
        if t.error is not None:
            detail = f"cannot list: {t.error}"
        else:
            detail = f"{t.alive}/{t.partitions} partitions ok"
            if t.age_ms is not None:
                detail += f", age {format_duration(t.age_ms)}"
                if trends is not None and any(v is not None for v in trends.get(t.topic, ())):
                    detail += f" {sparkline(trends[t.topic])}"
        tail = f" ({detail}; {t.timestamp_type or 'timestamp type unknown'})"
        out.append(status_text(t.status, before=f"{t.topic}: ", after=tail))
    return out


def summary_line(report: LivenessReport, shown: int | None = None) -> Text:
    """The run's one summary line (under the table, for people): status, counts by state, thresholds.

    ``shown`` is the number of rows a filter (``--problems``, ``--state``) kept, when one did.
    """
    counts = ", ".join(f"{report.count(s)} {s.value}" for s in LiveState if report.count(s)) or "none"
    line = status_text(
        report.status, after=f": {len(report.rows)} partition(s) in {len(report.topics)} topic(s): {counts}"
    )
    if report.count(LiveState.EMPTY):
        line.append(f" (empty counts as {report.empty.name})")
    if shown is not None:
        line.append(f"; {shown} shown")
    line.append(f"; warn {format_duration(report.warn_ms)}, crit {format_duration(report.crit_ms)}")
    return line


# ----------------------------------------------------------------------------- nagios


def _problem(report: LivenessReport, topic: str) -> str:
    """The worst partition of a topic, e.g. ``orders:3 critical 17m 02s`` (by status, then state and age).

    Only partitions whose status is not OK count: an ``empty`` one that counts as OK is no problem.
    """
    rows = [r for r in report.rows if r.topic == topic and report.needs_attention(r)]
    order = [
        LiveState.CRITICAL,
        LiveState.EMPTY,
        LiveState.ERROR,
        LiveState.PENDING,
        LiveState.FUTURE,
        LiveState.WARNING,
    ]
    rows.sort(key=lambda r: (-severity(report.status_of(r)), order.index(r.state), -(r.age_ms or 0)))
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
