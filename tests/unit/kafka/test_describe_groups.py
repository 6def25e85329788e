"""Group descriptions through kafka-python (kafka/describe_groups.py), without a broker.

The mapping of ConsumerGroupDescribe and DescribeGroups answers to the models the librdkafka route
made (states in librdkafka's names, members, assignments, the protocol), the ConsumerGroupDescribe
classes made from Kafka's schema (encoded and decoded back), and one round's routing: each group to
its coordinator, a classic group on to DescribeGroups, each group keeping its own error.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable
from types import SimpleNamespace
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]
import pytest
from kafka.protocol.admin import DescribeGroupsResponse  # type: ignore[import-untyped]
from kafka.protocol.consumer.metadata import ConsumerProtocolAssignment  # type: ignore[import-untyped]

from kafka_offsets_cli.kafka.deadline import Deadline
from kafka_offsets_cli.kafka.describe_groups import (
    ConsumerGroupDescribeRequest,
    ConsumerGroupDescribeResponse,
    _round,
    classic_group,
    consumer_group,
    describe_groups,
    group_state,
)
from kafka_offsets_cli.models.groups import GroupDescription, GroupMembers, Member
from kafka_offsets_cli.models.topics import TopicPartition

T0, T1, U1 = TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 1)


@pytest.mark.parametrize(
    ("wire", "shown"),
    [
        ("Stable", "stable"),
        ("Empty", "empty"),
        ("Dead", "dead"),
        ("PreparingRebalance", "preparing_rebalancing"),  # librdkafka's enum name, as shown before
        ("CompletingRebalance", "completing_rebalancing"),
        ("Assigning", "unknown"),  # KIP-848 states librdkafka's enum has no name for
        ("Reconciling", "unknown"),
        ("", "unknown"),
        (None, None),
    ],
)
def test_states_keep_the_names_librdkafka_gave_them(wire: str | None, shown: str | None) -> None:
    assert group_state(wire) == shown


def _cgd_group(**kw: Any) -> Any:
    g = ConsumerGroupDescribeResponse.DescribedGroup
    m, a, tps = g.Member, g.Member.Assignment, g.Member.Assignment.TopicPartitions
    uuid0 = uuid.UUID(int=7)
    members = [
        m(
            member_id="m1",
            instance_id=None,
            rack_id=None,
            member_epoch=3,
            client_id="c1",
            client_host="/10.0.0.1",
            subscribed_topic_names=["t", "u"],
            subscribed_topic_regex=None,
            assignment=a(topic_partitions=[tps(topic_id=uuid0, topic_name="t", partitions=[1, 0])]),
            target_assignment=a(topic_partitions=[]),
            member_type=1,
        ),
        m(
            member_id="m2",
            instance_id="static-2",
            rack_id=None,
            member_epoch=4,  # a member one epoch ahead of the other
            client_id="c2",
            client_host="/10.0.0.2",
            subscribed_topic_names=["u"],
            subscribed_topic_regex=None,
            assignment=a(topic_partitions=[tps(topic_id=uuid0, topic_name="u", partitions=[1])]),
            # the target is where the member goes, not what it holds: never shown as its assignment
            target_assignment=a(topic_partitions=[tps(topic_id=uuid0, topic_name="t", partitions=[2])]),
            member_type=1,
        ),
    ]
    fields = dict(
        error_code=0,
        error_message=None,
        group_id="kip848",
        group_state="Stable",
        group_epoch=3,
        assignment_epoch=3,
        assignor_name="uniform",
        members=members,
        authorized_operations=-2147483648,
    )
    fields.update(kw)
    return g(**fields)


@pytest.mark.parametrize("version", [0, 1])
def test_a_consumer_group_survives_kafkas_schema_and_maps_to_the_models(version: int) -> None:
    response = ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=[_cgd_group()])
    decoded = ConsumerGroupDescribeResponse.decode(response.encode(version=version), version=version)
    got = consumer_group("kip848", decoded.groups[0])
    assert got == GroupMembers(
        GroupDescription("kip848", "stable", 2, (T0, T1, U1)),
        (
            Member(member_id="m1", client_id="c1", host="/10.0.0.1", assigned=(T1, T0), member_epoch=3),
            Member(
                member_id="m2",
                client_id="c2",
                host="/10.0.0.2",
                instance_id="static-2",
                assigned=(U1,),
                member_epoch=4,
            ),
        ),
        "consumer",
    )


def test_the_request_is_kafkas_api_69_flexible_from_v0() -> None:
    request = ConsumerGroupDescribeRequest(group_ids=["a", "b"], include_authorized_operations=False)
    assert request.API_KEY == 69
    assert ConsumerGroupDescribeRequest.decode(request.encode(version=1), version=1).group_ids == ["a", "b"]


def test_a_consumer_group_error_is_the_groups_own() -> None:
    got = consumer_group("g", _cgd_group(error_code=30, members=[]))
    assert got == GroupMembers(GroupDescription("g", None, 0, (), "GROUP_AUTHORIZATION_FAILED"))
    assert consumer_group("g", None).description.error == "COORDINATOR_NOT_AVAILABLE"


def _classic(protocol_type: str, assignments: list[bytes], state: str = "Stable", error: int = 0) -> Any:
    g = DescribeGroupsResponse.DescribedGroup
    members = [
        g.DescribedGroupMember(
            member_id=f"m{i}",
            group_instance_id=None,
            client_id=f"c{i}",
            client_host=f"/10.0.1.{i}",
            member_metadata=b"",
            member_assignment=data,
        )
        for i, data in enumerate(assignments)
    ]
    return g(
        error_code=error,
        group_id="classic",
        group_state=state,
        protocol_type=protocol_type,
        protocol_data="range",
        members=members,
        authorized_operations=-2147483648,
    )


def _assignment(version: int, parts: list[tuple[str, list[int]]]) -> bytes:
    data = ConsumerProtocolAssignment(version=version, assigned_partitions=parts, user_data=b"")
    return bytes(data.encode())


def test_a_classic_groups_assignments_are_decoded_from_the_consumer_protocol() -> None:
    answer = _classic("consumer", [_assignment(0, [("t", [0, 1])]), _assignment(3, [("u", [1])]), b""])
    got = classic_group("classic", answer)
    assert got.description == GroupDescription("classic", "stable", 3, (T0, T1, U1))
    assert [m.assigned for m in got.members] == [(T0, T1), (U1,), ()]
    assert got.members[0] == Member(member_id="m0", client_id="c0", host="/10.0.1.0", assigned=(T0, T1))
    assert got.protocol == "classic"


def test_another_protocols_or_unreadable_bytes_are_no_assignment() -> None:
    connect = classic_group("classic", _classic("connect", [_assignment(0, [("t", [0])])]))
    assert connect.members[0].assigned == () and connect.description.members == 1
    garbled = classic_group("classic", _classic("consumer", [b"\x00\x00\x00\x09ab"]))
    assert garbled.members[0].assigned == ()


def test_a_group_that_does_not_exist_is_dead_without_an_error() -> None:
    """DescribeGroups v5 says ``Dead`` for it, as librdkafka's describe did (lag: GROUP_ID_NOT_FOUND)."""
    got = classic_group("classic", _classic("", [], state="Dead"))
    assert got.description == GroupDescription("classic", "dead", 0, ())


