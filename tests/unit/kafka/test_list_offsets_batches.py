"""kafka/list_offsets_batches.py's merging of planned calls into requests (pure, no broker)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kafka_offsets_cli.kafka.list_offsets_batches import Answers, batches
from kafka_offsets_cli.models.offset_results import OffsetResults
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest, plan_queries, plan_requests

EARLIEST, LATEST = OffsetSpec.earliest(), OffsetSpec.latest()


def shape(placed: list[tuple[int, list[tuple[TopicPartition, OffsetSpec]]]]) -> list[tuple[int, int]]:
    return [(leader, len(keys)) for leader, keys in placed]


def test_a_planned_groups_chunks_merge_into_one_request_in_order() -> None:
    tps = [TopicPartition("t", p) for p in range(10)]
    leaders = {tp: tp.partition % 2 for tp in tps}
    calls = plan_requests(tps, [EARLIEST, LATEST], chunk_size=2, leaders=leaders)
    assert len(calls) == 12 and len({c.run for c in calls}) == 4
    placed, unplaced = batches(calls)
    assert unplaced == [] and shape(placed) == [(0, 5), (1, 5), (0, 5), (1, 5)]
    assert placed[0][1] == [(tp, EARLIEST) for tp in tps if tp.partition % 2 == 0]  # the plan's order


def test_calls_without_a_run_merge_only_while_disjoint_and_never_into_a_runs_request() -> None:
    a, b = TopicPartition("t", 0), TopicPartition("t", 1)
    planned = plan_requests([a], [EARLIEST], leaders={a: 1})
    by_hand = [
        OffsetRequest(((a, LATEST),), 1),
        OffsetRequest(((b, LATEST),), 1),  # disjoint: merges with the one before
        OffsetRequest(((a, EARLIEST),), 1),  # a again: a request of its own
        OffsetRequest(((b, EARLIEST),), None),  # no leader: left to the session's metadata
    ]
    placed, unplaced = batches(planned + by_hand)
    assert placed == [(1, [(a, EARLIEST)]), (1, [(a, LATEST), (b, LATEST)]), (1, [(a, EARLIEST)])]
    assert unplaced == [(b, EARLIEST)]


def test_two_plans_never_share_a_run() -> None:
    a = TopicPartition("t", 0)
    first, second = plan_requests([a], [LATEST], leaders={a: 1}), plan_requests([a], [LATEST], leaders={a: 1})
    placed, _ = batches(first + second)
    assert placed == [(1, [(a, LATEST)]), (1, [(a, LATEST)])]


@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3), st.integers(0, 2)), max_size=200),
    st.integers(1, 9),
)
def test_no_request_names_a_partition_twice_and_every_query_is_kept(
    queries: list[tuple[int, int, int]], size: int
) -> None:
    keys = [(TopicPartition("t", p), OffsetSpec.at(ts)) for p, ts, _ in queries]
    leaders = {TopicPartition("t", p): leader for p, _, leader in queries}
    calls = plan_queries(keys, size, leaders)
    calls += plan_requests(list(leaders), [EARLIEST, LATEST], size, leaders)
    placed, unplaced = batches(calls)
    assert unplaced == []
    for leader, batch in placed:
        assert len({tp for tp, _ in batch}) == len(batch)
        assert {leaders[tp] for tp, _ in batch} == {leader}
    assert sorted(k for _, batch in placed for k in batch) == sorted(k for c in calls for k in c.queries)


def test_the_answers_hand_on_their_index_by_spec_and_partition() -> None:
    # each query's last answer, once; the list and its index say the same
    early, late, tp, other = (
        OffsetSpec.earliest(),
        OffsetSpec.latest(),
        TopicPartition("t", 0),
        TopicPartition("t", 1),
    )
    answers = Answers()
    answers[(tp, early)] = OffsetResult("t", 0, early, None, error="NOT_LEADER_OR_FOLLOWER")
    answers.of(late).update({tp: OffsetResult("t", 0, late, 9), other: OffsetResult("t", 1, late, 4)})
    again = Answers()
    again[(tp, early)] = OffsetResult("t", 0, early, 2)  # asked again: the last answer wins
    answers.merge(again)
    got = answers.results()
    assert isinstance(got, OffsetResults) and got.by_spec is not None
    assert sorted(got) == sorted(
        [OffsetResult("t", 0, early, 2), OffsetResult("t", 0, late, 9), OffsetResult("t", 1, late, 4)]
    )
    assert sorted(r for by_tp in got.by_spec.values() for r in by_tp.values()) == sorted(got)
    assert {(s, k) for s, by_tp in got.by_spec.items() for k in by_tp} == {(r.spec, r.tp) for r in got}
