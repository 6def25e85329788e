"""Unit tests of the lag rules: states, the time-lag bisection, totals, sorting and thresholds."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.lag.summary import SortKey, sort_rows, totals
from kafka_offsets_cli.measures.lag.markers import marker_candidates
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState, lag_row
from kafka_offsets_cli.measures.lag.rule import lag_status
from kafka_offsets_cli.measures.lag.timelag import with_time_lags
from kafka_offsets_cli.measures.timestamps import MAX_TIMESTAMP, Bisection, TimeLag
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition

TP = TopicPartition("orders", 3)
E, L = OffsetSpec.earliest(), OffsetSpec.latest()


def early(offset: int | None, error: str | None = None) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, E, offset, error=error)


def late(offset: int | None, error: str | None = None) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, L, offset, error=error)


# ----------------------------------------------------------------------------- lag_row


def test_ok_lag_is_end_minus_committed() -> None:
    r = lag_row("g", TP, 40, early(10), late(100))
    assert (r.state, r.lag, r.committed, r.log_start, r.end, r.time_lag_ms) == (
        LagState.OK,
        60,
        40,
        10,
        100,
        None,
    )
    assert r.lagging


def test_caught_up_has_zero_lag_and_zero_time_lag() -> None:
    r = lag_row("g", TP, 100, early(10), late(100))
    assert (r.state, r.lag, r.time_lag_ms) == (LagState.OK, 0, 0)
    assert not r.lagging


def test_committed_at_log_start_is_ok() -> None:
    r = lag_row("g", TP, 10, early(10), late(100))
    assert (r.state, r.lag) == (LagState.OK, 90)


def test_no_commit_shows_no_number() -> None:
    r = lag_row("g", TP, None, early(0), late(5))
    assert (r.state, r.lag, r.time_lag_ms) == (LagState.NO_COMMIT, None, None)
    assert not r.lagging


def test_below_start_is_flagged_not_a_huge_number() -> None:
    r = lag_row("g", TP, 3, early(1_000_000), late(1_000_010))
    assert (r.state, r.lag) == (LagState.BELOW_START, None)
    assert r.lagging  # the group lost records: it counts as lagging


def test_ahead_is_flagged_not_negative() -> None:
    r = lag_row("g", TP, 120, early(0), late(100))
    assert (r.state, r.lag) == (LagState.AHEAD, None)


def test_marker_needs_lag_one_and_a_fetched_fact() -> None:
    assert lag_row("g", TP, 99, early(0), late(100)).state is LagState.OK  # unknown: stays ok
    assert lag_row("g", TP, 99, early(0), late(100), marker=False).state is LagState.OK
    m = lag_row("g", TP, 99, early(0), late(100), marker=True)
    assert (m.state, m.lag, m.time_lag_ms) == (LagState.MARKER, 1, 0)
    assert not m.lagging
    # a marker flag on a larger lag changes nothing: only the single last offset can be "just a marker"
    assert lag_row("g", TP, 98, early(0), late(100), marker=True).state is LagState.OK


@pytest.mark.parametrize(
    ("e", "l_", "err"),
    [
        (early(None, "NOT_LEADER_OR_FOLLOWER"), late(5), "NOT_LEADER_OR_FOLLOWER"),
        (early(0), late(None, "TOPIC_AUTHORIZATION_FAILED"), "TOPIC_AUTHORIZATION_FAILED"),
        (early(0), late(None), "OFFSET_NOT_AVAILABLE"),
    ],
)
def test_errors_never_invent_offsets(e: OffsetResult, l_: OffsetResult, err: str) -> None:
    r = lag_row("g", TP, 3, e, l_)
    assert (r.state, r.lag, r.error) == (LagState.ERROR, None, err)


@given(
    start=st.integers(0, 10**12),
    length=st.integers(0, 10**6),
    committed=st.one_of(st.none(), st.integers(0, 2 * 10**12)),
)
def test_lag_is_never_negative_or_beyond_the_log(start: int, length: int, committed: int | None) -> None:
    r = lag_row("g", TP, committed, early(start), late(start + length))
    if r.lag is not None:
        assert 0 <= r.lag <= length
        assert r.state in (LagState.OK, LagState.MARKER)
    else:
        assert r.state in (LagState.NO_COMMIT, LagState.BELOW_START, LagState.AHEAD)


def test_record_has_the_documented_keys() -> None:
    rec = lag_row("g", TP, 4, early(0), late(5)).to_record()
    assert list(rec) == [
        "group",
        "group_type",
        "topic",
        "partition",
        "committed",
        "log_start",
        "end",
        "lag",
        "time_lag_ms",
        "state",
        "error",
        "resume_timestamp",
        "taken_at_ms",
        "remote_read",
    ]
    assert rec["state"] == "ok" and rec["lag"] == 1


# ----------------------------------------------------------------------------- bisection


def offsets_for_times(ts: Sequence[int], log_start: int, end: int, target: int) -> tuple[int, int] | None:
    """Kafka's documented ListOffsets(timestamp) contract on a log of record timestamps (by offset)."""
    for o in range(log_start, end):
        if ts[o] >= target:
            return o, ts[o]
    return None


