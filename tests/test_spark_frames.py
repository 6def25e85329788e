"""The check pipeline's Arrow rows (kafka_offsets_cli.spark.frames): what a task emits is what the rules read.

pyarrow only: the conversions run inside Spark's Python workers, and here without Spark.
"""

from __future__ import annotations

from kafka_offsets_cli.check.collect import LagSample, LiveSample, Sample
from kafka_offsets_cli.check.history import HistoryStatus, PartitionHistory
from kafka_offsets_cli.check.records import PartitionRecord
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.spark.frames import (
    RECORD_COLUMNS,
    SAMPLE_COLUMNS,
    VERDICT_COLUMNS,
    arrow_schema,
    batch_samples,
    record_batch,
    records,
    sample_batches,
    verdict_batch,
    verdicts,
)


def _samples() -> list[Sample]:
    spec = OffsetSpec.max_timestamp()
    return [
        LiveSample("a", OffsetResult("orders", 0, spec, 41, 1_700_000_000_000, 3)),
        LiveSample("a", OffsetResult("orders", 1, spec, None, None, None, error="NOT_LEADER_OR_FOLLOWER")),
        LagSample(
            "b",
            LagRow(
                group="billing",
                group_type="share",
                topic="orders",
                partition=2,
                committed=10,
                log_start=0,
                end=15,
                lag=5,
                time_lag_ms=1200,
                state=LagState.OK,
                resume_timestamp=7,
                taken_at_ms=9,
            ),
        ),
        LagSample(
            "b",
            LagRow(
                group="billing",
                topic="gone",
                partition=0,
                committed=None,
                log_start=None,
                end=None,
                lag=None,
                time_lag_ms=None,
                state=LagState.ERROR,
                error="UNKNOWN_TOPIC_OR_PARTITION",
            ),
        ),
    ]


def test_samples_round_trip_through_arrow_batches_in_schema() -> None:
    samples = _samples()
    batches = list(sample_batches(samples, size=3))
    assert [b.num_rows for b in batches] == [3, 1]
    assert all(b.schema == arrow_schema(SAMPLE_COLUMNS) for b in batches)
    assert [s for b in batches for s in batch_samples(b)] == samples
    assert batches[0].column(batches[0].schema.get_field_index("group_type")).to_pylist() == [
        None,
        None,
        "share",
    ]


def test_records_round_trip_with_status_by_name() -> None:
    recs = [
        PartitionRecord(
            check="alive",
            kind="liveness",
            cluster="a",
            topic="orders",
            partition=0,
            group=None,
            offset=41,
            timestamp=5,
            age_ms=10,
            state="ok",
            status=MonitoringStatus.OK,
        ),
        PartitionRecord(
            check="lag",
            kind="lag",
            cluster="b",
            topic="gone",
            partition=None,
            group="billing",
            group_type="streams",
            state="error",
            status=MonitoringStatus.UNKNOWN,
            error="UNKNOWN_TOPIC_OR_PARTITION",
            history="stop",
        ),
    ]
    batch = record_batch(recs)
    assert batch.schema == arrow_schema(RECORD_COLUMNS)
    assert batch.column(batch.schema.get_field_index("status")).to_pylist() == ["OK", "UNKNOWN"]
    assert list(records(batch.to_pylist())) == recs
    assert batch.column(batch.schema.get_field_index("group_type")).to_pylist() == [None, "streams"]
    empty = record_batch([])
    assert empty.num_rows == 0 and empty.schema == batch.schema


def test_verdicts_round_trip() -> None:
    h = PartitionHistory(
        status=HistoryStatus.WARN,
        samples=4,
        reason="r",
        lag=9,
        produce_rate=1.5,
        consume_rate=None,
        eta_ms=None,
    )
    batch = verdict_batch([(("lag", "b", "billing", "orders", 2), h)])
    assert batch.schema == arrow_schema(VERDICT_COLUMNS)
    assert list(verdicts(batch.to_pylist())) == [h]
