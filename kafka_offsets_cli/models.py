"""Frozen result and request models shared by every layer.

Data flows one way: parsers build :class:`OffsetSpec` and :class:`Selection`,
the planner turns them into :class:`TopicPartition` lists, the client returns
:class:`OffsetResult` objects, and renderers turn results into text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


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

    @property
    def name(self) -> str:
        """Canonical name: ``earliest``, ``latest``, ``max-timestamp`` or the epoch ms."""
        if self.kind is SpecKind.TIMESTAMP:
            return str(self.timestamp_ms)
        return str(self.kind.value)

    @property
    def kafka_time(self) -> int:
        """The value Kafka's ListOffsets request carries (-1, -2, -3 or the time)."""
        if self.kind is SpecKind.TIMESTAMP:
            assert self.timestamp_ms is not None
            return self.timestamp_ms
        return KAFKA_CODE[self.kind]

    @classmethod
    def earliest(cls) -> OffsetSpec:
        """The log start offset."""
        return cls(SpecKind.EARLIEST)

    @classmethod
    def latest(cls) -> OffsetSpec:
        """The high watermark (read_uncommitted) or last stable offset (read_committed)."""
        return cls(SpecKind.LATEST)

    @classmethod
    def max_timestamp(cls) -> OffsetSpec:
        """The record with the highest timestamp (KIP-734)."""
        return cls(SpecKind.MAX_TIMESTAMP)

    @classmethod
    def at(cls, timestamp_ms: int) -> OffsetSpec:
        """The earliest offset whose timestamp is >= ``timestamp_ms`` (KIP-79)."""
        return cls(SpecKind.TIMESTAMP, timestamp_ms)


class Isolation(str, Enum):
    """Consumer isolation level for ``latest``."""

    READ_UNCOMMITTED = "read_uncommitted"
    READ_COMMITTED = "read_committed"


@dataclass(frozen=True, order=True)
class TopicPartition:
    """A topic and partition number."""

    topic: str
    partition: int

    def __str__(self) -> str:
        return f"{self.topic}:{self.partition}"


@dataclass(frozen=True)
class PartitionInfo:
    """Metadata for one partition as the cluster reports it."""

    topic: str
    partition: int
    leader: int  # -1 when the partition has no leader
    replicas: tuple[int, ...] = ()
    isr: tuple[int, ...] = ()
    error: str | None = None


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


@dataclass(frozen=True)
class OffsetResult:
    """The answer for one partition and one spec.

    ``offset`` and ``timestamp`` are ``None`` when unknown: a timestamp lookup with
    no qualifying record, ``max-timestamp`` on an empty partition, the timestamp of
    ``earliest``/``latest`` (Kafka returns none), or any error. ``error`` holds
    Kafka's error name (``UNKNOWN_TOPIC_OR_PARTITION``…) and never coexists with an
    invented offset.
    """

    topic: str
    partition: int
    spec: OffsetSpec
    offset: int | None
    timestamp: int | None = None
    leader_epoch: int | None = None
    error: str | None = None

    @property
    def tp(self) -> TopicPartition:
        """The result's topic partition."""
        return TopicPartition(self.topic, self.partition)

    @property
    def ok(self) -> bool:
        """True when the broker answered without error."""
        return self.error is None

    def to_record(self) -> dict[str, object]:
        """The documented JSON/CSV record of ``list``."""
        return {
            "topic": self.topic,
            "partition": self.partition,
            "spec": self.spec.name,
            "offset": self.offset,
            "timestamp": self.timestamp,
            "leader_epoch": self.leader_epoch,
            "error": self.error,
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
