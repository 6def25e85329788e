"""Group descriptions through kafka-python: never librdkafka's DescribeConsumerGroups.

librdkafka's admin DescribeConsumerGroups aborts the process (SIGABRT, librdkafka #3663, #5040)
like its ListConsumerGroupOffsets when a group's coordinator freezes or moves under it; the
coordinator can freeze between the committed offsets (:mod:`.offset_fetch`) and the description,
so descriptions go the same way, through the adapter :mod:`.kafka_python`:

* one FindCoordinator v4+ for all the groups (batched), asked anew each round;
* one ConsumerGroupDescribe (KIP-848, API key 69) per coordinator for all its groups: a
  ``consumer`` group is described by it, a classic or unknown one answers ``GROUP_ID_NOT_FOUND``
  (a broker before 4.0 lacks the request: every group is then classic);
* one DescribeGroups v0-v5 per coordinator for the rest: v5 and before answer a group that does
  not exist ``Dead`` without an error, as librdkafka's describe did (v6 says ``GROUP_ID_NOT_FOUND``);
* each group keeps its own answer or error; a coordinator that is not ready (``NOT_COORDINATOR``,
  ``COORDINATOR_NOT_AVAILABLE``, ``COORDINATOR_LOAD_IN_PROGRESS``), or a coordinator lookup that
  failed, is asked again, with fresh coordinators, while ``--timeout`` lasts. A coordinator that
  does not answer the describe (``REQUEST_TIMED_OUT``) is not: the committed offsets just before
  already waited for it, and the rest of the run (metadata, end offsets) needs what is left of
  ``--timeout`` (asked again, a frozen coordinator took all of it, and the run ended as if the
  whole cluster did not answer).

kafka-python (3.0, and 3.1 to come) has no ConsumerGroupDescribe: its classes are made here from
Kafka's own schema (``ConsumerGroupDescribe{Request,Response}.json`` beside this module), which
kafka-python's message classes read like their own. The answers are mapped to the models the
librdkafka route made, names included (:func:`group_state`), so no caller sees a difference.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kafka.protocol.admin import DescribeGroupsRequest  # type: ignore[import-untyped]
from kafka.protocol.api_message import ApiMessage  # type: ignore[import-untyped]
from kafka.protocol.consumer.metadata import ConsumerProtocolAssignment  # type: ignore[import-untyped]

from ..models.groups import GroupDescription, GroupMembers, Member
from ..models.topics import TopicPartition
from .coordinated import each_node, find_coordinators, in_rounds, left_ms
from .deadline import Deadline
from .kafka_python import KafkaPython, Route, group_error


class ConsumerGroupDescribeRequest(ApiMessage, load_json=__package__):  # type: ignore[misc,call-arg]
    """KIP-848's ConsumerGroupDescribe request (Kafka's schema, v0-v1)."""


class ConsumerGroupDescribeResponse(ApiMessage, load_json=__package__):  # type: ignore[misc,call-arg]
    """KIP-848's ConsumerGroupDescribe response (Kafka's schema, v0-v1)."""


#: Kafka's answer for a group the request does not describe (ConsumerGroupDescribe: not a
#: ``consumer`` group, or no such group).
GROUP_ID_NOT_FOUND = 69
#: Kafka's group states, lower case, as librdkafka's ConsumerGroupState named them (the names the
#: tool has always shown); any other (``Assigning``, ``Reconciling``…) is ``unknown``, as there.
_STATES = {
    "preparingrebalance": "preparing_rebalancing",
    "completingrebalance": "completing_rebalancing",
    "stable": "stable",
    "dead": "dead",
    "empty": "empty",
}


def describe_groups(
    kafka_python: KafkaPython, deadline: Deadline, groups: Sequence[str]
) -> dict[str, GroupMembers]:
    """Each of ``groups`` described (once each, in their order), with its members; errors kept per group."""
    return in_rounds(kafka_python, deadline, groups, _round, lambda r: r.description.error)


async def _round(
    route: Route, groups: Sequence[str], timeout_ms: int
) -> tuple[dict[str, GroupMembers], bool]:
    """One attempt: the coordinators, then per coordinator ConsumerGroupDescribe, then DescribeGroups;
    each group's answer, and whether the coordinator lookup itself failed.

    The three steps share ``timeout_ms`` (each gets what is left, at least
    :data:`~.deadline.MIN_REQUEST_S`): the round ends within the time its caller waits for it.
    """
    end = time.monotonic() + timeout_ms / 1000
    by_node, errors, lookup = await find_coordinators(route, groups, timeout_ms)
    if lookup is not None:
        return {g: failed(g, lookup) for g in groups}, True
    out: dict[str, GroupMembers] = {g: failed(g, e) for g, e in errors.items()}
    classic: dict[int, list[str]] = {}
    for node, node_groups, answer in await each_node(route, by_node, _consumer_request, left_ms(end)):
        if isinstance(answer, str):
            if answer == "UNSUPPORTED_VERSION":  # a broker before 4.0: classic groups only
                classic.setdefault(node, []).extend(node_groups)
            else:
                out.update({g: failed(g, answer) for g in node_groups})
            continue
        answered = {a.group_id: a for a in answer.groups}
        for g in node_groups:
            a = answered.get(g)
            if a is not None and a.error_code == GROUP_ID_NOT_FOUND:
                classic.setdefault(node, []).append(g)
            else:
                out[g] = consumer_group(g, a)
    for _, node_groups, answer in await each_node(route, classic, _classic_request, left_ms(end)):
        if isinstance(answer, str):
            out.update({g: failed(g, answer) for g in node_groups})
            continue
        answered = {a.group_id: a for a in answer.groups}
        out.update({g: classic_group(g, answered.get(g)) for g in node_groups})
    return {g: out.get(g) or failed(g, "COORDINATOR_NOT_AVAILABLE") for g in groups}, False


def _consumer_request(groups: list[str]) -> Any:
    return ConsumerGroupDescribeRequest(group_ids=groups, include_authorized_operations=False, max_version=1)


def _classic_request(groups: list[str]) -> Any:
    return DescribeGroupsRequest(groups=groups, include_authorized_operations=False, max_version=5)


def failed(group: str, error: str) -> GroupMembers:
    """A group whose description failed with ``error`` (Kafka's name)."""
    return GroupMembers(GroupDescription(group, None, 0, (), error))


def group_state(wire: str | None) -> str | None:
    """A state as the coordinator names it (``PreparingRebalance``) as the tool shows it."""
    if wire is None:
        return None
    return _STATES.get(wire.lower(), "unknown")


def consumer_group(group: str, answer: Any) -> GroupMembers:
    """A ConsumerGroupDescribe answer (KIP-848 ``consumer`` group): each member's current assignment."""
    return _members_of(group, answer, "consumer", _consumer_member)


def classic_group(group: str, answer: Any) -> GroupMembers:
    """A DescribeGroups answer (classic group, or ``dead`` when none): assignments decoded from the
    members' consumer-protocol bytes (another protocol's, e.g. Connect's, are not partitions)."""
    decode = answer is not None and answer.protocol_type in ("consumer", "")
    return _members_of(group, answer, "classic", partial(_classic_member, decode=decode))


def _members_of(group: str, answer: Any, protocol: str, member: Callable[[Any], Member]) -> GroupMembers:
    """A describe answer as the group's description and members (``member`` reads one of the
    answer's), or the group's error: the coordinator's, or none reached."""
    error = group_error(answer)
    if error is not None:
        return failed(group, error)
    members = tuple(member(m) for m in answer.members)
    assigned = tuple(sorted({tp for m in members for tp in m.assigned}))
    state = group_state(answer.group_state)
    return GroupMembers(GroupDescription(group, state, len(members), assigned), members, protocol)


def _consumer_member(m: Any) -> Member:
    """A ConsumerGroupDescribe member, with its epoch and its assignment's partitions."""
    return _member(m, m.instance_id, assigned_partitions(m.assignment), member_epoch=int(m.member_epoch))


def assigned_partitions(assignment: Any) -> tuple[TopicPartition, ...]:
    """The partitions of a member's assignment as KIP-848's describes give it (ConsumerGroupDescribe,
    ShareGroupDescribe): topic names, each with its partitions; none when it has no assignment."""
    topics = assignment.topic_partitions if assignment is not None else ()
    return tuple(TopicPartition(t.topic_name, p) for t in topics for p in t.partitions)


def _classic_member(m: Any, *, decode: bool) -> Member:
    """A DescribeGroups member; its assignment only where it is the consumer protocol's (``decode``)."""
    return _member(m, m.group_instance_id, _assignment(m.member_assignment) if decode else ())


def _member(
    m: Any, instance_id: str | None, assigned: tuple[TopicPartition, ...], member_epoch: int | None = None
) -> Member:
    """A described member: ids and host as both describes name them, ``instance_id`` (empty: none)."""
    return Member(
        member_id=str(m.member_id),
        client_id=str(m.client_id),
        host=str(m.client_host),
        instance_id=instance_id or None,
        assigned=assigned,
        member_epoch=member_epoch,
    )


def _assignment(data: bytes | None) -> tuple[TopicPartition, ...]:
    """A classic member's assignment (ConsumerProtocolAssignment bytes); none when unreadable."""
    if not data:
        return ()
    try:
        decoded = ConsumerProtocolAssignment.decode(data)
    except Exception:
        return ()
    return tuple(TopicPartition(tp.topic, tp.partition) for tp in decoded.partitions())
