"""The share-group and streams-group messages made from Kafka 4.3.1's schemas (kafka/group_messages.py).

Each request and response, for each version Kafka 4.3.1 defines, encoded and decoded back equal to
what was built; the fields a version lacks take the schema's default; and
the choice between kafka-python's own class and the schema's, both ways.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types
import uuid
from typing import Any

import pytest
from kafka.protocol.api_message import ApiMessage  # type: ignore[import-untyped]

from kafka_offsets_cli.kafka import group_messages as gm

U = uuid.UUID(int=42)


def round_trip(message: Any, version: int) -> Any:
    """``message`` encoded at ``version`` and decoded back (what the broker would read or send)."""
    return type(message).decode(bytes(message.encode(version=version)), version=version)


def _same(a: Any, b: Any) -> bool:
    return bool(a.to_dict() == b.to_dict())


def share_describe_response() -> Any:
    g = gm.ShareGroupDescribeResponse.DescribedGroup
    m, a = g.Member, g.Member.Assignment
    member = m(
        member_id="m1",
        rack_id=None,
        member_epoch=4,
        client_id="c1",
        client_host="/127.0.0.1",
        subscribed_topic_names=["t"],
        assignment=a(topic_partitions=[a.TopicPartitions(topic_id=U, topic_name="t", partitions=[0, 1])]),
    )
    group = g(
        error_code=0,
        error_message=None,
        group_id="sg",
        group_state="Stable",
        group_epoch=4,
        assignment_epoch=4,
        assignor_name="simple",
        members=[member],
        authorized_operations=-2147483648,
    )
    return gm.ShareGroupDescribeResponse(throttle_time_ms=0, groups=[group])


def test_share_group_describe_is_api_77_v1_only() -> None:
    request = gm.ShareGroupDescribeRequest(group_ids=["a", "b"], include_authorized_operations=True)
    assert (request.API_KEY, gm.ShareGroupDescribeRequest.max_version) == (77, 1)
    assert gm.ShareGroupDescribeRequest.valid_versions == (1, 1)  # v0 (4.0's early access) is gone
    back = round_trip(request, 1)
    assert (back.group_ids, back.include_authorized_operations) == (["a", "b"], True)
    response = share_describe_response()
    back = round_trip(response, 1)
    assert _same(back, response)
    member = back.groups[0].members[0]
    assert member.assignment.topic_partitions[0].topic_id == U
    assert list(member.assignment.topic_partitions[0].partitions) == [0, 1]


def offsets_response(lag: int) -> Any:
    g = gm.DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseGroup
    t = g.DescribeShareGroupOffsetsResponseTopic
    p = t.DescribeShareGroupOffsetsResponsePartition
    partition = p(
        partition_index=3, start_offset=17, leader_epoch=2, lag=lag, error_code=0, error_message=None
    )
    topic = t(topic_name="t", topic_id=U, partitions=[partition])
    group = g(group_id="sg", topics=[topic], error_code=0, error_message=None)
    return gm.DescribeShareGroupOffsetsResponse(throttle_time_ms=5, groups=[group])


@pytest.mark.parametrize(("version", "lag"), [(0, -1), (1, 11)])
def test_describe_share_group_offsets_v0_and_v1_the_lag_only_in_v1(version: int, lag: int) -> None:
    g = gm.DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestGroup
    request = gm.DescribeShareGroupOffsetsRequest(
        groups=[
            g(group_id="all", topics=None),
            g(
                group_id="some",
                topics=[g.DescribeShareGroupOffsetsRequestTopic(topic_name="t", partitions=[0, 2])],
            ),
        ]
    )
    assert (request.API_KEY, gm.DescribeShareGroupOffsetsRequest.max_version) == (90, 1)
    back = round_trip(request, version)
    assert back.groups[0].topics is None  # null: every share-partition of the group
    assert back.groups[1].topics[0].topic_name == "t" and list(back.groups[1].topics[0].partitions) == [0, 2]
    decoded = round_trip(offsets_response(11), version).groups[0].topics[0].partitions[0]
    assert (decoded.start_offset, decoded.leader_epoch, decoded.lag) == (17, 2, lag)  # v0: the default


def test_streams_group_describe_is_api_89_v0() -> None:
    request = gm.StreamsGroupDescribeRequest(group_ids=["app"], include_authorized_operations=False)
    assert (request.API_KEY, gm.StreamsGroupDescribeRequest.max_version) == (89, 0)
    assert round_trip(request, 0).group_ids == ["app"]
    response = streams_response()
    assert _same(round_trip(response, 0), response)


def streams_response(**kw: Any) -> Any:
    """A StreamsGroupDescribe answer: one group, two subtopologies (the second reads a repartition
    topic the first writes), one member (an endpoint at port 65535: the schema's uint16)."""
    g = gm.StreamsGroupDescribeResponse.DescribedGroup
    sub, m = g.Topology.Subtopology, g.Member
    info = sub.TopicInfo
    ids = m.Assignment.TaskIds
    subtopologies = [
        sub(
            subtopology_id="0",
            source_topics=["in"],
            repartition_sink_topics=["app-rp-repartition"],
            state_changelog_topics=[],
            repartition_source_topics=[],
        ),
        sub(
            subtopology_id="1",
            source_topics=["app-rp-repartition"],
            repartition_sink_topics=[],
            state_changelog_topics=[
                info(name="app-store-changelog", partitions=0, replication_factor=0, topic_configs=[])
            ],
            repartition_source_topics=[
                info(
                    name="app-rp-repartition",
                    partitions=2,
                    replication_factor=1,
                    topic_configs=[info.KeyValue(key="cleanup.policy", value="delete")],
                )
            ],
        ),
    ]
    member = m(
        member_id="m1",
        member_epoch=6,
        instance_id=None,
        rack_id=None,
        client_id="app-1-StreamThread-1",
        client_host="/127.0.0.1",
        topology_epoch=1,
        process_id="p-1",
        user_endpoint=m.Endpoint(host="localhost", port=65535),
        client_tags=[m.KeyValue(key="zone", value="a")],
        task_offsets=[m.TaskOffset(subtopology_id="1", partition=0, offset=9)],
        task_end_offsets=[],
        assignment=m.Assignment(
            active_tasks=[
                ids(subtopology_id="0", partitions=[0, 1]),
                ids(subtopology_id="1", partitions=[1]),
            ],
            standby_tasks=[ids(subtopology_id="1", partitions=[0])],
            warmup_tasks=[],
        ),
        target_assignment=m.Assignment(active_tasks=[], standby_tasks=[], warmup_tasks=[]),
        is_classic=False,
    )
    fields: dict[str, Any] = dict(
        error_code=0,
        error_message=None,
        group_id="app",
        group_state="Stable",
        group_epoch=6,
        assignment_epoch=6,
        topology=g.Topology(epoch=1, subtopologies=subtopologies),
        members=[member],
        authorized_operations=-2147483648,
    )
    fields.update(kw)
    return gm.StreamsGroupDescribeResponse(throttle_time_ms=0, groups=[g(**fields)])


def test_alter_and_delete_share_group_offsets_are_apis_91_and_92_v0() -> None:
    alter = gm.AlterShareGroupOffsetsRequest
    topic = alter.AlterShareGroupOffsetsRequestTopic
    request = alter(
        group_id="sg",
        topics=[
            topic(
                topic_name="t",
                partitions=[topic.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=5)],
            )
        ],
    )
    assert (request.API_KEY, alter.max_version) == (91, 0)
    assert _same(round_trip(request, 0), request)
    rt = gm.AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponseTopic
    answer = gm.AlterShareGroupOffsetsResponse(
        throttle_time_ms=0,
        error_code=0,
        error_message=None,
        responses=[
            rt(
                topic_name="t",
                topic_id=U,
                partitions=[
                    rt.AlterShareGroupOffsetsResponsePartition(
                        partition_index=0, error_code=0, error_message=None
                    )
                ],
            )
        ],
    )
    assert _same(round_trip(answer, 0), answer)
    delete = gm.DeleteShareGroupOffsetsRequest
    request = delete(group_id="sg", topics=[delete.DeleteShareGroupOffsetsRequestTopic(topic_name="t")])
    assert (request.API_KEY, delete.max_version) == (92, 0)
    assert _same(round_trip(request, 0), request)
    dt = gm.DeleteShareGroupOffsetsResponse.DeleteShareGroupOffsetsResponseTopic
    answer = gm.DeleteShareGroupOffsetsResponse(
        throttle_time_ms=0,
        error_code=0,
        error_message=None,
        responses=[dt(topic_name="t", topic_id=U, error_code=0, error_message=None)],
    )
    assert _same(round_trip(answer, 0), answer)


