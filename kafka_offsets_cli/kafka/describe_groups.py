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
from typing import Any

from kafka.protocol.admin import DescribeGroupsRequest  # type: ignore[import-untyped]
from kafka.protocol.api_message import ApiMessage  # type: ignore[import-untyped]
from kafka.protocol.consumer.metadata import ConsumerProtocolAssignment  # type: ignore[import-untyped]
from kafka.protocol.metadata import FindCoordinatorRequest  # type: ignore[import-untyped]

from ..models.groups import GroupDescription, GroupMembers, Member
from ..models.topics import TopicPartition
from .deadline import FIRST_ATTEMPT_S, MIN_REQUEST_S, Deadline
from .errors import COORDINATOR_NOT_READY
from .kafka_python import KafkaPython, RequestError, Route, code_name, error_name
from .settings import log


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
    wanted = list(dict.fromkeys(groups))
    if not wanted:
        return {}
    route = kafka_python.route()
    final: dict[str, GroupMembers] = {}
    pending, backoff, limit = wanted, 0.1, FIRST_ATTEMPT_S
    while pending:
        timeout = deadline.request_timeout(limit)
        limit *= 2
        answers, lookup_failed = route.run(_round, route, pending, int(timeout * 1000), timeout_s=timeout)
        final.update(answers)
        pending = [
            g for g, r in answers.items() if lookup_failed or r.description.error in COORDINATOR_NOT_READY
        ]
        if not pending or deadline.remaining() <= backoff:
            break
        log.debug("asking again for the description of %d group(s)", len(pending))
        time.sleep(backoff)
        backoff = min(backoff * 2, 1.0)
    return {g: final[g] for g in wanted}


async def _round(
    route: Route, groups: Sequence[str], timeout_ms: int
) -> tuple[dict[str, GroupMembers], bool]:
    """One attempt: the coordinators, then per coordinator ConsumerGroupDescribe, then DescribeGroups;
    each group's answer, and whether the coordinator lookup itself failed.

    The three steps share ``timeout_ms`` (each gets what is left, at least
    :data:`~.deadline.MIN_REQUEST_S`): the round ends within the time its caller waits for it.
    """
    end = time.monotonic() + timeout_ms / 1000
    try:
        found = await route.send(
            FindCoordinatorRequest(key_type=0, coordinator_keys=list(groups), min_version=4), None, timeout_ms
        )
    except RequestError as e:
        return {g: failed(g, error_name(e)) for g in groups}, True
    out: dict[str, GroupMembers] = {}
    by_node: dict[int, list[str]] = {}
    for c in found.coordinators:
        if c.error_code:
            out[c.key] = failed(c.key, code_name(c.error_code))
        else:
            by_node.setdefault(int(c.node_id), []).append(c.key)
    classic: dict[int, list[str]] = {}
    for node, node_groups, answer in await _each(route, by_node, _consumer_request, _left(end)):
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
    for _, node_groups, answer in await _each(route, classic, _classic_request, _left(end)):
        if isinstance(answer, str):
            out.update({g: failed(g, answer) for g in node_groups})
            continue
        answered = {a.group_id: a for a in answer.groups}
        out.update({g: classic_group(g, answered.get(g)) for g in node_groups})
    return {g: out.get(g) or failed(g, "COORDINATOR_NOT_AVAILABLE") for g in groups}, False


def _left(end: float) -> int:
    """Milliseconds left of a round that ends at ``end`` (monotonic), at least MIN_REQUEST_S."""
    return int(max(MIN_REQUEST_S, end - time.monotonic()) * 1000)


def _consumer_request(groups: list[str]) -> Any:
    return ConsumerGroupDescribeRequest(group_ids=groups, include_authorized_operations=False, max_version=1)


def _classic_request(groups: list[str]) -> Any:
    return DescribeGroupsRequest(groups=groups, include_authorized_operations=False, max_version=5)


async def _each(
    route: Route, by_node: dict[int, list[str]], request: Callable[[list[str]], Any], timeout_ms: int
) -> list[tuple[int, list[str], Any]]:
    """``request(groups)`` sent to each node at once; each node's answer, or its error's name."""
    sent: list[tuple[int, list[str], Any]] = []
    for node, node_groups in by_node.items():
        try:
            sent.append((node, node_groups, route.send(request(node_groups), node, timeout_ms)))
        except RequestError as e:  # kafka-python reports most on the future; never lose the others
            sent.append((node, node_groups, error_name(e)))
    out: list[tuple[int, list[str], Any]] = []
    for node, node_groups, future in sent:
        if isinstance(future, str):
            out.append((node, node_groups, future))
            continue
        try:
            out.append((node, node_groups, await future))
        except RequestError as e:
            out.append((node, node_groups, error_name(e)))
    return out


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
    if answer is None:
        return failed(group, "COORDINATOR_NOT_AVAILABLE")
    if answer.error_code:
        return failed(group, code_name(answer.error_code))
    members = tuple(
        Member(
            str(m.member_id),
            str(m.client_id),
            str(m.client_host),
            m.instance_id or None,
            tuple(
                TopicPartition(t.topic_name, p)
                for t in (m.assignment.topic_partitions if m.assignment is not None else ())
                for p in t.partitions
            ),
        )
        for m in answer.members
    )
    return _described(group, group_state(answer.group_state), members, "consumer")


def classic_group(group: str, answer: Any) -> GroupMembers:
    """A DescribeGroups answer (classic group, or ``dead`` when none): assignments decoded from the
    members' consumer-protocol bytes (another protocol's, e.g. Connect's, are not partitions)."""
    if answer is None:
        return failed(group, "COORDINATOR_NOT_AVAILABLE")
    if answer.error_code:
        return failed(group, code_name(answer.error_code))
    decode = answer.protocol_type in ("consumer", "")
    members = tuple(
        Member(
            str(m.member_id),
            str(m.client_id),
            str(m.client_host),
            m.group_instance_id or None,
            _assignment(m.member_assignment) if decode else (),
        )
        for m in answer.members
    )
    return _described(group, group_state(answer.group_state), members, "classic")


def _assignment(data: bytes | None) -> tuple[TopicPartition, ...]:
    """A classic member's assignment (ConsumerProtocolAssignment bytes); none when unreadable."""
    if not data:
        return ()
    try:
        decoded = ConsumerProtocolAssignment.decode(data)
    except Exception:
        return ()
    return tuple(TopicPartition(tp.topic, tp.partition) for tp in decoded.partitions())


def _described(group: str, state: str | None, members: tuple[Member, ...], protocol: str) -> GroupMembers:
    assigned = tuple(sorted({tp for m in members for tp in m.assigned}))
    return GroupMembers(GroupDescription(group, state, len(members), assigned), members, protocol)
