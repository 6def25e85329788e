"""Share and streams groups' descriptions in the shape every group's has (pure): state and members.

``lag``'s summary (STATE, MEMBERS), its notes and ``--members`` read a :class:`GroupMembers` per
group; a share group's comes from ShareGroupDescribe and a streams group's from
StreamsGroupDescribe (:mod:`kafka_offsets_cli.kafka.share_groups`, ``streams_groups``), mapped here.
A streams member's assignment is its active tasks: each task's partitions of every source topic
of its subtopology (input and repartition topics), as ``kafka-streams-groups --members`` lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...models.groups import GroupDescription, GroupMembers, Member
from ...models.topics import TopicPartition

if TYPE_CHECKING:  # share and streams descriptions: annotations here
    from ...models.group_descriptions import ShareGroup, ShareMember, StreamsGroup, StreamsMember


def share_members(group: ShareGroup) -> GroupMembers:
    """A share group's description and members (each with the partitions it is assigned to share)."""
    return _described(group, tuple(_member(m, m.assigned) for m in group.members), "share")


def streams_members(group: StreamsGroup) -> GroupMembers:
    """A streams group's description and members (each with its active tasks' partitions)."""
    # a subtopology reads its input topics and the repartition topics it sources from (the topology
    # lists them apart)
    sources = {
        s.subtopology: tuple(dict.fromkeys((*s.source_topics, *s.repartition_source_topics)))
        for s in group.subtopologies or ()
    }
    members = tuple(_member(m, _active(m, sources), m.instance_id) for m in group.members)
    return _described(group, members, "streams")


def _member(
    m: ShareMember | StreamsMember, assigned: tuple[TopicPartition, ...], instance_id: str | None = None
) -> Member:
    """A share or streams group's member as every group's: its ids, host, epoch and partitions."""
    return Member(
        member_id=m.member_id,
        client_id=m.client_id,
        host=m.host,
        assigned=assigned,
        member_epoch=m.member_epoch,
        instance_id=instance_id,
    )


def _active(member: StreamsMember, sources: dict[str, tuple[str, ...]]) -> tuple[TopicPartition, ...]:
    return tuple(
        sorted(
            {
                TopicPartition(topic, p)
                for task in member.active
                for topic in sources.get(task.subtopology, ())
                for p in task.partitions
            }
        )
    )


def _described(group: ShareGroup | StreamsGroup, members: tuple[Member, ...], protocol: str) -> GroupMembers:
    """The group's description with ``members`` (a group that could not be described: its error only)."""
    if group.error is not None:
        return GroupMembers(GroupDescription(group.group, None, 0, (), group.error), (), protocol)
    assigned = tuple(sorted({tp for m in members for tp in m.assigned}))
    return GroupMembers(GroupDescription(group.group, group.state, len(members), assigned), members, protocol)
