"""The severity order of monitoring statuses, and the one roll-up by it: the worst status wins.

Statuses (:class:`~kafka_offsets_cli.errors.MonitoringStatus`, whose values are the exit codes)
rank as monitoring-plugins' ``max_state_alt`` ranks them: CRITICAL > WARNING > UNKNOWN > OK.
Every feature rolls partitions, topics, groups and runs up with :func:`worst` (``lag``,
``liveness``, ``tiering``, ``check``), and the renderers and Spark order by :func:`severity`: the
order is shared vocabulary, so it sits here, below the features, and no feature owns it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import MonitoringStatus

__all__ = ["severity", "worst"]

#: Severity order for roll-ups (monitoring-plugins' max_state_alt): CRITICAL > WARNING > UNKNOWN > OK.
_SEVERITY = {
    MonitoringStatus.OK: 0,
    MonitoringStatus.UNKNOWN: 1,
    MonitoringStatus.WARNING: 2,
    MonitoringStatus.CRITICAL: 3,
}


def severity(status: MonitoringStatus) -> int:
    """Rank for roll-ups: OK < UNKNOWN < WARNING < CRITICAL."""
    return _SEVERITY[status]


def worst(statuses: Iterable[MonitoringStatus]) -> MonitoringStatus:
    """The most severe status (CRITICAL > WARNING > UNKNOWN > OK); OK for none."""
    return max(statuses, key=severity, default=MonitoringStatus.OK)
