"""Prometheus metrics of ``kafka-offsets liveness`` (pure: a report in, exposition text out).

Every series carries the run's constant labels (``cluster`` first, then ``--label``
ones; :func:`kafka_offsets_cli.render.monitoring.constant_labels`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..models.topics import TopicPartition
from .monitoring import MetricFamily, Sample, prometheus_text, status_families
from .offset_compat import Compat, offset_families

if TYPE_CHECKING:
    from ..liveness.report import LivenessReport

__all__ = ["PREFIX", "SERIES_LABELS", "SERVICE", "prometheus", "prometheus_down", "prometheus_families"]

#: Nagios service name (here, not in :mod:`.liveness`, so that the monitoring commands' series
#: name it without loading the table and Nagios output).
SERVICE = "KAFKA LIVENESS"

#: Prometheus metric name prefix.
PREFIX = "kafka_offsets_liveness"

#: The labels the series use themselves (a ``--label`` may not take them).
SERIES_LABELS = ("topic", "partition", "state", "timestamp_type")


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


def prometheus(
    report: LivenessReport,
    labels: Mapping[str, str] | None = None,
    ends: Mapping[TopicPartition, int] | None = None,
    compat: Sequence[Compat] = (),
) -> str:
    """The textfile-collector text of :func:`prometheus_families`, each series with ``labels``, then
    the ``compat`` exporters' latest-offset families of ``ends`` (each partition's ``latest``,
    listed in the same ListOffsets round as max-timestamp). Liveness never lists the log start:
    no earliest family."""
    logs = {(tp.topic, tp.partition): (None, end) for tp, end in (ends or {}).items()}
    aliases = offset_families(logs, compat, (labels or {}).get("cluster", ""), earliest=False)
    return prometheus_text(prometheus_families(report) + aliases, labels)


def prometheus_down(status: MonitoringStatus, now_ms: int, labels: Mapping[str, str] | None = None) -> str:
    """The textfile written when the cluster could not be asked: ``up 0`` and the status (UNKNOWN)."""
    return prometheus_text(status_families(PREFIX, status, now_ms, up=False), labels)
