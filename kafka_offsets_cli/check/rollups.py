"""A check's roll-ups: per liveness topic and per lag group, by the shared rules (pure).

A topic is decided as ``kafka-offsets liveness`` decides it
(:func:`~kafka_offsets_cli.measures.liveness.status_at`,
:func:`~kafka_offsets_cli.measures.liveness_age.age_of`, ``min_alive`` included); a group is totalled
as ``kafka-offsets lag`` totals it (:data:`kafka_offsets_cli.measures.lag.rows.TOTAL_STATS`), with its worst
record status and, with history, Burrow's verdict
(:func:`kafka_offsets_cli.check.history.group_history`).

Each rule reads statistics of the records declared once (:func:`rollup_stats`, in the
vocabulary of :mod:`kafka_offsets_cli.tally`): Spark computes them in one ``groupBy().agg``
in the JVM (:mod:`kafka_offsets_cli.spark.tally`), :func:`rollup_columns` in Python, and
:func:`rollup_result` decides from them on either side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import MonitoringStatus
from ..measures.lag.rows import TOTAL_STATS, LagState
from ..measures.liveness import LiveState, status_at
from ..measures.liveness_age import age_of, age_stats
from ..severity import worst
from ..tally import Pred, Stat, count_each, tally, within
from .history import GROUP_STATS, GroupHistory, PartitionHistory, evaluate_group, group_history
from .records import PartitionRecord
from .report import GroupResult, TopicResult
from .spec import CheckDefinition, LagCheck, LivenessCheck

__all__ = [
    "group_rollup",
    "rollup_columns",
    "rollup_result",
    "rollup_stats",
    "state_counts",
    "topic_rollup",
]

#: every state a record can be in (liveness and lag): counted per roll-up for the check's totals
STATES = tuple(dict.fromkeys([*(s.value for s in LiveState), *(s.value for s in LagState)]))

_PART = Pred("partition", "present")  # a partition's record (not "the topic/group could not be read")
_NO_PART = ((Pred("partition", "absent"),),)


_STATUSES = [s.name for s in MonitoringStatus]


def rollup_stats(checks: Iterable[CheckDefinition], *, history: bool = False) -> tuple[Stat, ...]:
    """What the roll-ups of ``checks`` read of each topic's or group's records (one tally for both
    kinds: a liveness topic's records leave the lag statistics empty, and the other way round)."""
    min_alive = max((c.min_alive or 0 for c in checks if isinstance(c, LivenessCheck)), default=0)
    stats = [
        Stat("records", "count"),
        *count_each("state", STATES, "state:"),
        Stat("errors", "count", where=_NO_PART),
        Stat("error", "min", "error", _NO_PART),
        *count_each("status", _STATUSES, "all:"),
        *count_each("status", _STATUSES, "part:", _PART),
        *within(age_stats(min_alive), _PART),
        *within(TOTAL_STATS, _PART),
        Stat("max_lag", "max", "lag", ((_PART,),)),
    ]
    if history:
        stats += GROUP_STATS
    return tuple(stats)


def state_counts(t: Mapping[str, Any]) -> dict[str, int]:
    """The records' counts by state, from a roll-up's tally (the states with records, sorted)."""
    counted = {v: t[f"state:{v}"] for v in sorted(STATES) if t[f"state:{v}"]}
    if sum(counted.values()) != t["records"]:  # a state the rules do not know: never drop records
        raise ValueError(f"{t['records'] - sum(counted.values())} records in a state outside {STATES}")
    return counted


def _statuses(t: Mapping[str, Any], prefix: str) -> dict[MonitoringStatus, int]:
    return {s: t[f"{prefix}{s.name}"] for s in MonitoringStatus}


def rollup_result(
    check: CheckDefinition,
    cluster: str,
    name: str,
    t: Mapping[str, Any],
    *,
    timestamp_type: str | None = None,
    history: GroupHistory | None = None,
) -> TopicResult | GroupResult:
    """A topic's (liveness) or group's (lag) result from the tally of its records (:func:`rollup_stats`).

    A record without a partition (the topic, or a group's named topic, could not be read) makes
    a topic UNKNOWN with its error; a group with only such records takes their status and error,
    and each counts as a problem of a group that has partitions too.
    """
    if isinstance(check, LivenessCheck):
        if t["errors"]:
            return TopicResult.unread(
                name, t["error"], timestamp_type=timestamp_type, check=check.name, cluster=cluster
            )
        part = _statuses(t, "part:")
        return TopicResult(
            check=check.name,
            cluster=cluster,
            topic=name,
            status=status_at(part, check.min_alive),
            partitions=t["partitions"],
            alive=part[MonitoringStatus.OK],
            age_ms=age_of(t, check.min_alive),
            timestamp_type=timestamp_type,
        )
    every = _statuses(t, "all:")
    status = worst(s for s, n in every.items() if n)
    if t["errors"] and not t["partitions"]:
        return GroupResult(
            check=check.name,
            cluster=cluster,
            group=name,
            status=status,
            partitions=0,
            lag=0,
            lagging=0,
            max_lag=None,
            max_time_lag_ms=None,
            problems=0,
            error=t["error"],
        )
    extra: dict[str, Any] = {}
    if history is not None:
        status = worst([status, history.status.monitoring])
        extra = {
            "history": history.status.value,
            "produce_rate": history.produce_rate,
            "consume_rate": history.consume_rate,
            "eta_ms": history.eta_ms,
            "trend": history.trend,
        }
    return GroupResult(
        check=check.name,
        cluster=cluster,
        group=name,
        status=status,
        partitions=t["partitions"],
        lag=t["lag"] or 0,
        lagging=t["lagging"],
        max_lag=t["max_lag"],
        max_time_lag_ms=t["max_time_lag_ms"],
        problems=t["problems"] + t["errors"],  # a named topic that could not be read counts too
        **extra,
    )


def rollup_columns(
    check: CheckDefinition,
    cluster: str,
    name: str,
    cols: Mapping[str, Sequence[Any]],
    *,
    timestamp_type: str | None = None,
    history: bool = False,
    trend: Sequence[int | None] = (),
) -> TopicResult | GroupResult:
    """:func:`rollup_result` of one topic's or group's records given as columns (the record columns
    of :mod:`kafka_offsets_cli.spark.frames`, ``status`` by name; with ``history`` the ``h_*``
    verdict columns too), tallied in Python."""
    t = tally(rollup_stats([check], history=history), cols)
    hist = group_history(t, trend) if history else None
    return rollup_result(check, cluster, name, t, timestamp_type=timestamp_type, history=hist)


#: the record fields the roll-ups read (``status`` by name, as in the Arrow columns)
_FIELDS = ("partition", "state", "error", "age_ms", "lag", "time_lag_ms")


def _columns(records: Iterable[PartitionRecord]) -> dict[str, list[Any]]:
    """``records`` laid out as columns (what :func:`rollup_columns` reads)."""
    recs = list(records)
    cols: dict[str, list[Any]] = {f: [getattr(r, f) for r in recs] for f in _FIELDS}
    cols["status"] = [r.status.name for r in recs]
    return cols


def topic_rollup(
    check: LivenessCheck,
    cluster: str,
    topic: str,
    records: Iterable[PartitionRecord],
    timestamp_type: str | None,
) -> TopicResult:
    """A liveness topic's status as ``kafka-offsets liveness`` rolls it up (``min_alive`` included)."""
    result = rollup_columns(check, cluster, topic, _columns(records), timestamp_type=timestamp_type)
    assert isinstance(result, TopicResult)
    return result


def group_rollup(
    check: LagCheck,
    cluster: str,
    group: str,
    records: Iterable[PartitionRecord],
    history: Sequence[PartitionHistory] | None = None,
    trend: Sequence[int | None] = (),
) -> GroupResult:
    """A lag group's totals (``lag.totals``), worst record status and, with the partitions'
    verdicts (``history``), Burrow's verdict on the group."""
    t = tally(rollup_stats([check]), _columns(records))
    hist = None if history is None else evaluate_group(history, trend)
    result = rollup_result(check, cluster, group, t, history=hist)
    assert isinstance(result, GroupResult)
    return result
