"""Pure pieces of `kafka-offsets check`: chunk selections, per-record rules, roll-ups, renderers.

No broker and no Spark: these are the functions Spark tasks call, fed with data.
"""

from __future__ import annotations

import json

from kafka_offsets_cli.check.collect import LagSample, LiveSample
from kafka_offsets_cli.check.evaluate import (
    EvalContext,
    check_result,
    evaluate_sample,
    group_rollup,
    topic_rollup,
)
from kafka_offsets_cli.check.history import HistoryStatus, PartitionHistory
from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.check.plan import chunk_selection
from kafka_offsets_cli.check.records import RECORD_KEYS, PartitionRecord
from kafka_offsets_cli.check.report import CheckReport
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.resolve import resolve
from kafka_offsets_cli.render import check as render
from kafka_offsets_cli.render import check_monitoring
from kafka_offsets_cli.render.check_compat import check_compat_text
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from kafka_offsets_cli.render.offset_compat import Compat

NOW = 1_800_000_000_000
MIN = 60_000

SPEC = parse_spec_text(
    """
clusters: {c: {bootstrap_servers: 'h:1'}}
checks:
  - {name: live, type: liveness, topics: ['t.*'], warn: 5m, crit: 15m, min_alive: 2}
  - {name: lag, type: lag, groups: [g], warn_lag: 10, crit_lag: 100, warn_time_lag: 1m, crit_time_lag: 5m}
  - {name: lag-no-time, type: lag, groups: [g], crit_lag: 5}
""",
    environ={},
)
LIVE, LAG, LAG_NO_TIME = SPEC.checks
CTX = EvalContext(
    {c.name: c for c in SPEC.checks},
    {("c", "t1"): ("live",)},
    {("c", "g", "t1"): ("lag", "lag-no-time")},
    NOW,
)


def max_ts(partition: int, ts: int | None, *, offset: int | None = 5, error: str | None = None) -> LiveSample:
    spec = OffsetSpec.max_timestamp()
    return LiveSample(
        "c", OffsetResult("t1", partition, spec, offset if ts is not None else None, ts, error=error)
    )


def lag_sample(
    partition: int, lag: int | None, time_lag: int | None, state: LagState = LagState.OK
) -> LagSample:
    committed = None if lag is None else 100 - lag
    return LagSample(
        "c",
        LagRow(
            group="g",
            topic="t1",
            partition=partition,
            committed=committed,
            log_start=0,
            end=100,
            lag=lag,
            time_lag_ms=time_lag,
            state=state,
        ),
    )


# --------------------------------------------------------------------------- plan helpers


def test_chunk_selection_selects_exactly_the_chunk() -> None:
    from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo

    tps = [TopicPartition("a.b", p) for p in (0, 1, 2, 5, 7, 8)] + [TopicPartition("c", 3)]
    sel = chunk_selection(tps)
    md = ClusterMetadata(
        {
            name: TopicInfo(name, tuple(PartitionInfo(name, p, 1) for p in range(10)))
            for name in ("a.b", "axb", "c")
        }
    )
    assert [str(r) for r in sel.rules] == [r"(?:a\.b):0-3,5,7-9", "(?:c):3"]
    assert sel.literal_topics() is None  # exact patterns, not literal names: no rows on untouched topics
    assert set(resolve(sel, md).partitions) == set(tps)


# --------------------------------------------------------------------------- per record


def test_liveness_records_use_the_liveness_rules() -> None:
    [ok] = evaluate_sample(max_ts(0, NOW - MIN), CTX)
    [warn] = evaluate_sample(max_ts(1, NOW - 10 * MIN), CTX)
    [crit] = evaluate_sample(max_ts(2, NOW - 20 * MIN), CTX)
    [empty] = evaluate_sample(max_ts(3, None), CTX)
    [err] = evaluate_sample(max_ts(4, None, error="NOT_LEADER_OR_FOLLOWER"), CTX)
    assert [(r.state, r.status) for r in (ok, warn, crit, empty, err)] == [
        ("ok", MonitoringStatus.OK),
        ("warning", MonitoringStatus.WARNING),
        ("critical", MonitoringStatus.CRITICAL),
        ("empty", MonitoringStatus.OK),  # the liveness default: an empty partition is not stale
        ("error", MonitoringStatus.UNKNOWN),
    ]
    assert (ok.age_ms, ok.timestamp, ok.offset, ok.group, ok.lag) == (MIN, NOW - MIN, 5, None, None)
    assert err.error == "NOT_LEADER_OR_FOLLOWER"
    assert (
        evaluate_sample(LiveSample("c", OffsetResult("other", 0, OffsetSpec.max_timestamp(), 1, NOW)), CTX)
        == []
    )