def test_the_schemas_are_kafkas_with_their_license() -> None:
    for cls in (
        gm.ShareGroupDescribeRequest,
        gm.StreamsGroupDescribeResponse,
        gm.DeleteShareGroupOffsetsResponse,
    ):
        assert "Licensed to the Apache Software Foundation" in cls.__license__
        assert cls.__module__ == gm.__name__  # the installed kafka-python has none of its own


def test_kafka_pythons_own_class_is_preferred_when_it_has_one(monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = gm.schema_class("StreamsGroupDescribeRequest")  # a request: no response registry touched
    home = types.ModuleType("kafka.protocol.streams")
    home.StreamsGroupDescribeRequest = theirs  # type: ignore[attr-defined]
    home.ShareGroupDescribeRequest = "not a message class"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "kafka.protocol.streams", home)
    assert gm.kafka_python_class("StreamsGroupDescribeRequest") is theirs
    assert gm.message_class("StreamsGroupDescribeRequest") is theirs
    assert gm.kafka_python_class("ShareGroupDescribeRequest") is None  # by name, and a message class
    ours = gm.message_class("ShareGroupDescribeRequest")
    assert issubclass(ours, ApiMessage) and ours.__module__ == gm.__name__ and ours.API_KEY == 77


def test_without_kafka_pythons_class_the_schemas_is_made() -> None:
    assert gm.kafka_python_class("ShareGroupDescribeRequest") is None
    assert (
        gm.kafka_python_class("DescribeGroupsRequest") is not None
    )  # what a class kafka-python has looks like
    assert gm.kafka_python_class("ShareGroupDescribeRequest", homes=("no.such.module",)) is None


