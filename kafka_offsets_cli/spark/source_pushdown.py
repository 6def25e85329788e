"""Topic and group filters pushed into the data source's read (Spark 4.1+).

``df.where("topic = 'orders'")`` or ``.where(col("group").isin(...))`` on a read of the
``kafka-offsets`` source: Spark hands the reader its filters (``DataSourceReader.pushFilters``) when
``spark.sql.python.filterPushdown.enabled`` is on. The planned work units then keep only the
partitions of the topics, and the groups, the filters allow (``EqualTo`` and ``In`` on the
``topic`` and ``group`` columns, ANDed): the tasks never ask the brokers for the rest. Spark still
applies every filter to the rows (each is returned), so a filter the read cannot narrow by, or
narrows by only in part, never changes an answer.

Spark refuses a reader that implements ``pushFilters`` while the setting is off
(``DATA_SOURCE_PUSHDOWN_DISABLED``), so :func:`kafka_offsets_cli.spark.register` registers the
source whose reader pushes only on a session that has the setting on (:func:`pushdown_on`).
Imported by :mod:`.source` only (pyspark).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..check.units import WorkUnit

__all__ = ["PUSHDOWN_CONF", "allowed_values", "narrowed_units", "pushdown_on"]

#: Spark's setting that lets a Python data source take filters (Spark 4.1+; off by default)
PUSHDOWN_CONF = "spark.sql.python.filterPushdown.enabled"


def pushdown_on(spark: Any) -> bool:
    """Whether ``spark`` hands Python data sources their filters (a pyspark without the API: no)."""
    try:
        from pyspark.sql.datasource import EqualTo, In  # noqa: F401  (Spark 4.1's filter classes)
    except ImportError:
        return False
    return str(spark.conf.get(PUSHDOWN_CONF, "false")).strip().lower() == "true"


def allowed_values(filters: Iterable[Any], column: str) -> frozenset[str] | None:
    """The values ``column`` may take under ``filters`` (ANDed: ``EqualTo`` and ``In`` on it);
    ``None`` when none of them restricts it."""
    from pyspark.sql.datasource import EqualTo, In

    allowed: set[Any] | None = None
    for f in filters:
        if getattr(f, "attribute", None) != (column,):
            continue
        if isinstance(f, EqualTo):
            values = {f.value}
        elif isinstance(f, In):
            values = set(f.value)
        else:
            continue
        allowed = values if allowed is None else allowed & values
    return None if allowed is None else frozenset(v for v in allowed if isinstance(v, str))


def narrowed_units(
    units: Sequence[WorkUnit], topics: frozenset[str] | None, groups: frozenset[str] | None
) -> tuple[WorkUnit, ...]:
    """``units`` with only the partitions of ``topics`` and the groups in ``groups`` (``None``: all);
    a unit left with nothing to read is dropped."""
    out = []
    for u in units:
        live = tuple(tp for tp in u.live if topics is None or tp.topic in topics)
        kept = (
            (g, tuple(tp for tp in tps if topics is None or tp.topic in topics))
            for g, tps in u.groups
            if groups is None or g in groups
        )
        lag = tuple((g, tps) for g, tps in kept if tps)
        if live or lag:
            out.append(replace(u, live=live, groups=lag))
    return tuple(out)