def test_lag_records_apply_each_checks_thresholds() -> None:
    by_check = {r.check: r for r in evaluate_sample(lag_sample(0, 50, 2 * MIN), CTX)}
    assert by_check["lag"].status is MonitoringStatus.WARNING  # 50 > 10, time lag 2m > 1m
    assert by_check["lag"].time_lag_ms == 2 * MIN
    assert by_check["lag-no-time"].status is MonitoringStatus.CRITICAL  # 50 > 5
    assert by_check["lag-no-time"].time_lag_ms is None  # that check did not ask for time lag
    [a, _] = evaluate_sample(lag_sample(1, 5, 6 * MIN), CTX)
    assert a.status is MonitoringStatus.CRITICAL  # time lag above 5m
    [nc, _] = evaluate_sample(lag_sample(2, None, None, LagState.NO_COMMIT), CTX)
    assert (nc.state, nc.status, nc.committed) == ("no-commit", MonitoringStatus.WARNING, None)


# --------------------------------------------------------------------------- roll-ups


def test_topic_rollup_min_alive_and_missing_topic() -> None:
    recs = [
        r
        for s in (max_ts(0, NOW), max_ts(1, NOW), max_ts(2, NOW - 20 * MIN))
        for r in evaluate_sample(s, CTX)
    ]
    t = topic_rollup(LIVE, "c", "t1", recs, "CreateTime")  # type: ignore[arg-type]
    assert (t.status, t.partitions, t.alive, t.age_ms) == (
        MonitoringStatus.OK,
        3,
        2,
        0,
    )  # 2 of 3 alive suffice
    t3 = topic_rollup(LIVE, "c", "t1", recs[2:], None)  # type: ignore[arg-type]
    assert t3.status is MonitoringStatus.CRITICAL  # one partition, fewer than min_alive
    missing = PartitionRecord(
        check="live",
        kind="liveness",
        cluster="c",
        topic="nosuch",
        partition=None,
        group=None,
        committed=None,
        log_start=None,
        end=None,
        lag=None,
        time_lag_ms=None,
        offset=None,
        timestamp=None,
        age_ms=None,
        state="error",
        status=MonitoringStatus.UNKNOWN,
        error="UNKNOWN_TOPIC_OR_PARTITION",
    )
    m = topic_rollup(LIVE, "c", "nosuch", [missing], None)  # type: ignore[arg-type]
    assert (m.status, m.error) == (MonitoringStatus.UNKNOWN, "UNKNOWN_TOPIC_OR_PARTITION")


def test_group_rollup_totals_worst_status_and_history() -> None:
    recs = [
        r
        for s in (
            lag_sample(0, 5, 0),
            lag_sample(1, 20, 10_000),
            lag_sample(2, None, None, LagState.NO_COMMIT),
        )
        for r in evaluate_sample(s, CTX)
        if r.check == "lag"
    ]
    g = group_rollup(LAG, "c", "g", recs)  # type: ignore[arg-type]
    assert (g.status, g.partitions, g.lag, g.lagging, g.max_lag, g.max_time_lag_ms, g.problems) == (
        MonitoringStatus.WARNING,
        3,
        25,
        2,
        20,
        10_000,
        1,
    )
    assert g.history is None
    hist = [
        PartitionHistory(
            status=HistoryStatus.OK, samples=5, reason="", lag=5, produce_rate=1.0, consume_rate=2.0
        ),
        PartitionHistory(status=HistoryStatus.STALL, samples=5, reason="", lag=20),
    ]
    gh = group_rollup(LAG, "c", "g", recs, hist, (30, 25))  # type: ignore[arg-type]
    assert (gh.status, gh.history, gh.trend) == (MonitoringStatus.CRITICAL, "stall", (30, 25))


