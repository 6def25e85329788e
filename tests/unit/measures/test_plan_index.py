"""Planning is linear: a selection is resolved once per cluster, and gives the rows per-group resolution gave.

The reference below is the per-group planner as it was (each group's selection resolved
against the whole metadata): the index (:func:`~kafka_offsets_cli.measures.lag.plan.partition_index`)
must give the same rows and gone partitions on any metadata and selection, and ``lag`` and
``check`` must resolve once per cluster (and check), whatever the number of groups.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kafka_offsets_cli.check.plan as check_plan
import kafka_offsets_cli.measures.lag.index as lag_index
from kafka_offsets_cli.check.collect import LagSample, unit_samples
from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.check.plan import plan_checks, unit_chunks
from kafka_offsets_cli.measures.lag.collect import collect
from kafka_offsets_cli.measures.lag.plan import (
    group_partitions,
    index_partitions,
    partition_index,
    plan_group,
    planned_group,
    planned_rows,
)
from kafka_offsets_cli.models.groups import GroupDescription, GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.parse.selection import PartitionRange, Selection, TopicRule
from kafka_offsets_cli.plan.resolve import resolve
from tests.unit.fake_cluster import FakeCluster, topic

NAMES = ("a", "b", "a.b", "axb", "__int", "c1", "c2")


def reference(
    metadata: ClusterMetadata, selection: Selection | None, touched: Iterable[TopicPartition], literal: bool
) -> tuple[list[TopicPartition], list[TopicPartition]]:
    """The per-group planner before the index (resolves the selection for every group)."""
    touched = set(touched)
    allowed = set(resolve(selection, metadata).partitions) if selection is not None else None
    topics = {tp.topic for tp in touched}
    if selection is not None and literal:
        topics |= set(selection.literal_topics() or ())
    rows: set[TopicPartition] = set()
    gone: list[TopicPartition] = []
    for name in topics:
        info = metadata.topics.get(name)
        ok = [tp for tp in touched if tp.topic == name and (selection is None or selection.allows(*tp))]
        if info is None or info.error is not None:
            gone += ok
            continue
        rows |= {TopicPartition(name, p.partition) for p in info.partitions}
        rows = {tp for tp in rows if allowed is None or tp in allowed}
        gone += [tp for tp in ok if tp.partition not in {p.partition for p in info.partitions}]
    return sorted(rows), sorted(set(gone))


@st.composite
def metadata(draw: Any) -> ClusterMetadata:
    topics = {}
    for name in draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=6)):
        error = draw(st.sampled_from([None, None, None, "TOPIC_AUTHORIZATION_FAILED"]))
        parts = draw(st.lists(st.integers(0, 6), unique=True, max_size=5)) if error is None else []
        leaders = [PartitionInfo(name, p, draw(st.integers(-1, 3))) for p in parts]
        topics[name] = TopicInfo(name, tuple(leaders), internal=name.startswith("__"), error=error)
    return ClusterMetadata(topics)


@st.composite
def selections(draw: Any) -> Selection | None:
    if draw(st.booleans()):
        return None
    rules = []
    for _ in range(draw(st.integers(1, 3))):
        regex = draw(st.sampled_from([*NAMES, "a|b", "c.*", ".*", "a.b", "nope"]))
        ranges = draw(st.lists(st.tuples(st.integers(0, 6), st.integers(1, 3)), max_size=2))
        rules.append(TopicRule(regex, tuple(PartitionRange(lo, lo + n) for lo, n in ranges)))
    return Selection(rules=tuple(rules), exclude_internal=draw(st.booleans()))


touched_sets = st.lists(
    st.builds(TopicPartition, st.sampled_from([*NAMES, "gone"]), st.integers(0, 8)), max_size=12
)


@settings(max_examples=150, deadline=None)
@given(metadata(), selections(), st.lists(touched_sets, min_size=1, max_size=4), st.booleans())
def test_the_index_gives_every_group_the_rows_per_group_resolution_gave(
    md: ClusterMetadata, selection: Selection | None, groups: list[list[TopicPartition]], literal: bool
) -> None:
    index = partition_index(md, selection)
    for touched in groups:
        want = reference(md, selection, touched, literal)
        assert index_partitions(index, touched, include_literal=literal) == want
        assert group_partitions(md, selection, touched, include_literal=literal) == want


@settings(max_examples=100, deadline=None)
@given(metadata(), selections(), touched_sets, touched_sets, st.booleans())
def test_plan_group_and_planned_group_are_the_same_with_and_without_an_index(
    md: ClusterMetadata,
    selection: Selection | None,
    committed: list[TopicPartition],
    assigned: list[TopicPartition],
    exclude_system: bool,
) -> None:
    offsets = GroupOffsets("g", dict.fromkeys(committed, 3))
    desc = GroupDescription("g", "stable", 1, tuple(assigned))
    index = partition_index(md, selection)
    alone = plan_group("g", offsets, desc, md, selection, exclude_system=exclude_system)
    shared = plan_group("g", offsets, desc, md, selection, exclude_system=exclude_system, index=index)
    assert alone == shared
    planned = [*committed, *assigned]
    gone = [tp for tp in planned if not index.exists(tp)]  # what planning hands a Spark task
    assert planned_group("g", offsets, planned, md) == planned_rows("g", offsets, planned, gone)
    assert index.leaders(planned) == {tp: lead for tp, lead in md.leaders().items() if tp in set(planned)}


def counting_resolve(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every resolve the planners make (the index's and check's own)."""
    calls: list[int] = []

    def counted(selection: Selection, md: ClusterMetadata) -> Any:
        calls.append(1)
        return resolve(selection, md)

    monkeypatch.setattr(lag_index, "resolve", counted)
    monkeypatch.setattr(check_plan, "resolve", counted)
    return calls


