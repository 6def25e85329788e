"""Arrow schemas and conversions of the ``check`` pipeline's DataFrames (samples, records, verdicts).

The collected samples are converted once, in the task that read them, into flat Arrow record
batches (:data:`SAMPLE_COLUMNS`: one row per live or lag sample); the evaluated records are
:data:`RECORD_COLUMNS` (the ``--write`` table's columns). The Python objects the shared rules
take (:class:`~kafka_offsets_cli.check.collect.LiveSample`,
:class:`~kafka_offsets_cli.check.records.PartitionRecord`...) are rebuilt from those rows inside
tasks, and on the driver only for the rows brought back. pyarrow only (no pandas, no pyspark).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..check.collect import LagSample, LiveSample, Sample
from ..check.history import HistoryStatus, PartitionHistory
from ..check.records import PartitionRecord
from ..measures.lag.rows import LagRow
from ..models.offsets import OffsetResult, OffsetSpec
from .arrow_build import record_batch_of

__all__ = [
    "RECORD_COLUMNS",
    "RECORD_DDL",
    "SAMPLE_COLUMNS",
    "SAMPLE_DDL",
    "VERDICT_COLUMNS",
    "VERDICT_DDL",
    "arrow_schema",
    "batch_samples",
    "ddl",
    "record_batch",
    "record_row",
    "records",
    "sample_batches",
    "verdict_batch",
    "verdicts",
]

#: (column, Spark SQL type) of the per-partition table, in record order plus ``kind``, but
#: ``group_type`` and ``loss_eta_ms`` last: they came later, and the columns of the ``--write`` CSV
#: before them keep their places.
RECORD_COLUMNS = (
    ("check", "string"),
    ("kind", "string"),
    ("cluster", "string"),
    ("topic", "string"),
    ("partition", "int"),
    ("group", "string"),
    ("committed", "bigint"),
    ("end", "bigint"),
    ("lag", "bigint"),
    ("time_lag_ms", "bigint"),
    ("timestamp", "bigint"),
    ("age_ms", "bigint"),
    ("state", "string"),
    ("status", "string"),
    ("log_start", "bigint"),
    ("offset", "bigint"),
    ("history", "string"),
    ("error", "string"),
    ("group_type", "string"),
    ("loss_eta_ms", "bigint"),
)

#: (column, Spark SQL type) of a collected sample; ``kind`` is ``live`` or ``lag``; ``route`` the
#: number of the checks that route it (:class:`~kafka_offsets_cli.check.evaluate.RouteIndex`).
SAMPLE_COLUMNS = (
    ("kind", "string"),
    ("cluster", "string"),
    ("topic", "string"),
    ("partition", "int"),
    ("group", "string"),
    ("group_type", "string"),
    ("offset", "bigint"),
    ("timestamp", "bigint"),
    ("leader_epoch", "int"),
    ("committed", "bigint"),
    ("log_start", "bigint"),
    ("end", "bigint"),
    ("lag", "bigint"),
    ("time_lag_ms", "bigint"),
    ("resume_timestamp", "bigint"),
    ("taken_at_ms", "bigint"),
    ("state", "string"),
    ("error", "string"),
    ("loss_eta_ms", "bigint"),
    ("route", "int"),
)

#: (column, Spark SQL type) of Burrow's verdict on one (check, cluster, group, topic, partition).
VERDICT_COLUMNS = (
    ("check", "string"),
    ("cluster", "string"),
    ("group", "string"),
    ("topic", "string"),
    ("partition", "int"),
    ("h_status", "string"),
    ("h_samples", "int"),
    ("h_reason", "string"),
    ("h_lag", "bigint"),
    ("h_produce", "double"),
    ("h_consume", "double"),
    ("h_eta", "bigint"),
)


def ddl(columns: Iterable[tuple[str, str]]) -> str:
    """The Spark DDL schema string of ``columns``."""
    return ", ".join(f"`{n}` {t}" for n, t in columns)


RECORD_DDL = ddl(RECORD_COLUMNS)
SAMPLE_DDL = ddl(SAMPLE_COLUMNS)
VERDICT_DDL = ddl(VERDICT_COLUMNS)


def arrow_schema(columns: Iterable[tuple[str, str]]) -> Any:
    """The pyarrow schema of ``columns`` (types exactly as Spark expects them back)."""
    import pyarrow as pa

    types = {
        "string": pa.string(),
        "int": pa.int32(),
        "bigint": pa.int64(),
        "double": pa.float64(),
        "binary": pa.binary(),
    }
    return pa.schema([(n, types[t]) for n, t in columns])


def _batch(columns: tuple[tuple[str, str], ...], rows: list[tuple[Any, ...]]) -> Any:
    # laid out as Arrow buffers: pyarrow.array would import pandas in every Python worker
    return record_batch_of(columns, rows)


# --- samples ---------------------------------------------------------------------------------


def _sample_row(s: Sample, route: int) -> tuple[Any, ...]:
    if isinstance(s, LiveSample):
        r = s.result
        return (
            "live", s.cluster, r.topic, r.partition, None, None, r.offset, r.timestamp, r.leader_epoch,
            None, None, None, None, None, None, None, None, r.error, None, route,
        )  # fmt: skip
    w = s.row
    return (
        "lag", s.cluster, w.topic, w.partition, w.group, w.group_type, None, None, None,
        w.committed, w.log_start, w.end, w.lag, w.time_lag_ms, w.resume_timestamp, w.taken_at_ms,
        w.state.value, w.error, s.loss_eta_ms, route,
    )  # fmt: skip


def sample_batches(
    samples: Iterable[Sample], size: int = 10_000, route: Callable[[Sample], int] | None = None
) -> Iterator[Any]:
    """The samples as Arrow record batches of :data:`SAMPLE_COLUMNS` (``mapInArrow`` output),
    each with its ``route`` (0 without one)."""
    rows: list[tuple[Any, ...]] = []
    for s in samples:
        rows.append(_sample_row(s, 0 if route is None else route(s)))
        if len(rows) >= size:
            yield _batch(SAMPLE_COLUMNS, rows)
            rows = []
    if rows:
        yield _batch(SAMPLE_COLUMNS, rows)


def batch_samples(batch: Any) -> Iterator[Sample]:
    """The :class:`~kafka_offsets_cli.check.collect.Sample` objects of one sample batch."""
    spec = OffsetSpec.max_timestamp()
    for d in batch.to_pylist():
        if d["kind"] == "live":
            yield LiveSample(
                d["cluster"],
                OffsetResult(
                    d["topic"],
                    d["partition"],
                    spec,
                    d["offset"],
                    d["timestamp"],
                    d["leader_epoch"],
                    d["error"],
                ),
            )
        else:
            yield LagSample(d["cluster"], LagRow.from_record(d), d.get("loss_eta_ms"))


# --- records ---------------------------------------------------------------------------------


def record_row(r: PartitionRecord) -> tuple[Any, ...]:
    """A record as a row of :data:`RECORD_COLUMNS` (``status`` by name)."""
    return (
        r.check, r.kind, r.cluster, r.topic, r.partition, r.group, r.committed, r.end, r.lag,
        r.time_lag_ms, r.timestamp, r.age_ms, r.state, r.status.name, r.log_start, r.offset,
        r.history, r.error, r.group_type, r.loss_eta_ms,
    )  # fmt: skip


def record_batch(recs: Iterable[PartitionRecord]) -> Any:
    """Records as one Arrow record batch of :data:`RECORD_COLUMNS`."""
    return _batch(RECORD_COLUMNS, [record_row(r) for r in recs])


def records(rows: Iterable[dict[str, Any]]) -> Iterator[PartitionRecord]:
    """:class:`PartitionRecord` objects of rows (dicts) with the record columns."""
    return map(PartitionRecord.from_row, rows)


# --- history verdicts ------------------------------------------------------------------------


def verdict_batch(pairs: Iterable[tuple[tuple[str, str, str, str, int], PartitionHistory]]) -> Any:
    """``evaluate_history``'s (key, verdict) pairs as one batch of :data:`VERDICT_COLUMNS`."""
    return _batch(
        VERDICT_COLUMNS,
        [
            (*k, h.status.value, h.samples, h.reason, h.lag, h.produce_rate, h.consume_rate, h.eta_ms)
            for k, h in pairs
        ],
    )


def verdicts(rows: Iterable[dict[str, Any]]) -> Iterator[PartitionHistory]:
    """The :class:`PartitionHistory` of rows holding the ``h_*`` columns (``h_status`` not null):
    the inverse of :func:`verdict_batch`."""
    for d in rows:
        yield PartitionHistory(
            status=HistoryStatus(d["h_status"]),
            samples=d["h_samples"],
            reason=d["h_reason"],
            lag=d["h_lag"],
            produce_rate=d["h_produce"],
            consume_rate=d["h_consume"],
            eta_ms=d["h_eta"],
        )