def test_group_rollup_with_a_named_topic_that_could_not_be_read_is_unknown_and_keeps_its_lag() -> None:
    """The planner adds one error record per group for a lag check's missing (or forbidden) named topic."""
    rows = [r for r in evaluate_sample(lag_sample(0, 5, 0), CTX) if r.check == "lag"]
    forbidden = PartitionRecord(
        check="lag",
        kind="lag",
        cluster="c",
        topic="secret",
        partition=None,
        group="g",
        committed=None,
        log_start=None,
        end=None,
        lag=None,
        time_lag_ms=None,
        offset=None,
        timestamp=None,
        age_ms=None,
        state="error",
        status=MonitoringStatus.UNKNOWN,
        error="TOPIC_AUTHORIZATION_FAILED",
    )
    g = group_rollup(LAG, "c", "g", [*rows, forbidden])  # type: ignore[arg-type]
    assert (g.status, g.partitions, g.lag, g.problems, g.error) == (MonitoringStatus.UNKNOWN, 1, 5, 1, None)


def test_check_result_unknown_on_problems_and_when_nothing_evaluated() -> None:
    r = check_result(LIVE, ["c: no answer"], {}, 0)
    assert r.status is MonitoringStatus.UNKNOWN and r.problems == ("c: no answer",)
    empty = check_result(LAG, [], {}, 0)
    assert empty.status is MonitoringStatus.UNKNOWN and "nothing to evaluate" in empty.summary


# --------------------------------------------------------------------------- renderers


def _report() -> CheckReport:
    live_recs = [r for s in (max_ts(0, NOW), max_ts(1, NOW - 10 * MIN)) for r in evaluate_sample(s, CTX)]
    lag_recs = [r for r in evaluate_sample(lag_sample(0, 50, 2 * MIN), CTX) if r.check == "lag"]
    t = topic_rollup(LIVE, "c", "t1", live_recs, "CreateTime")  # type: ignore[arg-type]
    g = group_rollup(LAG, "c", "g", lag_recs)  # type: ignore[arg-type]
    checks = (
        check_result(LIVE, [], {"ok": 1, "warning": 1}, 2, [t]),
        check_result(LAG, [], {"ok": 1}, 1, groups=[g]),
    )
    return CheckReport(
        status=MonitoringStatus.WARNING,
        checks=checks,
        partitions=tuple(live_recs + lag_recs),
        now_ms=NOW,
        total_partitions=3,
        clusters=("c",),
        down=(),
    )


def test_json_document_schema() -> None:
    doc = json.loads(render.json_document(_report()))
    assert list(doc) == ["status", "checks", "partitions"]
    assert doc["status"] == "WARNING"
    assert [c["name"] for c in doc["checks"]] == ["live", "lag"]
    assert all(list(p) == list(RECORD_KEYS) for p in doc["partitions"])
    lag = next(p for p in doc["partitions"] if p["check"] == "lag")
    assert (lag["group"], lag["lag"], lag["time_lag_ms"], lag["timestamp"], lag["age_ms"]) == (
        "g",
        50,
        2 * MIN,
        None,
        None,
    )
    live = next(p for p in doc["partitions"] if p["check"] == "live")
    assert (live["group"], live["committed"], live["lag"], live["age_ms"]) == (None, None, None, 0)


def test_nagios_line_and_prometheus_round_trip() -> None:
    line = check_monitoring.nagios(_report())
    assert line.endswith("\n") and line.count("\n") == 1
    assert line.startswith("KAFKA CHECK WARNING - 2 check(s): 2 WARNING; live WARNING: ")
    assert "'live/c/t1 age'=600s;;;0" in line and "'lag/c/g lag'=50;;;0" in line
    m = parse_prometheus_text(check_monitoring.prometheus(_report(), {"env": "prod"}))
    # run-level series carry the clusters they cover, every series the --label ones
    assert m["kafka_offsets_check_status"] == [({"env": "prod", "cluster": "c"}, 1.0)]
    assert m["kafka_offsets_check_up"] == [({"env": "prod", "cluster": "c"}, 1.0)]
    assert all(lab["env"] == "prod" and lab["cluster"] for fam in m.values() for lab, _ in fam)
    m = parse_prometheus_text(check_monitoring.prometheus(_report()))
    assert m["kafka_offsets_check_cluster_up"] == [({"cluster": "c"}, 1.0)]
    assert ({"check": "lag", "cluster": "c", "group": "g", "topic": "t1", "partition": "0"}, 50.0) in m[
        "kafka_offsets_check_partition_lag"
    ]
    assert ({"check": "live", "cluster": "c", "topic": "t1"}, 1.0) in m[
        "kafka_offsets_check_topic_alive_partitions"
    ]
    down = parse_prometheus_text(check_monitoring.prometheus_down(MonitoringStatus.UNKNOWN, NOW, ["b", "a"]))
    assert down["kafka_offsets_check_up"] == [({"cluster": "a,b"}, 0.0)]
    assert down["kafka_offsets_check_status"] == [({"cluster": "a,b"}, 3.0)]


