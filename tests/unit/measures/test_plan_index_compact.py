"""The planning index's compact tables: the same answers as the metadata it was built from.

A topic whose partitions are 0..n-1 is a ``range`` and one tuple of leaders; any other (a gap,
an unsorted listing) keeps a set and a dict. Either way every lookup (exists, rows, leaders,
the leader mapping) answers as the metadata's own partitions and leaders do.
"""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.check.records import RECORD_KEYS
from kafka_offsets_cli.measures.lag.index import Leaders, partition_index
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.parse.selection import Selection, TopicRule
from kafka_offsets_cli.render.check import _records_text

# each topic: its partition numbers (any order, gaps allowed) and a leader per partition
TOPICS = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d"]),
    st.lists(st.tuples(st.integers(0, 12), st.integers(-1, 3)), max_size=8, unique_by=lambda x: x[0]),
    max_size=4,
)


def _metadata(topics: dict[str, list[tuple[int, int]]], broken: str | None = None) -> ClusterMetadata:
    infos = {
        name: TopicInfo(name, tuple(PartitionInfo(name, p, lead) for p, lead in parts))
        for name, parts in topics.items()
    }
    if broken is not None:
        infos[broken] = TopicInfo(broken, (), error="TOPIC_AUTHORIZATION_FAILED")
    return ClusterMetadata(infos)


@settings(max_examples=150, deadline=None)
@given(TOPICS, st.booleans())
def test_compact_index_answers_as_the_metadata(
    topics: dict[str, list[tuple[int, int]]], ordered: bool
) -> None:
    if ordered:  # partitions 0..n-1 in order, as Kafka makes them: the compact tables
        topics = {t: [(i, lead) for i, (_, lead) in enumerate(parts)] for t, parts in topics.items()}
    md = _metadata(topics, broken="z")
    index = partition_index(md, None)
    probes = [TopicPartition(t, p) for t in ["a", "b", "c", "d", "z"] for p in range(-1, 14)]
    leaders = md.leaders()
    assert index.leaders(probes) == {tp: leaders[tp] for tp in probes if tp in leaders}
    # a topic's partitions all known (in C, one call a topic), one alone, a topic met twice apart
    inside = [TopicPartition(t, p) for t, parts in topics.items() for p, _ in parts]
    for asked in (inside, inside[:1], inside + inside[:2] + [TopicPartition("z", 0)]):
        got = index.leaders(asked)
        assert got == {tp: leaders[tp] for tp in asked if tp in leaders}
        assert all(type(tp) is TopicPartition for tp in got)
    view = index.leader_map()
    assert isinstance(view, Leaders)
    assert dict(view) == leaders
    assert len(view) == len(leaders)
    assert bool(view) == bool(leaders)
    for tp in probes:
        assert (tp in view) == (tp in leaders)
        assert view.get(tp) == leaders.get(tp)
        assert view.get(tp, -9) == leaders.get(tp, -9)
    for name, parts in topics.items():
        numbers = sorted(p for p, _ in parts)
        assert index.rows(name) == tuple(TopicPartition(name, p) for p in numbers)
        assert [p for p in range(-1, 14) if index.exists(TopicPartition(name, p))] == numbers
    assert index.rows("z") == () and not index.exists(TopicPartition("z", 0))
    if ordered:
        assert all(type(v) is range for v in index.existing.values())
        assert all(type(v) is tuple for v in index.leader_of.values())


def test_an_index_like_another_shares_its_tables_and_resolves_its_own_selection() -> None:
    md = _metadata({"a": [(0, 1), (1, 2)], "b": [(0, 3)]})
    base = partition_index(md, None)
    sel = Selection(rules=(TopicRule("a"),))
    index = partition_index(md, sel, like=base)
    assert index.leader_of == base.leader_of and index.existing == base.existing
    assert all(index.leader_of[t] is base.leader_of[t] for t in base.leader_of)
    assert index.selected == {"a": (TopicPartition("a", 0), TopicPartition("a", 1))}
    assert index.selected == partition_index(md, sel).selected


def _dumped(records: list[dict[str, object]]) -> str:
    text = json.dumps(records, indent=2, ensure_ascii=False)
    return "  " + text[2:-2].replace("\n", "\n  ")


def test_records_text_is_json_dumps_for_scalars_and_anything_else() -> None:
    values: list[object] = [None, 'é"\\\n\u2028', 0, -5, 2**70, 1.5, math.nan, math.inf, True, False, ""]
    records = [{k: values[(i + j) % len(values)] for j, k in enumerate(RECORD_KEYS)} for i in range(23)]
    columns = [[r[k] for r in records] for k in RECORD_KEYS]
    assert _records_text(columns) == _dumped(records)
    records[5]["history"] = [1, {"a": None}]  # not a scalar: printed by json.dumps itself
    columns = [[r[k] for r in records] for k in RECORD_KEYS]
    assert _records_text(columns) == _dumped(records)