def max_timestamp(ts: Sequence[int], log_start: int, end: int) -> tuple[int, int] | None:
    """KIP-734: the record with the highest timestamp (the earliest such offset)."""
    if end <= log_start:
        return None
    best = max(range(log_start, end), key=lambda o: (ts[o], -o))
    return best, ts[best]


def search(ts: Sequence[int], log_start: int, committed: int, use_max: bool = True) -> TimeLag:
    end = len(ts)
    mx = max_timestamp(ts, log_start, end) if use_max else None
    spec = OffsetSpec.max_timestamp()
    first = OffsetResult("t", 0, spec, mx[0] if mx else None, mx[1] if mx else None)
    b = Bisection.start(committed, first)
    while not b.done:
        t = b.next_time()
        ans = offsets_for_times(ts, log_start, end, t)
        b.feed(t, OffsetResult("t", 0, OffsetSpec.at(t), ans[0] if ans else None, ans[1] if ans else None))
        assert b.rounds <= 70
    return b.result()


@settings(max_examples=300, deadline=None)
@given(
    ts=st.lists(st.integers(0, 2_000_000_000_000), min_size=1, max_size=40),
    data=st.data(),
)
def test_bisection_finds_the_max_timestamp_up_to_the_committed_offset(
    ts: list[int], data: st.DataObject
) -> None:
    log_start = data.draw(st.integers(0, len(ts) - 1))
    committed = data.draw(st.integers(log_start, len(ts) - 1))
    got = search(ts, log_start, committed)
    assert got.error is None
    assert got.timestamp == max(ts[log_start : committed + 1])
    assert got.rounds <= 42  # ~log2(2e12) plus the answers' own timestamps


def test_bisection_uses_the_answers_timestamps_to_finish_early() -> None:
    ts = [1_700_000_000_000 + 1000 * i for i in range(100)]
    got = search(ts, 0, 37)
    assert got.timestamp == ts[37]
    # a plain bisection over [0, 1.7e12] takes 41 rounds; an answer at the committed offset ends it
    assert got.rounds <= 12


def test_bisection_out_of_order_gives_the_prefix_maximum() -> None:
    # offset:  0     1     2     3     4
    ts = [5000, 1000, 9000, 3000, 7000]
    assert search(ts, 0, 1).timestamp == 5000  # record 1 is older than record 0
    assert search(ts, 0, 3).timestamp == 9000  # record 2 (consumed) is the newest so far
    assert search(ts, 0, 4).timestamp == 9000
    assert search(ts, 0, 0).timestamp == 5000


def test_bisection_without_max_timestamp_searches_the_whole_range() -> None:
    ts = [10, 20, 30]
    got = search(ts, 0, 1, use_max=False)
    assert got.timestamp == 20
    assert got.rounds <= 64


def test_bisection_stops_on_an_error() -> None:
    b = Bisection(5, hi=1000)
    t = b.next_time()
    b.feed(t, OffsetResult("t", 0, OffsetSpec.at(t), None, error="TOPIC_AUTHORIZATION_FAILED"))
    assert b.done
    assert b.result() == TimeLag(None, 1, "TOPIC_AUTHORIZATION_FAILED")


def test_no_timestamps_gives_none() -> None:
    b = Bisection.start(0, OffsetResult("t", 0, OffsetSpec.max_timestamp(), 0, None))
    while not b.done:
        t = b.next_time()
        b.feed(t, OffsetResult("t", 0, OffsetSpec.at(t), None))
    assert b.result().timestamp is None
    assert b.hi == 0 or b.lo == -1
    assert MAX_TIMESTAMP == 2**63 - 1


