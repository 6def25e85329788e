"""The ``liveness`` use case as one call: the request a front end builds from its options, and its run.

A front end hands the options' values to :func:`request_of` (durations parsed and checked, the
selection built, contradictions refused: usage errors before anything is contacted) and the request
and a client to :func:`run` (one max-timestamp round) or :func:`snapshot` (one ``--watch``
refresh, with the latest offsets for records/s). The client's isolation level is its own setting.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import MonitoringStatus, NotFound, UsageError
from ..measures.thresholds import warn_above_crit
from ..models.topics import TopicPartition
from ..parse.command_selection import monitored_selection
from ..parse.durations import parse_duration
from ..sources import LivenessSource
from ..system_topics import SYSTEM_HINT
from .collect import LivenessRequest, collect
from .report import LivenessReport


@dataclass(frozen=True)
class LivenessSnapshot:
    """One ``--watch`` refresh: the report and each partition's latest offset."""

    report: LivenessReport
    ends: Mapping[TopicPartition, int]


def request_of(
    *,
    topics: Sequence[str] | None,
    partitions: str | None,
    topic_partitions: str | None,
    include_internal: bool,
    exclude_internal_topics: bool,
    warn: str,
    crit: str,
    min_alive: int | None,
    future_tolerance: str,
    empty: MonitoringStatus,
    future: MonitoringStatus,
) -> LivenessRequest:
    """The request of the options' values; Kafka's system topics are left out by name unless
    ``include_internal`` (``exclude_internal_topics``: accepted as Kafka's tools spell it)."""
    warn_ms, crit_ms = parse_duration(warn), parse_duration(crit)
    if warn_above_crit(warn_ms, crit_ms):
        raise UsageError(f"--warn {warn} is longer than --crit {crit}")
    tolerance_ms = parse_duration(future_tolerance)
    if include_internal and exclude_internal_topics:
        raise UsageError("--include-internal and --exclude-internal-topics contradict each other")
    selection = monitored_selection(topics, partitions, topic_partitions, include_internal=include_internal)
    return LivenessRequest(
        selection=selection,
        warn_ms=warn_ms,
        crit_ms=crit_ms,
        min_alive=min_alive,
        tolerance_ms=tolerance_ms,
        empty=empty,
        future=future,
        include_internal=include_internal,
    )


def run(client: LivenessSource, request: LivenessRequest) -> LivenessReport:
    """One max-timestamp round over ``client``."""
    with _system_hint(request):
        return collect(client, request)[0]


def snapshot(client: LivenessSource, request: LivenessRequest) -> LivenessSnapshot:
    """One max-timestamp + latest round, for ``--watch``."""
    with _system_hint(request):
        report, ends = collect(client, request, ends=True)
    return LivenessSnapshot(report, ends)


@contextmanager
def _system_hint(request: LivenessRequest) -> Iterator[None]:
    """System topics are out by default here (not in ``list``): a "not found" says how to get them."""
    try:
        yield
    except NotFound as e:
        if e.hint and not request.include_internal:
            e.hint = e.hint.replace(SYSTEM_HINT, f"{SYSTEM_HINT} (--include-internal adds them)")
        raise
