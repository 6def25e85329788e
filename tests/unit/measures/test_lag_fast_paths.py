"""The shortcuts of lag's hot loops give exactly what the plain constructions give.

A row made by :func:`lag_row` or changed by :meth:`LagRow.evolve` equals (fields, order of the
record, hash) the row the dataclass constructor or ``dataclasses.replace`` makes; ListOffsets
answers collected by the fast loop equal :func:`_to_result`'s; rows are assembled from results
whose specs are equal copies (a Spark task's unpickled specs), not the shared instances.
"""

from __future__ import annotations

import dataclasses
import pickle
from concurrent.futures import Future
from typing import Any

import pytest
from confluent_kafka import KafkaError
from confluent_kafka import TopicPartition as CTopicPartition
from confluent_kafka.admin import ListOffsetsResultInfo  # type: ignore[attr-defined]
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.kafka.list_offsets import OFFSET_INVALID, _collect_one_future, _to_result
from kafka_offsets_cli.measures.lag.plan import GroupPlan, assemble_rows
from kafka_offsets_cli.measures.lag.rows import COLUMNS, LagRow, LagState, lag_row
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest

TP = TopicPartition("orders", 3)
E, L = OffsetSpec.earliest(), OffsetSpec.latest()
_OFFSET = st.none() | st.integers(min_value=0, max_value=50)
_ERROR = st.none() | st.sampled_from(["NOT_LEADER_OR_FOLLOWER", "UNKNOWN_TOPIC_OR_PARTITION"])


def _constructed(row: LagRow) -> LagRow:
    """The same row through the dataclass constructor."""
    return LagRow(**{f.name: getattr(row, f.name) for f in dataclasses.fields(LagRow)})


@settings(max_examples=300)
@given(_OFFSET, _OFFSET, _OFFSET, _ERROR, _ERROR, st.none() | st.booleans())
def test_lag_row_equals_the_constructed_row(
    committed: int | None,
    start: int | None,
    end: int | None,
    e_err: str | None,
    l_err: str | None,
    marker: bool | None,
) -> None:
    early = OffsetResult(TP.topic, TP.partition, E, None if e_err else start, error=e_err)
    late = OffsetResult(TP.topic, TP.partition, L, None if l_err else end, error=l_err)
    row = lag_row("g", TP, committed, early, late, marker=marker)
    made = _constructed(row)
    assert row == made and hash(row) == hash(made)
    assert list(row.__dict__) == list(made.__dict__) == list(COLUMNS)  # the record's key order
    assert row.to_record() == made.to_record()
    assert type(row.to_record()["state"]) is str
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.lag = 1  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(row)) == row


def test_evolve_is_replace() -> None:
    row = lag_row("g", TP, 40, OffsetResult("orders", 3, E, 10), OffsetResult("orders", 3, L, 100))
    for changes in (
        {"remote_read": False},
        {"time_lag_ms": 5, "error": "time lag: X"},
        {"state": LagState.MARKER, "time_lag_ms": 0},
        {"resume_timestamp": 7, "taken_at_ms": 9},
        {},
    ):
        got, want = row.evolve(**changes), dataclasses.replace(row, **changes)
        assert got == want and hash(got) == hash(want) and type(got) is LagRow
        assert list(got.__dict__) == list(COLUMNS)
        assert got.to_record() == want.to_record()
    assert row.remote_read is None  # the original is untouched
    with pytest.raises(TypeError, match="lagg"):
        row.evolve(lagg=1)


def test_the_record_is_the_fields_in_columns_order_however_the_row_was_made() -> None:
    # to_record copies the row's __dict__: its keys must be COLUMNS, in order, for every way a row
    # is made (the record's key order is the JSON and CSV output's)
    row = lag_row("g", TP, 40, OffsetResult("orders", 3, E, 10), OffsetResult("orders", 3, L, 100))
    made = [
        row,
        _constructed(row),
        row.evolve(remote_read=True, error="x"),
        dataclasses.replace(row, lag=None),
        pickle.loads(pickle.dumps(row)),
        LagRow.from_record(row.to_record()),
    ]
    for r in made:
        rec = r.to_record()
        assert list(rec) == list(COLUMNS)
        assert rec == {c: getattr(r, c) for c in COLUMNS} | {"state": r.state.value}
        assert type(rec["state"]) is str and r.state is LagState.OK  # the row keeps its enum


def test_assemble_rows_matches_specs_by_value() -> None:
    copies = pickle.loads(pickle.dumps((E, L)))  # equal, not the shared instances
    assert copies[0] is not E and copies == (E, L)
    results = [
        OffsetResult("orders", 3, copies[0], 10),
        OffsetResult("orders", 3, copies[1], 100),
        OffsetResult("orders", 4, E, 0),
        OffsetResult("orders", 4, OffsetSpec.max_timestamp(), 1, 5),  # not asked by the rows: ignored
    ]
    plan = GroupPlan(
        group="g",
        committed={TP: 40},
        partitions=(TP, TopicPartition("orders", 4)),
        gone=(TopicPartition("gone", 0),),
    )
    rows = assemble_rows([plan], results)
    assert [(r.partition, r.state, r.lag, r.error) for r in rows] == [
        (3, LagState.OK, 60, None),
        (4, LagState.ERROR, None, "NO_ANSWER"),  # no latest
        (0, LagState.ERROR, None, "UNKNOWN_TOPIC_OR_PARTITION"),
    ]


def test_the_fast_collection_is_to_result() -> None:
    answers: dict[Any, Any] = {
        CTopicPartition("t", 0): ListOffsetsResultInfo(42, -1, 3),
        CTopicPartition("t", 1): ListOffsetsResultInfo(7, 1_700_000_000_000, -1),
        CTopicPartition("t", 2): ListOffsetsResultInfo(-1, -1, -1),  # no record
        CTopicPartition("t", 3): ListOffsetsResultInfo(OFFSET_INVALID, -1, -1),  # a timed-out request
        CTopicPartition("t", 4): KafkaError(KafkaError.NOT_LEADER_FOR_PARTITION),
    }
    f: Future[Any] = Future()
    f.set_result(answers)
    queries = tuple((TopicPartition("t", p), L) for p in range(6))  # partition 5: not answered
    out: dict[Any, OffsetResult] = {}
    _collect_one_future(OffsetRequest(queries), f, 1.0, lambda fut, _t: fut.result(), out)
    assert list(out) == list(queries)
    for p in range(3):
        info = answers[CTopicPartition("t", p)]
        want = _to_result(queries[p][0], L, info.offset, info.timestamp, info.leader_epoch)
        assert out[queries[p]] == want and type(out[queries[p]]) is OffsetResult
    assert out[queries[0]] == OffsetResult("t", 0, L, 42, None, 3)
    assert out[queries[1]] == OffsetResult("t", 1, L, 7, 1_700_000_000_000, None)
    assert out[queries[2]] == OffsetResult("t", 2, L, None)
    assert out[queries[3]].error == "REQUEST_TIMED_OUT"
    assert out[queries[4]].error == "NOT_LEADER_OR_FOLLOWER"
    assert out[queries[5]].error == "UNKNOWN"
