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

from kafka_offsets_cli.errors import ClusterUnreachable
from kafka_offsets_cli.kafka.list_offsets import OFFSET_INVALID, _collect_one_future, _to_result
from kafka_offsets_cli.measures.lag.plan import GroupPlan, assemble_rows
from kafka_offsets_cli.measures.lag.remote import RemoteConfigs, remote_rule, tiered_topics, with_remote_reads
from kafka_offsets_cli.measures.lag.rows import COLUMNS, LagRow, LagState, error_row, lag_row
from kafka_offsets_cli.models.offset_results import OffsetResults
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


def _plain_rows(plans: list[GroupPlan], results: list[OffsetResult]) -> list[LagRow]:
    """assemble_rows as a loop of lag_row calls (the construction rows.lag_rows_of replaces)."""
    early_of = {(r.topic, r.partition): r for r in results if r.spec == E}
    late_of = {(r.topic, r.partition): r for r in results if r.spec == L}
    rows: list[LagRow] = []
    for plan in plans:
        kind = plan.group_type
        if plan.error is not None:
            rows += [error_row(plan.group, tp, plan.error, kind) for tp in (*plan.partitions, *plan.gone)]
            continue
        for tp in plan.partitions:
            early, late = early_of.get(tp), late_of.get(tp)
            if early is None or late is None:
                no = OffsetResult(tp.topic, tp.partition, L, None, error="NO_ANSWER")
                early, late = early or no, late or no
            rows.append(lag_row(plan.group, tp, plan.committed.get(tp), early, late, group_type=kind))
        for tp in plan.gone:
            gone = OffsetResult(tp.topic, tp.partition, L, None, error="UNKNOWN_TOPIC_OR_PARTITION")
            rows.append(lag_row(plan.group, tp, plan.committed.get(tp), gone, gone, group_type=kind))
    return rows


_TPS = [TopicPartition(t, p) for t in ("moved", "plain", "dark") for p in range(3)]
_SPECS = [E, L, *pickle.loads(pickle.dumps((E, L))), OffsetSpec.max_timestamp()]  # shared, copies, other


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_TPS), st.sampled_from(_SPECS), _OFFSET, _ERROR), max_size=30),
    st.lists(
        st.tuples(
            st.dictionaries(st.sampled_from(_TPS), _OFFSET),  # committed
            st.lists(st.sampled_from(_TPS), unique=True),  # partitions
            st.lists(st.sampled_from(_TPS), unique=True, max_size=2),  # gone
            st.none() | st.just("GROUP_AUTHORIZATION_FAILED"),
            st.sampled_from([None, "classic", "share"]),
        ),
        max_size=3,
    ),
)
def test_assembled_rows_are_lag_rows(
    answers: list[tuple[TopicPartition, OffsetSpec, int | None, str | None]],
    groups: list[
        tuple[dict[TopicPartition, int | None], list[TopicPartition], list[TopicPartition], Any, Any]
    ],
) -> None:
    # answers with the shared specs, equal copies, other specs, repeats, errors and gaps (NO_ANSWER)
    results = [OffsetResult(tp.topic, tp.partition, s, None if e else o, error=e) for tp, s, o, e in answers]
    plans = [
        GroupPlan(group=f"g{i}", committed=c, partitions=tuple(p), gone=tuple(g), error=err, group_type=k)
        for i, (c, p, g, err, k) in enumerate(groups)
    ]
    want = _plain_rows(plans, results)
    for got in (assemble_rows(plans, results), assemble_rows(plans, iter(results))):
        assert got == want
        assert [list(r.__dict__.items()) for r in got] == [list(r.__dict__.items()) for r in want]
    # the answers with their own index by spec (equal copies one key) and partition, one answer a query
    # (the last asked), as the kafka-python route hands them: the rows of that list
    by_spec: dict[OffsetSpec, dict[TopicPartition, OffsetResult]] = {}
    for r in results:
        by_spec.setdefault(r.spec, {})[TopicPartition(r.topic, r.partition)] = r
    indexed = OffsetResults([r for got in by_spec.values() for r in got.values()], by_spec)
    got = assemble_rows(plans, indexed)
    assert got == _plain_rows(plans, list(indexed))
    assert [list(r.__dict__.items()) for r in got] == [
        list(r.__dict__.items()) for r in _plain_rows(plans, list(indexed))
    ]
    # with the topics' remote.storage.enable read before the rows are made: the first flags are the rule's
    # without an earliest-local answer (tiered, plain and unknown topics), the rows otherwise the same
    tiered = {"moved": True, "plain": False}
    flagged = assemble_rows(plans, results, tiered=tiered)
    assert flagged == [
        r.evolve(remote_read=remote_rule(r.state, r.committed, r.end, tiered.get(r.topic), None))
        for r in want
    ]
    assert all(list(r.__dict__) == list(COLUMNS) for r in flagged)


