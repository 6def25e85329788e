"""One cluster's metadata indexed for planning: each topic's partitions and leaders, a selection resolved.

Built once per cluster and selection (:func:`partition_index`) and looked up by every group's
plan (:mod:`kafka_offsets_cli.measures.lag.plan`) and by the ``check`` planner. Compact on purpose: a
topic's partitions are ``range(n)`` and its leaders one tuple when the partitions are 0..n-1
(as Kafka makes them), so a 50,000-partition cluster is a few hundred objects, not a set entry
and a dict entry per partition.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from ...models.topics import ClusterMetadata, TopicInfo, TopicPartition
from ...parse.selection import Selection
from ...plan.resolve import Resolution, resolve

__all__ = ["LeaderTable", "Leaders", "PartitionIndex", "partition_index"]


#: a topic's partitions' leaders: a tuple indexed by partition number when the partitions are
#: 0..n-1 (as Kafka makes them), else a dict partition -> leader
LeaderTable = tuple[int, ...] | Mapping[int, int]


def _leader(table: LeaderTable | None, partition: int) -> int | None:
    """The leader of ``partition`` in a topic's :data:`LeaderTable` (``None``: not known)."""
    if table is None:
        return None
    if type(table) is tuple:
        return table[partition] if 0 <= partition < len(table) else None
    return table.get(partition)  # type: ignore[union-attr]


_topic, _partition = itemgetter(0), itemgetter(1)


class Leaders(Mapping[TopicPartition, int]):
    """Each partition's leader broker id (-1: none), read from per-topic tables (no entry per partition).

    The mapping :meth:`PartitionIndex.leader_map` gives: as a dict keyed by partition it would
    hold an entry (and its key) for every partition of the cluster.
    """

    __slots__ = ("_of",)

    def __init__(self, of: Mapping[str, LeaderTable]) -> None:
        self._of = of

    def __getitem__(self, tp: TopicPartition) -> int:
        leader = _leader(self._of.get(tp[0]), tp[1])
        if leader is None:
            raise KeyError(tp)
        return leader

    def get(self, tp: TopicPartition, default: Any = None) -> Any:  # type: ignore[override]
        leader = _leader(self._of.get(tp[0]), tp[1])
        return default if leader is None else leader

    def __contains__(self, tp: object) -> bool:
        return isinstance(tp, tuple) and _leader(self._of.get(tp[0]), tp[1]) is not None

    def __iter__(self) -> Iterator[TopicPartition]:
        for topic, table in self._of.items():
            for p in range(len(table)) if type(table) is tuple else table:
                yield TopicPartition(topic, p)

    def __len__(self) -> int:
        return sum(len(t) for t in self._of.values())


@dataclass(frozen=True, kw_only=True, eq=False)
class PartitionIndex:
    """One cluster's metadata with one selection applied, built once for all groups.

    What each group's plan looks up, so planning a group costs in proportion to its
    own topics, not to the cluster (:func:`partition_index`). ``selected``: with a
    selection, each topic's partitions within it, sorted; ``existing``: each readable
    topic's partition numbers (a ``range`` when they are 0..n-1); ``leader_of``: each
    topic's partitions' leaders (:data:`LeaderTable`); ``internal``: topics the broker
    flags internal; ``resolution``: the selection resolved (``None`` without one).
    """

    selection: Selection | None
    selected: Mapping[str, tuple[TopicPartition, ...]]
    existing: Mapping[str, Collection[int]]
    leader_of: Mapping[str, LeaderTable]
    internal: frozenset[str]
    resolution: Resolution | None = None

    def exists(self, tp: TopicPartition) -> bool:
        """True when ``tp`` is a partition of a readable topic."""
        parts = self.existing.get(tp.topic)
        return parts is not None and tp.partition in parts

    def rows(self, topic: str) -> tuple[TopicPartition, ...]:
        """The readable ``topic``'s partitions within the selection (all without one), sorted."""
        if self.selection is not None:
            return self.selected.get(topic, ())
        return tuple(TopicPartition.of_topic(topic, sorted(self.existing.get(topic, ()))))

    def leaders(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        """The leader broker id of each of ``partitions`` the metadata knows (-1: none)."""
        out: dict[TopicPartition, int] = {}
        of = self.leader_of
        # a topic's partitions at a time (the planned partitions come topic after topic)
        for topic, run in groupby(partitions, _topic):
            table = of.get(topic)
            if table is None:
                continue
            tps = list(run)
            if type(table) is tuple:
                numbers = list(map(_partition, tps))
                if len(numbers) > 1 and min(numbers) >= 0 and max(numbers) < len(table):  # all known: in C
                    out.update(zip(tps, itemgetter(*numbers)(table), strict=True))  # one call, not one each
                    continue
            for tp in tps:  # tp[1]: the partition, without the property's call
                if (leader := _leader(table, tp[1])) is not None:
                    out[tp] = leader
        return out

    def leader_map(self) -> Leaders:
        """Every known partition's leader, as a mapping that holds no entry per partition."""
        return Leaders(self.leader_of)


def _tables(info: TopicInfo) -> tuple[Collection[int], LeaderTable]:
    """A topic's partition numbers and leaders, in one pass over its partitions: ``range(n)`` and a
    tuple of leaders when they are 0..n-1 (no set or dict of n entries), else a set and a dict."""
    parts = info.partitions
    if all(p.partition == i for i, p in enumerate(parts)):
        return range(len(parts)), tuple(p.leader for p in parts)
    return frozenset(p.partition for p in parts), {p.partition: p.leader for p in parts}


def partition_index(
    metadata: ClusterMetadata, selection: Selection | None, *, like: PartitionIndex | None = None
) -> PartitionIndex:
    """``metadata`` indexed by topic with ``selection`` resolved once (the only :func:`resolve` call).

    ``like``: an index of the same ``metadata`` (any selection), whose per-topic tables are
    shared instead of built again.
    """
    topics = metadata.topics
    resolution = resolve(selection, metadata) if selection is not None else None
    selected: dict[str, list[TopicPartition]] = {}
    for tp in resolution.partitions if resolution is not None else ():  # sorted by topic, then partition
        selected.setdefault(tp.topic, []).append(tp)
    if like is None:
        existing: dict[str, Collection[int]] = {}
        leader_of: dict[str, LeaderTable] = {}
        for n, t in topics.items():
            numbers, leader_of[n] = _tables(t)
            if t.error is None:
                existing[n] = numbers
        internal = frozenset(n for n, t in topics.items() if t.internal)
    else:
        existing, leader_of, internal = dict(like.existing), dict(like.leader_of), like.internal
    return PartitionIndex(
        selection=selection,
        selected={t: tuple(tps) for t, tps in selected.items()},
        existing=existing,
        leader_of=leader_of,
        internal=internal,
        resolution=resolution,
    )
