"""Monitoring renderers for ``kafka-offsets check`` (pure: a :class:`CheckReport` in, text out).

* ``nagios``: one status line with per-topic ages and per-group lags as perfdata;
* ``prometheus``: node_exporter textfile metrics, prefix ``kafka_offsets_check_``
  (see :func:`prometheus_families`). Every series carries ``cluster``: the spec's name
  of the cluster it is about, or for series about the run or a check (``up``,
  ``status``, ``last_run_timestamp_seconds``, ``check_status``) the names of the
  clusters they cover, comma-separated and sorted; ``--label`` adds constant labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..check.records import SLICE, PartitionRecord, column_slices
from ..check.report import CheckReport, GroupResult, TopicResult
from ..errors import MonitoringStatus
from .monitoring import (
    CLUSTER_LABEL,
    TYPE_LABEL,
    MetricFamily,
    PerfDatum,
    Sample,
    family_chunks,
    group_labels,
    nagios_line,
    prometheus_text,
    status_families,
)

__all__ = [
    "PARTITION_FAMILIES",
    "PREFIX",
    "SERIES_LABELS",
    "SERVICE",
    "nagios",
    "prometheus",
    "prometheus_chunks",
    "prometheus_families",
]

#: Nagios service name.
SERVICE = "KAFKA CHECK"
#: Prometheus metric name prefix.
PREFIX = "kafka_offsets_check"

#: The labels the series use themselves (a ``--label`` may not take them).
SERIES_LABELS = ("check", CLUSTER_LABEL, "group", TYPE_LABEL, "topic", "partition", "state")


def clusters_label(names: Iterable[str]) -> str:
    """The ``cluster`` value of a series about several clusters: their names, sorted, comma-separated."""
    return ",".join(sorted(set(names)))


def _run_families(
    status: MonitoringStatus, now_ms: int, up: bool, clusters: Iterable[str]
) -> list[MetricFamily]:
    """``up``, ``status``, ``last_run_timestamp_seconds``, labelled with the run's clusters."""
    label = {CLUSTER_LABEL: clusters_label(clusters)}
    return [
        replace(f, samples=tuple(Sample({**label, **s.labels}, s.value) for s in f.samples))
        for f in status_families(PREFIX, status, now_ms, up)
    ]


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
            perf.append(PerfDatum(label=f"{c.name}/{t.cluster}/{t.topic} age", value=age, uom="s", min=0))
        for g in c.groups:
            perf.append(
                PerfDatum(
                    label=f"{c.name}/{g.cluster}/{g.group} lag",
                    value=None if g.error else g.lag,
                    uom="",
                    min=0,
                )
            )
    return nagios_line(SERVICE, report.status, nagios_summary(report), perf)


# ----------------------------------------------------------------------------- prometheus


