"""Lag as a monitor (pure): one status rule with ``check``, roll-ups, shown states, nagios and Prometheus."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.check.collect import LagSample
from kafka_offsets_cli.check.evaluate import EvalContext, evaluate_sample
from kafka_offsets_cli.check.spec import LagCheck
from kafka_offsets_cli.errors import MonitoringStatus, UsageError
from kafka_offsets_cli.lag.monitor import LagThresholds, lag_statuses, parse_thresholds, shown_state
from kafka_offsets_cli.lag.summary import trend
from kafka_offsets_cli.measures.lag.rows import GroupProblem, LagRow, LagState
from kafka_offsets_cli.models.groups import GroupDescription
from kafka_offsets_cli.render import lag_metrics
from kafka_offsets_cli.render.lag_summary import summary_records, summary_table
from kafka_offsets_cli.render.monitoring import constant_labels, parse_prometheus_text

S = MonitoringStatus


def row(
    group: str, partition: int, lag: int | None, time_lag_ms: int | None = None, state: LagState = LagState.OK
) -> LagRow:
    return LagRow(
        group=group,
        topic="orders",
        partition=partition,
        committed=None if lag is None else 100 - lag,
        log_start=0,
        end=100,
        lag=lag,
        time_lag_ms=time_lag_ms,
        state=state,
        error="NOT_LEADER_OR_FOLLOWER" if state is LagState.ERROR else None,
    )


ROWS = [
    row("a", 0, 0, 0),
    row("a", 1, 50, 30_000),
    row("a", 2, 500, 3_600_000),
    row("b", 0, None, state=LagState.BELOW_START),
    row("c", 0, None, state=LagState.NO_COMMIT),
    row("d", 0, None, state=LagState.ERROR),
    row("e", 0, 1, 0, state=LagState.MARKER),
    row("f", 0, 40, None),  # time lag not computed: not compared
]
THRESHOLDS = [
    LagThresholds(),
    LagThresholds(warn_lag=10, crit_lag=100),
    LagThresholds(warn_lag=50, crit_lag=500),
    LagThresholds(warn_time_lag_ms=60_000, crit_time_lag_ms=7_200_000),
    LagThresholds(warn_lag=1000, crit_time_lag_ms=10_000),
]


@pytest.mark.parametrize("t", THRESHOLDS)
def test_lag_and_check_give_every_row_the_same_status(t: LagThresholds) -> None:
    check = LagCheck(
        name="c", clusters=("k",), groups=(".*",), time_lag=True, warn_lag=t.warn_lag, crit_lag=t.crit_lag,
        warn_time_lag_ms=t.warn_time_lag_ms, crit_time_lag_ms=t.crit_time_lag_ms,
    )  # fmt: skip
    ctx = EvalContext(
        checks={"c": check},
        live_routes={},
        lag_routes={("k", r.group, r.topic): ("c",) for r in ROWS},
        now_ms=0,
    )
    ours = lag_statuses(ROWS, (), t)
    for r in ROWS:
        [rec] = evaluate_sample(LagSample("k", r), ctx)
        assert rec.status is ours.of(r), r


def test_statuses_roll_up_to_groups_and_the_run() -> None:
    t = LagThresholds(warn_lag=10, crit_lag=100)
    got = lag_statuses(ROWS, [GroupProblem("gone", "GROUP_ID_NOT_FOUND"), GroupProblem("idle", None)], t)
    assert got.groups == {
        "a": S.CRITICAL, "b": S.CRITICAL, "c": S.WARNING, "d": S.UNKNOWN, "e": S.OK, "f": S.WARNING,
        "gone": S.UNKNOWN, "idle": S.WARNING,
    }  # fmt: skip
    assert got.status is S.CRITICAL
    assert (got.count(S.CRITICAL), got.count(S.WARNING), got.count(S.UNKNOWN)) == (2, 3, 1)
    only_ok = lag_statuses([ROWS[0]], (), t)
    assert only_ok.status is S.OK
    assert lag_statuses([ROWS[0]], (), t, missing=1).status is S.UNKNOWN


def test_shown_state_never_says_ok_beside_a_lag() -> None:
    assert shown_state(ROWS[0]) == "ok"
    assert shown_state(ROWS[1]) == "lagging"
    assert shown_state(ROWS[1], S.OK) == "lagging"
    assert shown_state(ROWS[1], S.WARNING) == "warning"
    assert shown_state(ROWS[2], S.CRITICAL) == "critical"
    assert shown_state(ROWS[3], S.CRITICAL) == "below-start"
    assert shown_state(ROWS[6]) == "marker"


def test_threshold_options() -> None:
    t = parse_thresholds(5, 10, "1m", "1h")
    assert (t.warn_lag, t.crit_lag, t.warn_time_lag_ms, t.crit_time_lag_ms) == (5, 10, 60_000, 3_600_000)
    assert t.given and t.on_time
    assert not parse_thresholds(None, None, None, None).given
    assert not parse_thresholds(1, None, None, None).on_time
    with pytest.raises(UsageError, match="--warn-lag 10 is above --crit-lag 5"):
        parse_thresholds(10, 5, None, None)
    with pytest.raises(UsageError, match="--warn-time-lag 2h is longer than --crit-time-lag 1h"):
        parse_thresholds(None, None, "2h", "1h")


def test_nagios_line() -> None:
    rows = ROWS[:3]
    t = LagThresholds(warn_lag=10, crit_lag=100, warn_time_lag_ms=60_000)
    line = lag_metrics.nagios(rows, lag_statuses(rows, (), t), t, time_lag=True)
    assert line == (
        "KAFKA LAG CRITICAL - 1 group(s), 3 partition(s): 1 warning, 1 critical;"
        " a CRITICAL lag 550 time lag 1h 00m | 'a lag'=550;10;100;0 'a time_lag'=3600s;60;;0\n"
    )


def test_an_unknown_group_on_the_nagios_line_names_its_partitions_errors() -> None:
    rows = [row("g", 0, 5), row("g", 1, None, state=LagState.ERROR), row("g", 2, None, state=LagState.ERROR)]
    t = LagThresholds()
    line = lag_metrics.nagios(rows, lag_statuses(rows, (), t), t)
    assert line.startswith(
        "KAFKA LAG UNKNOWN - 1 group(s), 3 partition(s): 2 unknown;"
        " g UNKNOWN lag 5 (2 x NOT_LEADER_OR_FOLLOWER)"
    ), line


def test_prometheus_metrics() -> None:
    t = LagThresholds(crit_lag=100)
    rows = ROWS[:4]
    text = lag_metrics.prometheus(
        rows, lag_statuses(rows, (), t), t, 1_800_000_000_000, {"cluster": "k"}, {"a": 2}
    )
    got = parse_prometheus_text(text)
    assert got["kafka_offsets_lag_status"] == [({"cluster": "k"}, 2.0)]
    assert got["kafka_offsets_lag_group_status"] == [
        ({"cluster": "k", "group": "a"}, 2.0),
        ({"cluster": "k", "group": "b"}, 2.0),
    ]
    assert got["kafka_offsets_lag_group_lag"] == [
        ({"cluster": "k", "group": "a"}, 550.0),
        ({"cluster": "k", "group": "b"}, 0.0),
    ]
    assert got["kafka_offsets_lag_group_members"] == [({"cluster": "k", "group": "a"}, 2.0)]
    assert got["kafka_offsets_lag_crit_lag"] == [({"cluster": "k"}, 100.0)]
    assert "kafka_offsets_lag_warn_lag" not in got  # not set: no series
    assert "kafka_offsets_lag_partition_time_lag_seconds" not in got  # time lag not computed
    assert len(got["kafka_offsets_lag_partition_status"]) == 4


def test_prometheus_series_carry_the_group_type_where_the_brokers_listed_it() -> None:
    t = LagThresholds()
    rows = [row("a", 0, 5).evolve(group_type="share"), row("b", 0, 1)]  # b: a type nobody listed
    got = parse_prometheus_text(lag_metrics.prometheus(rows, lag_statuses(rows, (), t), t, 0, None, {"a": 1}))
    assert got["kafka_offsets_lag_partition_lag"] == [
        ({"group": "a", "type": "share", "topic": "orders", "partition": "0"}, 5.0),
        ({"group": "b", "topic": "orders", "partition": "0"}, 1.0),
    ]
    for family in (
        "group_status",
        "group_lag",
        "group_partitions",
        "group_lagging_partitions",
        "group_members",
    ):
        assert got[f"kafka_offsets_lag_{family}"][0][0] == {"group": "a", "type": "share"}
    with pytest.raises(UsageError, match="already use label 'type'"):
        constant_labels("k", ["type=x"], reserved=lag_metrics.SERIES_LABELS)


def test_trend_of_a_group_under_watch() -> None:
    assert trend(None, 5.0) is None and trend(5.0, None) is None
    assert trend(0.0, 0.0) == "steady"
    assert trend(100.0, 95.0) == "steady"  # within 10 %
    assert trend(100.0, 150.0) == "catching-up"
    assert trend(100.0, 50.0) == "falling-behind"


def test_summary_records_one_per_group() -> None:
    t = LagThresholds(crit_lag=100)
    rows = ROWS[:4]
    status = lag_statuses(rows, [GroupProblem("idle", None)], t)
    groups = {"a": GroupDescription("a", "stable", 2), "b": GroupDescription("b", None, 0, error="X")}
    recs = summary_records(rows, [GroupProblem("idle", None)], groups, status, {"a": "consumer"},
                           rates={"a": (10.0, 20.0)})  # fmt: skip
    assert [
        (r["group"], r["group_state"], r["group_type"], r["members"], r["partitions"], r["lag"], r["lagging"])
        for r in recs
    ] == [
        ("a", "stable", "consumer", 2, 3, 550, 2),
        ("b", None, None, None, 1, 0, 1),
        ("idle", None, None, None, 0, 0, 0),
    ]
    assert [(r["status"], r["trend"]) for r in recs] == [
        ("critical", "catching-up"),
        ("critical", None),
        ("warning", None),
    ]
    assert recs[0]["max_time_lag_ms"] is None  # time lag not computed for the run


def test_summary_table_says_lagging_for_an_ok_group_with_records_left() -> None:
    """Without thresholds (or below them) a group with lag is ``lagging``, never ``ok`` beside a big lag;
    the records keep the monitoring status."""
    rows = [r for r in ROWS if r.group in ("a", "b", "e")]
    for t in (LagThresholds(), LagThresholds(crit_lag=1000)):
        recs = summary_records(rows, [], {}, lag_statuses(rows, [], t))
        cells = summary_table(recs).cells()
        assert [r["status"] for r in recs][::2] == ["ok", "ok"]
        # a: records left; b: below the log start, its status (not OK) as it is; e: a marker only
        assert [(c[0], str(c[-1])) for c in cells] == [
            ("a", "lagging"),
            ("b", recs[1]["status"]),
            ("e", "ok"),
        ]
        assert recs[1]["status"] != "ok"
    recs = summary_records(rows, [], {}, lag_statuses(rows, [], LagThresholds(warn_lag=10)))
    assert str(summary_table(recs).cells()[0][-1]) == "warning"  # a threshold passed: the status
