"""Evaluate samples with the shared rules (pure; no pyspark).

Per record: each check's rule (:func:`check_rules`: the decision lists
:func:`kafka_offsets_cli.measures.liveness.liveness_rule` and
:func:`kafka_offsets_cli.measures.lag.rule.lag_rule`, with the check's thresholds), routed to the
record by :class:`EvalContext`'s routes. In Python :func:`evaluate_sample` applies them through
:func:`~kafka_offsets_cli.measures.liveness.liveness_row`,
:func:`~kafka_offsets_cli.measures.liveness.row_status` and
:func:`~kafka_offsets_cli.measures.lag.rule.lag_status` (computed from those rules, as
``liveness`` and ``lag``); Spark's ``check`` compiles the same rules into one JVM ``select``
(:mod:`kafka_offsets_cli.spark.decide`), each sample carrying the index of its route
(:class:`RouteIndex`), computed in the task that collected it.
Per roll-up (:mod:`.rollups`, from statistics declared once in :mod:`kafka_offsets_cli.tally`):
:func:`~kafka_offsets_cli.measures.liveness.status_at` and
:func:`~kafka_offsets_cli.measures.liveness_age.age_of` per liveness topic (as ``kafka-offsets
liveness``), :data:`kafka_offsets_cli.measures.lag.rows.TOTAL_STATS` per lag group (as ``lag``),
:func:`kafka_offsets_cli.check.history.group_history` for the history, and
:func:`~kafka_offsets_cli.severity.worst` for every status roll-up. Nothing is
decided here that those modules do not decide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..decide import Rule
from ..errors import MonitoringStatus
from ..measures.lag.rule import lag_rule, lag_status
from ..measures.liveness import liveness_row, liveness_rule, row_status
from ..parse.durations import format_duration
from ..severity import worst
from .collect import LiveSample
from .collect import Sample as CollectSample
from .history import HistoryStatus, PartitionHistory, Sample, evaluate_partition
from .records import PartitionRecord
from .report import CheckResult, GroupResult, TopicResult
from .rollups import group_rollup, topic_rollup
from .spec import CheckDefinition, LagCheck, LivenessCheck

__all__ = [
    "EvalContext",
    "RouteIndex",
    "check_result",
    "check_rules",
    "evaluate_history",
    "evaluate_sample",
    "group_rollup",
    "topic_rollup",
]


@dataclass(frozen=True)
class EvalContext:
    """What evaluation needs: checks, routes (plan data), the run's clock."""

    checks: Mapping[str, CheckDefinition]
    live_routes: Mapping[tuple[str, str], tuple[str, ...]]
    lag_routes: Mapping[tuple[str, str, str], tuple[str, ...]]
    now_ms: int


def check_rules(checks: Iterable[CheckDefinition], now_ms: int) -> dict[str, Rule]:
    """Each check's per-record rule at the run's clock ``now_ms``: a liveness check's
    :data:`~kafka_offsets_cli.measures.liveness.LIVE_OUTPUTS`, a lag check's ``status`` (of the
    record's ``time_lag_ms``, null for a check without ``time_lag``)."""
    out: dict[str, Rule] = {}
    for c in checks:
        if isinstance(c, LivenessCheck):
            out[c.name] = liveness_rule(now_ms, c.warn_ms, c.crit_ms, c.future_tolerance_ms)
        else:
            out[c.name] = lag_rule(**c.thresholds())
    return out


@dataclass(frozen=True)
class RouteIndex:
    """The routes as numbers: ``names[i]`` the checks of route ``i`` (0: none), a sample's route
    by its (cluster, topic) or (cluster, group, topic) in ``live`` or ``lag``. Plan data."""

    names: tuple[tuple[str, ...], ...]
    live: Mapping[tuple[str, str], int]
    lag: Mapping[tuple[str, str, str], int]

    @classmethod
    def of(
        cls,
        live_routes: Mapping[tuple[str, str], tuple[str, ...]],
        lag_routes: Mapping[tuple[str, str, str], tuple[str, ...]],
    ) -> RouteIndex:
        """The index of the plan's routes (:class:`EvalContext`'s, without a clock)."""
        distinct = sorted({*live_routes.values(), *lag_routes.values()} - {()})
        number = {names: i for i, names in enumerate(distinct, 1)}
        return cls(
            ((), *distinct),
            {k: number[v] for k, v in live_routes.items() if v},
            {k: number[v] for k, v in lag_routes.items() if v},
        )

    def route(self, sample: CollectSample) -> int:
        """The number of the checks routing ``sample`` (0: none)."""
        if isinstance(sample, LiveSample):
            return self.live.get((sample.cluster, sample.result.topic), 0)
        return self.lag.get((sample.cluster, sample.row.group, sample.row.topic), 0)


