"""The partition records of a ``kafka-offsets check`` report (frozen models, pure; no pyarrow).

One :class:`PartitionRecord` per evaluated (check, cluster, [group,] partition): its documented
JSON/CSV record is :meth:`PartitionRecord.to_record` (:data:`RECORD_KEYS`, see
:mod:`.report` for the whole document). A report from Spark keeps them as one Arrow table on
the driver (:class:`PartitionRecords`, in report order): a renderer or writer reads them in
slices (:func:`record_slices`, :meth:`PartitionRecords.slices`), never as one list of objects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, overload

from ..errors import MonitoringStatus

__all__ = ["RECORD_KEYS", "SLICE", "PartitionRecord", "PartitionRecords", "column_slices", "record_slices"]

#: Records per slice when records are read from an Arrow table (bounds the objects alive at once).
SLICE = 2_000

#: Keys of a partition record, in order (the issue's documented keys first).
RECORD_KEYS = (
    "check",
    "cluster",
    "topic",
    "partition",
    "group",
    "group_type",
    "committed",
    "end",
    "lag",
    "time_lag_ms",
    "loss_eta_ms",
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
    #: the group's type as the brokers list it (classic, consumer, share, streams; ``lag``'s
    #: ``group_type``); None for a liveness record and where the type is unknown
    group_type: str | None = None
    # what was read; None where nothing was (an error, or planning decided without reading)
    committed: int | None = None
    log_start: int | None = None
    end: int | None = None
    lag: int | None = None
    time_lag_ms: int | None = None
    #: the data-loss ETA (a lag check that computes it, :mod:`kafka_offsets_cli.measures.lag.loss`)
    loss_eta_ms: int | None = None
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
            "group_type": self.group_type,
            "committed": self.committed,
            "end": self.end,
            "lag": self.lag,
            "time_lag_ms": self.time_lag_ms,
            "loss_eta_ms": self.loss_eta_ms,
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
    def measured(
        cls, row: Any, *, check: str, kind: str, cluster: str, status: MonitoringStatus, **more: Any
    ) -> PartitionRecord:
        """The record of a lag or liveness row (a ``LagRow``, a ``LiveRow``): every field the row and
        the record share taken from the row by name (``state`` by its value), the rest as given."""
        row_type: type = type(row)
        taken = {k: getattr(row, k) for k in _shared_fields(row_type)}
        state = row.state.value
        return cls(check=check, kind=kind, cluster=cluster, state=state, status=status, **taken, **more)

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


@cache
def _shared_fields(row_type: type) -> tuple[str, ...]:
    """The fields of a measured row's dataclass that a record has too (``state``: by value, apart)."""
    return tuple(f.name for f in fields(row_type) if f.name in _ROW_FIELDS and f.name != "state")


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


def column_slices(
    parts: Sequence[PartitionRecord], keys: Sequence[str], size: int = SLICE
) -> Iterator[list[list[Any]]]:
    """The ``keys`` fields of ``parts`` as columns (one list per key), per slice of at most ``size``
    records, valued as the records' table holds them (``status`` by name).

    From an Arrow table (:class:`PartitionRecords`) each column is read as it is: no object, no
    dict per record.
    """
    if isinstance(parts, PartitionRecords):
        yield from parts.columns(keys, size)
        return
    for start in range(0, len(parts), size):
        part = parts[start : start + size]
        yield [
            [r.status.name for r in part] if k == "status" else [getattr(r, k) for r in part] for k in keys
        ]


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
