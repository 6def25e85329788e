"""A lag row's monitoring status against thresholds: the one rule ``lag`` and ``check`` apply.

:func:`lag_rule` is the decision list (:mod:`kafka_offsets_cli.decide`); ``lag`` evaluates it in
Python per row (:func:`lag_status`, rolled up by :mod:`kafka_offsets_cli.lag.monitor`), Spark's
``check`` compiles it into the JVM's ``select`` for its lag checks. Both front ends take it from
here, below the features, so neither imports the other. Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from ...errors import MonitoringStatus
from ...tally import Pred, Where
from .rows import LagRow, LagState

if TYPE_CHECKING:
    from ...decide import Rule, Value

__all__ = ["lag_rule", "lag_status"]


def lag_rule(
    warn_lag: int | None = None,
    crit_lag: int | None = None,
    warn_time_lag_ms: int | None = None,
    crit_time_lag_ms: int | None = None,
    *,
    warn_loss_eta_ms: int | None = None,
    crit_loss_eta_ms: int | None = None,
    warn_stale_ms: int | None = None,
    crit_stale_ms: int | None = None,
) -> Rule:
    """A lag row's status against thresholds, as a decision list (:mod:`kafka_offsets_cli.decide`)
    of its ``state``, ``lag``, ``time_lag_ms``, ``loss_eta_ms`` and ``commit_stale_ms``: the one
    definition (output ``status``).

    ``ok`` rows compare lag and time lag (a value above a threshold alerts; a time lag that was
    not computed, or a threshold not set, is not compared) and the data-loss ETA (lower is worse: an
    ETA at or below its threshold alerts; no ETA is not compared) and the commit staleness (above a
    threshold alerts; an unknown one is not compared); ``marker`` rows are OK;
    ``below-start`` is CRITICAL (the group lost records); ``no-commit`` and ``ahead`` are
    WARNING; ``error`` is UNKNOWN.
    """
    from ...decide import Arm, Const, Rule  # here: only a run that rates rows (~2.5 ms of import)

    def states(*which: LagState) -> Where:
        return ((Pred("state", "in", tuple(s.value for s in which)),),)

    def over(lag: int | None, time_lag: int | None, eta: int | None, stale: int | None) -> Where:
        tests = (("lag", lag), ("time_lag_ms", time_lag), ("commit_stale_ms", stale))
        above = tuple((Pred(f, "gt", (limit,)),) for f, limit in tests if limit is not None)
        # ETA <= limit, as ETA < limit + 1 (integer milliseconds)
        return above + (((Pred("loss_eta_ms", "lt", (eta + 1,)),),) if eta is not None else ())

    def then(status: MonitoringStatus) -> tuple[Value, ...]:
        return (Const(status),)

    return Rule(
        ("status",),
        (
            Arm(states(LagState.ERROR), then(MonitoringStatus.UNKNOWN)),
            Arm(states(LagState.BELOW_START), then(MonitoringStatus.CRITICAL)),
            Arm(states(LagState.NO_COMMIT, LagState.AHEAD), then(MonitoringStatus.WARNING)),
            Arm(states(LagState.MARKER), then(MonitoringStatus.OK)),
            Arm(
                over(crit_lag, crit_time_lag_ms, crit_loss_eta_ms, crit_stale_ms),
                then(MonitoringStatus.CRITICAL),
            ),
            Arm(
                over(warn_lag, warn_time_lag_ms, warn_loss_eta_ms, warn_stale_ms),
                then(MonitoringStatus.WARNING),
            ),
        ),
        then(MonitoringStatus.OK),
    )


def _access(field: str) -> Callable[[Any], Any]:
    # the state as its value (the rule compares strings; the enum member hashes differently)
    return attrgetter("state._value_" if field == "state" else field)


def _access_pair(field: str) -> Callable[[Any], Any]:
    # a (row, loss_eta_ms, commit_stale_ms) triple: both are kept beside the rows (measures.lag.loss,
    # .stale), not in them
    if field in _BESIDE:
        return itemgetter(_BESIDE[field])
    get = _access(field)
    return lambda pair: get(pair[0])


_BESIDE = {"loss_eta_ms": 1, "commit_stale_ms": 2}


@lru_cache(maxsize=64)
def _compiled(
    warn_lag: int | None,
    crit_lag: int | None,
    warn_t: int | None,
    crit_t: int | None,
    warn_eta: int | None = None,
    crit_eta: int | None = None,
    warn_stale: int | None = None,
    crit_stale: int | None = None,
) -> Callable[[Any], tuple[Any, ...]]:
    from ...decide import compile_rule  # here: once per thresholds (lru_cache), only a run that rates rows

    if (warn_eta, crit_eta, warn_stale, crit_stale) == (None,) * 4:  # the plain rule on the row: no triple
        return compile_rule(lag_rule(warn_lag, crit_lag, warn_t, crit_t), _access)
    rule = lag_rule(
        warn_lag,
        crit_lag,
        warn_t,
        crit_t,
        warn_loss_eta_ms=warn_eta,
        crit_loss_eta_ms=crit_eta,
        warn_stale_ms=warn_stale,
        crit_stale_ms=crit_stale,
    )
    return compile_rule(rule, _access_pair)


def lag_status(
    row: LagRow,
    warn_lag: int | None = None,
    crit_lag: int | None = None,
    warn_time_lag_ms: int | None = None,
    crit_time_lag_ms: int | None = None,
    *,
    warn_loss_eta_ms: int | None = None,
    crit_loss_eta_ms: int | None = None,
    loss_eta_ms: int | None = None,
    warn_stale_ms: int | None = None,
    crit_stale_ms: int | None = None,
    stale_ms: int | None = None,
) -> MonitoringStatus:
    """Monitoring status of one row against thresholds (:func:`lag_rule`; a value above a
    threshold alerts, a data-loss ETA at or below one). ``loss_eta_ms``: the row's ETA
    (:mod:`.loss`; ``None``: none); ``stale_ms``: its commit staleness (:mod:`.stale`; ``None``: unknown).

    ``ok`` rows compare lag, time lag and ETA (one that was not computed is not
    compared); ``marker`` rows are OK; ``below-start`` is CRITICAL (the group lost
    records); ``no-commit`` and ``ahead`` are WARNING; ``error`` is UNKNOWN.
    """
    beside = (warn_loss_eta_ms, crit_loss_eta_ms, warn_stale_ms, crit_stale_ms)
    if beside == (None,) * 4:
        plain: MonitoringStatus = _compiled(warn_lag, crit_lag, warn_time_lag_ms, crit_time_lag_ms)(row)[0]
        return plain
    compiled = _compiled(warn_lag, crit_lag, warn_time_lag_ms, crit_time_lag_ms, *beside)
    status: MonitoringStatus = compiled((row, loss_eta_ms, stale_ms))[0]
    return status
