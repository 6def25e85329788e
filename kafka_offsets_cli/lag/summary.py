"""Summaries of lag rows, pure: totals per topic and group, row orders, the ``--watch`` trend.

A row's monitoring status is :mod:`kafka_offsets_cli.measures.lag.rule` (shared with ``check``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter
from typing import Any

from ..measures.lag.rows import TOTAL_STATS, LagRow
from ..tally import tally


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
    remote_reads: int = 0  # partitions read below earliest-local, from remote storage (measures/lag/remote)


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


#: the key of a lag trend (``--watch``'s LAG-TREND): (group, topic, partition) for a row,
#: (group, topic, None) for a topic's total and (group, None, None) for the group's
TrendKey = tuple[str, str | None, int | None]


def lag_levels(rows: Sequence[LagRow]) -> dict[TrendKey, int | None]:
    """Each row's lag and each total's (:func:`totals`), by :data:`TrendKey`: what LAG-TREND follows."""
    out: dict[TrendKey, int | None] = {(r.group, r.topic, r.partition): r.lag for r in rows}
    for t in totals(rows):
        out[t.group, t.topic, None] = t.lag
    return out


#: a row's (group, topic, partition), read in C: the key of 50,000 rows a run
_BY_NAME = attrgetter("group", "topic", "partition")


class SortKey(str, Enum):
    """Row orders of ``lag --sort``."""

    name = "name"
    lag = "lag"
    time_lag = "time-lag"
    loss_eta = "loss-eta"
    staleness = "staleness"


def sort_rows(
    rows: Iterable[LagRow],
    key: SortKey = SortKey.name,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
) -> list[LagRow]:
    """Rows by group/topic/partition, by lag / time lag descending, or by data-loss ETA ascending
    (``loss_etas``: each row's ETA by (group, topic, partition); the soonest first); rows without
    the value last, in name order; or by commit staleness descending (``stale_ms``, the stalest first)."""
    base = sorted(rows, key=_BY_NAME)
    if key is SortKey.lag:
        return sorted(base, key=lambda r: (r.lag is None, -(r.lag or 0)))
    if key is SortKey.time_lag:
        return sorted(base, key=lambda r: (r.time_lag_ms is None, -(r.time_lag_ms or 0)))
    if key is SortKey.loss_eta:
        etas = loss_etas or {}
        return sorted(base, key=lambda r: ((e := etas.get(_BY_NAME(r))) is None, e or 0))
    if key is SortKey.staleness:
        stale = stale_ms or {}
        return sorted(base, key=lambda r: ((s := stale.get(_BY_NAME(r))) is None, -(s or 0)))
    return base


def sort_measures(key: SortKey) -> tuple[bool, bool, bool]:
    """What ``--sort key`` needs computed, as (time lag, data-loss ETA, commit staleness): a sort key
    turns on the measure it orders by (``time-lag`` the time lag; ``loss-eta`` the ETA, which the time
    lag's search gives; ``staleness`` the staleness), as a threshold or ``--min-time-lag`` does; the
    one rule of every key."""
    return (key is SortKey.time_lag, key is SortKey.loss_eta, key is SortKey.staleness)


def soonest_loss_etas(loss_etas: Mapping[tuple[str, str, int], int]) -> dict[str, int]:
    """Each group's soonest data-loss ETA (ms) among its rows' (``loss_etas`` by (group, topic,
    partition)); groups without one left out: the summary's ``min_loss_eta_ms``, the per-group series
    and perfdata."""
    out: dict[str, int] = {}
    for (group, _, _), eta in loss_etas.items():
        out[group] = min(out.get(group, eta), eta)
    return out


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
