"""A liveness run's report: each topic's roll-up and the run's status, built from the answers (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import MonitoringStatus
from ..measures.liveness import (
    COLUMNS,
    DEFAULT_EMPTY_STATUS,
    DEFAULT_FUTURE_STATUS,
    DEFAULT_FUTURE_TOLERANCE_MS,
    LiveRow,
    LiveState,
    liveness_row,
    row_status,
    topic_status,
)
from ..measures.liveness_age import deciding_age
from ..measures.topic_rollup import TopicRollup
from ..models.offsets import OffsetResult
from ..severity import worst


@dataclass(frozen=True, kw_only=True)
class LivenessReport:
    """Everything one liveness run found, with the thresholds it used."""

    rows: tuple[LiveRow, ...]
    topics: tuple[TopicRollup, ...]
    status: MonitoringStatus
    now_ms: int
    warn_ms: int
    crit_ms: int
    min_alive: int | None = None
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS

    def status_of(self, row: LiveRow) -> MonitoringStatus:
        """A row's own status under this report's mapping of ``empty`` and ``future``."""
        return row_status(row, empty=self.empty, future=self.future)

    def count(self, state: LiveState) -> int:
        """Number of partitions in ``state``."""
        return sum(1 for r in self.rows if r.state is state)

    def needs_attention(self, row: LiveRow) -> bool:
        """Whether the row's own status is not OK (what ``--problems`` shows)."""
        return self.status_of(row) is not MonitoringStatus.OK

    def shown(self, *, problems: bool = False, states: frozenset[str] | None = None) -> LivenessReport:
        """This report with only the rows to show: ``problems`` (status not OK) and/or in ``states``.

        A topic that could not be listed counts as state ``error`` (UNKNOWN); topics
        otherwise stay (their timestamp types and roll-ups). Statuses are unchanged:
        the filter is for display, the verdict is the whole run's.
        """
        if not problems and states is None:
            return self

        def keep(state: LiveState, status: MonitoringStatus) -> bool:
            if problems and status is MonitoringStatus.OK:
                return False
            return states is None or state.value in states

        rows = tuple(r for r in self.rows if keep(r.state, self.status_of(r)))
        topics = tuple(
            t for t in self.topics if t.error is None or keep(LiveState.ERROR, MonitoringStatus.UNKNOWN)
        )
        return replace(self, rows=rows, topics=topics)

    def timestamp_type(self, topic: str) -> str | None:
        """The topic's ``message.timestamp.type`` when known."""
        for t in self.topics:
            if t.topic == topic:
                return t.timestamp_type
        return None

    def records(self) -> list[dict[str, Any]]:
        """The records of ``liveness -o json``: one per partition and one per topic that could not be
        listed (state ``error``, its partition null), sorted by topic and partition."""
        out: list[dict[str, Any]] = []
        for t in self.topics:
            if t.error is not None:
                rec = dict.fromkeys(COLUMNS)
                rec.update(topic=t.topic, state=LiveState.ERROR.value, timestamp_type=t.timestamp_type)
                out.append({**rec, "error": t.error})
        out += [r.to_record(self.timestamp_type(r.topic)) for r in self.rows]
        return sorted(out, key=lambda r: (r["topic"], -1 if r["partition"] is None else r["partition"]))


def build_report(
    results: Iterable[OffsetResult],
    now_ms: int,
    warn_ms: int,
    crit_ms: int,
    *,
    min_alive: int | None = None,
    future_tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS,
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS,
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS,
    timestamp_types: Mapping[str, str] | None = None,
    missing_topics: Iterable[tuple[str, str]] = (),
) -> LivenessReport:
    """Classify every max-timestamp result, roll up per topic and overall.

    ``missing_topics`` are selected topics that could not be listed (``(topic,
    error)``): each is UNKNOWN. The overall status is the worst topic status.
    """
    types = timestamp_types or {}
    rows = tuple(
        sorted(
            (liveness_row(r, now_ms, warn_ms, crit_ms, future_tolerance_ms) for r in results),
            key=lambda r: (r.topic, r.partition),
        )
    )
    by_topic: dict[str, list[LiveRow]] = {}
    for r in rows:
        by_topic.setdefault(r.topic, []).append(r)
    topics = [
        TopicRollup(
            topic=name,
            status=topic_status(rs, min_alive, empty=empty, future=future),
            partitions=len(rs),
            alive=sum(1 for r in rs if row_status(r, empty=empty, future=future) is MonitoringStatus.OK),
            age_ms=deciding_age(rs, min_alive),
            timestamp_type=types.get(name),
        )
        for name, rs in by_topic.items()
    ]
    topics += [TopicRollup.unread(name, err, timestamp_type=types.get(name)) for name, err in missing_topics]
    topics.sort(key=lambda t: t.topic)
    return LivenessReport(
        rows=rows,
        topics=tuple(topics),
        status=worst(t.status for t in topics),
        now_ms=now_ms,
        warn_ms=warn_ms,
        crit_ms=crit_ms,
        min_alive=min_alive,
        empty=empty,
        future=future,
    )
