"""Frozen result and request models shared by every layer.

Data flows one way: parsers build :class:`OffsetSpec` and :class:`Selection`,
the planner turns them into :class:`TopicPartition` lists, the client returns
:class:`OffsetResult` objects, and renderers turn results into text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from operator import itemgetter
from typing import TYPE_CHECKING, Any


class SpecKind(str, Enum):
    """What a ListOffsets query asks for."""

    EARLIEST = "earliest"
    LATEST = "latest"
    MAX_TIMESTAMP = "max-timestamp"
    TIMESTAMP = "timestamp"


#: Kafka's sentinel "timestamps" in ListOffsets requests.
KAFKA_CODE = {SpecKind.LATEST: -1, SpecKind.EARLIEST: -2, SpecKind.MAX_TIMESTAMP: -3}


@dataclass(frozen=True, order=True)
class OffsetSpec:
    """One ListOffsets query: a named position, or a target time in epoch ms."""

    kind: SpecKind
    timestamp_ms: int | None = None
    #: computed once: a run has a handful of specs, each hashed, named and sent tens of thousands of times
    _hash: int = field(init=False, repr=False, compare=False)
    _name: str = field(init=False, repr=False, compare=False)
    _kafka_time: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        timestamp = self.kind is SpecKind.TIMESTAMP
        object.__setattr__(self, "_hash", hash((self.kind.value, self.timestamp_ms)))
        object.__setattr__(self, "_name", str(self.timestamp_ms) if timestamp else str(self.kind.value))
        object.__setattr__(self, "_kafka_time", self.timestamp_ms if timestamp else KAFKA_CODE[self.kind])

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # str hashes differ between processes: a copy (a Spark task) computes its own
        return (type(self), (self.kind, self.timestamp_ms))

    @property
    def name(self) -> str:
        """Canonical name: ``earliest``, ``latest``, ``max-timestamp`` or the epoch ms."""
        return self._name

    @property
    def kafka_time(self) -> int:
        """The value Kafka's ListOffsets request carries (-1, -2, -3 or the time)."""
        code = self._kafka_time
        assert code is not None
        return code

    @classmethod
    def earliest(cls) -> OffsetSpec:
        """The log start offset."""
        return _NAMED_SPECS[SpecKind.EARLIEST]

    @classmethod
    def latest(cls) -> OffsetSpec:
        """The high watermark (read_uncommitted) or last stable offset (read_committed)."""
        return _NAMED_SPECS[SpecKind.LATEST]

    @classmethod
    def max_timestamp(cls) -> OffsetSpec:
        """The record with the highest timestamp (KIP-734)."""
        return _NAMED_SPECS[SpecKind.MAX_TIMESTAMP]

    @classmethod
    def at(cls, timestamp_ms: int) -> OffsetSpec:
        """The earliest offset whose timestamp is >= ``timestamp_ms`` (KIP-79)."""
        return cls(SpecKind.TIMESTAMP, timestamp_ms)


#: The named specs, one shared instance each (immutable; asked for per partition in hot loops).
_NAMED_SPECS = {k: OffsetSpec(k) for k in (SpecKind.EARLIEST, SpecKind.LATEST, SpecKind.MAX_TIMESTAMP)}


class Isolation(str, Enum):
    """Consumer isolation level for ``latest``."""

    READ_UNCOMMITTED = "read_uncommitted"
    READ_COMMITTED = "read_committed"


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
        return _fields_repr(self, ("topic", "partition", "leader", "replicas", "isr", "error"))


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