@pytest.mark.parametrize("configs", [{"moved": "true", "plain": "false"}, {"plain": "FALSE"}, {}, None])
def test_rows_flagged_when_made_end_as_the_rows_flagged_after(configs: dict[str, str] | None) -> None:
    # lag sets the flags of rows whose topics' configs were read ahead; with_remote_reads then looks up
    # earliest-local of the tiered rows only and copies only the rows whose flag it changes. The rows it
    # returns equal those it returns for rows made without flags (tiered, plain, unknown topics, a failed
    # DescribeConfigs)
    read: RemoteConfigs = (
        ClusterUnreachable("describe topic configs: timed out")
        if configs is None
        else {t: {"remote.storage.enable": v} for t, v in configs.items()}
    )
    tps = [TopicPartition(t, p) for t in ("moved", "plain", "dark") for p in range(4)]
    results = [OffsetResult(tp.topic, tp.partition, s, o) for tp in tps for s, o in ((E, 10), (L, 100))]
    committed: dict[TopicPartition, int | None] = {
        tp: (None, 5, 40, 100)[tp.partition] for tp in tps
    }  # no-commit, below-start, records left, caught up
    plans = [GroupPlan(group="g", committed=committed, partitions=tuple(tps), gone=(TopicPartition("x", 0),))]

    class Source:
        def topic_configs(self, topics: Any, keys: Any) -> Any:
            raise AssertionError("read ahead")

        def list_offsets(self, requests: Any, **k: Any) -> list[OffsetResult]:
            return [OffsetResult(tp.topic, tp.partition, s, 50) for r in requests for tp, s in r.queries]

    plain, _ = with_remote_reads(Source(), assemble_rows(plans, results), configs=read)  # type: ignore[arg-type]
    made = assemble_rows(plans, results, tiered=tiered_topics(read))
    flagged, _ = with_remote_reads(Source(), made, configs=read)  # type: ignore[arg-type]
    assert flagged == plain
    # said to be flagged from these configs (lag's read ahead): the same rows, a marker row's too, and
    # with no tiered topic the very rows made
    marked = [r.evolve(state=LagState.MARKER) if r.lag == 60 and r.topic == "plain" else r for r in made]
    kept, unchecked = with_remote_reads(Source(), marked, configs=read, flagged=True)  # type: ignore[arg-type]
    again, unchecked_again = with_remote_reads(Source(), marked, configs=read)  # type: ignore[arg-type]
    assert kept == again and unchecked == unchecked_again
    if not any(tiered_topics(read).values()):
        assert all(a is b for a, b in zip(kept, marked, strict=True))
    assert [list(r.__dict__.items()) for r in flagged] == [list(r.__dict__.items()) for r in plain]
    assert {r.remote_read for r in plain} >= {None, False}
    for before, after in zip(made, flagged, strict=True):
        assert (after is before) == (before.remote_read is after.remote_read)  # only changed rows copied
        if tiered_topics(read).get(before.topic) is not True:
            assert after is before  # a topic not tiered (or unknown): its flag was right when made
