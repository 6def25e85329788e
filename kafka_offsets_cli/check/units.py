"""A ``check`` plan's Spark work units: one cluster's planned partitions cut for its tasks (pure).

:func:`cluster_units` cuts a cluster's partitions into as many balanced chunks as the
executors run tasks at once (:func:`unit_chunks`), in leader order, and gives each
:class:`WorkUnit` what its task needs from planning (groups' planned partitions,
partitions gone, leaders) so the task describes nothing again.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from ..connection.settings import ClientSettings
from ..models.groups import GroupOffsets
from ..models.topics import TopicPartition
from ..parse.selection import PartitionRange, Selection, TopicRule
from ..plan.requests import chunked

__all__ = ["WorkUnit", "chunk_selection", "cluster_units", "unit_chunks"]


@dataclass(frozen=True, kw_only=True)
class WorkUnit:
    """One Spark task: a chunk of one cluster's partitions.

    ``live`` are the partitions whose newest record (max-timestamp) liveness
    checks need; ``groups`` the lag groups with their planned partitions in this
    chunk (partitions of deleted topics included, to show as errors). From the
    planning metadata, so the task does not describe the cluster again: ``gone``,
    the planned partitions that did not exist; ``leaders``, each partition's leader
    (to send each ListOffsets request to one broker); ``types``, each group's type as the brokers
    list it (share groups are read by their start offsets, with the broker's lag); ``given``, the
    offsets of the groups that are Spark checkpoints (read on the driver: its paths), in place of
    OffsetFetch's; ``loss_configs``, the retention configs of the unit's topics when a check on its
    cluster computes the data-loss ETA (read once by planning; empty otherwise).
    """

    cluster: str
    index: int
    settings: ClientSettings = field(repr=False)  # holds secrets: never in a repr or a trace
    live: tuple[TopicPartition, ...]
    groups: tuple[tuple[str, tuple[TopicPartition, ...]], ...]
    time_lag: bool
    chunk_size: int
    gone: frozenset[TopicPartition] = frozenset()
    leaders: Mapping[TopicPartition, int] = field(default_factory=dict)
    types: Mapping[str, str] = field(default_factory=dict)
    given: Mapping[str, GroupOffsets] = field(default_factory=dict)
    loss_configs: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """Distinct partitions in the unit."""
        return len(set(self.live) | {tp for _, tps in self.groups for tp in tps})


def chunk_selection(partitions: Sequence[TopicPartition]) -> Selection:
    """A selection of exactly these partitions (a chunk's topics, each with its partitions).

    Each topic is an exact (escaped, grouped) pattern, never a literal name, so
    resolving it against metadata selects just these partitions without asking for
    any topic by name.
    """
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    rules = [
        TopicRule(f"(?:{re.escape(topic)})", _ranges(sorted(set(parts))))
        for topic, parts in sorted(by_topic.items())
    ]
    return Selection(rules=tuple(rules))


def _ranges(parts: list[int]) -> tuple[PartitionRange, ...]:
    out: list[PartitionRange] = []
    start = prev = parts[0]
    for p in parts[1:]:
        if p == prev + 1:
            prev = p
            continue
        out.append(PartitionRange(start, prev + 1))
        start = prev = p
    out.append(PartitionRange(start, prev + 1))
    return tuple(out)


def unit_chunks(
    partitions: Sequence[TopicPartition],
    leaders: Mapping[TopicPartition, int],
    parallelism: int,
    task_size: int,
    chunk_size: int,
) -> list[tuple[TopicPartition, ...]]:
    """One cluster's ``partitions`` cut into the units' chunks (balanced, each sorted).

    As many chunks as tasks run at once (``parallelism``), but none above ``task_size``
    partitions and none below one ListOffsets call (``chunk_size``) unless there are
    fewer partitions than that. Partitions are taken in leader order, so a chunk holds
    whole leaders (or a run of one) and each of its requests goes to one broker.
    """
    n = len(partitions)
    if n == 0:
        return []
    count = max(-(-n // task_size), min(max(1, parallelism), -(-n // max(1, chunk_size))))
    by_leader: dict[int, list[TopicPartition]] = {}
    for tp in sorted(partitions):
        by_leader.setdefault(leaders.get(tp, -1), []).append(tp)
    ordered = [tp for b in sorted(by_leader) for tp in by_leader[b]]
    return [tuple(sorted(c)) for c in chunked(ordered, -(-n // count))]


def cluster_units(
    cluster: str,
    settings: ClientSettings,
    partitions: Collection[TopicPartition],
    leaders: Mapping[TopicPartition, int],
    sizes: tuple[int, int, int],
    *,
    start: int,
    live: Collection[TopicPartition],
    groups: Mapping[str, Collection[TopicPartition]],
    gone: Collection[TopicPartition],
    time_lag: bool,
    types: Mapping[str, str] | None = None,
    given: Mapping[str, GroupOffsets] | None = None,
    loss_configs: Mapping[str, Mapping[str, str]] | None = None,
) -> list[WorkUnit]:
    """The units of one cluster's ``partitions`` (``sizes``: parallelism, task size, chunk size).

    Each unit holds its chunk's ``live`` partitions, each group's planned partitions
    in the chunk, the chunk's ``gone`` partitions and leaders; numbered from ``start``.
    Work in proportion to the partitions and the groups' rows (never groups x chunks).
    """
    parallelism, task_size, chunk_size = sizes
    chunks = unit_chunks(sorted(partitions), leaders, parallelism, task_size, chunk_size)
    where = {tp: i for i, chunk in enumerate(chunks) for tp in chunk}
    per_chunk: list[dict[str, list[TopicPartition]]] = [{} for _ in chunks]
    for g in sorted(groups):
        for tp in sorted(groups[g]):
            per_chunk[where[tp]].setdefault(g, []).append(tp)
    live_set = live if isinstance(live, set | frozenset) else set(live)
    gone_set = gone if isinstance(gone, set | frozenset) else set(gone)
    return [
        WorkUnit(
            cluster=cluster,
            index=start + i,
            settings=settings,
            live=tuple(tp for tp in chunk if tp in live_set),
            groups=tuple((g, tuple(tps)) for g, tps in mine.items()),
            time_lag=time_lag,
            chunk_size=chunk_size,
            gone=frozenset(tp for tp in chunk if tp in gone_set),
            leaders={tp: leaders[tp] for tp in chunk if tp in leaders},
            types={g: types[g] for g in mine if g in types} if types else {},
            given={g: given[g] for g in mine if g in given} if given else {},
            loss_configs=_topics_of(loss_configs, chunk) if loss_configs else {},
        )
        for i, (chunk, mine) in enumerate(zip(chunks, per_chunk, strict=True))
    ]


def _topics_of(
    configs: Mapping[str, Mapping[str, str]], chunk: Sequence[TopicPartition]
) -> dict[str, Mapping[str, str]]:
    """The configs of the topics in ``chunk``."""
    return {t: configs[t] for t in sorted({tp.topic for tp in chunk}) if t in configs}
