"""Topics and partitions: the ``(topic, partition)`` key and the cluster metadata (frozen models).

The tuple-based models are tuples for speed (a run builds one per partition and spec);
:func:`fields_repr` shows them as a dataclass would.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any


class TopicPartition(tuple[str, int]):
    """A topic and partition number: an immutable ``(topic, partition)`` pair.

    A tuple subclass, so hashing, equality and ordering (topic, then partition) run in C:
    results, plans and renderers key and sort tens of thousands of them. (Not a
    ``NamedTuple``: PySpark replaces ``collections.namedtuple`` with a version whose
    instances unpickle as a different class.)
    """

    __slots__ = ()

    def __new__(cls, topic: str, partition: int) -> TopicPartition:
        return tuple.__new__(cls, (topic, partition))

    if TYPE_CHECKING:

        @property
        def topic(self) -> str:
            """The topic name."""
            ...

        @property
        def partition(self) -> int:
            """The partition number."""
            ...

    else:
        topic = property(itemgetter(0), doc="The topic name.")
        partition = property(itemgetter(1), doc="The partition number.")

    def __getnewargs__(self) -> tuple[str, int]:
        return (self[0], self[1])

    @classmethod
    def of_topic(cls, topic: str, partitions: Iterable[int]) -> Iterator[TopicPartition]:
        """``topic``'s ``partitions`` as TopicPartitions, made in C (``__new__`` is a Python call each):
        planning and OffsetFetch's answers make 50,000 a run at fleet scale."""
        return map(tuple.__new__, repeat(cls), zip(repeat(topic), partitions))  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"TopicPartition(topic={self[0]!r}, partition={self[1]!r})"

    def __str__(self) -> str:
        return f"{self[0]}:{self[1]}"


class PartitionInfo(tuple[str, int, int, tuple[int, ...], tuple[int, ...], "str | None"]):
    """Metadata for one partition as the cluster reports it (immutable; a tuple, cheap to build)."""

    __slots__ = ()

    if TYPE_CHECKING:
        topic: str
        partition: int
        leader: int  # -1 when the partition has no leader
        replicas: tuple[int, ...]
        isr: tuple[int, ...]
        error: str | None
    else:
        topic = property(itemgetter(0))
        partition = property(itemgetter(1))
        leader = property(itemgetter(2))
        replicas = property(itemgetter(3))
        isr = property(itemgetter(4))
        error = property(itemgetter(5))

    def __new__(
        cls,
        topic: str,
        partition: int,
        leader: int,
        replicas: tuple[int, ...] = (),
        isr: tuple[int, ...] = (),
        error: str | None = None,
    ) -> PartitionInfo:
        return tuple.__new__(cls, (topic, partition, leader, replicas, isr, error))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return fields_repr(self, ("topic", "partition", "leader", "replicas", "isr", "error"))


@dataclass(frozen=True)
class TopicInfo:
    """Metadata for one topic."""

    name: str
    partitions: tuple[PartitionInfo, ...]
    internal: bool = False
    error: str | None = None


@dataclass(frozen=True)
class ClusterMetadata:
    """A snapshot of topic metadata, enough to resolve selections and plan requests."""

    topics: dict[str, TopicInfo]
    brokers: dict[int, str] = field(default_factory=dict)
    cluster_id: str | None = None
    controller_id: int | None = None

    def topic_names(self) -> list[str]:
        """All topic names, sorted."""
        return sorted(self.topics)

    def leaders(self) -> dict[TopicPartition, int]:
        """Each known partition's leader broker id (-1: none), for planning requests per leader."""
        return {
            TopicPartition(p.topic, p.partition): p.leader for t in self.topics.values() for p in t.partitions
        }


def fields_repr(obj: tuple[Any, ...], names: tuple[str, ...]) -> str:
    """``Name(field=value, …)`` for the tuple-based models, as a dataclass would show them."""
    inner = ", ".join(f"{n}={v!r}" for n, v in zip(names, obj, strict=True))
    return f"{type(obj).__name__}({inner})"
