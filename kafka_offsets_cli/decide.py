"""Per-record rules declared once as data: decision lists, run in Python here and by Spark in the JVM.

A per-record rule (a partition's liveness state and status from its newest timestamp, a lag
row's status from its thresholds) is a :class:`Rule`: ordered arms, each a condition
(:data:`~kafka_offsets_cli.tally.Where`, the vocabulary of :mod:`kafka_offsets_cli.tally`) and the
values of the rule's outputs when it is the first that holds, and the values when none does.
A value (:data:`Value`) is a constant, a field of the record, or ``base - field`` (optionally at
least a floor), the arithmetic an age needs.

:func:`compile_rule` turns a rule into a Python function of one record (closures built once,
nothing allocated per record but the result: the direct commands run it per row);
:mod:`kafka_offsets_cli.spark.decide` compiles the same rule into SQL text (``CASE WHEN``) for
one ``select`` in the JVM. :func:`decide` is the plain reference evaluation. The semantics are the
tally's for the conditions; a value of a null field is null, and so is ``base - field`` of one.
``tests/test_decide_spark.py`` compares Python and the JVM on random records.

The rules themselves are declared by the modules that own them
(:func:`kafka_offsets_cli.measures.liveness.liveness_rule`,
:func:`kafka_offsets_cli.measures.lag.rule.lag_rule`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from .tally import EVERY, Where, holds, record_test

__all__ = ["Arm", "Const", "Field", "Minus", "Rule", "Value", "compile_rule", "decide"]


@dataclass(frozen=True)
class Const:
    """A constant value (written to SQL as the record column encodes it: see :mod:`.spark.decide`)."""

    value: Any


@dataclass(frozen=True)
class Field:
    """The value of one field of the record."""

    name: str


@dataclass(frozen=True)
class Minus:
    """``base - field``, at least ``floor`` when one is given; null when the field is."""

    base: int
    field: str
    floor: int | None = None


Value = Const | Field | Minus


@dataclass(frozen=True)
class Arm:
    """When ``when`` holds (and no earlier arm did): the outputs are ``then``, one per output."""

    when: Where
    then: tuple[Value, ...]


@dataclass(frozen=True)
class Rule:
    """A decision list: the first arm that holds gives the outputs' values, else ``default``."""

    outputs: tuple[str, ...]
    arms: tuple[Arm, ...]
    default: tuple[Value, ...]

    def __post_init__(self) -> None:
        n = len(self.outputs)
        if len(self.default) != n or any(len(a.then) != n for a in self.arms):
            raise ValueError(f"every arm of a rule gives its {n} outputs {self.outputs}")

    def output(self, name: str) -> int:
        """The position of output ``name``."""
        return self.outputs.index(name)


def _value(v: Value, get: Callable[[str], Any]) -> Any:
    if isinstance(v, Const):
        return v.value
    if isinstance(v, Field):
        return get(v.name)
    x = get(v.field)
    if x is None:
        return None
    d = v.base - x
    return d if v.floor is None or d > v.floor else v.floor


def decide(rule: Rule, get: Callable[[str], Any]) -> tuple[Any, ...]:
    """The outputs of ``rule`` for the record whose fields ``get`` returns (the plain reference)."""
    for arm in rule.arms:
        if holds(arm.when, get):
            return tuple(_value(v, get) for v in arm.then)
    return tuple(_value(v, get) for v in rule.default)


# --- compiled ---------------------------------------------------------------------------------

Reader = Callable[[Any], Any]


def _condition(where: Where, access: Callable[[str], Reader]) -> Callable[[Any], bool] | None:
    """``where`` as one function of a record (``None``: it always holds)."""
    if where == EVERY or any(not conj for conj in where):
        return None
    conjs = [[record_test(t, access(t.field)) for t in conj] for conj in where]

    def conj_fn(tests: list[Callable[[Any], bool]]) -> Callable[[Any], bool]:
        if len(tests) == 1:
            return tests[0]

        def every(r: Any) -> bool:
            for t in tests:  # noqa: SIM110 -- per record: a loop, no generator object
                if not t(r):
                    return False
            return True

        return every

    fns = [conj_fn(c) for c in conjs]
    if len(fns) == 1:
        return fns[0]

    def anyof(r: Any) -> bool:
        for f in fns:  # noqa: SIM110 -- as above
            if f(r):
                return True
        return False

    return anyof


