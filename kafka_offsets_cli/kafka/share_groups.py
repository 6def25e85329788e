"""Share groups (KIP-932) through kafka-python: their descriptions and share-partition offsets.

librdkafka has no admin API for share groups; the requests are Kafka's own (:mod:`.group_messages`)
sent the way the other group requests are (:mod:`.coordinated`: one per coordinator, errors per
group, not-ready coordinators asked again):

* ShareGroupDescribe v1 (API key 77): state, epochs, members with their assignment;
* DescribeShareGroupOffsets v0-v1 (API key 90): each share-partition's start offset and leader
  epoch, and from v1 (Kafka 4.3, KIP-1226) the lag as the broker computes it.

A cluster that cannot answer for share groups at all (a broker before them: the request is not
in its ApiVersions, or answered ``UNSUPPORTED_VERSION``; share groups not enabled, see
:data:`NOT_ENABLED`) gives one per-type answer (:class:`~..models.group_types.GroupTypeAnswer`'s
``unavailable``), never an error for the whole run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..models.group_descriptions import ShareGroup, ShareMember
from ..models.group_types import GroupTypeAnswer, ShareGroupOffsets, SharePartition
from ..models.topics import TopicPartition
from .coordinated import GroupRequest, ask_coordinators
from .deadline import Deadline
from .describe_groups import assigned_partitions
from .group_messages import DescribeShareGroupOffsetsRequest, ShareGroupDescribeRequest
from .kafka_python import KafkaPython, code_name, group_error

#: the line shown once when the cluster cannot describe share groups
NOT_ENABLED = "share groups are not enabled on this cluster (share.version)"
#: the group errors that say the cluster lacks the feature, not that one group failed
UNSUPPORTED = frozenset({"UNSUPPORTED_VERSION"})


def state_name(wire: str | None) -> str | None:
    """A KIP-848-style state as the coordinator names it (``NotReady``) in the tool's form
    (``not_ready``); ``None`` for none (an error, or the empty string Kafka may send)."""
    if not wire:
        return None
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", wire).lower()


def unavailable(answers: dict[str, Any], reason: str) -> str | None:
    """``reason`` when any group's answer says the cluster lacks the feature, else None."""
    return reason if any(getattr(a, "error", None) in UNSUPPORTED for a in answers.values()) else None


def describe_share_groups(
    kafka_python: KafkaPython, deadline: Deadline, groups: Sequence[str]
) -> GroupTypeAnswer[ShareGroup]:
    """Each of ``groups`` described as a share group (members, assignments, state, epochs)."""
    answers = ask_coordinators(kafka_python, deadline, groups, DESCRIBE)
    return GroupTypeAnswer(group_type="share", groups=answers, unavailable=unavailable(answers, NOT_ENABLED))


def describe_share_group_offsets(
    kafka_python: KafkaPython,
    deadline: Deadline,
    groups: Sequence[str],
    partitions: Sequence[TopicPartition] | None = None,
) -> GroupTypeAnswer[ShareGroupOffsets]:
    """Each of ``groups``' share-partitions (``partitions`` of them, or all when None): start offset,
    leader epoch, the broker's lag (None from a broker before KIP-1226), each partition's error."""
    answers = ask_coordinators(kafka_python, deadline, groups, offsets_request(partitions))
    return GroupTypeAnswer(group_type="share", groups=answers, unavailable=unavailable(answers, NOT_ENABLED))


def share_group(group: str, answer: Any) -> ShareGroup:
    """A ShareGroupDescribe answer for ``group`` as the model (its error kept)."""
    error = group_error(answer)
    if error is not None:
        return ShareGroup(group=group, state=None, error=error)
    members = tuple(
        ShareMember(
            member_id=str(m.member_id),
            client_id=str(m.client_id),
            host=str(m.client_host),
            member_epoch=int(m.member_epoch),
            rack_id=m.rack_id or None,
            subscribed=tuple(m.subscribed_topic_names),
            assigned=assigned_partitions(m.assignment),
        )
        for m in answer.members
    )
    return ShareGroup(
        group=group,
        state=state_name(answer.group_state),
        group_epoch=int(answer.group_epoch),
        assignment_epoch=int(answer.assignment_epoch),
        assignor=str(answer.assignor_name),
        members=members,
    )


def share_offsets(group: str, answer: Any) -> ShareGroupOffsets:
    """A DescribeShareGroupOffsets answer for ``group`` as the model: its share-partitions in
    (topic, partition) order, each with its own error; the group's error alone when it has one."""
    error = group_error(answer)
    if error is not None:
        return ShareGroupOffsets(group=group, error=error)
    partitions = [
        SharePartition(
            partition=TopicPartition(t.topic_name, int(p.partition_index)),
            start_offset=None if p.start_offset < 0 else int(p.start_offset),
            # a partition without a start offset answers epoch 0: Kafka's admin shows neither
            leader_epoch=None if p.start_offset < 0 or p.leader_epoch < 0 else int(p.leader_epoch),
            lag=_lag(p),
            error=code_name(p.error_code) if p.error_code else None,
        )
        for t in answer.topics
        for p in t.partitions
    ]
    return ShareGroupOffsets(group=group, partitions=tuple(sorted(partitions, key=lambda s: s.partition)))


def _lag(partition: Any) -> int | None:
    lag = getattr(partition, "lag", -1)  # v0 has no lag: its default, -1
    return None if lag is None or lag < 0 else int(lag)


def _describe_request(groups: list[str]) -> Any:
    return ShareGroupDescribeRequest(
        group_ids=groups, include_authorized_operations=False, min_version=1, max_version=1
    )


def offsets_request(partitions: Sequence[TopicPartition] | None) -> GroupRequest[ShareGroupOffsets]:
    """How DescribeShareGroupOffsets asks a coordinator for its groups (``partitions`` or all)."""
    group_cls = DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestGroup
    topic_cls = group_cls.DescribeShareGroupOffsetsRequestTopic
    topics = None
    if partitions is not None:
        by_topic: dict[str, list[int]] = {}
        for tp in partitions:
            by_topic.setdefault(tp[0], []).append(tp[1])
        topics = [topic_cls(topic_name=t, partitions=sorted(set(ps))) for t, ps in by_topic.items()]

    def request(groups: list[str]) -> Any:
        return DescribeShareGroupOffsetsRequest(
            groups=[group_cls(group_id=g, topics=topics) for g in groups], min_version=0, max_version=1
        )

    return GroupRequest(
        request=request,
        answered=share_offsets,
        failed=lambda g, e: ShareGroupOffsets(group=g, error=e),
        error=lambda r: r.error,
    )


DESCRIBE: GroupRequest[ShareGroup] = GroupRequest(
    request=_describe_request,
    answered=share_group,
    failed=lambda g, e: ShareGroup(group=g, state=None, error=e),
    error=lambda r: r.error,
)
