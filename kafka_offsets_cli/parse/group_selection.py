"""The selection of a group command (lag, rewind): no selection option means each group's own partitions."""

from __future__ import annotations

from collections.abc import Sequence

from .selection import Selection, parse_selection


def optional_selection(
    topics: Sequence[str] = (),
    partitions: str | None = None,
    topic_partitions: str | None = None,
    exclude_internal: bool = False,
    *,
    exclude_system: bool = False,
) -> Selection | None:
    """As :func:`~.selection.parse_selection`, but ``None`` when no selection option is given: the
    group commands then read each group's committed partitions."""
    if not topics and partitions is None and topic_partitions is None and not exclude_internal:
        return None
    return parse_selection(
        topics, partitions, topic_partitions, exclude_internal, exclude_system=exclude_system
    )
