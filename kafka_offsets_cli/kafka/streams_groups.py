"""Streams groups (KIP-1071) through kafka-python: their descriptions.

StreamsGroupDescribe v0 (API key 89, :mod:`.group_messages`), sent like the other group requests
(:mod:`.coordinated`): the state and epochs, the topology's subtopologies (their source topics,
repartition topics and changelogs: what the group reads, inputs and repartition topics apart), and
each member with its active, standby and warm-up tasks. The group's committed offsets are ordinary
OffsetFetch answers (:mod:`.offset_fetch`). A cluster without streams groups (the request not in its
ApiVersions, or ``UNSUPPORTED_VERSION``) gives one per-type answer, :data:`NOT_AVAILABLE`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..models.group_descriptions import StreamsGroup, StreamsMember, StreamsTasks, Subtopology
from ..models.group_types import GroupTypeAnswer
from .coordinated import GroupRequest, ask_coordinators
from .deadline import Deadline
from .group_messages import StreamsGroupDescribeRequest
from .kafka_python import KafkaPython, group_error
from .share_groups import state_name, unavailable

#: the line shown once when the cluster cannot describe streams groups
NOT_AVAILABLE = "streams groups are not supported by this cluster (StreamsGroupDescribe)"


def describe_streams_groups(
    kafka_python: KafkaPython, deadline: Deadline, groups: Sequence[str]
) -> GroupTypeAnswer[StreamsGroup]:
    """Each of ``groups`` described as a streams group (topology, members and their tasks, state)."""
    answers = ask_coordinators(kafka_python, deadline, groups, DESCRIBE)
    return GroupTypeAnswer(
        group_type="streams", groups=answers, unavailable=unavailable(answers, NOT_AVAILABLE)
    )


def streams_group(group: str, answer: Any) -> StreamsGroup:
    """A StreamsGroupDescribe answer for ``group`` as the model (its error kept)."""
    error = group_error(answer)
    if error is not None:
        return StreamsGroup(group=group, state=None, error=error)
    topology = answer.topology
    subtopologies = None
    if topology is not None and topology.subtopologies is not None:
        subtopologies = tuple(
            Subtopology(
                subtopology=str(s.subtopology_id),
                source_topics=tuple(s.source_topics),
                repartition_source_topics=tuple(t.name for t in s.repartition_source_topics),
                repartition_sink_topics=tuple(s.repartition_sink_topics),
                changelog_topics=tuple(t.name for t in s.state_changelog_topics),
            )
            for s in topology.subtopologies
        )
    return StreamsGroup(
        group=group,
        state=state_name(answer.group_state),
        group_epoch=int(answer.group_epoch),
        assignment_epoch=int(answer.assignment_epoch),
        topology_epoch=int(topology.epoch) if topology is not None else -1,
        subtopologies=subtopologies,
        members=tuple(_member(m) for m in answer.members),
    )


def _member(m: Any) -> StreamsMember:
    a = m.assignment
    return StreamsMember(
        member_id=str(m.member_id),
        client_id=str(m.client_id),
        host=str(m.client_host),
        member_epoch=int(m.member_epoch),
        process_id=str(m.process_id),
        instance_id=m.instance_id or None,
        topology_epoch=int(m.topology_epoch),
        active=_tasks(a.active_tasks if a is not None else ()),
        standby=_tasks(a.standby_tasks if a is not None else ()),
        warmup=_tasks(a.warmup_tasks if a is not None else ()),
        classic=bool(m.is_classic),
    )


def _tasks(tasks: Sequence[Any]) -> tuple[StreamsTasks, ...]:
    return tuple(
        StreamsTasks(subtopology=str(t.subtopology_id), partitions=tuple(t.partitions)) for t in tasks
    )


def _request(groups: list[str]) -> Any:
    return StreamsGroupDescribeRequest(group_ids=groups, include_authorized_operations=False, max_version=0)


DESCRIBE: GroupRequest[StreamsGroup] = GroupRequest(
    request=_request,
    answered=streams_group,
    failed=lambda g, e: StreamsGroup(group=g, state=None, error=e),
    error=lambda r: r.error,
)
