"""Use cases built on ListOffsets, independent of how Kafka is reached.

Functions here take any object that satisfies :class:`OffsetSource` (in the
product, :class:`kafka_offsets_cli.client.KafkaClient`), so the flow
selection -> plan -> execute -> results is one path for every command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .models import ClusterMetadata, Isolation, OffsetResult, OffsetSpec, OffsetTable, TopicPartition
from .planner import DEFAULT_CHUNK, OffsetRequest, plan_requests
from .selection import Resolution, Selection, resolve


class OffsetSource(Protocol):
    """What the use cases need from a Kafka client."""

    def metadata(self, topic: str | None = None) -> ClusterMetadata:
        """Cluster metadata."""
        ...

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        """Execute ListOffsets calls."""
        ...


def resolve_selection(source: OffsetSource, selection: Selection) -> tuple[ClusterMetadata, Resolution]:
    """Fetch metadata and resolve the selection; raise NotFound when nothing matches."""
    md = source.metadata()
    res = resolve(selection, md)
    res.require_any()
    return md, res


def missing_results(res: Resolution, specs: Sequence[OffsetSpec]) -> list[OffsetResult]:
    """Error results for selected partitions that do not exist."""
    return [
        OffsetResult(m.topic, m.partition, spec, None, error=m.error)
        for m in res.missing
        if m.partition is not None
        for spec in specs
    ]


def missing_topics(res: Resolution) -> tuple[tuple[str, str], ...]:
    """Selected topics that do not exist or cannot be described, with the error."""
    return tuple((m.topic, m.error) for m in res.missing if m.partition is None)


def fetch_offsets(
    source: OffsetSource,
    partitions: Sequence[TopicPartition],
    specs: Sequence[OffsetSpec],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> list[OffsetResult]:
    """ListOffsets for every partition and spec: one call per spec and chunk, all concurrent."""
    return source.list_offsets(
        plan_requests(partitions, specs, chunk_size), isolation=isolation, progress=progress
    )


def list_table(
    source: OffsetSource,
    selection: Selection,
    specs: Sequence[OffsetSpec],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> OffsetTable:
    """The whole ``list`` use case: resolve, fetch, and include missing selections as errors."""
    _, res = resolve_selection(source, selection)
    results = fetch_offsets(
        source, res.partitions, specs, isolation=isolation, chunk_size=chunk_size, progress=progress
    )
    results += missing_results(res, specs)
    return OffsetTable(tuple(specs), tuple(res.partitions), tuple(results), missing_topics(res))


def index_results(results: Sequence[OffsetResult]) -> dict[tuple[TopicPartition, OffsetSpec], OffsetResult]:
    """Results keyed by (partition, spec)."""
    return {(r.tp, r.spec): r for r in results}
