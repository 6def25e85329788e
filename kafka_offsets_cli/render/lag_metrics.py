"""Monitoring output of ``kafka-offsets lag`` (pure): the nagios line and Prometheus metrics.

Statuses come from :mod:`kafka_offsets_cli.lag.monitor` (the rule ``check`` uses). Every
Prometheus series carries the run's constant labels (``cluster`` first, then ``--label``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import MonitoringStatus
from ..lag.monitor import LagStatus, LagThresholds
from ..lag.summary import LagTotal, soonest_loss_etas, totals
from ..measures.lag.rows import LagRow
from ..models.groups import Member
from ..parse.durations import format_duration
from .lag_compat import Compat, compat_families
from .monitoring import (
    TYPE_LABEL,
    MetricFamily,
    PerfDatum,
    Sample,
    at_most,
    group_labels,
    nagios_line,
    prometheus_text,
    status_families,
)

__all__ = ["PREFIX", "SERIES_LABELS", "SERVICE", "nagios", "prometheus", "prometheus_down"]

#: Nagios service name.
SERVICE = "KAFKA LAG"
#: Prometheus metric name prefix.
PREFIX = "kafka_offsets_lag"
#: The labels the series use themselves (a ``--label`` may not take them).
SERIES_LABELS = ("group", TYPE_LABEL, "topic", "partition")


def _group_totals(rows: Sequence[LagRow]) -> list[LagTotal]:
    return [t for t in totals(rows) if t.topic is None]


def _errors(rows: Sequence[LagRow], groups: set[str]) -> dict[str, dict[str, int]]:
    """``{group: {error: partitions}}`` of the rows of ``groups`` that carry an error."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        if r.error is not None and r.group in groups:
            counts = out.setdefault(r.group, {})
            counts[r.error] = counts.get(r.error, 0) + 1
    return out


def nagios_summary(
    rows: Sequence[LagRow],
    status: LagStatus,
    problems: int = 0,
    time_lag: bool = False,
    loss_alerts: Mapping[str, int] | None = None,
    stale_alerts: Mapping[str, int] | None = None,
) -> str:
    """Groups and partitions by status, then each non-OK group with its lag, time lag and (``loss_alerts``:
    the groups whose soonest data-loss ETA is at or below a loss-ETA threshold) that ETA, (``stale_alerts``:
    those whose stalest commit is above a staleness threshold) that staleness."""
    groups = _group_totals(rows)
    counts = [
        f"{n} {s.name.lower()}"
        for s in MonitoringStatus
        if s is not MonitoringStatus.OK and (n := status.count(s))
    ]
    text = f"{len(status.groups)} group(s), {len(rows)} partition(s)"
    text += ": " + ", ".join(counts) if counts else ": all OK"
    if problems:
        text += f"; {problems} group(s) or topic(s) not read"
    bad = [t for t in groups if status.groups.get(t.group, MonitoringStatus.OK) is not MonitoringStatus.OK]
    failed = _errors(rows, {t.group for t in bad[:5]})
    for t in bad[:5]:
        what = f"{t.group} {status.groups[t.group].name} lag {t.lag}"
        if t.group in failed:  # an UNKNOWN says why: the partitions' errors, Kafka's names
            what += " (" + ", ".join(f"{n} x {e}" for e, n in sorted(failed[t.group].items())) + ")"
        if time_lag and t.max_time_lag_ms is not None:
            what += f" time lag {format_duration(t.max_time_lag_ms)}"
        if (eta := (loss_alerts or {}).get(t.group)) is not None:
            what += f" loss ETA {format_duration(eta)}"
        if (ms := (stale_alerts or {}).get(t.group)) is not None:
            what += f" commit stale {format_duration(ms)}"
        text += f"; {what}"
    if len(bad) > 5:
        text += f"; {len(bad) - 5} more"
    return text


