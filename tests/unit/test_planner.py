"""Unit tests of request planning."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kafka_offsets_cli.models import OffsetSpec, TopicPartition
from kafka_offsets_cli.planner import chunked, plan_queries, plan_requests


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
