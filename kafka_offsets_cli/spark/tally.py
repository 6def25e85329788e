"""The roll-up statistics of :mod:`kafka_offsets_cli.tally` as Spark SQL aggregate expressions (JVM).

:func:`aggregates` compiles declared :class:`~kafka_offsets_cli.tally.Stat` values into
aggregate expressions for one ``groupBy().agg``: the statistics the rules read are computed where
the records are, and only one row per topic or group reaches the driver, which decides from it
with the same Python function as the direct commands. The semantics are the Python tally's
(its module docstring); ``tests/test_tally_spark.py`` compares the two on random records.

The expressions are SQL text (:func:`sql_aggregates`, pure), one ``F.expr`` each: building the
same expressions from ``Column`` objects takes a py4j round trip per operator, several hundred
of them (0.6 s of a cold run), where the JVM parses the text in microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tally import EVERY, Pred, Stat, Where

__all__ = ["aggregates", "quote_name", "sql_aggregates", "sql_condition", "sql_literal"]


def quote_name(field: str) -> str:
    """``field`` as a quoted SQL column name."""
    return "`" + field.replace("`", "``") + "`"


def sql_literal(value: Any) -> str:
    """``value`` (a number or a string) as a SQL literal."""
    if isinstance(value, bool) or value is None:
        raise TypeError(f"no SQL literal for {value!r} (a number or a string)")
    if isinstance(value, int | float):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def _pred(p: Pred) -> str:
    col = quote_name(p.field)
    if p.op == "present":
        return f"{col} IS NOT NULL"
    if p.op == "absent":
        return f"{col} IS NULL"
    if p.op == "nonzero":
        return f"({col} IS NOT NULL AND {col} <> 0)"
    if p.op in ("gt", "lt"):
        (limit,) = p.values
        return f"({col} IS NOT NULL AND {col} {'>' if p.op == 'gt' else '<'} {sql_literal(limit)})"
    values = ", ".join(sql_literal(v) for v in p.values)
    # false for a null field, as in Python, rather than SQL's null: the same inside CASE WHEN,
    # but it keeps every condition two-valued, whatever combines it
    return f"({col} IS NOT NULL AND {'' if p.op == 'in' else 'NOT '}{col} IN ({values}))"


def sql_condition(where: Where) -> str | None:
    """``where`` as a SQL boolean expression (``None`` for :data:`~kafka_offsets_cli.tally.EVERY`)."""
    if where == EVERY:
        return None
    return " OR ".join("(" + " AND ".join(_pred(p) for p in conj) + ")" for conj in where)


def _sql(s: Stat) -> str:
    cond = sql_condition(s.where)

    def only(expr: str) -> str:  # the value where the condition holds, null elsewhere
        return expr if cond is None else f"CASE WHEN {cond} THEN {expr} END"

    if s.op == "count":
        return f"count({only('1')})"
    assert s.field is not None, f"{s.name}: {s.op} needs a field"
    value = only(quote_name(s.field))
    if s.op in ("sum", "min", "max"):
        return f"{s.op}({value})"
    ordered = f"array_sort(collect_list({value}))"  # collect_list drops nulls
    if s.op == "smallest":
        return f"slice({ordered}, 1, {s.n})" if s.n > 0 else "CAST(array() AS ARRAY<BIGINT>)"
    # fsum: smallest first, one addition after the other, as Python's sum(sorted(values), 0.0)
    total = f"aggregate({ordered}, CAST(0.0 AS DOUBLE), (acc, x) -> acc + CAST(x AS DOUBLE))"
    return f"CASE WHEN count({value}) > 0 THEN {total} END"


def sql_aggregates(stats: Sequence[Stat]) -> list[str]:
    """One SQL aggregate expression per statistic, named as the statistic (``AS `name```)."""
    return [f"{_sql(s)} AS {quote_name(s.name)}" for s in stats]


def aggregates(stats: Sequence[Stat]) -> list[Any]:
    """One aggregate column per statistic (``F.expr`` of :func:`sql_aggregates`), named as it."""
    from pyspark.sql import functions as F

    return [F.expr(text) for text in sql_aggregates(stats)]