def test_time_lag_is_clamped_at_zero_for_future_timestamps() -> None:
    assert TimeLag(2_000, 3).lag_ms(1_000) == 0
    assert TimeLag(1_000, 3).lag_ms(4_500) == 3_500
    assert TimeLag(None, 3, "X").lag_ms(1) is None


def test_with_time_lags_fills_only_searched_rows() -> None:
    a = lag_row("g", TP, 40, early(0), late(100))
    b = lag_row("h", TP, 40, early(0), late(100))  # same partition and offset: shares the search
    c = lag_row("g", TopicPartition("x", 0), None, early(0), late(1))
    out = with_time_lags([a, b, c], {(TP, 40): TimeLag(1_000, 5)}, 61_000)
    assert [r.time_lag_ms for r in out] == [60_000, 60_000, None]


# ----------------------------------------------------------------------------- markers, totals, sorting


def row(group: str, topic: str, p: int, committed: int | None, end: int, start: int = 0) -> LagRow:
    tp = TopicPartition(topic, p)
    return lag_row(
        group,
        tp,
        committed,
        OffsetResult(topic, p, E, start),
        OffsetResult(topic, p, L, end),
    )


def test_marker_candidates_are_lag_one_rows_without_duplicates() -> None:
    rows = [
        row("a", "t", 0, 9, 10),
        row("b", "t", 0, 9, 10),
        row("a", "t", 1, 8, 10),
        row("a", "t", 2, None, 1),
    ]
    assert marker_candidates(rows) == [(TopicPartition("t", 0), 9)]


def test_totals_per_topic_and_group() -> None:
    rows = [
        row("a", "t", 0, 5, 10),
        row("a", "t", 1, None, 10),
        row("a", "u", 0, 0, 3),
        row("b", "t", 0, 2, 10, start=4),
    ]
    tots = {(t.group, t.topic): t for t in totals(rows)}
    assert list(tots) == [("a", "t"), ("a", "u"), ("a", None), ("b", "t"), ("b", None)]
    assert (tots[("a", "t")].lag, tots[("a", "t")].lagging, tots[("a", "t")].problems) == (5, 1, 1)
    assert (tots[("a", None)].lag, tots[("a", None)].partitions) == (8, 3)
    assert (tots[("b", None)].lag, tots[("b", None)].lagging) == (0, 1)  # below-start: no number, but lagging


def test_sort_by_lag_puts_unknown_last() -> None:
    rows = [
        row("a", "t", 0, 5, 10),
        row("a", "t", 1, None, 10),
        row("a", "t", 2, 0, 10),
        row("a", "t", 3, 10, 10),
    ]
    assert [r.partition for r in sort_rows(rows, SortKey.lag)] == [2, 0, 3, 1]
    assert [r.partition for r in sort_rows(reversed(rows))] == [0, 1, 2, 3]


# ----------------------------------------------------------------------------- thresholds


def test_lag_status_thresholds_are_exclusive() -> None:
    r = row("a", "t", 0, 90, 100)  # lag 10
    assert lag_status(r, warn_lag=10, crit_lag=20) is MonitoringStatus.OK
    assert lag_status(r, warn_lag=9, crit_lag=20) is MonitoringStatus.WARNING
    assert lag_status(r, warn_lag=5, crit_lag=9) is MonitoringStatus.CRITICAL
    timed = LagRow(
        group=r.group,
        topic=r.topic,
        partition=r.partition,
        committed=90,
        log_start=0,
        end=100,
        lag=10,
        time_lag_ms=120_000,
        state=LagState.OK,
    )
    assert lag_status(timed, warn_time_lag_ms=60_000) is MonitoringStatus.WARNING
    assert lag_status(timed, warn_time_lag_ms=60_000, crit_time_lag_ms=100_000) is MonitoringStatus.CRITICAL
    assert lag_status(r, warn_time_lag_ms=1) is MonitoringStatus.OK  # time lag not computed: not compared


def test_lag_status_of_flagged_states() -> None:
    assert lag_status(row("a", "t", 0, 2, 10, start=4), warn_lag=100) is MonitoringStatus.CRITICAL
    assert lag_status(row("a", "t", 0, None, 10)) is MonitoringStatus.WARNING
    assert lag_status(row("a", "t", 0, 20, 10)) is MonitoringStatus.WARNING
    m = lag_row("g", TP, 99, early(0), late(100), marker=True)
    assert lag_status(m, warn_lag=0) is MonitoringStatus.OK
    err = lag_row("g", TP, 1, early(None, "X"), late(5))
    assert lag_status(err) is MonitoringStatus.UNKNOWN
