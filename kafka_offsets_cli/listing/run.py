"""The ``list`` use case as one call: the request a front end builds from its options, and its run.

A front end hands the options' values to :func:`request_of` (the specs parsed against one clock,
the notes to show about them) and the request and a client to :func:`fetch`. ``--tiering`` adds
the tiering view from the same ListOffsets round: that view is the ``tiering`` feature's, a sibling,
so the front end hands its collector in (``with_view``) rather than this package importing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from typing import TypeVar

from ..models.offsets import OffsetSpec, OffsetTable, SpecKind
from ..parse.selection import Selection, parse_selection
from ..parse.specs import parse_spec, parse_specs
from ..parse.time_words import future_note, time_notes
from ..plan.queries import list_table
from ..sources import LivenessSource, OffsetSource

V = TypeVar("V")
#: ``list --tiering``'s collector: the table of the specs and the view, from one round
#: (:func:`kafka_offsets_cli.tiering.collect.list_and_collect`).
ViewCollector = Callable[..., tuple[OffsetTable, V]]


@dataclass(frozen=True, kw_only=True)
class ListRequest:
    """What one ``list`` run (or ``--watch`` refresh) asks: the partitions and the specs."""

    selection: Selection
    specs: tuple[OffsetSpec, ...]
    #: what to tell about the times given (epoch seconds typed for ms, a time after now), in order
    notes: tuple[str, ...] = ()


def request_of(
    *,
    topics: Sequence[str] | None,
    partitions: str | None,
    topic_partitions: str | None,
    exclude_internal_topics: bool,
    specs: Sequence[str] | None,
    now_ms: int,
    zone: tzinfo,
) -> ListRequest:
    """The request of the options' values (no spec: latest); times read against ``now_ms`` in ``zone``."""
    texts = list(specs or ())
    parsed = parse_specs(texts, now_ms=now_ms, tz=zone)
    notes = [n for text in texts for n in time_notes(text, now_ms, zone)]  # e.g. epoch seconds for ms
    for text in texts:  # answered as GetOffsetShell answers it, but said: most likely a typo
        s = parse_spec(text, now_ms=now_ms, tz=zone)
        at = s.timestamp_ms if s.kind is SpecKind.TIMESTAMP else None
        ahead = future_note(text, at, now_ms, zone) if at is not None else None
        if ahead is not None:
            notes.append(ahead)
    selection = parse_selection(
        topics=topics or (),
        partitions=partitions,
        topic_partitions=topic_partitions,
        exclude_internal=exclude_internal_topics,
    )
    return ListRequest(selection=selection, specs=tuple(parsed), notes=tuple(notes))


def fetch(
    client: LivenessSource,
    request: ListRequest,
    *,
    progress: Callable[[int], None] | None = None,
    with_view: ViewCollector[V] | None = None,
) -> tuple[OffsetTable, V | None]:
    """The offset table; with ``with_view`` (``--tiering``) also its view, from the same round."""
    if with_view is None:
        return list_table(client, request.selection, request.specs, progress=progress), None
    return with_view(client, request.selection, request.specs, progress=progress)


def table(client: OffsetSource, request: ListRequest) -> OffsetTable:
    """The offset table alone: one ``--watch`` refresh."""
    return list_table(client, request.selection, request.specs)


def failure_summary(table: OffsetTable, more: Sequence[str] = ()) -> str:
    """The one line of a run some of whose queries failed: each error and how often, most first."""
    by: dict[str, int] = {}
    for e in more:
        by[e] = by.get(e, 0) + 1
    for err in (r.error for r in table.errors if r.error is not None):
        by[err] = by.get(err, 0) + 1
    for _topic, err in table.missing_topics:
        by[err] = by.get(err, 0) + 1
    parts = ", ".join(f"{n} x {e}" for e, n in sorted(by.items(), key=lambda kv: -kv[1]))
    # a mistyped topic is named with the cluster's close names: the fix, not just the error's name
    hints = [
        f"{t} (did you mean {' or '.join(repr(n) for n in table.close[t])}?)"
        for t, _err in table.missing_topics
        if table.close.get(t)
    ]
    return f"some queries failed: {parts}" + (f"; {', '.join(hints)}" if hints else "")
