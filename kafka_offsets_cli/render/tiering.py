"""Output of ``kafka-offsets tiering`` (pure: a report in, text or a fitted table out).

Records (json, jsonl, csv): one per partition, keys :data:`~kafka_offsets_cli.tiering.rules.COLUMNS`.
Table: one row per partition, a line per topic and one for the run on stderr. Nagios: one
status line with per-topic backlog perfdata. Prometheus: families ``kafka_offsets_tiering_*``,
every series with the run's constant labels (``cluster`` first), from :mod:`.tiering_metrics`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..parse.durations import format_duration
from ..tiering.rules import TierState
from .fit import Column, Kind
from .fitted import FittedTable
from .monitoring import PerfDatum, nagios_line, status_text
from .tiering_metrics import PREFIX as PREFIX
from .tiering_metrics import SERIES_LABELS as SERIES_LABELS
from .tiering_metrics import SERVICE as SERVICE
from .tiering_metrics import prometheus as prometheus
from .tiering_metrics import prometheus_down as prometheus_down
from .tiering_metrics import prometheus_families as prometheus_families

if TYPE_CHECKING:
    from rich.text import Text

    from ..tiering.report import TieringReport
    from ..tiering.rules import TierRow, TopicTiering

_STYLE = {
    TierState.OK: "green",
    TierState.WARNING: "yellow",
    TierState.CRITICAL: "red",
    TierState.NOT_TIERED: "dim",
    TierState.ERROR: "red",
}


def records(report: TieringReport) -> list[dict[str, Any]]:
    """One record per partition."""
    return report.records()


def _span(first: int | None, last: int | None) -> str:
    """``first..last`` (inclusive); ``-`` for nothing."""
    if first is None or last is None or last < first:
        return "-"
    return f"{first}..{last}"


def rich_table(
    report: TieringReport, tz: tzinfo, *, header: bool = True, columns: Sequence[str] | None = None
) -> FittedTable:
    """One row per partition: LOCAL (earliest-local..latest-1), REMOTE (earliest..latest-tiered) as spans,
    BACKLOG records, BACKLOG-AGE and STATE. Priorities (:mod:`.fit`): LOCAL and REMOTE 2, the rest 0."""
    t = FittedTable(header=header, keep=columns, tz=tz)
    num, right = Kind.NUMBER, "right"
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="partition", headers=("PARTITION", "PART"), kind=num, justify=right))
    t.add_column(Column(key="local_records", headers=("LOCAL",), kind=num, priority=2, justify=right))
    t.add_column(Column(key="remote_records", headers=("REMOTE",), kind=num, priority=2, justify=right))
    t.add_column(Column(key="backlog_records", headers=("BACKLOG",), kind=num, justify=right))
    t.add_column(Column(key="backlog_age_ms", headers=("BACKLOG-AGE", "AGE"), kind=num, justify=right))
    t.add_column(Column(key="state", headers=("STATE",), kind=Kind.TEXT, min_width=8))
    for r in report.rows:
        t.add_row(
            r.topic,
            str(r.partition),
            _span(r.earliest_local, None if r.latest is None else r.latest - 1),
            _span(r.earliest, r.latest_tiered),
            _dash(r.backlog_records),
            _dash(None if r.backlog_age_ms is None else format_duration(r.backlog_age_ms)),
            _state(r),
        )
    return t


def _dash(v: object) -> str:
    return "-" if v is None else str(v)


def _state(r: TierRow) -> Text:
    from rich.text import Text

    return Text(r.state.value + (f" ({r.error})" if r.error else ""), style=_STYLE[r.state])


def _topic_detail(t: TopicTiering) -> str:
    if t.error is not None:
        return f"cannot list: {t.error}"
    if not t.tiered:
        return f"{t.partitions} partition(s), not tiered (remote.storage.enable=false)"
    age = f", oldest {format_duration(t.backlog_age_ms)}" if t.backlog_age_ms is not None else ""
    return (
        f"{t.partitions} partition(s), {t.local_records} local, {t.remote_records} remote, "
        f"backlog {t.backlog_records}{age}"
    )


def topic_lines(report: TieringReport) -> list[Text]:
    """One line per topic (stderr, under the table): status and the topic's sums."""
    return [
        status_text(t.status, before=f"{t.topic}: ", after=f" ({_topic_detail(t)})") for t in report.topics
    ]


def _thresholds(report: TieringReport) -> str:
    th = report.thresholds
    parts = []
    if th.warn_records is not None or th.crit_records is not None:
        parts.append(f"backlog records warn {_dash(th.warn_records)} crit {_dash(th.crit_records)}")
    if th.warn_age_ms is not None or th.crit_age_ms is not None:
        w = None if th.warn_age_ms is None else format_duration(th.warn_age_ms)
        c = None if th.crit_age_ms is None else format_duration(th.crit_age_ms)
        parts.append(f"age warn {_dash(w)} crit {_dash(c)}")
    return "; ".join(parts) or "no thresholds"


def summary_line(report: TieringReport) -> Text:
    """The run's line: status, partitions per state, thresholds."""
    counts = [f"{sum(1 for r in report.rows if r.state is s)} {s.value}" for s in TierState]
    shown = ", ".join(c for c in counts if not c.startswith("0 ")) or "none"
    size = f"{len(report.rows)} partition(s) in {len(report.topics)} topic(s)"
    return status_text(report.status, after=f": {size}: {shown} ({_thresholds(report)})")


def nagios(report: TieringReport) -> str:
    """``KAFKA TIERING STATUS - summary | perfdata`` (per topic: backlog records and age, with thresholds)."""
    bad = [t for t in report.topics if t.status is not MonitoringStatus.OK]
    tiered = [t for t in report.topics if t.tiered]
    if bad:
        summary = "; ".join(f"{t.topic} {t.status.name} ({_topic_detail(t)})" for t in bad)
    else:
        backlog = sum(t.backlog_records for t in tiered)
        summary = f"{len(tiered)} tiered topic(s) of {len(report.topics)}, backlog {backlog} record(s)"
    th = report.thresholds
    perf: list[PerfDatum] = []
    for t in tiered:
        age = None if t.backlog_age_ms is None else t.backlog_age_ms / 1000
        perf.append(
            PerfDatum(
                label=f"{t.topic} backlog",
                value=t.backlog_records,
                warn=th.warn_records,
                crit=th.crit_records,
                min=0,
            )
        )
        perf.append(
            PerfDatum(
                label=f"{t.topic} backlog age",
                value=age if t.backlog_records else 0,
                uom="s",
                warn=None if th.warn_age_ms is None else th.warn_age_ms / 1000,
                crit=None if th.crit_age_ms is None else th.crit_age_ms / 1000,
                min=0,
            )
        )
    return nagios_line(SERVICE, report.status, summary, perf)
