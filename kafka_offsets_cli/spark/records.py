"""The partition records brought back to the driver: one Arrow table and its report order.

``check -o json`` (and the driver's ``--write``) needs every record: they come back from Spark
once, as Arrow (``toArrow``), and stay one columnar table (:class:`~kafka_offsets_cli.check.records.
PartitionRecords`) instead of a list of Python objects, so the driver's memory grows by about two
hundred bytes a record, not by a few kilobytes. The table is not copied into order: its report
order is an array of row numbers (eight bytes a record), and readers take a slice of rows at a
time through it. pyarrow only (no pandas).
"""

from __future__ import annotations

from typing import Any

from ..check.records import PartitionRecords
from .arrow_build import arrow_column
from .frames import RECORD_COLUMNS, arrow_schema

__all__ = ["collect_records", "report_order"]


def collect_records(frame: Any) -> PartitionRecords:
    """Every record of ``frame`` (a DataFrame of the record columns), in report order.

    The columns keep the ``--write`` table's types (:data:`~.frames.RECORD_COLUMNS`), whatever
    string type Spark's Arrow conversion chose.
    """
    table = frame.toArrow().cast(arrow_schema(RECORD_COLUMNS))
    return PartitionRecords(table, report_order(table))


def report_order(table: Any) -> Any:
    """The row numbers of ``table`` in report order (an Arrow array).

    By :attr:`PartitionRecord.key <kafka_offsets_cli.check.records.PartitionRecord.key>`: (check,
    cluster, group or "", topic, partition or -1), ties kept in their order. Arrow's sort is stable
    and compares strings by their UTF-8 bytes, which orders them as Python does (by code point), so
    this is the order ``sorted(records, key=key)`` gives.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    # the fill values as Arrow scalars made from buffers: a Python "" or -1 would go through
    # pyarrow's conversion, whose pandas check imports pandas (tens of MB) on the driver
    no_group, no_partition = arrow_column([""], "string")[0], arrow_column([-1], "int")[0]
    keys = pa.table(
        {
            "check": table["check"],
            "cluster": table["cluster"],
            "group": pc.fill_null(table["group"], no_group),
            "topic": table["topic"],
            "partition": pc.fill_null(table["partition"], no_partition),
        }
    )
    return pc.sort_indices(keys, sort_keys=[(name, "ascending") for name in keys.column_names])
