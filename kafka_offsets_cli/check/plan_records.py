"""The records planning makes itself, without a task: what could not be read, groups without rows (pure)."""

from __future__ import annotations

from ..errors import MonitoringStatus
from ..measures.lag.rows import GroupProblem
from ..plan.resolve import UNKNOWN_TOPIC_OR_PARTITION
from .records import PartitionRecord

__all__ = ["error_record", "problem_record"]


def error_record(
    check: str, kind: str, cluster: str, topic: str, partition: int | None, group: str | None, error: str
) -> PartitionRecord:
    """The ``error`` record (UNKNOWN) of what planning could not read: a topic, a cluster, a checkpoint."""
    return PartitionRecord(
        check=check,
        kind=kind,
        cluster=cluster,
        topic=topic,
        partition=partition,
        group=group,
        state="error",
        status=MonitoringStatus.UNKNOWN,
        error=error or UNKNOWN_TOPIC_OR_PARTITION,
    )


def problem_record(check: str, cluster: str, problem: GroupProblem) -> PartitionRecord:
    """The record of a group without rows, as ``lag`` reports it (:class:`GroupProblem`): the same
    state, error and status (a group that does not exist: ``error``, ``GROUP_ID_NOT_FOUND``, UNKNOWN;
    a named group with nothing committed in the selection: ``no-commit``, WARNING)."""
    rec = problem.to_record()
    return PartitionRecord(
        check=check,
        kind="lag",
        cluster=cluster,
        topic="",
        partition=None,
        group=problem.group,
        group_type=problem.group_type,
        state=rec["state"],
        status=problem.status,
        error=rec["error"],
    )
