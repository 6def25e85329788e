"""A check's roll-ups: per liveness topic and per lag group, by the shared rules (pure).

:func:`topic_rollup` decides a topic as ``kafka-offsets liveness`` does
(:func:`~kafka_offsets_cli.liveness.rules.topic_status`,
:func:`~kafka_offsets_cli.liveness.report.deciding_age`, ``min_alive`` included);
:func:`group_rollup` totals a group as ``kafka-offsets lag`` does
(:func:`kafka_offsets_cli.lag.summary.totals`), with its worst partition status and, with
history, Burrow's verdict (:func:`kafka_offsets_cli.check.history.evaluate_group`).

One path: :func:`rollup_columns` takes the records of one topic or group as the columns of the
roll-up task's Arrow table (:mod:`kafka_offsets_cli.spark.stages`) and builds the rows the rules
read straight from them, one object per record instead of three (a third of the task's time at
50,000 partitions); :func:`topic_rollup` and :func:`group_rollup` lay :class:`PartitionRecord`
objects out as those columns first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import MonitoringStatus
from ..lag.rows import LagRow, LagState
from ..lag.summary import totals
from ..liveness.report import deciding_age
from ..liveness.rules import LiveRow, LiveState, row_status, topic_status, worst
from .history import PartitionHistory, evaluate_group
from .report import GroupResult, PartitionRecord, TopicResult
from .spec import CheckDefinition, LagCheck, LivenessCheck

__all__ = ["group_rollup", "rollup_columns", "topic_rollup"]

_LIVE_STATES = {s.value: s for s in LiveState}
_LAG_STATES = {s.value: s for s in LagState}


#: the record fields the roll-ups read (``status`` by name, as in the Arrow columns)
_FIELDS = (
    "group", "topic", "partition", "state", "error", "offset", "timestamp", "age_ms",
    "committed", "log_start", "end", "lag", "time_lag_ms",
)  # fmt: skip


def _columns(records: Iterable[PartitionRecord]) -> dict[str, list[Any]]:
    """``records`` laid out as the roll-up task's columns (what :func:`rollup_columns` reads)."""
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


def _topic(
    check: LivenessCheck,
    cluster: str,
    topic: str,
    rows: Sequence[LiveRow],
    errors: Sequence[str | None],
    timestamp_type: str | None,
) -> TopicResult:
    """The topic's result from its partitions' rows; a record without a partition (the topic could
    not be read) makes it UNKNOWN with that record's error."""
    if errors:
        return TopicResult(
            check=check.name,
            cluster=cluster,
            topic=topic,
            status=MonitoringStatus.UNKNOWN,
            partitions=0,
            alive=0,
            age_ms=None,
            timestamp_type=timestamp_type,
            error=errors[0],
        )
    return TopicResult(
        check=check.name,
        cluster=cluster,
        topic=topic,
        status=topic_status(rows, check.min_alive),
        partitions=len(rows),
        alive=sum(1 for r in rows if row_status(r) is MonitoringStatus.OK),
        age_ms=deciding_age(rows, check.min_alive),
        timestamp_type=timestamp_type,
    )


def group_rollup(
    check: LagCheck,
    cluster: str,
    group: str,
    records: Iterable[PartitionRecord],
    history: Sequence[PartitionHistory] | None = None,
    trend: Sequence[int | None] = (),
) -> GroupResult:
    """A lag group's totals (``lag.totals``), worst partition status and, with history, Burrow's verdict."""
    result = rollup_columns(check, cluster, group, _columns(records), history=history, trend=trend)
    assert isinstance(result, GroupResult)
    return result


