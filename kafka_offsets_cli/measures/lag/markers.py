"""The transaction-marker check, pure: which rows need it and what its answers change.

A row with lag exactly 1 may be a group that has consumed everything but a
transaction marker (state ``marker``, see :mod:`kafka_offsets_cli.measures.lag`). Only a
fetch can tell (:meth:`kafka_offsets_cli.sources.MarkerSource.control_records`);
these functions choose what to fetch and apply the answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...models.topics import TopicPartition
from .rows import LagRow, LagState

#: The marker check's answer for each (partition, offset): control record or not, or an error name.
Markers = Mapping[tuple[TopicPartition, int], bool | str]


def marker_candidates(rows: Iterable[LagRow]) -> list[tuple[TopicPartition, int]]:
    """(partition, committed) pairs worth a marker check: lag exactly 1, state ok; no duplicates."""
    out: dict[tuple[TopicPartition, int], None] = {}
    for r in rows:
        if r.state is LagState.OK and r.lag == 1 and r.committed is not None:
            out[(r.tp, r.committed)] = None
    return list(out)


@dataclass(frozen=True, kw_only=True)
class MarkerCount:
    """How the marker check went: answers received, and failures by error name."""

    checked: int = 0
    unchecked: Mapping[str, int] = field(default_factory=dict)


def count_markers(found: Markers) -> MarkerCount:
    """Count the marker check's answers (an error name is a point left unchecked)."""
    unchecked: dict[str, int] = {}
    for v in found.values():
        if isinstance(v, str):
            unchecked[v] = unchecked.get(v, 0) + 1
    return MarkerCount(checked=sum(1 for v in found.values() if not isinstance(v, str)), unchecked=unchecked)


def with_markers(rows: Iterable[LagRow], found: Markers) -> list[LagRow]:
    """Rows whose committed offset holds a control record, with lag 1, become ``marker`` (time lag 0)."""
    return [
        r.evolve(state=LagState.MARKER, time_lag_ms=0)
        if r.lag == 1 and r.committed is not None and found.get((r.tp, r.committed)) is True
        else r
        for r in rows
    ]
