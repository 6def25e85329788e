"""A lag check's data-loss ETA (``warn_loss_eta``, ``crit_loss_eta``, ``loss_eta``): the spec, the
plan's one DescribeConfigs, the task's ETA by lag's rule, and the record's status (no broker)."""

from __future__ import annotations

import time

import pytest

from kafka_offsets_cli.check.collect import LagSample, unit_samples
from kafka_offsets_cli.check.evaluate import EvalContext, evaluate_sample
from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.check.plan import plan_checks
from kafka_offsets_cli.errors import MonitoringStatus, SpecFileError
from kafka_offsets_cli.measures.lag.rows import LagState
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from tests.unit.fake_cluster import topic
from tests.unit.measures.test_lag_loss import TimedCluster


def _lag_check(keys: str) -> str:
    head = "clusters: {c: {bootstrap_servers: 'h:1'}}\nchecks:\n"
    return head + f"  - {{name: x, type: lag, groups: [g], {keys}}}\n"


def test_loss_eta_thresholds_turn_the_eta_and_the_time_lag_on() -> None:
    c = parse_spec_text(_lag_check("warn_loss_eta: 2d, crit_loss_eta: 1h"), environ={}).lag_checks[0]
    assert (c.warn_loss_eta_ms, c.crit_loss_eta_ms, c.loss_eta, c.time_lag) == (
        172_800_000,
        3_600_000,
        True,
        True,
    )
    plain = parse_spec_text(_lag_check("loss_eta: true"), environ={}).lag_checks[0]
    assert (plain.loss_eta, plain.time_lag, plain.warn_loss_eta_ms) == (True, True, None)
    assert not parse_spec_text(_lag_check("warn_lag: 1"), environ={}).lag_checks[0].loss_eta


def test_a_critical_eta_longer_than_the_warning_one_or_an_eta_turned_off_is_a_problem() -> None:
    with pytest.raises(SpecFileError, match=r"crit_loss_eta: must not exceed warn_loss_eta"):
        parse_spec_text(_lag_check("warn_loss_eta: 1h, crit_loss_eta: 2h"), environ={})
    with pytest.raises(SpecFileError, match=r"loss_eta: cannot be false with a loss-ETA threshold"):
        parse_spec_text(_lag_check("crit_loss_eta: 1h, loss_eta: false"), environ={})


def _orders(configs: dict[str, str], age_ms: int, size: int | None = None) -> TimedCluster:
    """One partition, offsets 0-1000, offset o written at (now - ``age_ms``) + o s, ``size`` bytes on
    disk; group g at 400."""
    tp = TopicPartition("orders", 0)
    return TimedCluster(
        ClusterMetadata({"orders": topic("orders", 1)}),
        {tp: (0, 1000)},
        [GroupOffsets("g", {tp: 400})],
        configs={"orders": configs},
        base=int(time.time() * 1000) - age_ms,
        sizes={tp: size} if size is not None else {},
    )


def test_the_task_gives_each_row_lags_eta_from_the_retention_planning_read() -> None:
    configs = {"orders": {"retention.ms": "3600000", "cleanup.policy": "delete"}}
    source = _orders(configs["orders"], 3_600_000)
    spec = parse_spec_text(_lag_check("crit_loss_eta: 10m"), environ={})
    [unit] = plan_checks(spec, lambda _name: source).units
    assert source.config_calls == [(("orders",), ("retention.ms", "retention.bytes", "cleanup.policy",
                                                   "remote.storage.enable"))]  # fmt: skip
    assert dict(unit.loss_configs) == {"orders": configs["orders"]}
    [sample] = [s for s in unit_samples(source, unit) if isinstance(s, LagSample)]
    # M(400) = base + 400 s: 400 s of the hour of retention left when the task read it
    assert sample.loss_eta_ms is not None and 390_000 < sample.loss_eta_ms <= 400_000
    ctx = EvalContext({c.name: c for c in spec.checks}, {}, {("c", "g", "orders"): ("x",)}, 0)
    [rec] = evaluate_sample(sample, ctx)
    assert (rec.loss_eta_ms, rec.status) == (sample.loss_eta_ms, MonitoringStatus.CRITICAL)  # within 10m
    assert sample.row.state is LagState.OK


def test_a_check_without_the_eta_reads_no_retention_and_records_none() -> None:
    tp = TopicPartition("orders", 0)
    source = TimedCluster(
        ClusterMetadata({"orders": topic("orders", 1)}),
        {tp: (0, 1000)},
        [GroupOffsets("g", {tp: 400})],
        configs={},
        base=0,
    )
    spec = parse_spec_text(_lag_check("warn_lag: 1"), environ={})
    [unit] = plan_checks(spec, lambda _name: source).units
    assert source.config_calls == [] and unit.loss_configs == {}
    ctx = EvalContext({c.name: c for c in spec.checks}, {}, {("c", "g", "orders"): ("x",)}, 0)
    sample = LagSample("c", next(s for s in unit_samples(source, unit) if isinstance(s, LagSample)).row, 5)
    [rec] = evaluate_sample(sample, ctx)
    assert rec.loss_eta_ms is None and rec.status is MonitoringStatus.WARNING  # lag 600 > 1


def test_the_task_sizes_its_size_limited_partitions_as_lag_does() -> None:
    tp = TopicPartition("orders", 0)
    configs = {"retention.ms": "-1", "retention.bytes": "1800", "cleanup.policy": "delete"}
    source = _orders(configs, 1_000_000, size=1000)  # the commit at 400 is 600 s old
    spec = parse_spec_text(_lag_check("loss_eta: true"), environ={})
    [unit] = plan_checks(spec, lambda _name: source).units
    [sample] = [s for s in unit_samples(source, unit) if isinstance(s, LagSample)]
    # 600 of the 1000 bytes after the commit (600 s old, a little more by the time the task reads),
    # 1200 more to the 1800 at 1 byte/s: lag's size bound
    assert source.sizes_asked == [{tp: 1}]
    assert sample.loss_eta_ms is not None and 1_200_000 <= sample.loss_eta_ms < 1_210_000
