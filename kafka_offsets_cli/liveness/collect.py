"""The ``liveness`` use case: resolve the selection, one max-timestamp round, topic configs, the report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import MonitoringStatus
from ..measures.liveness import (
    DEFAULT_EMPTY_STATUS,
    DEFAULT_FUTURE_STATUS,
    DEFAULT_FUTURE_TOLERANCE_MS,
    TIMESTAMP_TYPE_KEY,
)
from ..models.offsets import OffsetSpec
from ..models.topics import TopicPartition
from ..parse.selection import Selection
from ..parse.times import now_ms
from ..plan.queries import fetch_offsets, missing_results, missing_topics, resolve_selection
from ..sources import LivenessSource
from .report import LivenessReport, build_report


@dataclass(frozen=True, kw_only=True)
class LivenessRequest:
    """The liveness check to run (once, or on every refresh): the selection and the rules."""

    selection: Selection
    warn_ms: int
    crit_ms: int
    min_alive: int | None = None
    tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS
    include_internal: bool = False


def collect(
    source: LivenessSource,
    request: LivenessRequest,
    *,
    ends: bool = False,
    clock: Callable[[], int] = now_ms,
) -> tuple[LivenessReport, dict[TopicPartition, int]]:
    """The whole ``liveness`` use case: resolve, one max-timestamp round, topic configs, report.

    With ``ends`` each partition's ``latest`` offset too (for ``--watch``'s records/s): the
    max-timestamp offset cannot give a rate (it is the offset of the newest record by timestamp,
    not monotonic), so ``latest`` is listed in the same ListOffsets round; partitions whose latest
    offset failed are left out. Ages are measured against ``clock()`` read after the answers
    arrived, so a slow cluster never makes a partition look fresher than it is.
    """
    md, res = resolve_selection(source, request.selection)
    spec = OffsetSpec.max_timestamp()
    latest = OffsetSpec.latest()
    fetched = fetch_offsets(source, res.partitions, [spec, latest] if ends else [spec], leaders=md.leaders())
    results = [r for r in fetched if r.spec == spec]
    end_offsets = {
        r.tp: r.offset for r in fetched if r.spec == latest and r.error is None and r.offset is not None
    }
    results += missing_results(res, [spec])
    topics = sorted({r.topic for r in results})
    configs = source.topic_configs(topics, [TIMESTAMP_TYPE_KEY])
    types = {t: c[TIMESTAMP_TYPE_KEY] for t, c in configs.items() if TIMESTAMP_TYPE_KEY in c}
    now = clock()
    report = build_report(
        results,
        now,
        request.warn_ms,
        request.crit_ms,
        min_alive=request.min_alive,
        future_tolerance_ms=request.tolerance_ms,
        empty=request.empty,
        future=request.future,
        timestamp_types=types,
        missing_topics=missing_topics(res),
    )
    return report, end_offsets