def _reader(v: Value, access: Callable[[str], Reader]) -> Reader:
    if isinstance(v, Const):
        c = v.value
        return lambda r: c
    if isinstance(v, Field):
        return access(v.name)
    get, base, floor = access(v.field), v.base, v.floor
    if floor is None:

        def minus(r: Any) -> Any:
            x = get(r)
            return None if x is None else base - x

        return minus

    def minus_floor(r: Any) -> Any:
        x = get(r)
        if x is None:
            return None
        d = base - x
        return d if d > floor else floor

    return minus_floor


def _outputs(
    values: Sequence[Value], access: Callable[[str], Reader]
) -> tuple[tuple[Any, ...] | None, Reader]:
    """(the constant outputs, when every value is one; else ``None``) and a function of a record."""
    if all(isinstance(v, Const) for v in values):
        const = tuple(v.value for v in values if isinstance(v, Const))
        return const, lambda r: const
    fs = [_reader(v, access) for v in values]
    if len(fs) == 1:
        (a,) = fs
        return None, lambda r: (a(r),)
    if len(fs) == 2:
        a, b = fs
        return None, lambda r: (a(r), b(r))
    if len(fs) == 3:
        a, b, c = fs
        return None, lambda r: (a(r), b(r), c(r))
    if len(fs) == 4:
        a, b, c, d = fs
        return None, lambda r: (a(r), b(r), c(r), d(r))
    return None, lambda r: tuple([f(r) for f in fs])


def _lookup(arm: Arm) -> tuple[str, tuple[Any, ...], tuple[Any, ...]] | None:
    """(field, values, constant outputs) of an arm that is one ``in`` test with constant outputs,
    of values a dict finds as ``in`` does (``str`` or ``int``), else ``None``."""
    if len(arm.when) != 1 or len(arm.when[0]) != 1 or not all(isinstance(v, Const) for v in arm.then):
        return None
    (test,) = arm.when[0]
    if test.op != "in" or not all(type(v) in (str, int) for v in test.values):
        return None
    return test.field, test.values, tuple(v.value for v in arm.then if isinstance(v, Const))


_MISS, _LOOKUP = object(), object()


def _steps(rule: Rule, access: Callable[[str], Reader]) -> list[tuple[Any, ...]]:
    """(condition, constant outputs, outputs function) per arm, consecutive arms that test one field
    for values folded into one dict lookup (field reader, {value: outputs}): first match wins."""
    steps: list[tuple[Any, ...]] = []
    table: dict[Any, tuple[Any, ...]] = {}
    field = None
    for arm in rule.arms:
        got = _lookup(arm)
        if got is not None and got[0] == field and steps and steps[-1][0] is _LOOKUP:
            for v in got[1]:
                table.setdefault(v, got[2])  # an earlier arm wins
            continue
        if got is not None:
            field, table = got[0], dict.fromkeys(got[1], got[2])
            steps.append((_LOOKUP, access(field), table))
            continue
        field = None
        cond = _condition(arm.when, access)
        steps.append((cond, *_outputs(arm.then, access)))
        if cond is None:  # always holds: no later arm is ever reached
            return steps
    steps.append((None, *_outputs(rule.default, access)))
    return steps


def compile_rule(
    rule: Rule, access: Callable[[str], Reader] = attrgetter
) -> Callable[[Any], tuple[Any, ...]]:
    """``rule`` as a function of one record, returning its outputs' values (a tuple).

    ``access(field)`` gives the function that reads a field of a record (attributes by default;
    ``operator.itemgetter`` for mappings). A field compared with ``in`` must read as the declared
    values do (a ``str`` enum's ``_value_``, not the member: they hash differently).
    """
    steps = tuple(_steps(rule, access))

    def run(r: Any) -> tuple[Any, ...]:
        for cond, const, fn in steps:
            if cond is None:
                return const if const is not None else fn(r)  # type: ignore[no-any-return]
            if cond is _LOOKUP:
                got = fn.get(const(r), _MISS)
                if got is not _MISS:
                    return got  # type: ignore[no-any-return]
            elif cond(r):
                return const if const is not None else fn(r)  # type: ignore[no-any-return]
        raise AssertionError("unreachable: the last step always holds")

    return run
