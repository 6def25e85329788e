"""The selection each command makes of its options, beyond ``list``'s (GetOffsetShell's) rules.

* group commands (``lag``, ``rewind``): no selection option means each group's own partitions;
* monitoring commands (``liveness``, ``tiering``): Kafka's system topics are out unless asked for.
"""

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


def monitored_selection(
    topics: Sequence[str] | None,
    partitions: str | None,
    topic_partitions: str | None,
    *,
    include_internal: bool,
) -> Selection:
    """The selection of a monitoring command (``liveness``, ``tiering``): Kafka's system topics are
    left out by name unless ``include_internal`` (``list`` keeps them, as GetOffsetShell does)."""
    return parse_selection(topics or (), partitions, topic_partitions, exclude_system=not include_internal)
