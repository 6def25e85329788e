"""``rewind --delete-offsets``: delete groups' committed offsets, as ``kafka-consumer-groups
--delete-offsets`` (``kafka-share-groups`` and ``kafka-streams-groups --delete-offsets`` for those
groups) does, with the plan, export, drift check and undo file of every rewind.

Kafka decides per topic, not per group (KIP-496: a running group drops the offsets of a topic it no
longer reads): it deletes a group's offsets of a topic none of its members is subscribed to, and keeps
the others, answering ``GROUP_SUBSCRIBED_TO_TOPIC`` for their partitions (a share group with members:
``NON_EMPTY_GROUP``). So a group with members is not refused as a whole, as a reset is: each topic Kafka
kept is named on its own line, and the run exits 6 when nothing was deleted, 1 when only some was.
A share group's offsets are deleted per topic (DeleteShareGroupOffsets), so a share group's plan takes
whole topics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import NotFound, PartialFailure, Refused, UsageError
from ..models.topics import TopicPartition
from ..sources import RewindSource
from .execute import GROUP_ACTIVE_ERRORS, active_groups, check_complete
from .members import describe_members
from .plan import Plan

if TYPE_CHECKING:
    from .io import RewindIO

__all__ = ["KEPT_AS_SUBSCRIBED", "delete_all", "delete_notes", "preflight_deletes", "share_whole_topics"]

#: What Kafka answers for the partitions of a topic it keeps because the group reads it: a member
#: subscribed to the topic (OffsetDelete), a share group with members (DeleteShareGroupOffsets), or a
#: coordinator's word for a group with members (:data:`.execute.GROUP_ACTIVE_ERRORS`).
KEPT_AS_SUBSCRIBED = frozenset({"GROUP_SUBSCRIBED_TO_TOPIC", *GROUP_ACTIVE_ERRORS})


def share_whole_topics(source: RewindSource, share_groups: Sequence[str], plans: Sequence[Plan]) -> None:
    """:class:`UsageError` when a share group's plan leaves out some of a topic's partitions that
    have a start offset: Kafka deletes a share group's offsets per topic, never per partition."""
    wanted = [p for p in plans if p.group in share_groups and p.deletions()]
    if not wanted:
        return
    have = {o.group: o.offsets for o in source.committed_offsets([p.group for p in wanted])}
    for plan in wanted:
        chosen = set(plan.deletions())
        started = {tp for tp, off in have.get(plan.group, {}).items() if off is not None}
        for topic in sorted({tp.topic for tp in chosen}):
            if any(tp.topic == topic for tp in started - chosen):
                raise UsageError(
                    f"share group {plan.group!r}: a share group's offsets are deleted per topic, as "
                    f"kafka-share-groups --delete-offsets does; select every partition of {topic} "
                    f"(--topic {topic})"
                )


def _subscribed_topics(plan: Plan, assigned: Sequence[TopicPartition]) -> list[str]:
    """The plan's topics that members are assigned partitions of (so surely subscribed to)."""
    return sorted({tp.topic for tp in plan.deletions()} & {tp.topic for tp in assigned})


def delete_notes(source: RewindSource, plans: Sequence[Plan], io: RewindIO) -> None:
    """What ``--execute`` would meet: for each group with members, the topics Kafka would keep."""
    active = active_groups(source, [p.group for p in plans if p.deletions()])
    for plan in plans:
        d = active.get(plan.group)
        if d is None:
            continue
        if d.description.error is not None:
            io.warn(f"group {plan.group!r} cannot be described ({d.description.error})")
            continue
        who = f"group {plan.group!r} has {describe_members(d)}"
        if d.protocol == "share":
            io.warn(f"{who}; --execute would be refused: a share group's offsets go only without members")
            continue
        for topic in _subscribed_topics(plan, d.description.assigned):
            kept = "--execute would keep its offsets (GROUP_SUBSCRIBED_TO_TOPIC)"
            io.warn(f"topic {topic}: {who}, reading it; {kept}")
        io.warn(f"{who}: Kafka deletes only the offsets of topics they are not subscribed to")


def preflight_deletes(plans: Sequence[Plan]) -> None:
    """Refuse (nothing changed) unless every plan is complete; :class:`NotFound` when nothing is
    committed on the selected partitions."""
    for plan in plans:
        check_complete(plan)
    if not any(p.deletions() for p in plans):
        raise NotFound(
            "nothing to delete: group(s) "
            + ", ".join(repr(p.group) for p in plans)
            + " have no committed offsets on the selected partitions"
        )


def _topics_kept(group: str, errors: Mapping[TopicPartition, str]) -> list[str]:
    """One line per topic whose offsets Kafka kept because the group reads it."""
    by_topic: dict[str, set[str]] = {}
    for tp, e in errors.items():
        if e in KEPT_AS_SUBSCRIBED:
            by_topic.setdefault(tp.topic, set()).add(e)
    return [
        f"topic {t}: group {group!r} has members subscribed to it ({', '.join(sorted(es))}): offsets kept"
        for t, es in sorted(by_topic.items())
    ]


def delete_all(source: RewindSource, plans: Sequence[Plan], io: RewindIO) -> int:
    """Delete each plan's offsets and read them back: the number deleted.

    Each topic Kafka kept because the group reads it is one warning line; then :class:`Refused`
    (exit 6) when nothing at all was deleted, :class:`PartialFailure` when some was, or when Kafka
    answered another error or a deleted offset is still read back.
    """
    deleted, kept, failed = 0, [], []
    for plan in plans:
        wanted = plan.deletions()
        if not wanted:
            continue
        with io.progress(f"Deleting {len(wanted)} offset(s) of group {plan.group}…"):
            answer = source.delete_group_offsets(plan.group, wanted)
        errors = {tp: e for tp, e in answer.items() if e is not None}
        kept += _topics_kept(plan.group, errors)
        failed += [
            f"{plan.group} {tp}: {e}" for tp, e in sorted(errors.items()) if e not in KEPT_AS_SUBSCRIBED
        ]
        done = [tp for tp in wanted if tp not in errors]
        if done:  # read back: what Kafka said it deleted must be gone
            [back] = source.committed_offsets([plan.group], done)
            if back.error is not None and back.error != "GROUP_ID_NOT_FOUND":  # gone: nothing committed
                raise PartialFailure(f"deleted, but reading the offsets back failed: {back.error}")
            still = {tp: back.offsets.get(tp) for tp in done if back.offsets.get(tp) is not None}
            failed += [f"{plan.group} {tp}: still {off}" for tp, off in still.items()]
            deleted += len(done) - len(still)
    for line in kept:
        io.warn(line)
    if failed:
        raise PartialFailure(
            f"deleting offsets failed for {len(failed)} partition(s): {'; '.join(failed[:5])}"
            + (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
            + (f" ({deleted} deleted; the undo plan puts them back)" if deleted else "")
        )
    if kept and not deleted:
        raise Refused(
            f"Kafka kept the offsets of {len(kept)} topic(s) the groups' members read; nothing changed",
            hint="stop the group's consumers (or unsubscribe them from the topic), then run this again",
        )
    if kept:
        raise PartialFailure(
            f"{deleted} offset(s) deleted, the offsets of {len(kept)} topic(s) kept (the groups' members "
            "read them); the undo plan puts the deleted ones back"
        )
    return deleted