class OffsetResult(
    tuple[str, int, OffsetSpec, "int | None", "int | None", "int | None", "str | None"]
):
    """The answer for one partition and one spec.

    ``offset`` and ``timestamp`` are ``None`` when unknown: a timestamp lookup with
    no qualifying record, ``max-timestamp`` on an empty partition, the timestamp of
    ``earliest``/``latest`` (Kafka returns none), or any error. ``error`` holds
    Kafka's error name (``UNKNOWN_TOPIC_OR_PARTITION``…) and never coexists with an
    invented offset.

    Immutable: a tuple underneath (a run builds one per partition and spec, tens of
    thousands; a frozen dataclass costs five times as much to construct).
    """

    __slots__ = ()

    if TYPE_CHECKING:
        topic: str
        partition: int
        spec: OffsetSpec
        offset: int | None
        timestamp: int | None
        leader_epoch: int | None
        error: str | None
    else:
        topic = property(itemgetter(0))
        partition = property(itemgetter(1))
        spec = property(itemgetter(2))
        offset = property(itemgetter(3))
        timestamp = property(itemgetter(4))
        leader_epoch = property(itemgetter(5))
        error = property(itemgetter(6))

    def __new__(
        cls,
        topic: str,
        partition: int,
        spec: OffsetSpec,
        offset: int | None,
        timestamp: int | None = None,
        leader_epoch: int | None = None,
        error: str | None = None,
    ) -> OffsetResult:
        return tuple.__new__(cls, (topic, partition, spec, offset, timestamp, leader_epoch, error))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return _fields_repr(
            self, ("topic", "partition", "spec", "offset", "timestamp", "leader_epoch", "error")
        )

    @property
    def tp(self) -> TopicPartition:
        """The result's topic partition."""
        return TopicPartition(self[0], self[1])

    @property
    def ok(self) -> bool:
        """True when the broker answered without error."""
        return self[6] is None

    def to_record(self) -> dict[str, object]:
        """The documented JSON/CSV record of ``list``."""
        return {
            "topic": self[0],
            "partition": self[1],
            "spec": self[2].name,
            "offset": self[3],
            "timestamp": self[4],
            "leader_epoch": self[5],
            "error": self[6],
        }


@dataclass(frozen=True)
class OffsetTable:
    """All results of one ``list`` run, with the partitions and specs they answer."""

    specs: tuple[OffsetSpec, ...]
    partitions: tuple[TopicPartition, ...]
    results: tuple[OffsetResult, ...]
    #: selected topics that do not exist or cannot be described: (topic, error name)
    missing_topics: tuple[tuple[str, str], ...] = ()

    def by_partition(self) -> dict[TopicPartition, dict[OffsetSpec, OffsetResult]]:
        """Results keyed by partition then spec, partitions sorted by topic and number."""
        out: dict[TopicPartition, dict[OffsetSpec, OffsetResult]] = {}
        for r in sorted(self.results, key=lambda r: (r.topic, r.partition)):
            out.setdefault(r.tp, {})[r.spec] = r
        return out

    @property
    def errors(self) -> tuple[OffsetResult, ...]:
        """Results that carry an error."""
        return tuple(r for r in self.results if r.error is not None)

    @property
    def failed(self) -> bool:
        """True when any partition or selected topic carries an error."""
        return bool(self.missing_topics) or any(r.error is not None for r in self.results)

    def missing_records(self) -> list[dict[str, object]]:
        """Records (partition null) for selected topics that could not be listed."""
        return [
            {
                "topic": t,
                "partition": None,
                "spec": s.name,
                "offset": None,
                "timestamp": None,
                "leader_epoch": None,
                "error": err,
            }
            for t, err in self.missing_topics
            for s in self.specs
        ]


@dataclass(frozen=True)
class GroupOffsets:
    """Committed offsets of one consumer group (``None`` offset: nothing committed)."""

    group: str
    offsets: Mapping[TopicPartition, int | None]
    error: str | None = None


@dataclass(frozen=True)
class GroupDescription:
    """A consumer group's state as the coordinator describes it.

    ``state`` is Kafka's state name in lower case (``stable``, ``empty``, ``dead``,
    ``preparing_rebalance``…; ``dead`` also for a group that does not exist);
    ``members`` the number of active members; ``assigned`` the partitions assigned
    to them.
    """

    group: str
    state: str | None
    members: int
    assigned: tuple[TopicPartition, ...] = ()
    error: str | None = None

    @property
    def active(self) -> bool:
        """True when the group has members (a reset would be rejected or overwritten)."""
        return self.members > 0


def _fields_repr(obj: tuple[Any, ...], names: tuple[str, ...]) -> str:
    """``Name(field=value, …)`` for the tuple-based models, as a dataclass would show them."""
    inner = ", ".join(f"{n}={v!r}" for n, v in zip(names, obj, strict=True))
    return f"{type(obj).__name__}({inner})"