def test_group_type_in_the_group_records_and_series_as_lag_labels_it() -> None:
    typed = _report().with_group_types({("c", "g"): "share", ("c", "other"): "streams"})
    doc = json.loads(render.json_document(typed))
    groups = [g for c in doc["checks"] for g in c.get("groups", [])]
    assert [(g["group"], g["group_type"]) for g in groups] == [("g", "share")]
    assert [
        g["group_type"]
        for c in json.loads(render.json_document(_report()))["checks"]
        for g in c.get("groups", [])
    ] == [None]
    m = parse_prometheus_text(check_monitoring.prometheus(typed))
    lag = {"check": "lag", "cluster": "c", "group": "g", "type": "share"}
    assert m["kafka_offsets_check_group_lag"] == [(lag, 50.0)]
    assert ({**lag, "topic": "t1", "partition": "0"}, 50.0) in m["kafka_offsets_check_partition_lag"]
    # the liveness series have no group, so no type
    assert all("type" not in lab for lab, _ in m["kafka_offsets_check_partition_age_seconds"])


def test_a_partition_record_carries_its_groups_type_after_the_group() -> None:
    from dataclasses import replace

    sample = lag_sample(0, 50, 2 * MIN)
    typed = LagSample(sample.cluster, replace(sample.row, group_type="share"))
    assert {r.check: r.group_type for r in evaluate_sample(typed, CTX)} == {
        "lag": "share",
        "lag-no-time": "share",
    }
    assert {r.group_type for r in evaluate_sample(sample, CTX)} == {None}  # a type nobody listed
    [live] = evaluate_sample(max_ts(0, NOW), CTX)
    assert live.group_type is None  # a liveness record has no group
    assert RECORD_KEYS[RECORD_KEYS.index("group") + 1] == "group_type"
    report = _report()
    typed_lag = [r for r in evaluate_sample(typed, CTX) if r.check == "lag"]
    doc = json.loads(render.json_document(replace(report, partitions=(*report.partitions[:2], *typed_lag))))
    assert [(p["check"], p["group"], p["group_type"]) for p in doc["partitions"]] == [
        ("live", None, None),
        ("live", None, None),
        ("lag", "g", "share"),
    ]
    assert PartitionRecord.from_row({**typed_lag[0].to_record(), "kind": "lag"}) == typed_lag[0]


def test_rich_summary_renders_sparkline_with_history() -> None:
    from dataclasses import replace

    from rich.console import Console

    rep = _report()
    g = replace(rep.checks[1].groups[0], history="warn", trend=(10, 30, 50))
    rep = replace(rep, checks=(rep.checks[0], replace(rep.checks[1], groups=(g,))), history_runs=3)
    c = Console(width=200, record=True, color_system=None)
    from datetime import timezone

    c.print(render.rich_summary(rep, timezone.utc))
    text = c.export_text()
    assert "Checks" in text and "Lag groups" in text and "Worst partitions" in text
    assert "▂▅█" in text and "history: 3 run(s)" in text


def test_failed_spark_job_becomes_one_line() -> None:
    from kafka_offsets_cli.errors import KafkaOffsetsError
    from kafka_offsets_cli.spark.failure import job_failure

    trace = (
        "An error occurred while calling o57.count.\n"
        ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 failed 1 times\n"
        "org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n"
        '  File "worker.py", line 1, in main\n'
        "ValueError: boom here\n"
        "\tat org.apache.spark.api.python.BasePythonRunner\n"
        "java.lang.IllegalStateException: x\n"
    )
    e = job_failure(Exception(trace))
    assert isinstance(e, KafkaOffsetsError)
    assert e.message == "the Spark job failed: ValueError: boom here"
    assert job_failure(Exception("")).message == "the Spark job failed: Exception"


