"""Frozen result and request models of ListOffsets: what is asked (:class:`OffsetSpec`) and answered.

Data flows one way: parsers build :class:`OffsetSpec` and
:class:`~kafka_offsets_cli.parse.selection.Selection`, the planner turns them into
:class:`~kafka_offsets_cli.models.topics.TopicPartition` lists, the client returns
:class:`OffsetResult` objects, and renderers turn results into text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .topics import TopicPartition, fields_repr


class SpecKind(str, Enum):
    """What a ListOffsets query asks for."""

    EARLIEST = "earliest"
    LATEST = "latest"
    MAX_TIMESTAMP = "max-timestamp"
    TIMESTAMP = "timestamp"
    #: tiered storage (ListOffsets v8+, kafka/list_offsets_kafka_python.py): KIP-405, KIP-1005, KIP-1023
    EARLIEST_LOCAL = "earliest-local"
    LATEST_TIERED = "latest-tiered"
    EARLIEST_PENDING_UPLOAD = "earliest-pending-upload"


#: Kafka's sentinel "timestamps" in ListOffsets requests.
KAFKA_CODE = {
    SpecKind.LATEST: -1,
    SpecKind.EARLIEST: -2,
    SpecKind.MAX_TIMESTAMP: -3,
    SpecKind.EARLIEST_LOCAL: -4,
    SpecKind.LATEST_TIERED: -5,
    SpecKind.EARLIEST_PENDING_UPLOAD: -6,
}

#: The specs librdkafka cannot ask (ListOffsets v8-v11): kafka/list_offsets_kafka_python.py answers them.
TIERED_KINDS = frozenset({SpecKind.EARLIEST_LOCAL, SpecKind.LATEST_TIERED, SpecKind.EARLIEST_PENDING_UPLOAD})


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
    def tiered(self) -> bool:
        """True for the tiered-storage specs (-4, -5, -6), which need ListOffsets v8+."""
        return self.kind in TIERED_KINDS

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
_NAMED_SPECS = {k: OffsetSpec(k) for k in SpecKind if k is not SpecKind.TIMESTAMP}


class Isolation(str, Enum):
    """Consumer isolation level for ``latest``."""

    READ_UNCOMMITTED = "read_uncommitted"
    READ_COMMITTED = "read_committed"


class OffsetResult(tuple[str, int, OffsetSpec, "int | None", "int | None", "int | None", "str | None"]):
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
        return fields_repr(
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
    #: for a missing topic, the cluster's topic names close to it (said as "did you mean")
    close: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

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
