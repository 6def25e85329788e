"""Unit tests of the liveness rules: per-partition states, roll-ups and the report."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafka_offsets_cli.errors import MonitoringStatus as S
from kafka_offsets_cli.liveness.report import LivenessReport, build_report
from kafka_offsets_cli.measures.liveness import (
    DEFAULT_EMPTY_STATUS,
    DEFAULT_FUTURE_TOLERANCE_MS,
    LiveRow,
    LiveState,
    liveness_row,
    row_status,
    topic_status,
)
from kafka_offsets_cli.measures.liveness_age import deciding_age
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.render.liveness import nagios_summary, summary_line
from kafka_offsets_cli.severity import worst

NOW = 1_800_000_000_000
MIN = 60_000
M = OffsetSpec.max_timestamp()


def res(
    ts: int | None, offset: int | None = 7, error: str | None = None, topic: str = "t", p: int = 0
) -> OffsetResult:
    return OffsetResult(topic, p, M, offset, ts, error=error)


def live(age_ms: int | None, offset: int | None = 7, error: str | None = None) -> LiveRow:
    ts = None if age_ms is None else NOW - age_ms
    return liveness_row(res(ts, offset, error), NOW, 5 * MIN, 15 * MIN)


@pytest.mark.parametrize(
    ("age", "state"),
    [
        (0, LiveState.OK),
        (5 * MIN, LiveState.OK),  # at the threshold: not above it
        (5 * MIN + 1, LiveState.WARNING),
        (15 * MIN, LiveState.WARNING),
        (15 * MIN + 1, LiveState.CRITICAL),
        (-DEFAULT_FUTURE_TOLERANCE_MS, LiveState.OK),  # small clock skew: age 0
        (-DEFAULT_FUTURE_TOLERANCE_MS - 1, LiveState.FUTURE),
    ],
)
def test_state_by_age(age: int, state: LiveState) -> None:
    r = live(age)
    assert r.state is state
    if state is LiveState.FUTURE:
        assert r.age_ms == age  # negative: how far ahead
    else:
        assert r.age_ms == max(0, age)


def test_empty_and_error_are_their_own_states() -> None:
    e = liveness_row(res(None, None), NOW, 1, 2)
    assert (e.state, e.offset, e.timestamp, e.age_ms) == (LiveState.EMPTY, None, None, None)
    x = liveness_row(res(None, None, "TOPIC_AUTHORIZATION_FAILED"), NOW, 1, 2)
    assert (x.state, x.error) == (LiveState.ERROR, "TOPIC_AUTHORIZATION_FAILED")
    nts = liveness_row(res(None, 3), NOW, 1, 2)  # a record without a timestamp (v0 format)
    assert (nts.state, nts.error) == (LiveState.ERROR, "NO_TIMESTAMP")


def test_record_has_the_documented_keys() -> None:
    rec = live(1000).to_record("LogAppendTime")
    assert list(rec) == [
        "topic",
        "partition",
        "offset",
        "timestamp",
        "age_ms",
        "state",
        "timestamp_type",
        "error",
    ]
    assert rec["state"] == "ok" and rec["age_ms"] == 1000 and rec["timestamp_type"] == "LogAppendTime"


def test_row_status_mapping() -> None:
    assert row_status(live(0)) is S.OK
    assert row_status(live(6 * MIN)) is S.WARNING
    assert row_status(live(16 * MIN)) is S.CRITICAL
    assert row_status(live(None, offset=None)) is S.OK  # empty is not stale by default
    assert row_status(live(None, offset=None), empty=S.CRITICAL) is S.CRITICAL
    assert row_status(live(-10 * MIN)) is S.WARNING
    assert row_status(live(-10 * MIN), future=S.CRITICAL) is S.CRITICAL
    assert row_status(live(None, offset=None, error="X")) is S.UNKNOWN


def test_worst_orders_critical_warning_unknown_ok() -> None:
    assert worst([]) is S.OK
    assert worst([S.OK, S.UNKNOWN]) is S.UNKNOWN
    assert worst([S.UNKNOWN, S.WARNING]) is S.WARNING
    assert worst([S.WARNING, S.CRITICAL, S.UNKNOWN]) is S.CRITICAL


def test_stalest_partition_decides_without_min_alive() -> None:
    rows = [live(0), live(0), live(20 * MIN)]
    assert topic_status(rows) is S.CRITICAL


def test_min_alive_takes_the_nth_best_partition() -> None:
    rows = [live(0), live(0), live(20 * MIN)]
    assert topic_status(rows, 2) is S.OK
    assert topic_status(rows, 3) is S.CRITICAL
    assert topic_status(rows, 4) is S.CRITICAL  # fewer partitions than required
    mixed = [live(0), live(6 * MIN), live(20 * MIN)]
    assert topic_status(mixed, 1) is S.OK
    assert topic_status(mixed, 2) is S.WARNING


@given(st.lists(st.sampled_from([0, 6 * MIN, 20 * MIN, -10 * MIN, None]), min_size=1, max_size=12))
def test_min_alive_is_monotonic_and_all_equals_worst(ages: list[int | None]) -> None:
    rows = [live(a, offset=None) if a is None else live(a) for a in ages]
    from kafka_offsets_cli.severity import severity

    levels = [severity(topic_status(rows, n)) for n in range(1, len(rows) + 1)]
    assert levels == sorted(levels)
    assert topic_status(rows, len(rows)) is topic_status(rows)


def test_deciding_age() -> None:
    rows = [live(1000), live(5000), live(3000), live(None, offset=None)]
    assert deciding_age(rows) == 5000
    assert deciding_age(rows, 1) == 1000
    assert deciding_age(rows, 2) == 3000
    assert deciding_age([live(None, offset=None)]) is None


def test_report_rolls_up_topics_and_missing_ones() -> None:
    results = [
        res(NOW - 1000, topic="a", p=0),
        res(NOW - 20 * MIN, topic="a", p=1),
        res(NOW - 1000, topic="b", p=0),
    ]
    rep = build_report(
        results, NOW, 5 * MIN, 15 * MIN, timestamp_types={"a": "CreateTime"}, missing_topics=[("gone", "X")]
    )
    assert [t.topic for t in rep.topics] == ["a", "b", "gone"]
    a, b, gone = rep.topics
    assert (a.status, a.partitions, a.alive, a.age_ms, a.timestamp_type) == (
        S.CRITICAL,
        2,
        1,
        20 * MIN,
        "CreateTime",
    )
    assert (b.status, b.timestamp_type) == (S.OK, None)
    assert (gone.status, gone.error) == (S.UNKNOWN, "X")
    assert rep.status is S.CRITICAL
    assert rep.count(LiveState.OK) == 2
    relaxed = build_report(results, NOW, 5 * MIN, 15 * MIN, min_alive=1)
    assert relaxed.status is S.OK


def _empty_and_warning(empty: S = DEFAULT_EMPTY_STATUS) -> LivenessReport:
    """Topic o: partition 0 ten minutes old (warning), 1 empty, 2 fresh."""
    results = [res(NOW - 10 * MIN, topic="o", p=0), res(None, None, topic="o", p=1), res(NOW, topic="o", p=2)]
    return build_report(results, NOW, 5 * MIN, 15 * MIN, empty=empty)


def _partitions(rep: LivenessReport) -> list[int]:
    return [r.partition for r in rep.rows]


def test_the_nagios_problem_is_the_partition_that_decides_not_an_ok_empty_one() -> None:
    rep = _empty_and_warning()
    assert rep.status is S.WARNING
    assert "o WARNING: o:0 warning 10m 00s;" in nagios_summary(rep)  # not "o:1 empty"
    rep = _empty_and_warning(S.CRITICAL)
    assert rep.status is S.CRITICAL
    assert "o CRITICAL: o:1 empty +1;" in nagios_summary(rep)


def test_shown_keeps_rows_by_status_or_state_and_never_changes_the_verdict() -> None:
    rep = _empty_and_warning()
    assert _partitions(rep.shown()) == [0, 1, 2]
    assert _partitions(rep.shown(problems=True)) == [0]
    assert _partitions(rep.shown(states=frozenset({"empty", "ok"}))) == [1, 2]
    assert _partitions(rep.shown(problems=True, states=frozenset({"empty", "ok"}))) == []
    assert rep.shown(problems=True).status is rep.status is S.WARNING


def test_summary_line_counts_states_and_says_how_empty_counts() -> None:
    rep = _empty_and_warning()
    assert summary_line(rep).plain == (
        "WARNING: 3 partition(s) in 1 topic(s): 1 ok, 1 warning, 1 empty (empty counts as OK); "
        "warn 5m 00s, crit 15m 00s"
    )
    assert "; 1 shown;" in summary_line(rep, 1).plain