def prometheus_families(report: CheckReport) -> list[MetricFamily]:
    """Metric families (gauges), prefix ``kafka_offsets_check_``, but those per partition
    (:data:`PARTITION_FAMILIES`, written by :func:`prometheus_chunks` a slice at a time).

    Run: ``up`` (0 if any cluster could not be reached), ``status``,
    ``last_run_timestamp_seconds``; per cluster ``cluster_up``. Per check (label
    ``check``): ``check_status``. Per liveness topic (check, cluster, topic):
    ``topic_status``, ``topic_age_seconds``, ``topic_alive_partitions``. Per lag
    group (check, cluster, group, type): ``group_status``, ``group_lag``,
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
        return {"check": g.check, "cluster": g.cluster, **group_labels(g.group, g.group_type)}

    fams = [
        MetricFamily(
            f"{PREFIX}_cluster_up",
            "1 if the cluster answered while the run was planned, 0 if not.",
            samples=tuple(Sample({"cluster": c}, int(c not in report.down)) for c in report.clusters),
        ),
        MetricFamily(
            f"{PREFIX}_check_status",
            "Check status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(
                Sample({"check": c.name, CLUSTER_LABEL: clusters_label(c.clusters)}, int(c.status))
                for c in checks
            ),
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
    ]
    return _run_families(report.status, report.now_ms, not report.down, report.clusters) + fams


#: The per-partition families: (name, help, the value of a record's row or None for no sample).
#: A row: (check, cluster, group, topic, partition, kind, status name, lag, time_lag_ms, age_ms).
PARTITION_FAMILIES: tuple[tuple[str, str, Callable[[tuple[Any, ...]], float | int | None]], ...] = (
    (
        f"{PREFIX}_partition_status",
        "Partition status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
        lambda r: int(MonitoringStatus[r[6]]),
    ),
    (
        f"{PREFIX}_partition_lag",
        "The group's lag on the partition (records).",
        lambda r: r[7] if r[5] == "lag" else None,
    ),
    (
        f"{PREFIX}_partition_time_lag_seconds",
        "Age of the first unconsumed record.",
        lambda r: r[8] / 1000 if r[5] == "lag" and r[8] is not None else None,
    ),
    (
        f"{PREFIX}_partition_age_seconds",
        "Age of the partition's newest record (max-timestamp).",
        lambda r: r[9] / 1000 if r[5] == "liveness" and r[9] is not None else None,
    ),
)

_ROW_KEYS = (
    "check",
    "cluster",
    "group",
    "topic",
    "partition",
    "kind",
    "status",
    "lag",
    "time_lag_ms",
    "age_ms",
)


def _partition_rows(parts: Sequence[PartitionRecord]) -> Iterator[list[tuple[Any, ...]]]:
    """The partition records' rows (:data:`PARTITION_FAMILIES`), a list per slice of records."""
    for cols in column_slices(parts, _ROW_KEYS, SLICE):
        yield list(zip(*cols, strict=True))


def _samples(
    rows: Iterable[list[tuple[Any, ...]]],
    value: Callable[[tuple[Any, ...]], float | int | None],
    types: Mapping[tuple[str, str, str], str] | None = None,
) -> Iterator[list[tuple[dict[str, str], float | int]]]:
    """Per slice, (labels, value) of each partition record with a value.

    Labels: check, cluster, group and type (lag records; ``types``: (check, cluster, group) -> the
    group's type, as its group series have it), topic, partition.
    """
    types = types or {}
    for batch in rows:
        out = []
        for r in batch:
            if r[4] is None:
                continue  # a topic or group that could not be read: no partition series
            v = value(r)
            if v is None:
                continue
            labels = {"check": r[0], "cluster": r[1]}
            if r[2] is not None:
                labels.update(group_labels(r[2], types.get((r[0], r[1], r[2]))))
            labels["topic"] = r[3]
            labels["partition"] = str(r[4])
            out.append((labels, v))
        yield out


def prometheus_chunks(report: CheckReport, labels: Mapping[str, str] | None = None) -> Iterator[str]:
    """The textfile-collector text, each series with ``labels``, in chunks: the families of
    :func:`prometheus_families` at once, then each of :data:`PARTITION_FAMILIES` a slice of
    partitions at a time (never a sample object per partition, never the whole text at once).

    Per partition: ``partition_status``; lag records also ``partition_lag`` and
    ``partition_time_lag_seconds`` (labels check, cluster, group, type, topic, partition); liveness
    records ``partition_age_seconds`` (check, cluster, topic, partition).
    """
    yield prometheus_text(prometheus_families(report), labels)
    types = {
        (g.check, g.cluster, g.group): g.group_type for c in report.checks for g in c.groups if g.group_type
    }
    for name, help_text, value in PARTITION_FAMILIES:
        family = MetricFamily(name, help_text)
        yield from family_chunks(family, _samples(_partition_rows(report.partitions), value, types), labels)


def prometheus(report: CheckReport, labels: Mapping[str, str] | None = None) -> str:
    """:func:`prometheus_chunks` as one text (for a file written whole)."""
    return "".join(prometheus_chunks(report, labels))


def prometheus_down(
    status: MonitoringStatus, now_ms: int, clusters: Iterable[str], labels: Mapping[str, str] | None = None
) -> str:
    """The textfile when the check could not run: ``up 0`` and the status, for the spec's ``clusters``."""
    return prometheus_text(_run_families(status, now_ms, False, clusters), labels)
