"""The ``liveness`` use case: resolve the selection, one max-timestamp round, topic configs, the report."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import MonitoringStatus
from ..measures.liveness import (
    DEFAULT_EMPTY_STATUS,
    DEFAULT_FUTURE_STATUS,
    DEFAULT_FUTURE_TOLERANCE_MS,
    TIMESTAMP_TYPE_KEY,
)
from ..models.offsets import Isolation, OffsetSpec
from ..models.topics import TopicPartition
from ..parse.selection import Selection
from ..parse.times import now_ms
from ..plan.queries import fetch_offsets, missing_results, missing_topics, resolve_selection
from ..sources import LivenessSource
from .report import LivenessReport, build_report


def collect(
    source: LivenessSource,
    selection: Selection,
    warn_ms: int,
    crit_ms: int,
    *,
    min_alive: int | None = None,
    future_tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS,
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS,
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS,
    isolation: Isolation | None = None,
    clock: Callable[[], int] | None = None,
) -> LivenessReport:
    """The whole ``liveness`` use case: resolve, one max-timestamp round, topic configs, report.

    Ages are measured against ``clock()`` read after the answers arrived, so a slow
    cluster never makes a partition look fresher than it is.
    """
    report, _ = _collect(
        source,
        selection,
        warn_ms,
        crit_ms,
        min_alive=min_alive,
        future_tolerance_ms=future_tolerance_ms,
        empty=empty,
        future=future,
        isolation=isolation,
        clock=clock,
        ends=False,
    )
    return report


def collect_with_ends(
    source: LivenessSource,
    selection: Selection,
    warn_ms: int,
    crit_ms: int,
    *,
    min_alive: int | None = None,
    future_tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS,
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS,
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS,
    isolation: Isolation | None = None,
    clock: Callable[[], int] | None = None,
) -> tuple[LivenessReport, dict[TopicPartition, int]]:
    """:func:`collect`, plus each partition's ``latest`` offset (for ``--watch``'s records/s).

    The max-timestamp offset cannot give a rate (it is the offset of the newest
    record by timestamp, not monotonic), so ``latest`` is listed in the same
    ListOffsets round. Partitions whose latest offset failed are left out.
    """
    return _collect(
        source,
        selection,
        warn_ms,
        crit_ms,
        min_alive=min_alive,
        future_tolerance_ms=future_tolerance_ms,
        empty=empty,
        future=future,
        isolation=isolation,
        clock=clock,
        ends=True,
    )


def _collect(
    source: LivenessSource,
    selection: Selection,
    warn_ms: int,
    crit_ms: int,
    *,
    min_alive: int | None,
    future_tolerance_ms: int,
    empty: MonitoringStatus,
    future: MonitoringStatus,
    isolation: Isolation | None,
    clock: Callable[[], int] | None,
    ends: bool,
) -> tuple[LivenessReport, dict[TopicPartition, int]]:
    md, res = resolve_selection(source, selection)
    spec = OffsetSpec.max_timestamp()
    latest = OffsetSpec.latest()
    fetched = fetch_offsets(
        source, res.partitions, [spec, latest] if ends else [spec], isolation=isolation, leaders=md.leaders()
    )
    results = [r for r in fetched if r.spec == spec]
    end_offsets = {
        r.tp: r.offset for r in fetched if r.spec == latest and r.error is None and r.offset is not None
    }
    results += missing_results(res, [spec])
    topics = sorted({r.topic for r in results})
    configs = source.topic_configs(topics, [TIMESTAMP_TYPE_KEY])
    types = {t: c[TIMESTAMP_TYPE_KEY] for t, c in configs.items() if TIMESTAMP_TYPE_KEY in c}
    now = (clock or now_ms)()
    report = build_report(
        results,
        now,
        warn_ms,
        crit_ms,
        min_alive=min_alive,
        future_tolerance_ms=future_tolerance_ms,
        empty=empty,
        future=future,
        timestamp_types=types,
        missing_topics=missing_topics(res),
    )
    return report, end_offsets