class FakeCoordinators:
    """FindCoordinator, ConsumerGroupDescribe and DescribeGroups answers: node 2 is frozen, node 3 is
    a broker before 4.0 (no ConsumerGroupDescribe)."""

    def __init__(self, nodes: dict[str, int], consumer: set[str]) -> None:
        self.nodes, self.consumer = nodes, consumer
        self.sent: list[tuple[str, int | None, list[str]]] = []

    def send(self, request: Any, node_id: int | None, timeout_ms: int) -> Awaitable[Any]:
        if request.API_KEY == 10:
            self.sent.append(("find", node_id, list(request.coordinator_keys)))
            found = [
                SimpleNamespace(key=g, node_id=self.nodes.get(g, -1), error_code=0 if g in self.nodes else 15)
                for g in request.coordinator_keys
            ]
            return _answer(SimpleNamespace(coordinators=found))
        if node_id == 2:
            return _fail(kerrors.KafkaTimeoutError("frozen"))
        if request.API_KEY == 69:
            self.sent.append(("cgd", node_id, list(request.group_ids)))
            if node_id == 3:
                return _fail(kerrors.IncompatibleBrokerVersion("no ConsumerGroupDescribe"))
            groups = [
                _cgd_group(group_id=g, error_code=0 if g in self.consumer else 69) for g in request.group_ids
            ]
            return _answer(SimpleNamespace(groups=groups))
        self.sent.append(("describe", node_id, list(request.groups)))
        answers = [
            _classic("consumer", [], state="Empty", error=16 if g == "moved" else 0) for g in request.groups
        ]
        for g, a in zip(request.groups, answers, strict=True):
            a.group_id = g
        return _answer(SimpleNamespace(groups=answers))


