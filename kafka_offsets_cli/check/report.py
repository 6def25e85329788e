"""Frozen result models of ``kafka-offsets check`` (pure; shared by the Spark pipeline and renderers).

One :class:`PartitionRecord` per evaluated (check, cluster, [group,] partition);
roll-ups per liveness topic (:class:`TopicResult`) and per lag group
(:class:`GroupResult`); one :class:`CheckResult` per check; the whole run is a
:class:`CheckReport` whose ``status`` is the exit code (0 OK, 1 WARNING,
2 CRITICAL, 3 UNKNOWN).

JSON document (``--output json``)::

    {"status": "OK|WARNING|CRITICAL|UNKNOWN",
     "checks": [{"name", "type", "status", "clusters", "partitions", "states",
                 "summary", "problems", "topics": [...], "groups": [{"cluster", "group",
                 "group_type", "status", ...}]}],
     "partitions": [{"check", "cluster", "topic", "partition", "group", "group_type",
                     "committed", "end", "lag", "time_lag_ms", "loss_eta_ms", "timestamp", "age_ms",
                     "state", "status", "log_start", "offset", "history", "error"}]}

Partition records hold ``null`` where a field does not apply (``group``, ``group_type``,
``committed``, ``lag``, ``time_lag_ms``, ``loss_eta_ms`` on liveness records; ``timestamp``,
``age_ms`` on lag records; ``loss_eta_ms`` on the records of a lag check that does not compute
it); ``state`` is a liveness state (``ok``, ``warning``, ``critical``, ``empty``, ``pending``,
``future``, ``error``) or a lag state (``ok``, ``no-commit``, ``below-start``, ``ahead``,
``marker``, ``error``); ``history`` is
the Burrow status with ``--history`` (else ``null``). A topic or group that could
not be read is a record with ``partition`` ``null`` and state ``error``.

The partition records themselves, and how a report from Spark keeps them as one Arrow table
read in slices, are :mod:`.records`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import MonitoringStatus
from ..measures.topic_rollup import TopicRollup
from .records import PartitionRecord, record_slices

__all__ = [
    "CheckReport",
    "CheckResult",
    "GroupResult",
    "TopicResult",
]


@dataclass(frozen=True, kw_only=True)
class TopicResult(TopicRollup):
    """A liveness check's roll-up of one topic on one cluster: ``liveness``'s own roll-up
    (:class:`~..measures.topic_rollup.TopicRollup`) with the check's and the cluster's names."""

    check: str
    cluster: str

    def to_record(self) -> dict[str, Any]:
        """JSON record of the topic roll-up."""
        return {
            "cluster": self.cluster,
            "topic": self.topic,
            "status": self.status.name,
            "partitions": self.partitions,
            "alive": self.alive,
            "age_ms": self.age_ms,
            "timestamp_type": self.timestamp_type,
            "error": self.error,
        }


@dataclass(frozen=True, kw_only=True)
class GroupResult:
    """A lag check's roll-up of one group on one cluster."""

    check: str
    cluster: str
    group: str
    status: MonitoringStatus
    partitions: int
    lag: int
    lagging: int
    max_lag: int | None
    max_time_lag_ms: int | None
    problems: int  # partitions in no-commit, below-start, ahead or error, and named topics not readable
    history: str | None = None
    produce_rate: float | None = None
    consume_rate: float | None = None
    eta_ms: int | None = None
    trend: tuple[int | None, ...] = ()
    error: str | None = None
    #: the group's type as the brokers list it (classic, consumer, share, streams; ``lag``'s ``group_type``)
    group_type: str | None = None

    def to_record(self) -> dict[str, Any]:
        """JSON record of the group roll-up (rates in records per second)."""
        return {
            "cluster": self.cluster,
            "group": self.group,
            "group_type": self.group_type,
            "status": self.status.name,
            "partitions": self.partitions,
            "lag": self.lag,
            "lagging": self.lagging,
            "max_lag": self.max_lag,
            "max_time_lag_ms": self.max_time_lag_ms,
            "problems": self.problems,
            "history": self.history,
            "produce_rate": self.produce_rate,
            "consume_rate": self.consume_rate,
            "eta_ms": self.eta_ms,
            "trend": list(self.trend),
            "error": self.error,
        }


@dataclass(frozen=True, kw_only=True)
class CheckResult:
    """One check's verdict: the worst of its topics or groups, UNKNOWN for any problem."""

    name: str
    type: str
    status: MonitoringStatus
    clusters: tuple[str, ...]
    partitions: int
    states: Mapping[str, int]
    summary: str
    problems: tuple[str, ...] = ()
    topics: tuple[TopicResult, ...] = ()
    groups: tuple[GroupResult, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """JSON record of the check."""
        rec: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "status": self.status.name,
            "clusters": list(self.clusters),
            "partitions": self.partitions,
            "states": dict(sorted(self.states.items())),
            "summary": self.summary,
            "problems": list(self.problems),
        }
        if self.type == "liveness":
            rec["topics"] = [t.to_record() for t in self.topics]
        else:
            rec["groups"] = [g.to_record() for g in self.groups]
        return rec


@dataclass(frozen=True, kw_only=True)
class CheckReport:
    """A whole ``check`` run."""

    status: MonitoringStatus
    checks: tuple[CheckResult, ...]
    #: a tuple, or from Spark the records kept as one Arrow table (:class:`PartitionRecords`)
    partitions: Sequence[PartitionRecord]
    now_ms: int
    #: all evaluated partition records (``partitions`` may hold only the worst, see ``complete``)
    total_partitions: int = 0
    complete: bool = True
    timings: Mapping[str, float] = field(default_factory=dict)
    history_runs: int | None = None
    #: all clusters of the spec, and those that could not be reached or read
    clusters: tuple[str, ...] = ()
    down: tuple[str, ...] = ()
    #: outputs that failed after the verdict was made (``--history``, ``--write``), one line each:
    #: the verdict is still shown, then the run exits UNKNOWN
    unwritten: tuple[str, ...] = ()

    def to_document(self) -> dict[str, Any]:
        """The ``--output json`` document."""
        return {
            "status": self.status.name,
            "checks": [c.to_record() for c in self.checks],
            "partitions": [r for rs in record_slices(self.partitions) for r in rs],
        }

    def with_group_types(self, types: Mapping[tuple[str, str], str]) -> CheckReport:
        """The report with each group roll-up's ``group_type`` from ``types`` ((cluster, group) -> the
        type planning listed; a group it did not list keeps ``None``)."""
        checks = tuple(
            replace(c, groups=tuple(replace(g, group_type=types.get((g.cluster, g.group))) for g in c.groups))
            for c in self.checks
        )
        return replace(self, checks=checks)
