"""Burrow-style history rules (kafka_offsets_cli.check.history): pure, no broker."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.check.history import (
    HistoryStatus,
    PartitionHistory,
    Sample,
    evaluate_group,
    evaluate_partition,
    rates,
    window,
    worst_status,
)
from kafka_offsets_cli.check.spec import HistoryRules
from kafka_offsets_cli.errors import MonitoringStatus

RULES = HistoryRules(window=5, allowed_lag=0, min_samples=3)
MIN = 60_000


def series(
    committed: list[int | None], end: list[int], *, step: int = MIN, t0: int = 1_000_000
) -> list[Sample]:
    """Samples one ``step`` apart; lag = end - committed."""
    return [
        Sample(t0 + i * step, c, e, None if c is None else e - c)
        for i, (c, e) in enumerate(zip(committed, end, strict=True))
    ]


def now_after(samples: list[Sample], step: int = MIN) -> int:
    return samples[-1].run_ms + step // 2


def test_too_few_samples_is_incomplete_and_ok() -> None:
    s = series([0, 0], [10, 20])
    r = evaluate_partition(s, RULES, now_ms=now_after(s))
    assert r.status is HistoryStatus.INCOMPLETE
    assert r.status.monitoring is MonitoringStatus.OK
    assert r.samples == 2


def test_zero_lag_anywhere_in_window_is_ok() -> None:
    s = series([10, 10, 10, 10], [10, 20, 30, 40])  # caught up at the start, then stuck
    assert evaluate_partition(s, RULES, now_ms=now_after(s)).status is HistoryStatus.OK
    # ...but once the zero-lag sample leaves the window the stop shows
    s = series([10] * 7, [10, 20, 30, 40, 50, 60, 70])
    assert evaluate_partition(s, RULES, now_ms=now_after(s)).status is HistoryStatus.STOP


def test_allowed_lag_counts_as_caught_up() -> None:
    s = series([0, 5, 10, 15], [20, 25, 30, 40])
    rules = HistoryRules(window=5, allowed_lag=20, min_samples=3)
    assert evaluate_partition(s, rules, now_ms=now_after(s)).status is HistoryStatus.OK
    assert evaluate_partition(s, RULES, now_ms=now_after(s)).status is HistoryStatus.WARN


def test_rewind_when_committed_goes_backwards() -> None:
    s = series([50, 60, 20, 30], [100, 110, 120, 130])
    r = evaluate_partition(s, RULES, now_ms=now_after(s))
    assert r.status is HistoryStatus.REWIND
    assert r.status.monitoring is MonitoringStatus.CRITICAL


def test_stop_when_offset_stops_moving_without_owner() -> None:
    s = series([10, 10, 10, 10], [20, 30, 40, 50])
    for owned in (False, None):
        r = evaluate_partition(s, RULES, now_ms=now_after(s), owned=owned)
        assert r.status is HistoryStatus.STOP, owned


def test_stall_when_owned_but_not_moving() -> None:
    s = series([10, 10, 10, 10], [20, 20, 20, 20])
    r = evaluate_partition(s, RULES, now_ms=now_after(s), owned=True)
    assert r.status is HistoryStatus.STALL
    assert r.status.monitoring is MonitoringStatus.CRITICAL


def test_recent_stop_is_judged_by_time_since_last_move() -> None:
    # moved during the first two intervals, then still for one: not yet longer than it moved
    s = series([10, 20, 30, 30], [50, 60, 70, 80])
    assert evaluate_partition(s, RULES, now_ms=s[-1].run_ms).status is HistoryStatus.WARN
    # still for longer than it had been moving: stopped
    s = series([10, 20, 20, 20, 20], [50, 60, 70, 80, 90])
    assert evaluate_partition(s, RULES, now_ms=now_after(s)).status is HistoryStatus.STOP


def test_warn_when_moving_but_lag_never_decreases() -> None:
    s = series([0, 10, 20, 30], [100, 110, 125, 140])
    assert evaluate_partition(s, RULES, now_ms=now_after(s)).status is HistoryStatus.WARN


def test_ok_when_moving_and_lag_decreases_somewhere() -> None:
    s = series([0, 10, 30, 40], [100, 110, 120, 140])
    r = evaluate_partition(s, RULES, now_ms=now_after(s))
    assert r.status is HistoryStatus.OK
    assert r.lag == 100


def test_samples_without_commit_are_ignored() -> None:
    s = series([None, None, 10, 20, 30], [5, 10, 40, 50, 55])
    r = evaluate_partition(s, RULES, now_ms=now_after(s))
    assert r.samples == 3
    assert r.status is HistoryStatus.OK  # lag 30, 30, 25: decreased


def test_window_keeps_last_n_by_time_and_dedupes_runs() -> None:
    s = series([1, 2, 3, 4, 5, 6, 7], [10] * 7)
    dup = Sample(s[-1].run_ms, 99, 100, 1)
    w = window([*reversed(s), dup], 3)
    assert [x.run_ms for x in w] == [x.run_ms for x in s[-3:]]
    assert w[-1] == dup


def test_rates_and_catch_up() -> None:
    s = series([0, 600, 1200], [1200, 1500, 1800], step=60_000)
    produce, consume = rates(s)
    assert produce == pytest.approx(5.0)  # 600 records in 120 s
    assert consume == pytest.approx(10.0)
    r = evaluate_partition(s, RULES, now_ms=now_after(s))
    assert r.eta_ms == round(600 / 5.0 * 1000)
    assert rates(s[:1]) == (None, None)


def test_group_rollup_worst_status_sums_rates() -> None:
    parts = [
        PartitionHistory(
            status=HistoryStatus.OK, samples=5, reason="", lag=10, produce_rate=1.0, consume_rate=2.0
        ),
        PartitionHistory(
            status=HistoryStatus.STALL, samples=5, reason="", lag=20, produce_rate=1.0, consume_rate=0.0
        ),
        PartitionHistory(
            status=HistoryStatus.WARN, samples=5, reason="", lag=30, produce_rate=None, consume_rate=1.0
        ),
    ]
    g = evaluate_group(parts, trend=(60, 55, 60))
    assert g.status is HistoryStatus.STALL
    assert g.counts == {"ok": 1, "stall": 1, "warn": 1}
    assert g.produce_rate == pytest.approx(2.0)
    assert g.consume_rate == pytest.approx(3.0)
    assert g.eta_ms == 60_000  # 60 records at a net 1/s
    assert g.trend == (60, 55, 60)
    assert worst_status([]) is HistoryStatus.INCOMPLETE
    assert (
        worst_status([HistoryStatus.STOP, HistoryStatus.REWIND, HistoryStatus.STALL]) is HistoryStatus.REWIND
    )
