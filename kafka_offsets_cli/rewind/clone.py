"""``rewind -g TARGET --to-group SOURCE``: give TARGET the committed offsets of SOURCE (kafkactl's
``clone``, rpk's ``--to-group``; Kafka's own tools have none), with the plan, export, drift check and
undo file of every rewind.

The partitions planned are every partition of the topics SOURCE has committed offsets on (a
selection, ``--topic``, narrows or names them). Each gets SOURCE's offset, clamped to the log as a
plan file's is (a source offset below the log start: ``clamped-to-start``); a partition SOURCE has
no offset on keeps TARGET's as it is (note ``no-source-offset``), named in the plan. SOURCE is read
as its type: a share group's offsets are its start offsets, a streams group's its input topics'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..errors import KafkaOffsetsError, NotFound
from ..models.offsets import Isolation
from ..models.topics import TopicPartition
from ..parse.selection import Selection
from ..plan.queries import close_names
from ..sources import RewindSource
from .build import build_plans
from .group_types import GroupTypes
from .plan import Plan, Target

__all__ = ["clone_plans", "clone_selection", "only_source_topics", "source_offsets"]


def clone_plans(
    source: RewindSource,
    group: str,
    target: Target,
    types: GroupTypes,
    selection: Selection | None,
    *,
    isolation: Isolation | None = None,
) -> tuple[Plan, ...]:
    """The plan giving ``group`` the committed offsets of ``target.text`` (SOURCE) on the
    ``selection``'s partitions, else on every partition of SOURCE's topics."""
    assert target.text is not None
    copied = source_offsets(source, target.text, types)
    chosen = clone_selection(copied, selection)
    plans = build_plans(source, [group], target, chosen, {group: copied}, isolation=isolation)
    return plans if selection is not None else only_source_topics(plans, copied)


def source_offsets(source: RewindSource, group: str, types: GroupTypes) -> dict[TopicPartition, int]:
    """SOURCE's committed offsets; :class:`NotFound` (exit 5) when it does not exist (with the
    cluster's group ids close to its name) or has no committed offset."""
    [got] = source.committed_offsets([group])
    if got.error is not None and got.error != "GROUP_ID_NOT_FOUND":
        raise KafkaOffsetsError(f"cannot read the committed offsets of group {group!r}: {got.error}")
    offsets = {tp: off for tp, off in got.offsets.items() if off is not None}
    if offsets:
        return offsets
    if group in types.share or group in types.streams:
        ids: list[str] = [group]
    else:
        ids = source.group_ids()
    if group not in ids:
        close = close_names(group, ids)
        hint = f" (did you mean {' or '.join(repr(n) for n in close)}?)" if close else ""
        raise NotFound(f"--to-group {group!r}: no such group{hint}; nothing to copy")
    raise NotFound(f"--to-group {group!r}: the group has no committed offsets; nothing to copy")


def clone_selection(offsets: dict[TopicPartition, int], selection: Selection | None) -> Selection:
    """The partitions to plan: the selection's, else every partition of SOURCE's topics."""
    if selection is not None:
        return selection
    from ..parse.command_selection import optional_selection

    topics = tuple(sorted({tp.topic for tp in offsets}))
    chosen = optional_selection(topics)
    assert chosen is not None  # SOURCE has offsets: some topics are named
    return chosen


def only_source_topics(plans: Sequence[Plan], offsets: dict[TopicPartition, int]) -> tuple[Plan, ...]:
    """Without a selection: the plans' rows of SOURCE's topics only (a topic name is a regex, so
    ``a.b`` would also take ``axb``)."""
    topics = {tp.topic for tp in offsets}
    return tuple(replace(p, rows=tuple(r for r in p.rows if r.topic in topics)) for p in plans)
