"""Records/s consumed from committed offsets that move in commit steps (``lag.rates``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.lag.rates import MIN_STEPS, CommitRate, CommitRates, window_for


def committed(rate: float, interval: float, phase: float, t: float) -> int:
    """A consumer at ``rate`` records/s that commits every ``interval`` s (first commit at ``phase``)."""
    last_commit = phase + interval * ((t - phase) // interval)
    return int(rate * last_commit)


def watch(
    rate: float, commit_every: float, refresh: float, phase: float, refreshes: int
) -> list[CommitRate | None]:
    rates = CommitRates[str](window_for(refresh))
    return [
        rates.observe(t, {"k": committed(rate, commit_every, phase, t)})["k"]
        for t in (100.0 + refresh * i for i in range(refreshes))
    ]


def test_a_rate_between_two_refreshes_would_flip_but_commit_steps_do_not() -> None:
    # 6.6 records/s, auto-commit every 5 s, refreshed every 2 s (issue 16: 0 and 17/s were shown)
    shown = watch(6.6, 5.0, 2.0, phase=0.7, refreshes=40)
    first = next(i for i, r in enumerate(shown) if r is not None)
    assert all(r is None for r in shown[:first]) and first <= 10  # MIN_STEPS steps: ~15-20 s
    later = shown[first:]
    assert all(r is not None and r.steps >= MIN_STEPS for r in later)
    assert all(r is not None and abs(r.per_s - 6.6) / 6.6 < 0.15 for r in later), later
    assert all(r is not None and r.window_s >= 12 for r in later)


@settings(max_examples=200, deadline=None)
@given(
    rate=st.floats(1, 5000),
    commit_every=st.sampled_from([0.5, 1.0, 5.0, 10.0]),
    refresh=st.sampled_from([1.0, 2.0, 3.0]),
    phase=st.floats(0, 10),
)
def test_once_the_window_is_full_the_rate_is_close_and_never_zero(
    rate: float, commit_every: float, refresh: float, phase: float
) -> None:
    shown = watch(rate, commit_every, refresh, phase, refreshes=int(90 / refresh))
    full = [r for r in shown if r is not None and r.window_s >= 20]
    assert full
    # the error is at most one commit interval plus a refresh over the span
    for r in full:
        assert r.per_s > 0
        assert abs(r.per_s - rate) <= rate * (commit_every + refresh) / r.window_s + 1 / r.window_s


def test_a_group_that_stops_committing_fades_to_zero() -> None:
    rates = CommitRates[str](30.0)
    got: list[CommitRate | None] = []
    for i in range(60):
        t = 2.0 * i
        value = committed(10, 5, 0.5, min(t, 40.0))  # stops consuming at t=40
        got.append(rates.observe(t, {"k": value})["k"])
    at = {2 * i: r for i, r in enumerate(got)}
    assert at[40] is not None and abs(at[40].per_s - 10) < 1.5
    faded = [at[t] for t in range(48, 100, 2)]
    per_s = [r.per_s for r in faded if r is not None]
    assert per_s == sorted(per_s, reverse=True) and per_s[0] < 10  # decays, no jump up
    stopped = at[118]  # two windows without a commit step
    assert stopped is not None and stopped.per_s == 0.0


def test_an_idle_group_is_zero_after_two_windows_and_unknown_before() -> None:
    rates = CommitRates[str](30.0)
    got = [rates.observe(float(t), {"k": 42})["k"] for t in range(0, 70, 5)]
    assert all(r is None for r in got[:12])  # t < 60
    assert got[12] == CommitRate(0.0, 60.0, 0)


def test_an_offset_going_back_starts_over_and_a_gone_key_is_forgotten() -> None:
    rates = CommitRates[str](30.0)
    for t in range(10):
        last = rates.observe(float(t), {"k": 100 * t})["k"]
    assert last is not None and last.per_s == pytest.approx(100.0)
    assert rates.observe(10.0, {"k": 5})["k"] is None  # a reset group
    assert rates.observe(11.0, {"other": 1}) == {"other": None}
    assert rates.observe(12.0, {"k": 500})["k"] is None  # k was forgotten: a new baseline
