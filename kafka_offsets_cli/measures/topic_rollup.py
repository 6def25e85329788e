"""A liveness topic's roll-up, one record for every front end (pure).

``kafka-offsets liveness`` builds it from its rows (:mod:`kafka_offsets_cli.liveness.report`),
``check`` from the tally of its records, locally or in Spark
(:mod:`kafka_offsets_cli.check.rollups`, which adds the check's and the cluster's names). A topic
that could not be read is the same answer on both: UNKNOWN with its error (:meth:`TopicRollup.unread`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import MonitoringStatus

__all__ = ["TopicRollup"]

_R = TypeVar("_R", bound="TopicRollup")  # typing.Self is 3.11+; the package supports 3.10


@dataclass(frozen=True, kw_only=True)
class TopicRollup:
    """One topic's roll-up: its status, partition counts, the deciding age and timestamp type."""

    topic: str
    status: MonitoringStatus
    partitions: int
    #: partitions whose own status is OK
    alive: int
    #: the age that decides the status (the stalest, or the min_alive-th freshest)
    age_ms: int | None
    timestamp_type: str | None = None
    #: the topic could not be listed at all (then the status is UNKNOWN)
    error: str | None = None

    @classmethod
    def unread(
        cls: type[_R], topic: str, error: str | None, *, timestamp_type: str | None = None, **more: Any
    ) -> _R:
        """The roll-up of a topic that could not be read: UNKNOWN, no partitions, its ``error``
        (``more``: the fields a subclass adds)."""
        return cls(
            topic=topic,
            status=MonitoringStatus.UNKNOWN,
            partitions=0,
            alive=0,
            age_ms=None,
            timestamp_type=timestamp_type,
            error=error,
            **more,
        )
