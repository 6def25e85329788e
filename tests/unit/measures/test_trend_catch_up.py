"""The ``--watch`` trend buffer and the time to catch up (kafka_offsets_cli.measures.trend, .catch_up)."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.measures.catch_up import catch_up_ms, eta_to_catch_up_ms
from kafka_offsets_cli.measures.trend import TREND_SIZE, Trends


def test_trends_keep_the_last_values_per_key_oldest_first() -> None:
    t: Trends[str] = Trends(size=3)
    assert t.observe({"a": 1, "b": None}) == {"a": (1,), "b": (None,)}
    assert t.observe({"a": 2, "b": 5}) == {"a": (1, 2), "b": (None, 5)}
    assert t.observe({"a": 3, "b": 6}) == {"a": (1, 2, 3), "b": (None, 5, 6)}
    assert t.observe({"a": 4, "b": 7}) == {"a": (2, 3, 4), "b": (5, 6, 7)}  # bounded: the last 3


def test_a_key_missing_from_a_refresh_starts_over() -> None:
    t: Trends[str] = Trends(size=4)
    t.observe({"a": 1, "b": 1})
    t.observe({"a": 2})
    assert t.observe({"a": 3, "b": 9}) == {"a": (1, 2, 3), "b": (9,)}


def test_trends_are_bounded_by_the_column() -> None:
    t: Trends[int] = Trends()
    for n in range(3 * TREND_SIZE):
        got = t.observe({0: n})
    assert got[0] == tuple(range(2 * TREND_SIZE, 3 * TREND_SIZE))
    with pytest.raises(ValueError):
        Trends(size=0)


def test_catch_up_is_the_lag_over_the_net_consumption() -> None:
    assert catch_up_ms(600, 5.0, 10.0) == 120_000  # 600 records at a net 5/s
    assert catch_up_ms(100, -1.0, 2.0) == 50_000  # a negative produce rate counts as 0
    assert catch_up_ms(100, 10.0, 5.0) is None  # producers outpace the consumer
    assert catch_up_ms(0, None, None) == 0
    assert catch_up_ms(None, 1.0, 2.0) is None


def test_the_watch_eta_only_while_catching_up() -> None:
    assert eta_to_catch_up_ms(1_000, 10.0, 30.0) == 50_000  # gaining 20/s
    assert eta_to_catch_up_ms(1_000, None, 30.0) is None  # first refresh: no rate in yet
    assert eta_to_catch_up_ms(1_000, 10.0, None) is None  # no consumed rate yet
    assert eta_to_catch_up_ms(1_000, 10.0, 10.0) is None  # steady: not gaining
    assert eta_to_catch_up_ms(1_000, 10.0, 5.0) is None  # falling behind
    assert eta_to_catch_up_ms(1_000, 0.0, 0.0) is None  # stopped: zero rates
    assert eta_to_catch_up_ms(0, 10.0, 30.0) is None  # caught up: nothing to show
    assert eta_to_catch_up_ms(None, 10.0, 30.0) is None