def evaluate_sample(sample: CollectSample, ctx: EvalContext) -> list[PartitionRecord]:
    """Every check's record for one sample (none when no check routes it), in Python (tests, the
    reference the JVM's records are compared with)."""
    out: list[PartitionRecord] = []
    if isinstance(sample, LiveSample):
        r = sample.result
        for name in ctx.live_routes.get((sample.cluster, r.topic), ()):
            c = ctx.checks[name]
            assert isinstance(c, LivenessCheck)
            live = liveness_row(r, ctx.now_ms, c.warn_ms, c.crit_ms, c.future_tolerance_ms)
            record = PartitionRecord.measured(
                live, check=name, kind="liveness", cluster=sample.cluster, status=row_status(live), group=None
            )
            out.append(record)
        return out
    row = sample.row
    for name in ctx.lag_routes.get((sample.cluster, row.group, row.topic), ()):
        c = ctx.checks[name]
        assert isinstance(c, LagCheck)
        r2 = row if c.time_lag else replace(row, time_lag_ms=None)
        eta = sample.loss_eta_ms if c.loss_eta else None
        status = lag_status(r2, **c.thresholds(), loss_eta_ms=eta)
        record = PartitionRecord.measured(
            r2, check=name, kind="lag", cluster=sample.cluster, status=status, loss_eta_ms=eta
        )
        out.append(record)
    return out


def evaluate_history(
    key: tuple[str, str, str, int],
    samples: Iterable[Sample],
    checks: Sequence[LagCheck],
    now_ms: int,
    owned: bool | None,
) -> list[tuple[tuple[str, str, str, str, int], PartitionHistory]]:
    """Burrow's verdict on one (cluster, group, topic, partition) for each lag check routing it.

    Returns ((check, cluster, group, topic, partition), verdict) pairs.
    """
    cluster, group, topic, partition = key
    ordered = sorted(samples)
    return [
        (
            (c.name, cluster, group, topic, partition),
            evaluate_partition(ordered, c.history, now_ms=now_ms, owned=owned),
        )
        for c in checks
    ]


def check_result(
    check: CheckDefinition,
    problems: Sequence[str],
    states: Mapping[str, int],
    partitions: int,
    topics: Sequence[TopicResult] = (),
    groups: Sequence[GroupResult] = (),
) -> CheckResult:
    """A check's verdict: the worst topic or group, UNKNOWN when planning found a problem."""
    statuses = [t.status for t in topics] + [g.status for g in groups]
    if problems:
        statuses.append(MonitoringStatus.UNKNOWN)
    if not topics and not groups and not problems:
        statuses.append(MonitoringStatus.UNKNOWN)
        problems = [*problems, "nothing to evaluate"]
    status = worst(statuses)
    return CheckResult(
        name=check.name,
        type=check.type,
        status=status,
        clusters=check.clusters,
        partitions=partitions,
        states=dict(states),
        summary=_summary(check, status, topics, groups, problems),
        problems=tuple(problems),
        topics=tuple(sorted(topics, key=lambda t: (t.cluster, t.topic))),
        groups=tuple(sorted(groups, key=lambda g: (g.cluster, g.group))),
    )


def _summary(
    check: CheckDefinition,
    status: MonitoringStatus,
    topics: Sequence[TopicResult],
    groups: Sequence[GroupResult],
    problems: Sequence[str],
) -> str:
    parts: list[str] = []
    if isinstance(check, LivenessCheck):
        bad = [t for t in topics if t.status is not MonitoringStatus.OK]
        parts.append(f"{len(topics) - len(bad)}/{len(topics)} topics ok")
        for t in sorted(bad, key=lambda t: -(t.age_ms or 0))[:3]:
            what = t.error or (f"age {format_duration(t.age_ms)}" if t.age_ms is not None else "no age")
            parts.append(f"{t.cluster}/{t.topic} {t.status.name} ({what}, {t.alive}/{t.partitions} alive)")
    else:
        bad_groups = [g for g in groups if g.status is not MonitoringStatus.OK]
        parts.append(f"{len(groups) - len(bad_groups)}/{len(groups)} groups ok")
        for g in sorted(bad_groups, key=lambda g: -g.lag)[:3]:
            facts = [f"lag {g.lag}"]
            if g.max_time_lag_ms is not None:
                facts.append(f"time lag {format_duration(g.max_time_lag_ms)}")
            if g.history and g.history not in (HistoryStatus.OK.value, HistoryStatus.INCOMPLETE.value):
                facts.append(g.history.upper())
            if g.error:
                facts = [g.error]
            parts.append(f"{g.cluster}/{g.group} {g.status.name} ({', '.join(facts)})")
    parts += list(problems[:3])
    return "; ".join(parts)
