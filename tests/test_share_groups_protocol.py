"""Share groups through the project's requests (kafka/share_groups.py) against a real Kafka 4.3.1.

A share group made by Kafka's console share consumer (from the project's Kafka jars) is described by
:func:`describe_share_groups` and :func:`describe_share_group_offsets` and compared value for value
with ``kafka-share-groups.sh --describe`` (ShareGroupCommand) on the same data: start offset and lag
per partition, state, and a live member (member id, client id, host, assignment, member epoch). With
``share.version`` finalized at 0 the same requests give one per-type answer, not an error; a group
of another type (or none) asked as a share or streams group is that group's own GROUP_ID_NOT_FOUND.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest

from dev.kafka_data import create_topic, produce
from kafka_offsets_cli.connection.settings import ClientSettings
from kafka_offsets_cli.kafka.deadline import Deadline
from kafka_offsets_cli.kafka.kafka_python import KafkaPython
from kafka_offsets_cli.kafka.share_groups import (
    NOT_ENABLED,
    describe_share_group_offsets,
    describe_share_groups,
)
from kafka_offsets_cli.kafka.streams_groups import describe_streams_groups
from kafka_offsets_cli.models.topics import TopicPartition
from tests.kafka_helpers import (
    SHARE_GROUP_COMMAND,
    group_tool_table,
    kafka_tool,
    own_broker,
    read_as_share_group,
    share_consumer,
)

pytestmark = [pytest.mark.broker]

FEATURE_COMMAND = "org.apache.kafka.tools.FeatureCommand"
RECORDS = 10  # per partition
READ = 7


def _kafka(bootstrap: str) -> KafkaPython:
    return KafkaPython(ClientSettings(bootstrap_servers=bootstrap), Deadline(30))


def _shown(value: int | None) -> str:
    return "-" if value is None else str(value)


@pytest.fixture(scope="module")
def share_group(bootstrap: str, kafka_classpath: str) -> Iterator[tuple[str, str]]:
    """A 2-partition topic of RECORDS records each, and a share group that read READ of them (Empty)."""
    topic, group = f"share-{uuid.uuid4().hex[:8]}", f"sg-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 2)
    produce(bootstrap, topic, [(p, None, None, f"v{p}-{i}".encode()) for p in (0, 1) for i in range(RECORDS)])
    read_as_share_group(bootstrap, topic, group, READ)
    yield topic, group


def test_share_offsets_equal_kafka_share_groups_describe(
    bootstrap: str, share_group: tuple[str, str]
) -> None:
    topic, group = share_group
    kafka = _kafka(bootstrap)
    try:
        ours = describe_share_group_offsets(kafka, Deadline(30), [group])
    finally:
        kafka.close()
    assert ours.unavailable is None
    got = ours.groups[group]
    assert got.error is None and [p.partition for p in got.partitions] == [
        TopicPartition(topic, 0),
        TopicPartition(topic, 1),
    ]
    rows = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group)
    theirs = {(r["TOPIC"], int(r["PARTITION"])): (r["START-OFFSET"], r["LAG"]) for r in rows}
    assert {p.partition: (_shown(p.start_offset), _shown(p.lag)) for p in got.partitions} == theirs
    # Kafka 4.3.1 answers v1 (KIP-1226): a lag wherever there is a start offset (none on a partition
    # the group has not read yet, "-" in Kafka's table too); the consumer read READ of the records
    assert all((p.lag is None) == (p.start_offset is None) for p in got.partitions), got
    assert sum(p.start_offset or 0 for p in got.partitions) >= READ, got
    verbose = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group, "--verbose")
    if verbose and "LEADER-EPOCH" in verbose[0]:
        epochs = {(r["TOPIC"], int(r["PARTITION"])): r["LEADER-EPOCH"] for r in verbose}
        assert {p.partition: _shown(p.leader_epoch) for p in got.partitions} == epochs


def test_state_and_a_live_member_equal_kafka_share_groups_describe(
    bootstrap: str, share_group: tuple[str, str]
) -> None:
    topic, group = share_group
    kafka = _kafka(bootstrap)
    consumer = share_consumer(bootstrap, topic, group, "share-probe")
    try:
        empty = describe_share_groups(kafka, Deadline(30), [group]).groups[group]
        assert (empty.error, empty.state) == (None, "empty") or empty.members
        deadline = time.monotonic() + 90
        while True:
            described = describe_share_groups(kafka, Deadline(30), [group]).groups[group]
            if described.members and described.members[0].assigned:
                break
            assert time.monotonic() < deadline, described
            time.sleep(1)
        state = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group, "--state")
        assert state[0]["STATE"].lower() == described.state == "stable"
        assert int(state[0]["#MEMBERS"]) == len(described.members) == 1
        members = group_tool_table(
            SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group, "--members", "--verbose"
        )
        (row,) = members
        (member,) = described.members
        assert (row["CONSUMER-ID"], row["HOST"], row["CLIENT-ID"]) == (
            member.member_id,
            member.host,
            member.client_id,
        )
        assert member.client_id == "share-probe"
        if "MEMBER-EPOCH" in row:
            assert int(row["MEMBER-EPOCH"]) == member.member_epoch
        assert row["ASSIGNMENT"] == _assignment(member.assigned)
    finally:
        consumer.terminate()
        consumer.wait(timeout=30)
        kafka.close()


def _assignment(assigned: tuple[TopicPartition, ...]) -> str:
    """An assignment as ShareGroupCommand prints it: ``topic:p,p;topic:p``."""
    by_topic: dict[str, list[int]] = {}
    for topic, partition in sorted(assigned):
        by_topic.setdefault(topic, []).append(partition)
    return ";".join(f"{t}:{','.join(map(str, ps))}" for t, ps in by_topic.items())


@pytest.fixture(scope="module")
def share_version_0(kafka_classpath: str) -> Iterator[str]:
    """Bootstrap of a broker of its own with ``share.version`` finalized at 0.

    Its own, not the session's broker: a downgrade there would be seen by every share-group test that
    runs while it lasts, and a run cut off between downgrade and upgrade would leave it so.
    """
    with own_broker("pytest-share0", "Kafka broker for share.version=0") as cluster:
        kafka_tool(
            FEATURE_COMMAND,
            "--bootstrap-server",
            cluster.bootstrap,
            "downgrade",
            "--feature",
            "share.version=0",
        )
        yield cluster.bootstrap


def test_without_share_version_one_answer_for_the_type(share_version_0: str) -> None:
    group = f"sg-{uuid.uuid4().hex[:8]}"
    kafka = _kafka(share_version_0)
    try:
        time.sleep(2)  # the finalized feature reaches the broker's metadata
        described = describe_share_groups(kafka, Deadline(30), [group, "no-such-share-group"])
        offsets = describe_share_group_offsets(kafka, Deadline(30), [group])
    finally:
        kafka.close()
    assert described.unavailable == NOT_ENABLED, described
    assert {g.error for g in described.groups.values()} == {"UNSUPPORTED_VERSION"}
    assert offsets.unavailable == NOT_ENABLED and offsets.groups[group].error == "UNSUPPORTED_VERSION"


def test_a_group_of_another_type_or_none_is_its_own_error(
    bootstrap: str, share_group: tuple[str, str]
) -> None:
    """Per group, never for the run: a share group asked as a streams group, a missing group."""
    _, group = share_group
    kafka = _kafka(bootstrap)
    try:
        streams = describe_streams_groups(kafka, Deadline(30), [group, "no-such-group"])
        shares = describe_share_groups(kafka, Deadline(30), ["no-such-group", group])
    finally:
        kafka.close()
    assert streams.unavailable is None and shares.unavailable is None  # 4.3.1: streams.version=1 by default
    assert {g: s.error for g, s in streams.groups.items()} == {
        group: "GROUP_ID_NOT_FOUND",
        "no-such-group": "GROUP_ID_NOT_FOUND",
    }
    assert shares.groups["no-such-group"].error == "GROUP_ID_NOT_FOUND"
    assert shares.groups[group].error is None and shares.groups[group].group_epoch > 0
