"""Kind ``liveness``'s options: the request ``kafka-offsets liveness`` builds, its errors its text;
its rows: the records of ``liveness -o json`` in the schema's order."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.errors import MonitoringStatus, UsageError
from kafka_offsets_cli.liveness.report import build_report
from kafka_offsets_cli.liveness.run import request_of
from kafka_offsets_cli.measures.liveness import COLUMNS, DEFAULT_EMPTY_STATUS, DEFAULT_FUTURE_TOLERANCE_MS
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.render.liveness import records as render_records
from kafka_offsets_cli.spark.source_liveness import LIVENESS_DDL, liveness_request
from kafka_offsets_cli.spark.source_plan import rows_of

BASE = 1_700_000_000_000


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


def test_isolation_is_the_connections() -> None:
    assert liveness_request({"isolation": "read_committed"}) == liveness_request({})


def test_rows_are_the_reports_records_in_the_schemas_order() -> None:
    now = BASE + 600_000
    results = [
        OffsetResult("t", 0, OffsetSpec.max_timestamp(), 4, timestamp=BASE),
        OffsetResult("t", 1, OffsetSpec.max_timestamp(), None, error="NOT_LEADER_OR_FOLLOWER"),
    ]
    report = build_report(
        results, now, 300_000, 900_000, timestamp_types={"t": "CreateTime"}, missing_topics=[("gone", "NO")]
    )
    rows = rows_of(report.records())
    names = tuple(f.split()[0] for f in LIVENESS_DDL.split(", "))
    assert names == COLUMNS
    assert [dict(zip(names, r, strict=True)) for r in rows] == render_records(report)
    by = {(r[0], r[1]): dict(zip(names, r, strict=True)) for r in rows}
    assert by[("t", 0)]["age_ms"] == 600_000 and by[("t", 0)]["state"] == "warning"
    assert by[("gone", None)]["state"] == "error" and by[("gone", None)]["error"] == "NO"
    assert by[("t", 1)]["timestamp_type"] == "CreateTime"
