"""Share and streams groups through kafka-python (kafka/share_groups.py, streams_groups.py,
coordinated.py), without a broker.

Answers built from Kafka's schemas, sent through the wire format at each version, mapped to the
models; one request per coordinator with each group keeping its own error; a cluster without the
feature one per-type answer, not an error for the run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from types import SimpleNamespace
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]
import pytest

from kafka_offsets_cli.kafka import group_messages as gm
from kafka_offsets_cli.kafka import share_groups
from kafka_offsets_cli.kafka.coordinated import one_round
from kafka_offsets_cli.kafka.deadline import Deadline
from kafka_offsets_cli.kafka.share_groups import (
    NOT_ENABLED,
    describe_share_group_offsets,
    describe_share_groups,
    offsets_request,
    share_group,
    share_offsets,
    state_name,
)
from kafka_offsets_cli.kafka.streams_groups import NOT_AVAILABLE, describe_streams_groups, streams_group
from kafka_offsets_cli.models.group_descriptions import (
    ShareGroup,
    ShareMember,
    StreamsMember,
    StreamsTasks,
    Subtopology,
)
from kafka_offsets_cli.models.group_types import ShareGroupOffsets, SharePartition
from kafka_offsets_cli.models.topics import TopicPartition
from tests.unit.kafka.test_group_messages import (
    offsets_response,
    round_trip,
    share_describe_response,
    streams_response,
)


@pytest.mark.parametrize(
    ("wire", "shown"),
    [
        ("Stable", "stable"),
        ("Empty", "empty"),
        ("NotReady", "not_ready"),
        ("Dead", "dead"),
        ("", None),
        (None, None),
    ],
)
def test_states_in_the_tools_form(wire: str | None, shown: str | None) -> None:
    assert state_name(wire) == shown


def test_a_share_group_maps_to_the_model() -> None:
    decoded = round_trip(share_describe_response(), 1).groups[0]
    assert share_group("sg", decoded) == ShareGroup(
        group="sg",
        state="stable",
        group_epoch=4,
        assignment_epoch=4,
        assignor="simple",
        members=(
            ShareMember(
                member_id="m1",
                client_id="c1",
                host="/127.0.0.1",
                member_epoch=4,
                subscribed=("t",),
                assigned=(TopicPartition("t", 0), TopicPartition("t", 1)),
            ),
        ),
    )
    assert share_group("sg", None).error == "COORDINATOR_NOT_AVAILABLE"
    denied = SimpleNamespace(error_code=30)
    assert share_group("sg", denied) == ShareGroup(group="sg", state=None, error="GROUP_AUTHORIZATION_FAILED")


@pytest.mark.parametrize(("version", "lag"), [(0, None), (1, 11)])
def test_share_offsets_map_to_the_model_the_lag_from_v1(version: int, lag: int | None) -> None:
    answer = offsets_response(11)
    p = answer.groups[0].topics[0].partitions[0]
    t = answer.groups[0].topics[0]
    # a partition of the group with no start offset yet, and one with its own error
    t.partitions = [
        p,
        type(p)(partition_index=0, start_offset=-1, leader_epoch=0, lag=-1, error_code=0, error_message=None),
        type(p)(
            partition_index=1, start_offset=0, leader_epoch=0, lag=0, error_code=29, error_message="denied"
        ),
    ]
    got = share_offsets("sg", round_trip(answer, version).groups[0])
    assert got == ShareGroupOffsets(
        group="sg",
        partitions=(
            SharePartition(partition=TopicPartition("t", 0), start_offset=None, leader_epoch=None, lag=None),
            SharePartition(
                partition=TopicPartition("t", 1),
                start_offset=0,
                leader_epoch=0,
                lag=0 if version else None,
                error="TOPIC_AUTHORIZATION_FAILED",
            ),
            SharePartition(partition=TopicPartition("t", 3), start_offset=17, leader_epoch=2, lag=lag),
        ),
    )
    answer.groups[0].error_code = 69
    assert share_offsets("sg", answer.groups[0]) == ShareGroupOffsets(group="sg", error="GROUP_ID_NOT_FOUND")


def test_the_offsets_request_asks_for_all_or_some_partitions() -> None:
    every = offsets_request(None).request(["a", "b"])
    assert [(g.group_id, g.topics) for g in every.groups] == [("a", None), ("b", None)]
    some = offsets_request([TopicPartition("t", 2), TopicPartition("u", 0), TopicPartition("t", 0)]).request(
        ["a"]
    )
    assert [(t.topic_name, list(t.partitions)) for t in some.groups[0].topics] == [("t", [0, 2]), ("u", [0])]


def test_a_streams_group_maps_to_the_model_inputs_and_repartition_topics_apart() -> None:
    got = streams_group("app", round_trip(streams_response(), 0).groups[0])
    assert (got.state, got.group_epoch, got.assignment_epoch, got.topology_epoch) == ("stable", 6, 6, 1)
    assert got.subtopologies == (
        Subtopology(subtopology="0", source_topics=("in",), repartition_sink_topics=("app-rp-repartition",)),
        Subtopology(
            subtopology="1",
            source_topics=("app-rp-repartition",),
            repartition_source_topics=("app-rp-repartition",),
            changelog_topics=("app-store-changelog",),
        ),
    )
    assert (got.input_topics, got.repartition_topics) == (("in",), ("app-rp-repartition",))
    assert got.members == (
        StreamsMember(
            member_id="m1",
            client_id="app-1-StreamThread-1",
            host="/127.0.0.1",
            member_epoch=6,
            process_id="p-1",
            topology_epoch=1,
            active=(
                StreamsTasks(subtopology="0", partitions=(0, 1)),
                StreamsTasks(subtopology="1", partitions=(1,)),
            ),
            standby=(StreamsTasks(subtopology="1", partitions=(0,)),),
        ),
    )


def test_a_streams_group_without_a_topology_yet_and_one_in_error() -> None:
    g = gm.StreamsGroupDescribeResponse.DescribedGroup
    empty = streams_group("app", round_trip(streams_response(topology=None, members=[]), 0).groups[0])
    assert (empty.subtopologies, empty.topology_epoch, empty.input_topics) == (None, -1, ())
    uninitialized = streams_response(topology=g.Topology(epoch=0, subtopologies=None), group_state="NotReady")
    got = streams_group("app", round_trip(uninitialized, 0).groups[0])
    assert (got.state, got.subtopologies, got.topology_epoch) == ("not_ready", None, 0)
    failed = streams_group("app", round_trip(streams_response(error_code=69, topology=None), 0).groups[0])
    assert (failed.state, failed.error, failed.members) == (None, "GROUP_ID_NOT_FOUND", ())


class FakeCluster:
    """FindCoordinator and group answers: node 1 answers, node 2 is frozen, node 3 lacks the API
    (kafka-python's IncompatibleBrokerVersion), node 4 answers it UNSUPPORTED_VERSION per group."""

    def __init__(self, nodes: dict[str, int]) -> None:
        self.nodes = nodes
        self.sent: list[tuple[int, int | None, list[str]]] = []

    def send(self, request: Any, node_id: int | None, timeout_ms: int) -> Awaitable[Any]:
        if request.API_KEY == 10:
            self.sent.append((10, node_id, list(request.coordinator_keys)))
            found = [
                SimpleNamespace(key=g, node_id=self.nodes.get(g, -1), error_code=0 if g in self.nodes else 15)
                for g in request.coordinator_keys
            ]
            return _answer(SimpleNamespace(coordinators=found))
        groups = [g.group_id for g in request.groups] if request.API_KEY == 90 else list(request.group_ids)
        self.sent.append((request.API_KEY, node_id, groups))
        if node_id == 2:
            return _fail(kerrors.KafkaTimeoutError("frozen"))
        if node_id == 3:
            return _fail(kerrors.IncompatibleBrokerVersion("no such API"))
        code = 35 if node_id == 4 else 0
        make = {77: share_describe_response, 89: streams_response}.get(
            request.API_KEY, lambda: offsets_response(3)
        )
        return _answer(SimpleNamespace(groups=[_as(make().groups[0], g, code) for g in groups]))

    def route(self) -> FakeCluster:
        return self

    def run(self, coro_fn: Any, *args: Any, timeout_s: float) -> Any:
        return asyncio.run(coro_fn(*args))


def _as(described: Any, group: str, code: int) -> Any:
    described.group_id, described.error_code = group, code
    return described


async def _answer(value: Any) -> Any:
    return value


async def _fail(e: BaseException) -> Any:
    raise e


def test_one_request_per_coordinator_each_group_its_own_answer() -> None:
    fake = FakeCluster({"a": 1, "b": 1, "frozen": 2})
    groups = ["a", "frozen", "b", "lost"]
    got, lookup_failed = asyncio.run(one_round(fake, groups, share_groups.DESCRIBE, 5000))  # type: ignore[arg-type]
    assert not lookup_failed
    assert sorted(fake.sent) == [
        (10, None, ["a", "frozen", "b", "lost"]),
        (77, 1, ["a", "b"]),
        (77, 2, ["frozen"]),
    ]
    assert list(got) == ["a", "frozen", "b", "lost"]
    assert got["a"].state == "stable" and got["a"].members[0].member_id == "m1"
    assert got["frozen"] == ShareGroup(group="frozen", state=None, error="REQUEST_TIMED_OUT")
    assert got["lost"].error == "COORDINATOR_NOT_AVAILABLE"


@pytest.mark.parametrize("node", [3, 4])  # the API absent from ApiVersions; UNSUPPORTED_VERSION answered
def test_a_cluster_without_share_groups_is_one_answer_for_the_type(node: int) -> None:
    fake = FakeCluster({"a": node, "b": node})
    got = describe_share_groups(fake, Deadline(10), ["a", "b", "a"])  # type: ignore[arg-type]
    assert (got.group_type, got.unavailable, list(got.groups)) == ("share", NOT_ENABLED, ["a", "b"])
    assert {g.error for g in got.groups.values()} == {"UNSUPPORTED_VERSION"}
    offsets = describe_share_group_offsets(fake, Deadline(10), ["a"])  # type: ignore[arg-type]
    assert offsets.unavailable == NOT_ENABLED and offsets.groups["a"].error == "UNSUPPORTED_VERSION"
    streams = describe_streams_groups(fake, Deadline(10), ["a"])  # type: ignore[arg-type]
    assert (streams.group_type, streams.unavailable) == ("streams", NOT_AVAILABLE)


def test_a_cluster_with_them_answers_per_group() -> None:
    fake = FakeCluster({"a": 1, "b": 1})
    shares = describe_share_groups(fake, Deadline(10), ["a"])  # type: ignore[arg-type]
    assert shares.unavailable is None and shares.groups["a"].state == "stable"
    offsets = describe_share_group_offsets(fake, Deadline(10), ["a", "b"])  # type: ignore[arg-type]
    assert offsets.unavailable is None
    assert [p.lag for p in offsets.groups["b"].partitions] == [3]
    streams = describe_streams_groups(fake, Deadline(10), ["b"])  # type: ignore[arg-type]
    assert streams.unavailable is None and streams.groups["b"].input_topics == ("in",)
    assert [s[0] for s in fake.sent] == [10, 77, 10, 90, 10, 89]


class MovingCoordinator(FakeCluster):
    """The first describe answers NOT_COORDINATOR (the coordinator moved); the next one describes."""

    def __init__(self) -> None:
        super().__init__({"moved": 1})
        self.moves = 1

    def send(self, request: Any, node_id: int | None, timeout_ms: int) -> Awaitable[Any]:
        if request.API_KEY == 89 and self.moves:
            self.moves -= 1
            self.sent.append((89, node_id, list(request.group_ids)))
            return _answer(SimpleNamespace(groups=[_as(streams_response().groups[0], "moved", 16)]))
        return super().send(request, node_id, timeout_ms)


def test_a_moved_coordinator_is_asked_again() -> None:
    fake = MovingCoordinator()
    got = describe_streams_groups(fake, Deadline(10), ["moved"])  # type: ignore[arg-type]
    assert got.groups["moved"].error is None and got.groups["moved"].state == "stable"
    assert [s[0] for s in fake.sent] == [10, 89, 10, 89]