def test_a_rollup_row_gives_the_shared_rollup_and_its_records_state_counts() -> None:
    """spark.stages.rollup_results on a roll-up row (its keys and the tally of its records), without Spark."""
    from kafka_offsets_cli.check.rollups import rollup_stats
    from kafka_offsets_cli.spark.frames import RECORD_COLUMNS, record_row
    from kafka_offsets_cli.spark.stages import rollup_results
    from kafka_offsets_cli.tally import tally

    samples = (lag_sample(2, None, None, LagState.NO_COMMIT), lag_sample(1, 20, 10_000), lag_sample(0, 5, 0))
    recs = [r for s in samples for r in evaluate_sample(s, CTX) if r.check == "lag"]
    rows = [record_row(r) for r in recs]
    cols = {n: [row[k] for row in rows] for k, (n, _) in enumerate(RECORD_COLUMNS)}
    row = {"kind": "lag", "check": "lag", "cluster": "c", "_name": "g"}
    row.update(tally(rollup_stats(CTX.checks.values()), cols))
    [(result, states)] = rollup_results([row], CTX.checks, timestamp_types={}, trends=None)
    assert result == group_rollup(LAG, "c", "g", recs)  # type: ignore[arg-type]
    assert states == {"no-commit": 1, "ok": 2}


def test_rollups_from_columns_equal_rollups_from_records() -> None:
    """check.rollups.rollup_columns (the roll-up task's path) decides as topic_rollup / group_rollup."""
    import dataclasses

    from kafka_offsets_cli.check.rollups import rollup_columns
    from kafka_offsets_cli.spark.frames import RECORD_COLUMNS, record_row

    def columns(recs: list[PartitionRecord]) -> dict[str, list[object]]:
        rows = [record_row(r) for r in recs]
        return {n: [row[k] for row in rows] for k, (n, _) in enumerate(RECORD_COLUMNS)}

    live = [
        r
        for s in (
            max_ts(2, NOW - 20 * MIN),
            max_ts(0, NOW),
            max_ts(1, None),
            max_ts(3, None, error="NOT_LEADER"),
        )
        for r in evaluate_sample(s, CTX)
    ]
    for recs in (live, live[:1], live[2:]):
        got = rollup_columns(LIVE, "c", "t1", columns(recs), timestamp_type="LogAppendTime")
        assert got == topic_rollup(LIVE, "c", "t1", recs, "LogAppendTime")  # type: ignore[arg-type]
    lag = [
        r
        for s in (lag_sample(1, 20, 10_000), lag_sample(0, 5, 0), lag_sample(2, None, None, LagState.AHEAD))
        for r in evaluate_sample(s, CTX)
        if r.check == "lag"
    ]
    unread = dataclasses.replace(
        lag[0], topic="denied", partition=None, state="error", error="TOPIC_AUTHORIZATION_FAILED"
    )
    unread = dataclasses.replace(unread, status=MonitoringStatus.UNKNOWN, lag=None, committed=None)
    for recs in (lag, [*lag, unread], [unread]):
        got = rollup_columns(LAG, "c", "g", columns(recs), trend=(3, 2))
        assert got == group_rollup(LAG, "c", "g", sorted(recs, key=lambda r: r.key), None, (3, 2))  # type: ignore[arg-type]


def test_metrics_compat_aliases_equal_the_check_series_with_its_labels() -> None:
    report = _report()
    assert check_compat_text(report, (), {}) == ""  # not asked: nothing
    compat = (Compat.kafka_exporter, Compat.kafka_lag_exporter)
    m = parse_prometheus_text(check_compat_text(report, compat, {"lag": True}, {"env": "prod"}))
    where = {"env": "prod", "check": "lag", "cluster": "c"}
    assert m["kafka_consumergroup_lag"] == [
        ({**where, "consumergroup": "g", "topic": "t1", "partition": "0"}, 50.0)
    ]
    lag_exporter = {**where, "cluster_name": "c", "group": "g", "topic": "t1", "partition": "0"}
    members = dict.fromkeys(("member_host", "consumer_id", "client_id"), "")
    assert m["kafka_consumergroup_group_lag"] == [({**lag_exporter, **members}, 50.0)]
    assert m["kafka_consumergroup_group_lag_seconds"] == [({**lag_exporter, **members}, 120.0)]
    assert m["kafka_consumergroup_group_sum_lag"] == [({**where, "cluster_name": "c", "group": "g"}, 50.0)]
    # a liveness check has no alias; a check without time_lag no *_lag_seconds
    assert all(lab["check"] == "lag" for fam in m.values() for lab, _ in fam)
    plain = parse_prometheus_text(check_compat_text(report, compat, {"lag": False}))
    assert "kafka_consumergroup_group_lag_seconds" not in plain
    text = check_compat_text(report, compat, {"lag": True})
    assert text.count("# TYPE kafka_consumergroup_lag gauge") == 1
