"""The Prometheus text of ``kafka-offsets tiering`` (pure): families ``kafka_offsets_tiering_*``.

Apart from :mod:`.tiering` (tables, Nagios) so that the monitoring commands' series
(:mod:`kafka_offsets_cli.cli.monitor_series`) name tiering's service without loading tiering's rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import MonitoringStatus
from .monitoring import MetricFamily, Sample, prometheus_text, status_families
from .offset_compat import Compat, offset_families

if TYPE_CHECKING:
    from ..tiering.report import TieringReport
    from ..tiering.rules import TierRow

__all__ = ["PREFIX", "SERIES_LABELS", "SERVICE", "prometheus", "prometheus_down", "prometheus_families"]

#: The Nagios service name and the Prometheus prefix.
SERVICE = "KAFKA TIERING"
PREFIX = "kafka_offsets_tiering"

#: The labels the series use themselves (a ``--label`` may not take them).
SERIES_LABELS = ("topic", "partition", "state")


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