def _group(
    check: LagCheck,
    cluster: str,
    group: str,
    rows: Sequence[LagRow],
    statuses: Sequence[MonitoringStatus],
    errors: Sequence[tuple[MonitoringStatus, str | None]],
    history: Sequence[PartitionHistory] | None,
    trend: Sequence[int | None],
) -> GroupResult:
    """The group's result from its partitions' rows, every record's status and the records
    without a partition (a group or named topic that could not be read)."""
    if errors and not rows:
        status, error = errors[0]
        return GroupResult(
            check=check.name,
            cluster=cluster,
            group=group,
            status=status,
            partitions=0,
            lag=0,
            lagging=0,
            max_lag=None,
            max_time_lag_ms=None,
            problems=0,
            error=error,
        )
    tot = next(t for t in totals(rows) if t.topic is None)
    lags = [r.lag for r in rows if r.lag is not None]
    status = worst(statuses)
    hist_status: str | None = None
    produce = consume = None
    eta = None
    if history is not None:
        g = evaluate_group(history, trend)
        status = worst([status, g.status.monitoring])
        hist_status = g.status.value
        produce, consume, eta = g.produce_rate, g.consume_rate, g.eta_ms
    return GroupResult(
        check=check.name,
        cluster=cluster,
        group=group,
        status=status,
        partitions=tot.partitions,
        lag=tot.lag,
        lagging=tot.lagging,
        max_lag=max(lags) if lags else None,
        max_time_lag_ms=tot.max_time_lag_ms,
        problems=tot.problems + len(errors),  # a named topic that could not be read counts too
        history=hist_status,
        produce_rate=produce,
        consume_rate=consume,
        eta_ms=eta,
        trend=tuple(trend),
    )


def rollup_order(cols: Mapping[str, Sequence[Any]]) -> list[int]:
    """The records' indexes in report order (group, topic, partition; no partition first)."""
    group, topic, part = cols["group"], cols["topic"], cols["partition"]
    return sorted(
        range(len(topic)), key=lambda i: (group[i] or "", topic[i], -1 if part[i] is None else part[i])
    )


def rollup_columns(
    check: CheckDefinition,
    cluster: str,
    name: str,
    cols: Mapping[str, Sequence[Any]],
    *,
    timestamp_type: str | None = None,
    history: Sequence[PartitionHistory] | None = None,
    trend: Sequence[int | None] = (),
) -> TopicResult | GroupResult:
    """:func:`topic_rollup` or :func:`group_rollup` of one topic's or group's records given as
    columns (the record columns of :mod:`kafka_offsets_cli.spark.frames`, ``status`` by name)."""
    order = rollup_order(cols)
    part, state, error = cols["partition"], cols["state"], cols["error"]
    kept = [i for i in order if part[i] is not None]
    if isinstance(check, LivenessCheck):
        topic, offset, ts, age = cols["topic"], cols["offset"], cols["timestamp"], cols["age_ms"]
        rows = [
            LiveRow(
                topic=topic[i],
                partition=part[i],
                offset=offset[i],
                timestamp=ts[i],
                age_ms=age[i],
                state=_LIVE_STATES[state[i]],
                error=error[i],
            )
            for i in kept
        ]
        errors = [error[i] for i in order if part[i] is None]
        return _topic(check, cluster, name, rows, errors, timestamp_type)
    assert isinstance(check, LagCheck)
    group, topic, committed, log_start = cols["group"], cols["topic"], cols["committed"], cols["log_start"]
    end, lag, time_lag = cols["end"], cols["lag"], cols["time_lag_ms"]
    lag_rows = [
        LagRow(
            group=group[i],
            topic=topic[i],
            partition=part[i],
            committed=committed[i],
            log_start=log_start[i],
            end=end[i],
            lag=lag[i],
            time_lag_ms=time_lag[i],
            state=_LAG_STATES[state[i]],
            error=error[i],
        )
        for i in kept
    ]
    statuses = [MonitoringStatus[s] for s in cols["status"]]
    lag_errors = [(statuses[i], error[i]) for i in order if part[i] is None]
    return _group(check, cluster, name, lag_rows, statuses, lag_errors, history, trend)
