"""Rewinding share groups (KIP-932) and streams groups (KIP-1071) the way consumer groups are.

The group's type is found by asking (ShareGroupDescribe, then StreamsGroupDescribe: a group of
another type answers ``GROUP_ID_NOT_FOUND``), so nobody has to say it; a group that does not exist
yet is a consumer group, as before. :class:`TypedGroups` then stands in for the client in the
plan, the dry-run notes, the preflight, the commit and the read-back, each group through its own
type's requests, so the plan, export, drift check and undo file are the consumer groups' own:

* a share group's "committed offset" is its share-partition start offset (DescribeShareGroupOffsets),
  written with AlterShareGroupOffsets; it is reset only while it has no members, as
  ``kafka-share-groups.sh --reset-offsets`` (ShareGroupCommand) requires (Empty, or not existing);
* a streams group's offsets are ordinary committed offsets (OffsetFetch, OffsetCommit), but only
  its input topics are reset, and only while it has no members, as ``kafka-streams-groups.sh
  --reset-offsets`` (StreamsGroupCommand) does; its repartition topics are left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import Refused, UsageError
from ..models.group_descriptions import ShareGroup, StreamsGroup
from ..models.groups import GroupDescription, GroupMembers, GroupOffsets, Member
from ..models.topics import TopicPartition
from ..parse.selection import Selection
from ..sources import TypedRewindSource
from .plan import Plan

__all__ = ["GroupTypes", "TypedGroups", "detect", "refuse_options", "refuse_streams_topics"]

#: options that only mean something for a consumer group, and what refuses them for the others
_SHARE_REFUSED = ("--shift-by", "--from-cluster", "--from-lag-file")
_STREAMS_REFUSED = ("--from-cluster", "--from-lag-file")


@dataclass(frozen=True)
class GroupTypes:
    """The share and streams groups among those asked (the rest are consumer or classic groups)."""

    share: Mapping[str, ShareGroup] = field(default_factory=dict)
    streams: Mapping[str, StreamsGroup] = field(default_factory=dict)

    def of(self, group: str) -> str:
        """``share``, ``streams`` or ``consumer`` (classic groups and groups not existing included)."""
        return "share" if group in self.share else "streams" if group in self.streams else "consumer"


def detect(source: TypedRewindSource, groups: Sequence[str]) -> GroupTypes:
    """Which of ``groups`` are share groups and which streams groups (each group's description)."""
    if not groups:
        return GroupTypes()
    share = {g: d for g, d in source.share_group_descriptions(groups).groups.items() if d.error is None}
    rest = [g for g in groups if g not in share]
    streams = (
        {g: d for g, d in source.streams_group_descriptions(rest).groups.items() if d.error is None}
        if rest
        else {}
    )
    return GroupTypes(share=share, streams=streams)


def refuse_options(types: GroupTypes, given: Sequence[str]) -> None:
    """A :class:`UsageError` for the first of the options ``given`` (flags as typed) that the type of
    a group does not have (``kafka-share-groups.sh`` has no ``--shift-by``; a DR cutover is for
    consumer groups)."""
    for refused, groups, tool in (
        (_SHARE_REFUSED, types.share, "kafka-share-groups"),
        (_STREAMS_REFUSED, types.streams, "kafka-streams-groups"),
    ):
        bad = [o for o in given if o in refused]
        if bad and groups:
            kind = "share" if tool == "kafka-share-groups" else "streams"
            raise UsageError(
                f"{bad[0]} is for consumer groups: group {sorted(groups)[0]!r} is a {kind} group "
                f"(a {kind} group is reset to earliest, latest, a time, an offset, its current offsets "
                f"or a plan file, as {tool} --reset-offsets does)"
            )


def refuse_streams_topics(
    types: GroupTypes, plans: Sequence[Plan], selection: Selection | None = None, *, deleting: bool = False
) -> None:
    """:class:`Refused` when a streams group's plan names a topic that is not one of its input topics,
    or the ``selection`` takes one of its repartition topics (``kafka-streams-groups`` resets input
    topics only, and ``--delete-offsets`` takes them by ``--input-topic``), or its topology is not
    known.

    The selection counts as well as the plan: a deletion plans only the partitions with a committed
    offset, and a repartition topic's offsets are left out of the group's offsets here, so a selected
    repartition topic would otherwise be an empty plan ("nothing to delete") rather than a refusal
    that says why."""
    for plan in plans:
        described = types.streams.get(plan.group)
        if described is None:
            continue
        if described.subtopologies is None:
            raise Refused(
                f"the topology of streams group {plan.group!r} is not known (state {described.state}): "
                "cannot tell its input topics; nothing changed"
            )
        inputs = set(described.input_topics)
        other = {r.topic for r in plan.rows if r.topic not in inputs}
        if selection is not None:
            other |= {t for t in described.repartition_topics if selection.allows_topic(t)}
        if other:
            what = "topics' offsets are deleted" if deleting else "topics are reset"
            tool = "kafka-streams-groups --delete-offsets" if deleting else "kafka-streams-groups"
            raise Refused(
                f"topic(s) {', '.join(sorted(other))} are not input topics of streams group "
                f"{plan.group!r} (input topics: {', '.join(sorted(inputs)) or 'none'}): only input "
                f"{what}, as {tool} does; nothing changed",
                hint="select input topics with --topic, or leave the selection out",
            )


class TypedGroups:
    """A rewind source over ``inner`` where each group is read and written as its type: share
    groups through their share requests, streams groups limited to their input topics."""

    def __init__(self, inner: TypedRewindSource, types: GroupTypes) -> None:
        self.inner = inner
        self.types = types
        # topics, logs, group ids and session timeouts are the same whatever a group's type: the
        # inner source's own methods, not wrappers that repeat their signatures
        self.metadata = inner.metadata
        self.list_offsets = inner.list_offsets
        self.group_ids = inner.group_ids
        self.group_session_timeouts = inner.group_session_timeouts

    # -- each group as its type -----------------------------------------------------------

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """Each group's description (share and streams groups from their own describes)."""
        members = self.group_members(groups)
        return {g: m.description for g, m in members.items()}

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        """Committed offsets; a share group's are its start offsets, a streams group's only its
        input topics' (a partition without a start offset: ``None``, as nothing committed)."""
        share = [g for g in groups if g in self.types.share]
        rest = [g for g in groups if g not in self.types.share]
        out = self.inner.committed_offsets(rest, partitions) if rest else []
        out = [self._inputs_only(o) for o in out]
        if share:
            answer = self.inner.share_start_offsets(share, partitions)
            for g in share:
                got = answer.groups[g]
                offsets = {p.partition: p.start_offset for p in got.partitions}
                out.append(GroupOffsets(g, offsets, got.error))
        return out

    def _inputs_only(self, offsets: GroupOffsets) -> GroupOffsets:
        described = self.types.streams.get(offsets.group)
        if described is None or described.subtopologies is None:
            return offsets
        inputs = set(described.input_topics)
        kept = {tp: o for tp, o in offsets.offsets.items() if tp.topic in inputs}
        return GroupOffsets(offsets.group, kept, offsets.error)

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        """Each group's members; a share or streams group's from its own describe (asked again:
        the preflight must see who is there now, not at detection)."""
        share = [g for g in groups if g in self.types.share]
        streams = [g for g in groups if g in self.types.streams]
        rest = [g for g in groups if g not in self.types.share and g not in self.types.streams]
        out = self.inner.group_members(rest) if rest else {}
        if share:
            for g, s in self.inner.share_group_descriptions(share).groups.items():
                out[g] = share_members(s)
        if streams:
            for g, d in self.inner.streams_group_descriptions(streams).groups.items():
                out[g] = streams_members(d)
        return out

    def alter_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Commit ``offsets``: a share group's start offsets through AlterShareGroupOffsets."""
        if group in self.types.share:
            return self.inner.alter_share_group_offsets(group, offsets)
        return self.inner.alter_group_offsets(group, offsets)

    def delete_group_offsets(
        self, group: str, partitions: Sequence[TopicPartition]
    ) -> dict[TopicPartition, str | None]:
        """Delete committed offsets: a share group's per topic, through DeleteShareGroupOffsets (each
        partition gets its topic's answer)."""
        if group not in self.types.share:
            return self.inner.delete_group_offsets(group, partitions)
        by_topic = self.inner.delete_share_group_offsets(group, sorted({tp.topic for tp in partitions}))
        return {tp: by_topic.get(tp.topic, "UNKNOWN_SERVER_ERROR") for tp in partitions}


def share_members(group: ShareGroup) -> GroupMembers:
    """A share group's description as the members a refusal names (protocol ``share``)."""
    assigned = tuple(sorted({tp for m in group.members for tp in m.assigned}))
    desc = GroupDescription(group.group, group.state, len(group.members), assigned, group.error)
    members = tuple(
        Member(member_id=m.member_id, client_id=m.client_id, host=m.host, assigned=m.assigned)
        for m in group.members
    )
    return GroupMembers(desc, members, "share")


def streams_members(group: StreamsGroup) -> GroupMembers:
    """A streams group's description as the members a refusal names (protocol ``streams``); the
    partitions assigned are those its members' active tasks read (a task of a subtopology reads its
    partition of every source topic of that subtopology), so a dry run of ``--delete-offsets`` can name
    the topics Kafka would keep."""
    sources = {s.subtopology: s.source_topics for s in group.subtopologies or ()}
    assigned = tuple(
        sorted(
            {
                TopicPartition(topic, p)
                for m in group.members
                for task in m.active
                for topic in sources.get(task.subtopology, ())
                for p in task.partitions
            }
        )
    )
    desc = GroupDescription(group.group, group.state, len(group.members), assigned, group.error)
    members = tuple(
        Member(member_id=m.member_id, client_id=m.client_id, host=m.host, instance_id=m.instance_id)
        for m in group.members
    )
    return GroupMembers(desc, members, "streams")