#: a fresh interpreter's names of the module's message classes: after the import, after one class is
#: asked for, and what ``dir`` lists
_FIRST_USE = """
import json
from kafka_offsets_cli.kafka import group_messages as g
def made():
    return sorted(n for n in vars(g) if n.endswith(("Request", "Response")))
before = made()
g.StreamsGroupDescribeRequest
print(json.dumps([before, made(), [n for n in dir(g) if n.endswith(("Request", "Response"))]]))
"""


def test_the_schema_messages_are_made_on_first_use_each_request_with_its_response() -> None:
    """Importing the module (``lag``'s listing does) makes none of the schema classes; asking for one
    makes its request and its response (kafka-python keeps the response only weakly); ``dir`` lists
    them all from the start, and a name the module does not have is an AttributeError."""
    out = subprocess.run([sys.executable, "-c", _FIRST_USE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    before, after, listed = json.loads(out.stdout)
    assert before == ["ListGroupsRequest", "OffsetDeleteRequest"]
    assert after == sorted([*before, "StreamsGroupDescribeRequest", "StreamsGroupDescribeResponse"])
    assert listed == sorted([*before, *(m + k for m in gm.SCHEMA_MESSAGES for k in ("Request", "Response"))])
    with pytest.raises(AttributeError):
        gm.NoSuchRequest  # noqa: B018
