"""The data-loss ETA in lag's monitoring output (pure): the soonest per group as nagios perfdata (its
thresholds as ranges alerting at or below them) and in the summary text where it alerts, and the
per-group Prometheus series ``kafka_offsets_lag_group_min_loss_eta_seconds``."""

from __future__ import annotations

from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.lag.monitor import LagThresholds, lag_statuses
from kafka_offsets_cli.lag.summary import soonest_loss_etas
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.render import lag_metrics
from kafka_offsets_cli.render.monitoring import PerfDatum, at_most, parse_prometheus_text

HOUR = 3_600_000


def row(group: str, partition: int, lag: int, group_type: str | None = None) -> LagRow:
    return LagRow(
        group=group,
        group_type=group_type,
        topic="orders",
        partition=partition,
        committed=100 - lag,
        log_start=0,
        end=100,
        lag=lag,
        time_lag_ms=None,
        state=LagState.OK,
    )


ROWS = [row("a", 0, 5, "consumer"), row("a", 1, 7, "consumer"), row("b", 0, 3), row("c", 0, 0)]
# a: 2 h and 20 min (soonest 20 min); b: 5 h; c: nothing left to read, no ETA
ETAS = {("a", "orders", 0): 2 * HOUR, ("a", "orders", 1): HOUR // 3, ("b", "orders", 0): 5 * HOUR}


def test_each_groups_soonest() -> None:
    assert soonest_loss_etas(ETAS) == {"a": HOUR // 3, "b": 5 * HOUR}
    assert soonest_loss_etas({}) == {}


def test_at_most_is_the_guidelines_range_alerting_at_or_below() -> None:
    assert at_most(None) is None
    assert at_most(3600) == "@~:3600"
    assert at_most(0.5) == "@~:0.5"
    datum = PerfDatum(label="a loss_eta", value=1200.0, uom="s", warn=at_most(3600), crit=at_most(600), min=0)
    assert datum.render() == "'a loss_eta'=1200s;@~:3600;@~:600;0"
    assert PerfDatum(label="x", value=1, warn=5).render() == "x=1;5"  # numbers as before


def test_nagios_perfdata_and_text_carry_the_soonest_eta() -> None:
    t = LagThresholds(warn_loss_eta_ms=HOUR, crit_loss_eta_ms=HOUR // 6)
    status = lag_statuses(ROWS, (), t, loss_etas=ETAS)
    assert status.groups["a"] is MonitoringStatus.WARNING  # 20 min: at or below 1 h, above 10 min
    line = lag_metrics.nagios(ROWS, status, t, loss_etas=ETAS)
    text, perf = line.rstrip("\n").split(" | ")
    assert (
        text == "KAFKA LAG WARNING - 3 group(s), 4 partition(s): 1 warning; a WARNING lag 12 loss ETA 20m 00s"
    )
    assert perf == " ".join(
        [
            "'a lag'=12;;;0",
            "'a loss_eta'=1200s;@~:3600;@~:600;0",
            "'b lag'=3;;;0",
            "'b loss_eta'=18000s;@~:3600;@~:600;0",
            "'c lag'=0;;;0",
        ]
    )
    # without --loss-eta no ETA anywhere, as before
    plain = lag_metrics.nagios(ROWS, lag_statuses(ROWS, (), LagThresholds()), LagThresholds())
    assert "loss" not in plain


def test_the_text_names_the_eta_only_where_it_alerts() -> None:
    # a at WARNING by its lag (7 > 6); its ETA (20 min) is above the loss threshold: not the reason, not named
    t = LagThresholds(warn_lag=6, crit_loss_eta_ms=HOUR // 6)
    status = lag_statuses(ROWS, (), t, loss_etas=ETAS)
    line = lag_metrics.nagios(ROWS, status, t, loss_etas=ETAS)
    assert "; a WARNING lag 12 |" in line
    assert "'a loss_eta'=1200s;;@~:600;0" in line  # the warning threshold not set: empty
    # without a loss-ETA threshold the ETA is perfdata only
    t = LagThresholds(warn_lag=10)
    line = lag_metrics.nagios(ROWS, lag_statuses(ROWS, (), t), t, loss_etas=ETAS)
    assert "loss ETA" not in line and "'a loss_eta'=1200s;;;0" in line


def test_prometheus_group_min_loss_eta_series() -> None:
    t = LagThresholds()
    status = lag_statuses(ROWS, (), t, loss_etas=ETAS)
    got = parse_prometheus_text(
        lag_metrics.prometheus(ROWS, status, t, 1_000, {"cluster": "k"}, loss_etas=ETAS)
    )
    assert got["kafka_offsets_lag_group_min_loss_eta_seconds"] == [
        ({"cluster": "k", "group": "a", "type": "consumer"}, 1200.0),
        ({"cluster": "k", "group": "b"}, 18000.0),
    ]  # c has no ETA: no series
    # the group's series is its partitions' minimum
    parts = got["kafka_offsets_lag_partition_loss_eta_seconds"]
    assert min(v for labels, v in parts if labels["group"] == "a") == 1200.0
    plain = lag_metrics.prometheus(ROWS, lag_statuses(ROWS, (), t), t, 1_000, {"cluster": "k"})
    assert "loss_eta" not in plain
