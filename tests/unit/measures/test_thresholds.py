"""The threshold rules every front end checks by (:mod:`kafka_offsets_cli.measures.thresholds`)."""

from __future__ import annotations

from kafka_offsets_cli.measures.thresholds import time_lag_on, warn_above_crit


def test_only_a_set_warning_above_a_set_critical_is_refused() -> None:
    assert warn_above_crit(2, 1)
    assert not warn_above_crit(1, 1)  # equal: allowed
    assert not warn_above_crit(1, 2)
    assert not warn_above_crit(None, 1) and not warn_above_crit(5, None) and not warn_above_crit(None, None)


def test_a_time_threshold_turns_the_time_lag_on() -> None:
    assert not time_lag_on(False, None, None)
    assert time_lag_on(True, None, None)
    assert time_lag_on(False, 0, None) and time_lag_on(False, None, 0)
