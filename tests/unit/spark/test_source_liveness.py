"""Kind ``liveness``'s options: the request ``kafka-offsets liveness`` builds, its errors its text."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.errors import MonitoringStatus, UsageError
from kafka_offsets_cli.liveness.run import request_of
from kafka_offsets_cli.measures.liveness import DEFAULT_EMPTY_STATUS, DEFAULT_FUTURE_TOLERANCE_MS
from kafka_offsets_cli.spark.source_liveness import liveness_request


def test_defaults_are_the_clis() -> None:
    got = liveness_request({"topics": "orders.*"})
    want = request_of(
        topics=["orders.*"], partitions=None, topic_partitions=None, include_internal=False,
        exclude_internal_topics=False, warn="5m", crit="15m", min_alive=None,
        future_tolerance=f"{DEFAULT_FUTURE_TOLERANCE_MS // 1000}s",
        empty=DEFAULT_EMPTY_STATUS, future=MonitoringStatus.WARNING,
    )  # fmt: skip
    assert got == want


def test_options_named_as_the_clis() -> None:
    got = liveness_request(
        {"WARN": "1m", "crit": "2m", "min.alive": "2", "empty.status": "critical", "future.status": "ok",
         "include.internal": "true", "future.tolerance": "5s", "partitions": "0-1"}
    )  # fmt: skip
    assert (got.warn_ms, got.crit_ms, got.min_alive, got.tolerance_ms) == (60_000, 120_000, 2, 5_000)
    assert (got.empty, got.future, got.include_internal) == (
        MonitoringStatus.CRITICAL, MonitoringStatus.OK, True,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"warn": "20m"}, "--warn 20m is longer than --crit 15m"),
        ({"specs": "latest"}, "option 'specs' is not one of kind 'liveness'"),
        ({"groups": "g"}, "option 'groups' is not one of kind 'liveness'"),
        ({"min.alive": "0"}, "min.alive '0': expected a positive integer"),
        ({"empty.status": "bad"}, "empty.status 'bad': expected one of ok, warning, critical, unknown"),
        ({"include.internal": "yes"}, "include.internal 'yes': expected true or false"),
    ],
)
def test_refused_in_one_line(options: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError) as e:
        liveness_request(options)
    assert str(e.value) == message
    assert "\n" not in str(e.value)