async def _answer(value: Any) -> Any:
    return value


async def _fail(e: BaseException) -> Any:
    raise e


def test_one_request_per_coordinator_and_every_group_keeps_its_own_answer() -> None:
    fake = FakeCoordinators({"new": 1, "old": 1, "frozen": 2, "pre4": 3, "moved": 1}, consumer={"new"})
    groups = ["new", "old", "frozen", "pre4", "moved", "lost"]
    got, lookup_failed = asyncio.run(_round(fake, groups, 5000))  # type: ignore[arg-type]
    assert not lookup_failed
    assert fake.sent[0] == ("find", None, groups)  # one batched lookup
    assert sorted(fake.sent[1:]) == [
        ("cgd", 1, ["new", "old", "moved"]),
        ("cgd", 3, ["pre4"]),
        ("describe", 1, ["old", "moved"]),  # classic (or no such group): on to DescribeGroups
        ("describe", 3, ["pre4"]),  # no ConsumerGroupDescribe: every group is classic
    ]
    assert list(got) == groups
    assert got["new"].protocol == "consumer" and got["new"].description.members == 2
    assert got["old"].protocol == "classic" and got["old"].description.state == "empty"
    assert got["pre4"].description == GroupDescription("pre4", "empty", 0, ())
    assert got["frozen"].description.error == "REQUEST_TIMED_OUT"  # the frozen coordinator's groups only
    # (not asked again: the offsets fetch waited for it already, the rest of the run needs the time)
    assert got["moved"].description.error == "NOT_COORDINATOR"  # asked again by describe_groups
    assert got["lost"].description.error == "COORDINATOR_NOT_AVAILABLE"


class MovingCoordinator(FakeCoordinators):
    """The first DescribeGroups answers ``NOT_COORDINATOR`` for "moved" (its coordinator moved), the
    next ones describe it."""

    def __init__(self) -> None:
        super().__init__({"moved": 1, "new": 1}, consumer={"new"})
        self.moves = 1

    def send(self, request: Any, node_id: int | None, timeout_ms: int) -> Awaitable[Any]:
        if request.API_KEY != 15 or self.moves:
            self.moves -= request.API_KEY == 15
            return super().send(request, node_id, timeout_ms)
        self.sent.append(("describe", node_id, list(request.groups)))
        described = _classic("consumer", [], state="Empty")
        described.group_id = "moved"
        return _answer(SimpleNamespace(groups=[described]))

    def route(self) -> MovingCoordinator:
        return self

    def run(self, coro_fn: Any, *args: Any, timeout_s: float) -> Any:
        return asyncio.run(coro_fn(*args))


def test_a_moved_coordinator_is_asked_again_with_fresh_coordinators() -> None:
    fake = MovingCoordinator()
    got = describe_groups(fake, Deadline(10), ["new", "moved", "new"])  # type: ignore[arg-type]
    assert list(got) == ["new", "moved"]
    assert got["moved"].description == GroupDescription("moved", "empty", 0, ())
    assert [s[0] for s in fake.sent] == ["find", "cgd", "describe", "find", "cgd", "describe"]
    assert fake.sent[3] == ("find", None, ["moved"])  # only the group that failed, coordinator anew
