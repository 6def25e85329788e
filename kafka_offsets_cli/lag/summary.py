"""Summaries of lag rows, pure: totals per topic and group, row orders, monitoring status."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from operator import attrgetter
from typing import Any

from ..decide import Arm, Const, Rule, Value, compile_rule
from ..errors import MonitoringStatus
from ..tally import Pred, Where, tally
from .rows import TOTAL_STATS, LagRow, LagState


@dataclass(frozen=True, kw_only=True)
class LagTotal:
    """Sum of lag over a group's partitions of one topic (``topic`` ``None``: the whole group)."""

    group: str
    topic: str | None
    partitions: int
    lag: int
    lagging: int
    max_time_lag_ms: int | None
    problems: int  # partitions in no-commit, below-start, ahead or error
    remote_reads: int = 0  # partitions read below earliest-local, from remote storage (lag/remote.py)


def lag_columns(rows: Sequence[LagRow]) -> dict[str, list[Any]]:
    """The fields :data:`~.rows.TOTAL_STATS` reads, as columns (``state`` by value)."""
    return {
        "state": [r.state.value for r in rows],
        "lag": [r.lag for r in rows],
        "time_lag_ms": [r.time_lag_ms for r in rows],
    }


def totals(rows: Sequence[LagRow]) -> list[LagTotal]:
    """Per (group, topic) then per group totals, sorted by group then topic (group total last)."""
    buckets: dict[tuple[str, str | None], list[LagRow]] = {}
    for r in rows:
        buckets.setdefault((r.group, r.topic), []).append(r)
        buckets.setdefault((r.group, None), []).append(r)
    out = []
    for (group, topic), rs in sorted(
        buckets.items(), key=lambda kv: (kv[0][0], kv[0][1] is None, kv[0][1] or "")
    ):
        t = tally(TOTAL_STATS, lag_columns(rs))
        out.append(
            LagTotal(
                group=group,
                topic=topic,
                partitions=t["partitions"],
                lag=t["lag"] or 0,
                lagging=t["lagging"],
                max_time_lag_ms=t["max_time_lag_ms"],
                problems=t["problems"],
                remote_reads=sum(1 for r in rs if r.remote_read),
            )
        )
    return out


class SortKey(str, Enum):
    """Row orders of ``lag --sort``."""

    name = "name"
    lag = "lag"
    time_lag = "time-lag"


def sort_rows(rows: Iterable[LagRow], key: SortKey = SortKey.name) -> list[LagRow]:
    """Rows by group/topic/partition, or by lag / time lag descending (unknown last)."""
    base = sorted(rows, key=lambda r: (r.group, r.topic, r.partition))
    if key is SortKey.lag:
        return sorted(base, key=lambda r: (r.lag is None, -(r.lag or 0)))
    if key is SortKey.time_lag:
        return sorted(base, key=lambda r: (r.time_lag_ms is None, -(r.time_lag_ms or 0)))
    return base


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


#: A group's rates differ by less than this share of the larger one: ``steady``.
TREND_TOLERANCE = 0.1


def trend(in_per_s: float | None, consumed_per_s: float | None) -> str | None:
    """Where a group's lag is heading under ``--watch``, from its summed rates (``None``: not known yet).

    ``catching-up`` when it consumes faster than records arrive, ``falling-behind`` when slower,
    ``steady`` when the two are within :data:`TREND_TOLERANCE` of each other (or both 0).
    """
    if in_per_s is None or consumed_per_s is None:
        return None
    if abs(consumed_per_s - in_per_s) <= TREND_TOLERANCE * max(in_per_s, consumed_per_s):
        return "steady"
    return "catching-up" if consumed_per_s > in_per_s else "falling-behind"
