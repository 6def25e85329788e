"""Unit tests of request planning."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kafka_offsets_cli.models.offsets import OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import chunked, plan_queries, plan_requests


def tps(n: int) -> list[TopicPartition]:
    return [TopicPartition(f"t{i % 7}", i) for i in range(n)]


def test_one_call_per_spec_when_under_chunk() -> None:
    specs = [OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.max_timestamp(), OffsetSpec.at(5)]
    reqs = plan_requests(tps(100), specs, chunk_size=2000)
    assert len(reqs) == 4
    assert [r.queries[0][1] for r in reqs] == specs


def test_chunks_are_balanced_and_cover_everything() -> None:
    reqs = plan_requests(tps(10_001), [OffsetSpec.latest()], chunk_size=2000)
    sizes = [len(r) for r in reqs]
    assert len(reqs) == 6 and max(sizes) - min(sizes) <= 1 and sum(sizes) == 10_001


def test_duplicate_partitions_and_specs_collapse() -> None:
    reqs = plan_requests(tps(3) * 2, [OffsetSpec.latest(), OffsetSpec.latest()])
    assert len(reqs) == 1 and len(reqs[0]) == 3


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 50)), max_size=300), st.integers(1, 40))
def test_plan_queries_never_repeats_a_partition_within_a_call(
    pairs: list[tuple[int, int]], size: int
) -> None:
    queries = [(TopicPartition("t", p), OffsetSpec.at(ts)) for p, ts in pairs]
    calls = plan_queries(queries, size)
    flat = [q for c in calls for q in c.queries]
    assert sorted(flat) == sorted(queries)
    for c in calls:
        assert len(c) <= size
        assert len({tp for tp, _ in c.queries}) == len(c)


@given(st.integers(0, 500), st.integers(1, 64))
def test_chunked_sizes(n: int, size: int) -> None:
    parts = chunked(list(range(n)), size)
    assert [x for p in parts for x in p] == list(range(n))
    assert all(0 < len(p) <= size for p in parts)


@given(
    st.dictionaries(
        st.tuples(st.sampled_from(["a", "b", "c.d"]), st.integers(0, 300)), st.integers(-1, 4), max_size=400
    ),
    st.integers(1, 120),
)
def test_with_leaders_every_call_goes_to_one_broker_and_covers_everything(
    leader_of: dict[tuple[str, int], int], size: int
) -> None:
    leaders = {TopicPartition(t, p): b for (t, p), b in leader_of.items()}
    specs = [OffsetSpec.earliest(), OffsetSpec.at(7)]
    reqs = plan_requests(list(leaders), specs, size, leaders)
    for r in reqs:
        assert len({leaders[tp] for tp, _ in r.queries}) == 1
        assert len({s for _, s in r.queries}) == 1
        assert len(r) <= size
    assert sorted(q for r in reqs for q in r.queries) == sorted((tp, s) for tp in leaders for s in specs)
    per_leader: dict[int, int] = {}
    for b in leaders.values():
        per_leader[b] = per_leader.get(b, 0) + 1
    assert len(reqs) == len(specs) * sum(-(-n // size) for n in per_leader.values())


def test_with_leaders_and_small_leaders_one_call_per_leader_per_spec() -> None:
    """The protocol's minimum: one ListOffsets request per leader per spec."""
    parts = tps(900)
    leaders = {tp: tp.partition % 3 for tp in parts}
    specs = [OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.max_timestamp(), OffsetSpec.at(5)]
    reqs = plan_requests(parts, specs, chunk_size=500, leaders=leaders)
    assert len(reqs) == 3 * 4
    assert all(len(r) == 300 for r in reqs)


def test_a_partition_without_a_known_leader_is_still_asked() -> None:
    parts = tps(10)
    leaders = {tp: 1 for tp in parts[:5]}
    reqs = plan_requests(parts, [OffsetSpec.latest()], leaders=leaders)
    assert sorted(tp for r in reqs for tp, _ in r.queries) == sorted(parts)
    assert len(reqs) == 2


@given(
    st.lists(st.tuples(st.integers(0, 20), st.integers(0, 50)), max_size=300),
    st.integers(1, 40),
    st.integers(1, 4),
)
def test_plan_queries_with_leaders_one_broker_per_call_no_repeats(
    pairs: list[tuple[int, int]], size: int, brokers: int
) -> None:
    queries = [(TopicPartition("t", p), OffsetSpec.at(ts)) for p, ts in pairs]
    leaders = {tp: tp.partition % brokers for tp, _ in queries}
    calls = plan_queries(queries, size, leaders)
    assert sorted(q for c in calls for q in c.queries) == sorted(queries)
    for c in calls:
        assert len(c) <= size
        assert len({tp for tp, _ in c.queries}) == len(c)
        assert len({leaders[tp] for tp, _ in c.queries}) <= 1
