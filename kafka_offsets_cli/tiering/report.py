"""A ``tiering`` run's report: the partitions, each topic's roll-up and the run's status (pure)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import MonitoringStatus
from ..severity import worst
from .rules import COLUMNS, Thresholds, TierRow, TopicTiering, topic_rollup


@dataclass(frozen=True, kw_only=True)
class TieringReport:
    """Everything one ``tiering`` run found, with the thresholds it used."""

    rows: tuple[TierRow, ...]
    topics: tuple[TopicTiering, ...]
    status: MonitoringStatus
    now_ms: int
    thresholds: Thresholds

    def shown(self, problems: bool) -> TieringReport:
        """With ``problems``: only the rows and topics whose status is not OK (display only)."""
        if not problems:
            return self
        ok = MonitoringStatus.OK
        return replace(
            self,
            rows=tuple(r for r in self.rows if r.status is not ok),
            topics=tuple(t for t in self.topics if t.status is not ok),
        )

    def records(self) -> list[dict[str, Any]]:
        """The records of ``tiering -o json``: one per partition, and one for each selected topic
        that could not be listed (``partition`` null, state ``error``, its error), as ``liveness``
        records it: a topic is never silently missing from the records."""
        out = [r.to_record() for r in self.rows]
        for t in self.topics:
            if t.error is not None and t.partitions == 0:
                out.append({**dict.fromkeys(COLUMNS), "topic": t.topic, "state": "error", "error": t.error})
        return out


def build_report(
    rows: list[TierRow],
    now: int,
    thresholds: Thresholds,
    *,
    tiered_topics: set[str],
    missing: tuple[tuple[str, str], ...] = (),
) -> TieringReport:
    """Roll the rows up per topic (a topic that could not be listed is UNKNOWN) and overall."""
    by: dict[str, list[TierRow]] = {}
    for r in rows:
        by.setdefault(r.topic, []).append(r)
    topics = [topic_rollup(t, t in tiered_topics, rs) for t, rs in by.items()]
    for name, err in missing:
        topics.append(
            TopicTiering(
                topic=name,
                tiered=False,
                status=MonitoringStatus.UNKNOWN,
                partitions=0,
                local_records=0,
                remote_records=0,
                backlog_records=0,
                backlog_age_ms=None,
                error=err,
            )
        )
    topics.sort(key=lambda t: t.topic)
    return TieringReport(
        rows=tuple(rows),
        topics=tuple(topics),
        status=worst(t.status for t in topics),
        now_ms=now,
        thresholds=thresholds,
    )
