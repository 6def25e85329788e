"""Kind ``tiering``'s options: the request ``kafka-offsets tiering`` builds, its errors its text;
its rows: the records of ``tiering -o json`` in the schema's order."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.render.tiering import records as render_records
from kafka_offsets_cli.spark.source_plan import rows_of
from kafka_offsets_cli.spark.source_tiering import TIERING_DDL, tiering_request
from kafka_offsets_cli.tiering.report import build_report
from kafka_offsets_cli.tiering.rules import COLUMNS, Answers, Thresholds, thresholds_from, tier_row
from kafka_offsets_cli.tiering.run import request_of

NOW = 1_700_000_000_000


def test_defaults_are_the_clis() -> None:
    got = tiering_request({"topics": "orders.*"})
    assert got == request_of(
        topics=["orders.*"], partitions=None, topic_partitions=None, include_internal=False
    )
    assert got.thresholds == Thresholds()


def test_options_named_as_the_clis() -> None:
    got = tiering_request(
        {"WARN.RECORDS": "10", "crit.records": "20", "warn.age": "1m", "crit.age": "2h",
         "include.internal": "true", "partitions": "0-1"}
    )  # fmt: skip
    assert got.thresholds == thresholds_from(10, 20, "1m", "2h")
    assert got == request_of(
        topics=None, partitions="0-1", topic_partitions=None, include_internal=True,
        warn_records=10, crit_records=20, warn_age="1m", crit_age="2h",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"warn.records": "9", "crit.records": "3"}, "--warn-records is above --crit-records"),
        ({"warn.age": "2h", "crit.age": "1h"}, "--warn-age is above --crit-age"),
        ({"warn.records": "-1"}, "warn.records '-1': expected a whole number of records (0 or more)"),
        ({"specs": "latest"}, "option 'specs' is not one of kind 'tiering'"),
        ({"isolation": "read_committed"}, "option 'isolation' is not one of kind 'tiering'"),
        ({"include.internal": "1"}, "include.internal '1': expected true or false"),
    ],
)
def test_refused_in_one_line(options: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError) as e:
        tiering_request(options)
    assert str(e.value) == message


def test_rows_are_the_reports_records_in_the_schemas_order() -> None:
    th = thresholds_from(5, None, None, None)
    answers = Answers(earliest=0, earliest_local=40, latest_tiered=49, earliest_pending_upload=50, latest=60)
    tiered = tier_row("t", 0, answers, tiered=True, thresholds=th, now_ms=NOW, backlog_timestamp=NOW - 9)
    plain = Answers(earliest=0, earliest_local=0, latest_tiered=None, earliest_pending_upload=None, latest=3)
    rows = [tiered, tier_row("u", 0, plain, tiered=False, thresholds=th, now_ms=NOW)]
    report = build_report(rows, NOW, th, tiered_topics={"t"})
    names = tuple(f.split()[0] for f in TIERING_DDL.split(", "))
    assert names == COLUMNS
    got = [dict(zip(names, r, strict=True)) for r in rows_of(report.records())]
    assert got == render_records(report)
    assert (got[0]["backlog_records"], got[0]["backlog_age_ms"], got[0]["state"]) == (10, 9, "warning")
    assert got[1]["state"] == "not-tiered"