def nagios(
    rows: Sequence[LagRow],
    status: LagStatus,
    thresholds: LagThresholds,
    problems: int = 0,
    *,
    time_lag: bool = False,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
) -> str:
    """The monitoring-plugin line; perfdata per group: lag (records), (``time_lag``) max time lag (s),
    (``loss_etas``: each row's data-loss ETA, ``--loss-eta``) the soonest ETA (s), whose thresholds
    are ranges alerting at or below them (``@~:N``: lower is worse), and (``stale_ms``: each row's
    commit staleness, ``--staleness``) the stalest (s)."""
    from ..measures.lag.stale import stalest  # here: staleness's rules (~1 ms of import)

    soonest = soonest_loss_etas(loss_etas or {})
    worst_stale = stalest(stale_ms or {})
    perf: list[PerfDatum] = []
    for t in _group_totals(rows):
        perf.append(
            PerfDatum(
                label=f"{t.group} lag", value=t.lag, warn=thresholds.warn_lag, crit=thresholds.crit_lag, min=0
            )
        )
        if time_lag and t.max_time_lag_ms is not None:
            perf.append(
                PerfDatum(
                    label=f"{t.group} time_lag",
                    value=t.max_time_lag_ms / 1000,
                    uom="s",
                    warn=_s(thresholds.warn_time_lag_ms),
                    crit=_s(thresholds.crit_time_lag_ms),
                    min=0,
                )
            )
        if (eta := soonest.get(t.group)) is not None:
            perf.append(
                PerfDatum(
                    label=f"{t.group} loss_eta",
                    value=eta / 1000,
                    uom="s",
                    warn=at_most(_s(thresholds.warn_loss_eta_ms)),
                    crit=at_most(_s(thresholds.crit_loss_eta_ms)),
                    min=0,
                )
            )
        if (ms := worst_stale.get(t.group)) is not None:
            warn, crit = _s(thresholds.warn_stale_ms), _s(thresholds.crit_stale_ms)
            perf.append(
                PerfDatum(
                    label=f"{t.group} commit_stale", value=ms / 1000, uom="s", warn=warn, crit=crit, min=0
                )
            )
    # the ETA is named in the text where it alerts: at or below the longer of the two thresholds
    limits = [ms for ms in (thresholds.warn_loss_eta_ms, thresholds.crit_loss_eta_ms) if ms is not None]
    alerts = {g: eta for g, eta in soonest.items() if limits and eta <= max(limits)}
    # the staleness likewise: above the shorter of its thresholds
    stale_limits = [ms for ms in (thresholds.warn_stale_ms, thresholds.crit_stale_ms) if ms is not None]
    stale = {g: ms for g, ms in worst_stale.items() if stale_limits and ms > min(stale_limits)}
    text = nagios_summary(rows, status, problems, time_lag, alerts, stale)
    return nagios_line(SERVICE, status.status, text, perf)


def _s(ms: int | None) -> float | None:
    return None if ms is None else ms / 1000


