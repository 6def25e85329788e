"""Output of ``kafka-offsets tiering`` (pure: a report in, text or a fitted table out).

Records (json, jsonl, csv): one per partition, keys :data:`~kafka_offsets_cli.tiering.rules.COLUMNS`.
Table: one row per partition, a line per topic and one for the run on stderr. Nagios: one
status line with per-topic backlog perfdata. Prometheus: families ``kafka_offsets_tiering_*``,
every series with the run's constant labels (``cluster`` first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..parse.durations import format_duration
from ..tiering.report import TieringReport
from ..tiering.rules import TierRow, TierState, TopicTiering
from .fit import Column, Kind
from .fitted import FittedTable
from .monitoring import (
    MetricFamily,
    PerfDatum,
    Sample,
    nagios_line,
    prometheus_text,
    status_families,
    status_text,
)
from .offset_compat import Compat, offset_families

if TYPE_CHECKING:
    from rich.text import Text

#: The Nagios service name and the Prometheus prefix.
SERVICE = "KAFKA TIERING"
PREFIX = "kafka_offsets_tiering"

#: The labels the series use themselves (a ``--label`` may not take them).
SERIES_LABELS = ("topic", "partition", "state")

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


def prometheus_families(report: TieringReport, *, up: bool = True) -> list[MetricFamily]:
    """Gauges ``kafka_offsets_tiering_*``: per partition, per topic, and the run's."""

    def tp(r: TierRow) -> dict[str, str]:
        return {"topic": r.topic, "partition": str(r.partition)}

    def per(name: str, help_: str, attr: str, scale: float = 1) -> MetricFamily:
        values = [(r, getattr(r, attr)) for r in report.rows]
        samples = tuple(Sample(tp(r), v / scale if scale != 1 else v) for r, v in values if v is not None)
        return MetricFamily(f"{PREFIX}_{name}", help_, samples=samples)

    topics = report.topics
    th = report.thresholds
    thresholds = [
        ("backlog_warn_records", "Warning threshold on backlog records.", th.warn_records, 1),
        ("backlog_crit_records", "Critical threshold on backlog records.", th.crit_records, 1),
        ("backlog_warn_age_seconds", "Warning threshold on the backlog's age.", th.warn_age_ms, 1000),
        ("backlog_crit_age_seconds", "Critical threshold on the backlog's age.", th.crit_age_ms, 1000),
    ]
    fams = [
        per(
            "local_records", "Records on the leader's local disk (latest - earliest-local).", "local_records"
        ),
        per("remote_records", "Records in remote storage (latest-tiered - earliest + 1).", "remote_records"),
        per("backlog_records", "Records not yet copied to remote storage.", "backlog_records"),
        per(
            "backlog_age_seconds",
            "Age of the oldest record not yet copied to remote storage.",
            "backlog_age_ms",
            1000,
        ),
        MetricFamily(
            f"{PREFIX}_partition_status",
            "Partition status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample(tp(r), int(r.status)) for r in report.rows),
        ),
        MetricFamily(
            f"{PREFIX}_partition_state",
            "Partition state (ok, warning, critical, not-tiered, error), always 1.",
            samples=tuple(Sample({**tp(r), "state": r.state.value}, 1) for r in report.rows),
        ),
        MetricFamily(
            f"{PREFIX}_topic_status",
            "Topic status (worst partition): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample({"topic": t.topic}, int(t.status)) for t in topics),
        ),
        MetricFamily(
            f"{PREFIX}_topic_tiered",
            "1 if the topic has remote.storage.enable=true, else 0.",
            samples=tuple(Sample({"topic": t.topic}, int(t.tiered)) for t in topics if t.error is None),
        ),
        MetricFamily(
            f"{PREFIX}_topic_backlog_records",
            "Records of the topic not yet copied to remote storage.",
            samples=tuple(Sample({"topic": t.topic}, t.backlog_records) for t in topics if t.tiered),
        ),
        *(
            MetricFamily(
                f"{PREFIX}_{name}", help_, samples=(Sample({}, value / scale if scale != 1 else value),)
            )
            for name, help_, value, scale in thresholds
            if value is not None
        ),
    ]
    return status_families(PREFIX, report.status, report.now_ms, up) + fams


def prometheus(
    report: TieringReport, labels: Mapping[str, str] | None = None, compat: Sequence[Compat] = ()
) -> str:
    """The textfile-collector text of :func:`prometheus_families`, each series with ``labels``, then
    the ``compat`` exporters' partition-offset families of the same rows (``earliest``, ``latest``)."""
    logs = {(r.topic, r.partition): (r.earliest, r.latest) for r in report.rows}
    aliases = offset_families(logs, compat, (labels or {}).get("cluster", ""))
    return prometheus_text(prometheus_families(report) + aliases, labels)


def prometheus_down(status: MonitoringStatus, now_ms: int, labels: Mapping[str, str] | None = None) -> str:
    """The text written when the cluster could not be asked: ``up 0`` and the status (UNKNOWN)."""
    return prometheus_text(status_families(PREFIX, status, now_ms, up=False), labels)
