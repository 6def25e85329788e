"""The per-record rules of :mod:`kafka_offsets_cli.decide` as Spark SQL expressions (JVM).

:func:`sql_rule` compiles a :class:`~kafka_offsets_cli.decide.Rule` into one ``CASE WHEN ... END``
per output; :func:`sql_by_check` picks each record's rule by its ``check`` column (checks whose
rules are equal share one arm). The conditions are :func:`.tally.sql_condition`'s, the semantics
the Python compiler's (its module docstring); ``tests/test_decide_spark.py`` compares the two.

SQL text, pure (no pyspark here), one ``F.expr`` per column where it is used (:mod:`.stages`):
building ``Column`` objects costs a py4j round trip per operator.

A constant is written as the record columns encode it: a ``str`` enum (a state) by its value,
any other enum (a :class:`~kafka_offsets_cli.errors.MonitoringStatus`) by its name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from ..decide import Const, Field, Rule, Value
from .tally import quote_name, sql_condition, sql_literal

__all__ = ["sql_by_check", "sql_constant", "sql_routes", "sql_rule"]


def sql_constant(value: Any) -> str:
    """A constant output as a SQL literal (``NULL`` for ``None``; enums as the records encode them)."""
    if value is None:
        return "NULL"
    if isinstance(value, Enum):
        value = value.value if isinstance(value, str) else value.name
    return sql_literal(value)


def _value(v: Value) -> str:
    if isinstance(v, Const):
        return sql_constant(v.value)
    if isinstance(v, Field):
        return quote_name(v.name)
    col = quote_name(v.field)
    diff = f"({sql_literal(v.base)} - {col})"
    if v.floor is None:
        return diff
    # greatest() skips nulls: a null field must stay null
    return f"CASE WHEN {col} IS NULL THEN NULL ELSE greatest({sql_literal(v.floor)}, {diff}) END"


def sql_rule(rule: Rule) -> dict[str, str]:
    """Each output of ``rule`` as one SQL expression (a ``CASE WHEN`` of the arms, first match wins)."""
    out: dict[str, str] = {}
    for i, name in enumerate(rule.outputs):
        arms = []
        for arm in rule.arms:
            cond = sql_condition(arm.when)
            if cond is None or any(not conj for conj in arm.when):
                arms.append(f"ELSE {_value(arm.then[i])}")
                break
            if arm.when:  # no conjunction: never holds
                arms.append(f"WHEN {cond} THEN {_value(arm.then[i])}")
        else:
            arms.append(f"ELSE {_value(rule.default[i])}")
        whens = [a for a in arms if a.startswith("WHEN")]
        out[name] = f"CASE {' '.join(arms)} END" if whens else arms[-1].removeprefix("ELSE ")
    return out


def sql_by_check(
    rules: Mapping[str, Rule], output: str, otherwise: str = "NULL", column: str = "check"
) -> str:
    """``output`` of the rule of each record's check (the ``column``), ``otherwise`` for a record
    whose check has no such rule or output."""
    by_sql: dict[str, list[str]] = {}
    for name, rule in rules.items():
        if output in rule.outputs:
            by_sql.setdefault(sql_rule(rule)[output], []).append(name)
    if not by_sql:
        return otherwise
    col = quote_name(column)
    arms = " ".join(
        f"WHEN {col} IN ({', '.join(sql_literal(n) for n in names)}) THEN {sql}"
        for sql, names in by_sql.items()
    )
    return f"CASE {arms} ELSE {otherwise} END"


def sql_routes(routes: Sequence[Sequence[str]], column: str = "route") -> str:
    """The check names of route ``column`` (an index into ``routes``), an ``array<string>``."""
    arrays = ", ".join(
        "array(" + ", ".join(sql_literal(n) for n in names) + ")"
        if names
        else "CAST(array() AS ARRAY<STRING>)"
        for names in routes
    )
    if not routes:
        return "CAST(array() AS ARRAY<STRING>)"
    return f"element_at(array({arrays}), {quote_name(column)} + 1)"