def many_groups(n: int) -> FakeCluster:
    md = ClusterMetadata({f"t{i}": topic(f"t{i}", 3) for i in range(n)})
    logs = {TopicPartition(f"t{i}", p): (0, 9) for i in range(n) for p in range(3)}
    groups = [GroupOffsets(f"g{i}", {TopicPartition(f"t{i}", 0): 4}) for i in range(n)]
    return FakeCluster(md, logs, groups)


@pytest.mark.parametrize("n", [1, 30])
def test_lag_resolves_the_selection_once_whatever_the_number_of_groups(
    monkeypatch: pytest.MonkeyPatch, n: int
) -> None:
    calls = counting_resolve(monkeypatch)
    source = many_groups(n)
    report = collect(source, [f"g{i}" for i in range(n)], Selection(rules=(TopicRule("t.*"),)))
    assert len(report.rows) == 3 * n
    assert len(calls) == 1


@pytest.mark.parametrize("n", [1, 30])
def test_check_resolves_each_checks_topics_once_per_cluster(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    spec = parse_spec_text(
        """
clusters: {c: {bootstrap_servers: 'h:1'}}
checks:
  - {name: alive, type: liveness, topics: ['t.*'], warn: 1h, crit: 1d}
  - {name: lag, type: lag, groups: ['g.*'], topics: ['t.*']}
  - {name: other, type: lag, groups: ['g.*'], topics: ['t1.*']}
""",
        environ={},
    )
    calls = counting_resolve(monkeypatch)
    plan = plan_checks(spec, lambda _name: many_groups(n), parallelism=4)
    assert len(calls) == 2  # 't.*' (shared by the liveness and the first lag check) and 't1.*'
    # each group's planned partitions once, across the units, whichever checks route them
    assert sorted(tp for u in plan.units for _, tps in u.groups for tp in tps) == sorted(
        TopicPartition(f"t{i}", p) for i in range(n) for p in range(3)
    )


def test_units_follow_the_parallelism_within_the_task_size_cap() -> None:
    tps = [TopicPartition(f"t{i % 7}", i) for i in range(2000)]
    leaders = {tp: tp.partition % 3 for tp in tps}
    for parallelism, task_size, chunk, count in [(4, 5000, 100, 4), (4, 300, 100, 7), (64, 5000, 500, 4)]:
        chunks = unit_chunks(tps, leaders, parallelism, task_size, chunk)
        assert len(chunks) == count
        assert sorted(tp for c in chunks for tp in c) == sorted(tps)
        assert all(len(c) <= task_size for c in chunks)
    by_leader = unit_chunks(tps, leaders, 3, 5000, 100)
    assert [{leaders[tp] for tp in c} for c in by_leader] == [{0}, {1}, {2}]  # whole leaders per unit
    assert unit_chunks([], leaders, 4, 10, 10) == []


class NoMetadata(FakeCluster):
    def metadata(self, *args: Any, **kwargs: Any) -> ClusterMetadata:
        raise AssertionError("a task must not describe the cluster again")


def test_a_task_uses_the_planned_leaders_and_gone_partitions_without_describing_the_cluster() -> None:
    spec = parse_spec_text(
        """
clusters: {c: {bootstrap_servers: 'h:1'}}
checks: [{name: lag, type: lag, groups: [g], topics: ['t0|gone']}]
""",
        environ={},
    )
    source = many_groups(1)
    source.groups["g"] = GroupOffsets("g", {TopicPartition("t0", 0): 4, TopicPartition("gone", 1): 2})
    [unit] = plan_checks(spec, lambda _name: source).units
    assert unit.gone == {TopicPartition("gone", 1)}
    assert unit.leaders == {TopicPartition("t0", p): 1 for p in range(3)}
    task = NoMetadata(source.md, source.logs, list(source.groups.values()))
    rows = [s.row for s in unit_samples(task, unit) if isinstance(s, LagSample)]
    assert [(r.topic, r.partition, r.lag, r.error) for r in rows] == [
        ("t0", 0, 5, None),
        ("t0", 1, None, None),
        ("t0", 2, None, None),
        ("gone", 1, None, "UNKNOWN_TOPIC_OR_PARTITION"),
    ]
