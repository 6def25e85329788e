"""Roll-up statistics declared once as data, computed in Python here and by Spark in the JVM.

A rule that rolls records up (a topic's liveness, a group's lag totals, Burrow's verdict on a
group) reads a few statistics of its records: how many match a condition, the sum or maximum of
a field, its smallest values. The rule modules declare those statistics as :class:`Stat` values;
:func:`tally` computes them over records laid out as columns (the direct commands, tests, one
Arrow table), and :mod:`kafka_offsets_cli.spark.tally` compiles the same declarations into
column expressions for one ``groupBy().agg`` in the JVM. The rule that turns the statistics into
a verdict is a Python function of the tally, the same for both: nothing is decided twice.

Semantics, the same in both places (tests check that they agree on random records):

* a condition (:data:`Where`) is a disjunction of conjunctions of field tests; ``in`` and
  ``not_in`` are false for a null field, ``nonzero`` is false for null and 0, ``gt`` and ``lt``
  (above, below one number) are false for null;
* ``count``: matching records; ``sum``: of the non-null values of matching records, ``None``
  when there are none (integers, exact); ``fsum``: the same for floats, added smallest first so
  that the result does not depend on the records' order; ``min``, ``max``: ``None`` when there
  are none (strings by code point);
  ``smallest``: the ``n`` smallest non-null values, ascending (fewer when there are fewer).

The same conditions select the arms of the per-record decision lists of
:mod:`kafka_offsets_cli.decide` (thresholds), which read a record through :func:`record_test`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["EVERY", "Pred", "Stat", "Where", "count_each", "holds", "record_test", "tally", "within"]

PredOp = Literal["present", "absent", "in", "not_in", "nonzero", "gt", "lt"]
StatOp = Literal["count", "sum", "fsum", "min", "max", "smallest"]


@dataclass(frozen=True)
class Pred:
    """One test of one field: ``present``/``absent`` (null), ``in``/``not_in`` ``values``, ``nonzero``,
    ``gt``/``lt`` (above/below the one number in ``values``)."""

    field: str
    op: PredOp
    values: tuple[Any, ...] = ()


#: a condition: any of the conjunctions holds (each: all of its tests hold)
Where = tuple[tuple[Pred, ...], ...]

#: the condition every record meets
EVERY: Where = ((),)


@dataclass(frozen=True)
class Stat:
    """A named statistic: ``op`` over ``field`` of the records meeting ``where`` (``n`` for ``smallest``)."""

    name: str
    op: StatOp
    field: str | None = None
    where: Where = EVERY
    n: int = 0


def within(stats: Sequence[Stat], *tests: Pred) -> tuple[Stat, ...]:
    """``stats`` restricted to the records that also pass every one of ``tests``."""
    return tuple(Stat(s.name, s.op, s.field, tuple((*conj, *tests) for conj in s.where), s.n) for s in stats)


def count_each(field: str, values: Sequence[Any], prefix: str, *tests: Pred) -> tuple[Stat, ...]:
    """A count per value of ``field`` (named ``prefix`` + the value), of the records passing ``tests``."""
    return tuple(Stat(f"{prefix}{v}", "count", where=((Pred(field, "in", (v,)), *tests),)) for v in values)


def _checker(test: Pred) -> Callable[[Any], bool]:
    """The test as a function of one value: its one definition, for a record and for a column."""
    vals = test.values
    if test.op == "present":
        return lambda v: v is not None
    if test.op == "absent":
        return lambda v: v is None
    if test.op == "nonzero":
        return lambda v: v is not None and v != 0
    if test.op == "in":
        return lambda v: v is not None and v in vals  # `in` on a tuple compares with ==
    if test.op == "not_in":
        return lambda v: v is not None and v not in vals
    (limit,) = vals
    if test.op == "gt":
        return lambda v: v is not None and v > limit
    return lambda v: v is not None and v < limit


def record_test(test: Pred, get: Callable[[Any], Any]) -> Callable[[Any], bool]:
    """The test as a function of a record whose field ``get`` reads (:func:`_checker`'s)."""
    check = _checker(test)
    return lambda r: check(get(r))


def holds(where: Where, get: Callable[[str], Any]) -> bool:
    """Whether the record whose fields ``get`` returns meets ``where``."""
    return any(all(_checker(t)(get(t.field)) for t in conj) for conj in where)


def _test_mask(test: Pred, cols: Mapping[str, Sequence[Any]], cache: dict[Any, list[bool]]) -> list[bool]:
    got = cache.get(test)
    if got is None:
        got = cache[test] = list(map(_checker(test), cols[test.field]))
    return got


def _mask(where: Where, cols: Mapping[str, Sequence[Any]], cache: dict[Any, list[bool]]) -> list[bool] | None:
    """Which records meet ``where`` (``None``: all of them); test results shared across one tally."""
    if where == EVERY:
        return None
    got = cache.get(where)
    if got is None:
        masks = []
        for conj in where:
            both = _test_mask(conj[0], cols, cache)
            for t in conj[1:]:
                both = [a and b for a, b in zip(both, _test_mask(t, cols, cache), strict=True)]
            masks.append(both)
        got = masks[0] if len(masks) == 1 else [any(m) for m in zip(*masks, strict=True)]
        cache[where] = got
    return got


def _length(cols: Mapping[str, Sequence[Any]]) -> int:
    return len(next(iter(cols.values()))) if cols else 0


def tally(stats: Sequence[Stat], cols: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
    """Every statistic of ``stats`` over the records given as ``cols`` (field → one value per record)."""
    n = _length(cols)
    out: dict[str, Any] = {}
    cache: dict[Any, list[bool]] = {}
    for s in stats:
        mask = _mask(s.where, cols, cache)
        if s.op == "count":
            out[s.name] = n if mask is None else sum(mask)
            continue
        assert s.field is not None, f"{s.name}: {s.op} needs a field"
        col = cols[s.field]
        if mask is None:
            values = [v for v in col if v is not None]
        else:
            values = [v for v, ok in zip(col, mask, strict=True) if ok and v is not None]
        if s.op == "sum":
            out[s.name] = sum(values) if values else None
        elif s.op == "fsum":
            out[s.name] = sum(sorted(values), 0.0) if values else None
        elif s.op == "min":
            out[s.name] = min(values) if values else None
        elif s.op == "max":
            out[s.name] = max(values) if values else None
        else:
            out[s.name] = tuple(sorted(values)[: s.n])
    return out