def prometheus_families(
    rows: Sequence[LagRow],
    status: LagStatus,
    thresholds: LagThresholds,
    now_ms: int,
    members: Mapping[str, int] | None = None,
    *,
    time_lag: bool = False,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
) -> list[MetricFamily]:
    """Metric families (all gauges), prefix ``kafka_offsets_lag_``.

    Per partition (labels group, type, topic, partition): ``partition_lag`` (records),
    ``partition_time_lag_seconds`` (``time_lag``: computed), ``partition_status`` (0-3),
    ``partition_loss_eta_seconds`` (``loss_etas``: each row's data-loss ETA, rows with one),
    ``partition_commit_stale_seconds`` (``stale_ms``: each row's commit staleness, rows with one).
    Per group (labels group, type): ``group_status``, ``group_lag``, ``group_partitions``,
    ``group_lagging_partitions``, ``group_max_time_lag_seconds``, ``group_min_loss_eta_seconds``
    (``loss_etas``: the soonest of the group's partitions, groups with one),
    ``group_max_commit_stale_seconds`` (``stale_ms``: the stalest, groups with one), ``group_members``.
    Run: ``up``, ``status``, ``last_run_timestamp_seconds`` and each threshold set
    (``warn_lag``, ``crit_lag``, ``warn_time_lag_seconds``, ``crit_time_lag_seconds``,
    ``warn_loss_eta_seconds``, ``crit_loss_eta_seconds``, ``warn_commit_stale_seconds``,
    ``crit_commit_stale_seconds``).
    """
    from ..measures.lag.stale import stalest  # here: staleness's rules (~1 ms of import)

    types = {r.group: r.group_type for r in rows if r.group_type is not None}

    def gl(group: str) -> dict[str, str]:
        return group_labels(group, types.get(group))

    def pl(r: LagRow) -> dict[str, str]:
        return {**gl(r.group), "topic": r.topic, "partition": str(r.partition)}

    def seconds(values: Mapping[tuple[str, str, int], int]) -> tuple[Sample, ...]:
        # a value kept beside the rows (ms), for the rows that have one
        return tuple(
            Sample(pl(r), v / 1000)
            for r in rows
            if (v := values.get((r.group, r.topic, r.partition))) is not None
        )

    groups = _group_totals(rows)
    etas, stale = loss_etas or {}, stale_ms or {}
    fams = [
        MetricFamily(
            f"{PREFIX}_partition_lag",
            "The group's lag on the partition (records: end offset - committed offset).",
            samples=tuple(Sample(pl(r), r.lag) for r in rows if r.lag is not None),
        ),
        MetricFamily(
            f"{PREFIX}_partition_time_lag_seconds",
            "Age of the first unconsumed record (ListOffsets bisection; 0 when nothing is left).",
            samples=tuple(
                Sample(pl(r), r.time_lag_ms / 1000) for r in rows if time_lag and r.time_lag_ms is not None
            ),
        ),
        MetricFamily(
            f"{PREFIX}_partition_loss_eta_seconds",
            "Time until retention may delete the first unread record (0: due or already lost).",
            samples=seconds(etas),
        ),
        MetricFamily(
            f"{PREFIX}_partition_commit_stale_seconds",
            "Time the committed offset has not moved while records wait (0: it moved or nothing to read).",
            samples=seconds(stale),
        ),
        MetricFamily(
            f"{PREFIX}_partition_status",
            "Partition status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample(pl(r), int(status.of(r))) for r in rows),
        ),
        MetricFamily(
            f"{PREFIX}_group_status",
            "Group status (its worst partition): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
            samples=tuple(Sample(gl(g), int(s)) for g, s in sorted(status.groups.items())),
        ),
        MetricFamily(
            f"{PREFIX}_group_lag",
            "Sum of the group's lag over its partitions (records).",
            samples=tuple(Sample(gl(t.group), t.lag) for t in groups),
        ),
        MetricFamily(
            f"{PREFIX}_group_partitions",
            "Partitions the group has rows for.",
            samples=tuple(Sample(gl(t.group), t.partitions) for t in groups),
        ),
        MetricFamily(
            f"{PREFIX}_group_lagging_partitions",
            "Partitions with records left to consume (or below the log start).",
            samples=tuple(Sample(gl(t.group), t.lagging) for t in groups),
        ),
        MetricFamily(
            f"{PREFIX}_group_max_time_lag_seconds",
            "Largest time lag among the group's partitions.",
            samples=tuple(
                Sample(gl(t.group), t.max_time_lag_ms / 1000)
                for t in groups
                if time_lag and t.max_time_lag_ms is not None
            ),
        ),
        MetricFamily(
            f"{PREFIX}_group_min_loss_eta_seconds",
            "Soonest data-loss ETA among the group's partitions (0: due or already lost).",
            samples=tuple(Sample(gl(g), eta / 1000) for g, eta in sorted(soonest_loss_etas(etas).items())),
        ),
        MetricFamily(
            f"{PREFIX}_group_max_commit_stale_seconds",
            "Largest commit staleness among the group's partitions.",
            samples=tuple(Sample(gl(g), ms / 1000) for g, ms in sorted(stalest(stale).items())),
        ),
        MetricFamily(
            f"{PREFIX}_group_members",
            "Active members of the group, as the coordinator describes it.",
            samples=tuple(Sample(gl(g), n) for g, n in sorted((members or {}).items())),
        ),
    ]
    for name, value, what in (
        ("warn_lag", thresholds.warn_lag, "Warning lag threshold (records)."),
        ("crit_lag", thresholds.crit_lag, "Critical lag threshold (records)."),
        ("warn_time_lag_seconds", _s(thresholds.warn_time_lag_ms), "Warning time-lag threshold."),
        ("crit_time_lag_seconds", _s(thresholds.crit_time_lag_ms), "Critical time-lag threshold."),
        ("warn_loss_eta_seconds", _s(thresholds.warn_loss_eta_ms), "Warning data-loss ETA threshold."),
        ("crit_loss_eta_seconds", _s(thresholds.crit_loss_eta_ms), "Critical data-loss ETA threshold."),
        ("warn_commit_stale_seconds", _s(thresholds.warn_stale_ms), "Warning commit staleness threshold."),
        ("crit_commit_stale_seconds", _s(thresholds.crit_stale_ms), "Critical commit staleness threshold."),
    ):
        samples: Any = (Sample({}, value),) if value is not None else ()
        fams.append(MetricFamily(f"{PREFIX}_{name}", what, samples=samples))
    return status_families(PREFIX, status.status, now_ms) + fams


def prometheus(
    rows: Sequence[LagRow],
    status: LagStatus,
    thresholds: LagThresholds,
    now_ms: int,
    labels: Mapping[str, str] | None = None,
    members: Mapping[str, int] | None = None,
    *,
    time_lag: bool = False,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
    compat: tuple[Compat, ...] = (),
    owners: Mapping[tuple[str, str, int], Member] | None = None,
) -> str:
    """The textfile-collector text of :func:`prometheus_families`, each series with ``labels``,
    then the ``compat`` alias families (:mod:`.lag_compat`; ``owners``: ``--members``)."""
    families = prometheus_families(
        rows, status, thresholds, now_ms, members, time_lag=time_lag, loss_etas=loss_etas, stale_ms=stale_ms
    )
    cluster_name = (labels or {}).get("cluster", "")
    families += compat_families(rows, compat, members, owners, cluster_name=cluster_name, time_lag=time_lag)
    return prometheus_text(families, labels)


def prometheus_down(status: MonitoringStatus, now_ms: int, labels: Mapping[str, str] | None = None) -> str:
    """The textfile written when the cluster could not be asked: ``up 0`` and the status (UNKNOWN)."""
    return prometheus_text(status_families(PREFIX, status, now_ms, up=False), labels)
