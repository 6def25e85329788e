"""A lag row's monitoring status against thresholds: the one rule ``lag`` and ``check`` apply.

:func:`lag_rule` is the decision list (:mod:`kafka_offsets_cli.decide`); ``lag`` evaluates it in
Python per row (:func:`lag_status`, rolled up by :mod:`kafka_offsets_cli.lag.monitor`), Spark's
``check`` compiles it into the JVM's ``select`` for its lag checks. Both front ends take it from
here, below the features, so neither imports the other. Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ...decide import Arm, Const, Rule, Value, compile_rule
from ...errors import MonitoringStatus
from ...tally import Pred, Where
from .rows import LagRow, LagState

__all__ = ["lag_rule", "lag_status"]


def lag_rule(
    warn_lag: int | None = None,
    crit_lag: int | None = None,
    warn_time_lag_ms: int | None = None,
    crit_time_lag_ms: int | None = None,
) -> Rule:
    """A lag row's status against thresholds, as a decision list (:mod:`kafka_offsets_cli.decide`)
    of its ``state``, ``lag`` and ``time_lag_ms``: the one definition (output ``status``).

    ``ok`` rows compare lag and time lag (a value above a threshold alerts; a time lag that was
    not computed, or a threshold not set, is not compared); ``marker`` rows are OK;
    ``below-start`` is CRITICAL (the group lost records); ``no-commit`` and ``ahead`` are
    WARNING; ``error`` is UNKNOWN.
    """

    def states(*which: LagState) -> Where:
        return ((Pred("state", "in", tuple(s.value for s in which)),),)

    def over(lag: int | None, time_lag: int | None) -> Where:
        tests = (("lag", lag), ("time_lag_ms", time_lag))
        return tuple((Pred(f, "gt", (limit,)),) for f, limit in tests if limit is not None)

    def then(status: MonitoringStatus) -> tuple[Value, ...]:
        return (Const(status),)

    return Rule(
        ("status",),
        (
            Arm(states(LagState.ERROR), then(MonitoringStatus.UNKNOWN)),
            Arm(states(LagState.BELOW_START), then(MonitoringStatus.CRITICAL)),
            Arm(states(LagState.NO_COMMIT, LagState.AHEAD), then(MonitoringStatus.WARNING)),
            Arm(states(LagState.MARKER), then(MonitoringStatus.OK)),
            Arm(over(crit_lag, crit_time_lag_ms), then(MonitoringStatus.CRITICAL)),
            Arm(over(warn_lag, warn_time_lag_ms), then(MonitoringStatus.WARNING)),
        ),
        then(MonitoringStatus.OK),
    )


def _access(field: str) -> Callable[[Any], Any]:
    # the state as its value (the rule compares strings; the enum member hashes differently)
    return attrgetter("state._value_" if field == "state" else field)


@lru_cache(maxsize=64)
def _compiled(
    warn_lag: int | None, crit_lag: int | None, warn_t: int | None, crit_t: int | None
) -> Callable[[Any], tuple[Any, ...]]:
    return compile_rule(lag_rule(warn_lag, crit_lag, warn_t, crit_t), _access)


def lag_status(
    row: LagRow,
    warn_lag: int | None = None,
    crit_lag: int | None = None,
    warn_time_lag_ms: int | None = None,
    crit_time_lag_ms: int | None = None,
) -> MonitoringStatus:
    """Monitoring status of one row against thresholds (:func:`lag_rule`; a value above a
    threshold alerts).

    ``ok`` rows compare lag and time lag (a time lag that was not computed is not
    compared); ``marker`` rows are OK; ``below-start`` is CRITICAL (the group lost
    records); ``no-commit`` and ``ahead`` are WARNING; ``error`` is UNKNOWN.
    """
    status: MonitoringStatus = _compiled(warn_lag, crit_lag, warn_time_lag_ms, crit_time_lag_ms)(row)[0]
    return status
