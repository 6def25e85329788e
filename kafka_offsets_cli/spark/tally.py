"""The roll-up statistics of :mod:`kafka_offsets_cli.tally` as Spark column expressions (JVM).

:func:`aggregates` compiles declared :class:`~kafka_offsets_cli.tally.Stat` values into
aggregate columns for one ``groupBy().agg``: the statistics the rules read are computed where
the records are, and only one row per topic or group reaches the driver, which decides from it
with the same Python function as the direct commands. The semantics are the Python tally's
(its module docstring); ``tests`` compare the two on random records.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tally import EVERY, Pred, Stat, Where

__all__ = ["aggregates", "condition"]


def _test(t: Pred) -> Any:
    from pyspark.sql import functions as F

    col = F.col(t.field)
    if t.op == "present":
        return col.isNotNull()
    if t.op == "absent":
        return col.isNull()
    if t.op == "nonzero":
        return col.isNotNull() & (col != F.lit(0))
    found = col.isin(*t.values)
    # false for a null field, as in Python, rather than SQL's null: the same inside `when`, but
    # it keeps every condition two-valued, whatever combines it
    return col.isNotNull() & (found if t.op == "in" else ~found)


def condition(where: Where) -> Any:
    """``where`` as a boolean column (``None`` for :data:`~kafka_offsets_cli.tally.EVERY`)."""
    from functools import reduce

    if where == EVERY:
        return None
    conjs = [reduce(lambda a, b: a & b, [_test(t) for t in conj]) for conj in where]
    return reduce(lambda a, b: a | b, conjs)


def _aggregate(s: Stat) -> Any:
    from pyspark.sql import functions as F

    cond = condition(s.where)

    def only(col: Any) -> Any:  # the column where the condition holds, null elsewhere
        return col if cond is None else F.when(cond, col)

    if s.op == "count":
        return F.count(only(F.lit(1)))
    assert s.field is not None, f"{s.name}: {s.op} needs a field"
    value = only(F.col(s.field))
    if s.op == "sum":
        return F.sum(value)
    if s.op == "min":
        return F.min(value)
    if s.op == "max":
        return F.max(value)
    ordered = F.array_sort(F.collect_list(value))  # collect_list drops nulls
    if s.op == "smallest":
        return F.slice(ordered, 1, s.n) if s.n > 0 else F.array().cast("array<bigint>")
    # fsum: smallest first, one addition after the other, as Python's sum(sorted(values), 0.0)
    total = F.aggregate(ordered, F.lit(0.0).cast("double"), lambda acc, x: acc + x.cast("double"))
    return F.when(F.size(ordered) > 0, total)


def aggregates(stats: Sequence[Stat]) -> list[Any]:
    """One aggregate column per statistic, named as the statistic."""
    return [_aggregate(s).alias(s.name) for s in stats]
