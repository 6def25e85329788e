"""`kafka-offsets lag` against a broker older than share and streams groups: Kafka 4.0 (dev.releases).

Kafka 4.0 has classic and KIP-848 consumer groups but neither streams groups (KIP-1071, 4.1) nor,
outside an early-access preview that is off by default, share groups (KIP-932). Every-group runs
read the groups it has, as Kafka's own kafka-consumer-groups does, and say nothing of the types it
cannot have; asking for such a type (``--type streams``) is one line saying the cluster cannot have
it, never "no streams group" as if it merely had none.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from dev import kafka as dev_kafka
from dev.kafka_data import commit_group_offsets, create_topic, produce
from dev.releases import OLDER
from tests.cli_runner import cli
from tests.kafka_helpers import CONSUMER_GROUP_COMMAND, group_tool_table, own_broker, reading

RELEASE = OLDER[0]


@pytest.fixture(scope="module")
def old_broker() -> Iterator[str]:
    """A Kafka 4.0 broker with a topic, a classic group and a KIP-848 consumer group on it."""
    with own_broker("old-broker", f"a Kafka {RELEASE} broker", release=RELEASE) as cluster:
        yield cluster.bootstrap


@pytest.fixture(scope="module")
def groups(old_broker: str) -> dict[str, str]:
    """Each group id made on the old broker with its type."""
    u = uuid.uuid4().hex[:6]
    topic = create_topic(old_broker, f"old-{u}", partitions=2)
    produce(old_broker, topic, [(p, None, None, f"{p}-{i}") for p in range(2) for i in range(5)])
    classic, consumer = f"old-classic-{u}", f"old-consumer-{u}"
    commit_group_offsets(old_broker, classic, {(topic, 0): 1, (topic, 1): 4})
    commit_group_offsets(old_broker, consumer, {(topic, 0): 3, (topic, 1): 5})
    with reading(old_broker, topic, consumer, protocol="consumer"):
        pass  # a KIP-848 member joins and leaves: the group is of type consumer, Empty, offsets kept
    return {classic: "classic", consumer: "consumer"}


def test_the_broker_is_the_older_release(old_broker: str) -> None:
    done = dev_kafka.run_tool(
        "org.apache.kafka.tools.BrokerApiVersionsCommand", "--bootstrap-server", old_broker
    )
    assert done.returncode == 0, done.stderr
    assert "StreamsGroupDescribe(89): UNSUPPORTED" in done.stdout, done.stdout
    assert "ShareGroupDescribe(77): UNSUPPORTED" in done.stdout, done.stdout


def test_every_group_run_equals_kafka_consumer_groups_and_says_nothing_of_missing_types(
    old_broker: str, groups: dict[str, str]
) -> None:
    run = cli("lag", "-b", old_broker, "-o", "json")
    assert run.code == 0 and run.stderr == "", run.stderr
    ours = {(r["group"], r["topic"], r["partition"]): r for r in run.json() if r["group"] in groups}
    assert {r["group_type"] for r in ours.values()} == {"classic", "consumer"}
    assert all(r["group_type"] == groups[r["group"]] for r in ours.values())
    kafka = group_tool_table(CONSUMER_GROUP_COMMAND, old_broker, "--describe", "--all-groups")
    theirs = {(r["GROUP"], r["TOPIC"], int(r["PARTITION"])): r for r in kafka if r["GROUP"] in groups}
    assert set(ours) == set(theirs)
    for key, r in ours.items():
        t = theirs[key]
        assert (str(r["committed"]), str(r["end"]), str(r["lag"])) == (
            t["CURRENT-OFFSET"],
            t["LOG-END-OFFSET"],
            t["LAG"],
        ), key


def test_asking_for_a_type_the_broker_predates_is_one_line(old_broker: str, groups: dict[str, str]) -> None:
    only = cli("lag", "-b", old_broker, "--type", "streams", "-o", "json")
    assert only.code == 5 and only.stdout.strip() in ("", "[]"), only
    assert only.stderr.splitlines() == [
        "kafka-offsets: error: streams groups are not supported by this cluster "
        "(it has no streams.version feature)"
    ]
    mixed = cli("lag", "-b", old_broker, "--type", "consumer,share,streams", "-o", "json")
    assert mixed.code == 0, mixed.stderr
    assert {r["group"] for r in mixed.json()} & set(groups) == {
        g for g, t in groups.items() if t == "consumer"
    }
    lacking = "groups are not supported by this cluster (it has no {}.version feature)"
    assert mixed.stderr.splitlines() == [
        f"kafka-offsets: warning: {t} {lacking.format(t)}" for t in ("share", "streams")
    ]
