"""Streams groups through the project's requests (kafka/streams_groups.py) against a real Kafka 4.3.1.

A real Kafka Streams application (``dev/java/StreamsApp.java``, ``group.protocol=streams``, KIP-1071)
makes the group; :func:`describe_streams_groups` and the committed offsets (:func:`fetch_committed`)
are compared value for value with ``kafka-streams-groups.sh --describe`` (StreamsGroupCommand) on
the same data: state, epochs and member count (``--state``), each member with its process, client
and active tasks (``--members``), and, while the application's thread is held on a record with more
behind it, the committed offset, log-end offset and lag per partition (``--offsets``). Once the
application has closed, Kafka's tool shows no offsets at all for the (empty) group; the committed
offsets are still there, and are what ``fetch_committed`` answers.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dev import streams as dev_streams
from dev.kafka_data import create_topic, produce
from kafka_offsets_cli.connection.settings import ClientSettings
from kafka_offsets_cli.kafka.deadline import Deadline
from kafka_offsets_cli.kafka.kafka_python import KafkaPython
from kafka_offsets_cli.kafka.offset_fetch import fetch_committed
from kafka_offsets_cli.kafka.streams_groups import describe_streams_groups
from kafka_offsets_cli.models.group_descriptions import StreamsGroup
from kafka_offsets_cli.models.topics import TopicPartition
from tests.kafka_helpers import group_tool_table

pytestmark = [pytest.mark.broker]

STREAMS_GROUP_COMMAND = "org.apache.kafka.tools.streams.StreamsGroupCommand"
RECORDS = 10  # per partition, read by the application
LATER = 4  # per partition, produced after it closed


@dataclass(frozen=True)
class Streams:
    bootstrap: str
    source: str
    group: str
    app: dev_streams.StreamsApp


@pytest.fixture(scope="module")
def streams_app(
    bootstrap: str, kafka_classpath: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Streams]:
    """A 2-partition topic of RECORDS records each, read whole by a running Kafka Streams application."""
    source, sink, group = (f"{k}-{uuid.uuid4().hex[:8]}" for k in ("st-in", "st-out", "st-app"))
    create_topic(bootstrap, source, 2)
    create_topic(bootstrap, sink, 2)
    produce(
        bootstrap, source, [(p, None, None, f"v{p}-{i}".encode()) for p in (0, 1) for i in range(RECORDS)]
    )
    app = dev_streams.StreamsApp(
        bootstrap, group, source, sink, Path(tmp_path_factory.mktemp("streams-state"))
    )
    try:
        app.wait_for("RUNNING", 120)
        app.wait_for(f"PROCESSED {2 * RECORDS}", 60)
        yield Streams(bootstrap, source, group, app)
    finally:
        app.close()


def _describe(bootstrap: str, groups: list[str]) -> dict[str, StreamsGroup]:
    kafka = KafkaPython(ClientSettings(bootstrap_servers=bootstrap), Deadline(30))
    try:
        answer = describe_streams_groups(kafka, Deadline(30), groups)
    finally:
        kafka.close()
    assert answer.unavailable is None, answer
    return dict(answer.groups)


def _tasks(group: StreamsGroup, member_id: str) -> str:
    """A member's active tasks as StreamsGroupCommand prints them: ``0:[0,1]``, subtopologies by ``;``."""
    member = next(m for m in group.members if m.member_id == member_id)
    return "; ".join(f"{t.subtopology}:[{','.join(map(str, t.partitions))}]" for t in member.active)


def test_state_and_members_equal_kafka_streams_groups_describe(streams_app: Streams) -> None:
    s = streams_app
    ours = _describe(s.bootstrap, [s.group])[s.group]
    assert ours.error is None and ours.input_topics == (s.source,), ours
    (state,) = group_tool_table(
        STREAMS_GROUP_COMMAND, s.bootstrap, "--describe", "--group", s.group, "--state", "--verbose"
    )
    assert (ours.state, ours.group_epoch, ours.assignment_epoch, len(ours.members)) == (
        state["STATE"].lower(),
        int(state["GROUP-EPOCH"]),
        int(state["TARGET-ASSIGNMENT-EPOCH"]),
        int(state["#MEMBERS"]),
    )
    rows = group_tool_table(
        STREAMS_GROUP_COMMAND, s.bootstrap, "--describe", "--group", s.group, "--members", "--verbose"
    )
    assert len(rows) == len(ours.members) == 1, rows
    for row in rows:
        member = next(m for m in ours.members if m.member_id == row["MEMBER"])
        assert (member.member_epoch, member.process_id, member.client_id, member.topology_epoch) == (
            int(row["MEMBER-EPOCH"]),
            row["PROCESS"],
            row["CLIENT-ID"],
            int(row["TOPOLOGY-EPOCH"]),
        )
        assert row["ASSIGNMENTS"] == "ACTIVE:" and _tasks(ours, member.member_id) == "0:[0,1]"


def test_committed_offsets_and_lag_equal_kafka_streams_groups_offsets(streams_app: Streams) -> None:
    s = streams_app
    produce(s.bootstrap, s.source, [(0, None, None, b"hold")])
    s.app.wait_for("HOLDING", 60)  # from now on nothing is processed or committed
    produce(s.bootstrap, s.source, [(p, None, None, b"later") for p in (0, 1) for _ in range(LATER)])
    committed = _committed(s)
    assert committed == {TopicPartition(s.source, p): RECORDS for p in (0, 1)}
    rows = group_tool_table(
        STREAMS_GROUP_COMMAND, s.bootstrap, "--describe", "--group", s.group, "--offsets", "--verbose"
    )
    theirs = {TopicPartition(r["TOPIC"], int(r["PARTITION"])): r for r in rows}
    assert {tp: int(r["CURRENT-OFFSET"]) for tp, r in theirs.items()} == committed
    ends = {TopicPartition(s.source, 0): RECORDS + 1 + LATER, TopicPartition(s.source, 1): RECORDS + LATER}
    assert {tp: int(r["LOG-END-OFFSET"]) for tp, r in theirs.items()} == ends
    assert {tp: int(r["OFFSET-LAG"]) for tp, r in theirs.items()} == {tp: ends[tp] - RECORDS for tp in ends}


def test_a_closed_application_keeps_its_committed_offsets(streams_app: Streams) -> None:
    """Kafka's tool prints no offsets for a streams group without members; they are still there."""
    s = streams_app
    s.app.release()
    s.app.wait_for(f"PROCESSED {2 * RECORDS + 1 + 2 * LATER}", 60)
    assert s.app.close() == 0, "\n".join(s.app.output[-20:])  # closing commits what it processed
    assert _committed(s) == {
        TopicPartition(s.source, 0): RECORDS + 1 + LATER,
        TopicPartition(s.source, 1): RECORDS + LATER,
    }
    assert _describe(s.bootstrap, [s.group])[s.group].state == "empty"


def _committed(s: Streams) -> dict[TopicPartition, int | None]:
    kafka = KafkaPython(ClientSettings(bootstrap_servers=s.bootstrap), Deadline(30))
    try:
        (committed,) = fetch_committed(kafka, Deadline(30), [s.group])
    finally:
        kafka.close()
    assert committed.error is None, committed
    return dict(committed.offsets)


def test_a_consumer_group_asked_as_a_streams_group_is_its_own_error(streams_app: Streams) -> None:
    missing = f"no-such-{uuid.uuid4().hex[:6]}"
    got = _describe(streams_app.bootstrap, [missing])
    assert got[missing].error == "GROUP_ID_NOT_FOUND"
