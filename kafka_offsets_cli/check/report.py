"""Frozen result models of ``kafka-offsets check`` (pure; shared by the Spark pipeline and renderers).

One :class:`PartitionRecord` per evaluated (check, cluster, [group,] partition);
roll-ups per liveness topic (:class:`TopicResult`) and per lag group
(:class:`GroupResult`); one :class:`CheckResult` per check; the whole run is a
:class:`CheckReport` whose ``status`` is the exit code (0 OK, 1 WARNING,
2 CRITICAL, 3 UNKNOWN).

JSON document (``--output json``)::

    {"status": "OK|WARNING|CRITICAL|UNKNOWN",
     "checks": [{"name", "type", "status", "clusters", "partitions", "states",
                 "summary", "problems", "topics": [...], "groups": [...]}],
     "partitions": [{"check", "cluster", "topic", "partition", "group", "committed",
                     "end", "lag", "time_lag_ms", "timestamp", "age_ms", "state",
                     "status", "log_start", "offset", "history", "error"}]}

Partition records hold ``null`` where a field does not apply (``group``,
``committed``, ``lag``, ``time_lag_ms`` on liveness records; ``timestamp``,
``age_ms`` on lag records); ``state`` is a liveness state (``ok``, ``warning``,
``critical``, ``empty``, ``pending``, ``future``, ``error``) or a lag state (``ok``,
``no-commit``, ``below-start``, ``ahead``, ``marker``, ``error``); ``history`` is
the Burrow status with ``--history`` (else ``null``). A topic or group that could
not be read is a record with ``partition`` ``null`` and state ``error``.

A report from Spark keeps its partition records as one Arrow table on the driver
(:class:`PartitionRecords`, in report order): a renderer reads them in slices
(:func:`record_slices`), never as one list of objects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from ..errors import MonitoringStatus

__all__ = [
    "RECORD_KEYS",
    "CheckReport",
    "CheckResult",
    "GroupResult",
    "PartitionRecord",
    "PartitionRecords",
    "TopicResult",
    "record_slices",
]

#: Records per slice when records are read from an Arrow table (bounds the objects alive at once).
SLICE = 2_000

#: Keys of a partition record, in order (the issue's documented keys first).
RECORD_KEYS = (
    "check",
    "cluster",
    "topic",
    "partition",
    "group",
    "committed",
    "end",
    "lag",
    "time_lag_ms",
    "timestamp",
    "age_ms",
    "state",
    "status",
    "log_start",
    "offset",
    "history",
    "error",
)


@dataclass(frozen=True, kw_only=True)
class PartitionRecord:
    """One evaluated partition of one check (and group, for lag checks)."""

    check: str
    kind: str  # "liveness" | "lag"
    cluster: str
    topic: str
    partition: int | None
    group: str | None
    # what was read; None where nothing was (an error, or planning decided without reading)
    committed: int | None = None
    log_start: int | None = None
    end: int | None = None
    lag: int | None = None
    time_lag_ms: int | None = None
    offset: int | None = None
    timestamp: int | None = None
    age_ms: int | None = None
    state: str
    status: MonitoringStatus
    error: str | None = None
    history: str | None = None

    def to_record(self) -> dict[str, Any]:
        """The documented JSON/CSV record (:data:`RECORD_KEYS`; ``status`` by name)."""
        return {
            "check": self.check,
            "cluster": self.cluster,
            "topic": self.topic,
            "partition": self.partition,
            "group": self.group,
            "committed": self.committed,
            "end": self.end,
            "lag": self.lag,
            "time_lag_ms": self.time_lag_ms,
            "timestamp": self.timestamp,
            "age_ms": self.age_ms,
            "state": self.state,
            "status": self.status.name,
            "log_start": self.log_start,
            "offset": self.offset,
            "history": self.history,
            "error": self.error,
        }

    @classmethod
    def from_row(cls, d: Mapping[str, Any]) -> PartitionRecord:
        """The record of a row (a mapping with the record columns and ``kind``; ``status`` by name)."""
        return cls(**{k: d[k] for k in _ROW_FIELDS}, status=MonitoringStatus[d["status"]])

    @property
    def key(self) -> tuple[str, str, str, str, int]:
        """Identity within a report: (check, cluster, group or "", topic, partition or -1)."""
        return (
            self.check,
            self.cluster,
            self.group or "",
            self.topic,
            -1 if self.partition is None else self.partition,
        )


_ROW_FIELDS = tuple(k for k in PartitionRecord.__dataclass_fields__ if k != "status")


@dataclass(frozen=True, eq=False)
class PartitionRecords(Sequence[PartitionRecord]):
    """A report's partition records held as one Arrow table, with their report order.

    ``table`` has the ``--write`` table's columns (``kind`` included, ``status`` by name);
    ``order`` holds its row numbers in report order (an Arrow integer array; ``None`` when the
    rows are in that order already), so the table is never copied to be sorted. It is read a
    slice of :data:`SLICE` rows at a time: a :class:`PartitionRecord` exists only while it is
    looked at. Only methods of the table are called here: this module stays free of pyarrow
    (the Spark side makes the table).
    """

    table: Any
    order: Any = None

    def __len__(self) -> int:
        return int(self.table.num_rows)

    def slices(self, size: int = SLICE) -> Iterator[Any]:
        """The table in report order, a slice (an Arrow table) of at most ``size`` rows at a time
        (for a writer: only a slice is ever copied)."""
        for start in range(0, len(self), size):
            if self.order is None:
                yield self.table.slice(start, size)
            else:
                yield self.table.take(self.order.slice(start, size))

    def rows(self, size: int = SLICE) -> Iterator[list[dict[str, Any]]]:
        """The rows in report order (dicts of the table's columns), a list per slice of at most ``size``."""
        for part in self.slices(size):
            yield part.to_pylist()

    def columns(self, keys: Sequence[str], size: int = SLICE) -> Iterator[list[list[Any]]]:
        """The ``keys`` columns in report order, a list of Python lists per slice of at most ``size`` rows.

        Column by column: no dict per row (what :meth:`rows` makes), the lighter way to render.
        """
        for part in self.slices(size):
            yield [part.column(k).to_pylist() for k in keys]

    def __iter__(self) -> Iterator[PartitionRecord]:
        for rows in self.rows():
            yield from map(PartitionRecord.from_row, rows)

    @overload
    def __getitem__(self, index: int) -> PartitionRecord: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[PartitionRecord, ...]: ...

    def __getitem__(self, index: int | slice) -> PartitionRecord | tuple[PartitionRecord, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        i = index + len(self) if index < 0 else index
        if not 0 <= i < len(self):
            raise IndexError(index)
        row = i if self.order is None else self.order[i].as_py()
        return PartitionRecord.from_row(self.table.slice(row, 1).to_pylist()[0])


def record_slices(parts: Sequence[PartitionRecord], size: int = SLICE) -> Iterator[list[dict[str, Any]]]:
    """The documented records (:meth:`PartitionRecord.to_record`) of ``parts``, a list per slice.

    From an Arrow table the records are made from its rows directly (no objects in between).
    """
    if isinstance(parts, PartitionRecords):
        for rows in parts.rows(size):
            yield [{k: d[k] for k in RECORD_KEYS} for d in rows]
        return
    for start in range(0, len(parts), size):
        yield [p.to_record() for p in parts[start : start + size]]


@dataclass(frozen=True, kw_only=True)
class TopicResult:
    """A liveness check's roll-up of one topic on one cluster (``liveness.topic_status``)."""

    check: str
    cluster: str
    topic: str
    status: MonitoringStatus
    partitions: int
    alive: int
    age_ms: int | None  # the age that decided (the stalest, or the min_alive-th youngest)
    timestamp_type: str | None = None
    error: str | None = None

    def to_record(self) -> dict[str, Any]:
        """JSON record of the topic roll-up."""
        return {
            "cluster": self.cluster,
            "topic": self.topic,
            "status": self.status.name,
            "partitions": self.partitions,
            "alive": self.alive,
            "age_ms": self.age_ms,
            "timestamp_type": self.timestamp_type,
            "error": self.error,
        }


@dataclass(frozen=True, kw_only=True)
class GroupResult:
    """A lag check's roll-up of one group on one cluster."""

    check: str
    cluster: str
    group: str
    status: MonitoringStatus
    partitions: int
    lag: int
    lagging: int
    max_lag: int | None
    max_time_lag_ms: int | None
    problems: int  # partitions in no-commit, below-start, ahead or error, and named topics not readable
    history: str | None = None
    produce_rate: float | None = None
    consume_rate: float | None = None
    eta_ms: int | None = None
    trend: tuple[int | None, ...] = ()
    error: str | None = None

    def to_record(self) -> dict[str, Any]:
        """JSON record of the group roll-up (rates in records per second)."""
        return {
            "cluster": self.cluster,
            "group": self.group,
            "status": self.status.name,
            "partitions": self.partitions,
            "lag": self.lag,
            "lagging": self.lagging,
            "max_lag": self.max_lag,
            "max_time_lag_ms": self.max_time_lag_ms,
            "problems": self.problems,
            "history": self.history,
            "produce_rate": self.produce_rate,
            "consume_rate": self.consume_rate,
            "eta_ms": self.eta_ms,
            "trend": list(self.trend),
            "error": self.error,
        }


@dataclass(frozen=True, kw_only=True)
class CheckResult:
    """One check's verdict: the worst of its topics or groups, UNKNOWN for any problem."""

    name: str
    type: str
    status: MonitoringStatus
    clusters: tuple[str, ...]
    partitions: int
    states: Mapping[str, int]
    summary: str
    problems: tuple[str, ...] = ()
    topics: tuple[TopicResult, ...] = ()
    groups: tuple[GroupResult, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """JSON record of the check."""
        rec: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "status": self.status.name,
            "clusters": list(self.clusters),
            "partitions": self.partitions,
            "states": dict(sorted(self.states.items())),
            "summary": self.summary,
            "problems": list(self.problems),
        }
        if self.type == "liveness":
            rec["topics"] = [t.to_record() for t in self.topics]
        else:
            rec["groups"] = [g.to_record() for g in self.groups]
        return rec


@dataclass(frozen=True, kw_only=True)
class CheckReport:
    """A whole ``check`` run."""

    status: MonitoringStatus
    checks: tuple[CheckResult, ...]
    #: a tuple, or from Spark the records kept as one Arrow table (:class:`PartitionRecords`)
    partitions: Sequence[PartitionRecord]
    now_ms: int
    #: all evaluated partition records (``partitions`` may hold only the worst, see ``complete``)
    total_partitions: int = 0
    complete: bool = True
    timings: Mapping[str, float] = field(default_factory=dict)
    history_runs: int | None = None
    #: all clusters of the spec, and those that could not be reached or read
    clusters: tuple[str, ...] = ()
    down: tuple[str, ...] = ()

    def to_document(self) -> dict[str, Any]:
        """The ``--output json`` document."""
        return {
            "status": self.status.name,
            "checks": [c.to_record() for c in self.checks],
            "partitions": [r for rs in record_slices(self.partitions) for r in rs],
        }
