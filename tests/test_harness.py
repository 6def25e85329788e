"""The Kafka test harness itself: the broker fixture, Kafka's GetOffsetShell, the 3-node cluster."""

from __future__ import annotations

import signal
import time

import pytest
from confluent_kafka.admin import AdminClient, ConfigResource  # type: ignore[attr-defined]

from dev import kafka as dev_kafka
from dev import seed
from dev.kafka_data import admin, commit_group_offsets, create_topic, produce, watermarks
from tests.kafka_helpers import (
    consumer_groups,
    delete_records,
    get_offset_shell,
    parse_offset_shell,
    produce_transactional,
)


def test_broker_answers_metadata(bootstrap: str) -> None:
    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10)
    assert len(md.brokers) >= 1
    assert all(b.port > 0 for b in md.brokers.values())


def test_get_offset_shell_matches_produced_records(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=3)
    now = int(time.time() * 1000)
    counts = {0: 5, 1: 0, 2: 3}
    records = [(p, now - 1000 * i, f"k{i}", f"v{i}") for p, n in counts.items() for i in range(n)]
    delivered = produce(bootstrap, topic_name, records)
    assert sorted(delivered) == sorted((p, i) for p, n in counts.items() for i in range(n))

    latest = get_offset_shell(bootstrap, "--topic", topic_name)
    assert dict(latest) == {(topic_name, p): n for p, n in counts.items()}
    assert f"{topic_name}:0:5" in latest.stdout.splitlines()

    earliest = get_offset_shell(bootstrap, "--topic", topic_name, "--time", "earliest")
    assert dict(earliest) == {(topic_name, p): 0 for p in counts}

    # timestamps descend within partition 0, so the max timestamp is at offset 0; empty partition 1 is omitted
    max_ts = get_offset_shell(bootstrap, "--topic", topic_name, "--time", "max-timestamp")
    assert max_ts[(topic_name, 0)] == 0
    assert (topic_name, 1) not in max_ts


def test_delete_records_moves_earliest(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)
    produce(bootstrap, topic_name, [(0, None, None, f"v{i}") for i in range(10)])
    assert delete_records(bootstrap, {(topic_name, 0): 4}) == {(topic_name, 0): 4}
    assert watermarks(bootstrap, [(topic_name, 0)]) == {(topic_name, 0): (4, 10)}
    assert get_offset_shell(bootstrap, "--topic", topic_name, "--time", "-2") == {(topic_name, 0): 4}


def test_open_transaction_is_visible_to_get_offset_shell(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)
    producer = produce_transactional(bootstrap, topic_name, [(0, None, None, "a"), (0, None, None, "b")])
    try:
        # GetOffsetShell reads with read_uncommitted: latest is the high watermark, past the open transaction
        assert get_offset_shell(bootstrap, "--topic", topic_name) == {(topic_name, 0): 2}
    finally:
        producer.commit_transaction(30)
    # the commit marker takes one offset
    assert get_offset_shell(bootstrap, "--topic", topic_name) == {(topic_name, 0): 3}


def test_committed_offsets_show_in_consumer_groups_tool(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=2)
    produce(bootstrap, topic_name, [(p, None, None, "x") for p in (0, 1) for _ in range(6)])
    group = f"g-{topic_name}"
    commit_group_offsets(bootstrap, group, {(topic_name, 0): 2, (topic_name, 1): 6})
    proc = consumer_groups(bootstrap, "--describe", "--group", group)
    assert proc.returncode == 0, proc.stderr
    rows = {}
    for line in proc.stdout.splitlines():
        cols = line.split()
        if len(cols) >= 6 and cols[1] == topic_name:
            rows[int(cols[2])] = (int(cols[3]), int(cols[4]), int(cols[5]))  # current, log-end, lag
    assert rows == {0: (2, 6, 4), 1: (6, 6, 0)}


def test_seed_creates_demo_data_idempotently(bootstrap: str) -> None:
    seed.seed(bootstrap)
    seed.seed(bootstrap)  # second run changes nothing
    latest = get_offset_shell(bootstrap, "--topic", "orders")
    assert [latest[("orders", p)] for p in range(6)] == list(seed.ORDERS_COUNTS)
    max_ts = get_offset_shell(bootstrap, "--topic", "orders", "--time", "max-timestamp")
    for p in range(6):
        assert 0 <= max_ts[("orders", p)] < latest[("orders", p)] - 1  # newest record is not the last one
    assert dict(get_offset_shell(bootstrap, "--topic", "payments")) == {
        ("payments", p): n for p, n in enumerate(seed.PAYMENTS_COUNTS)
    }
    assert dict(get_offset_shell(bootstrap, "--topic", "audit.empty")) == {
        ("audit.empty", 0): 0,
        ("audit.empty", 1): 0,
    }
    client = admin(bootstrap)  # keep a reference: the futures need the live handle
    configs = client.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, "payments")])
    entries = next(iter(configs.values())).result(timeout=30)
    assert entries["message.timestamp.type"].value == "LogAppendTime"
    proc = consumer_groups(bootstrap, "--describe", "--group", "billing")
    assert proc.returncode == 0, proc.stderr
    lags = {
        int(c[2]): int(c[5])
        for c in (ln.split() for ln in proc.stdout.splitlines())
        if c[:2] == ["billing", "orders"]
    }
    assert lags == dict(enumerate(seed.BILLING_LAG))


def test_parse_offset_shell_handles_dotted_topics() -> None:
    assert parse_offset_shell("a.b-c:0:12\n\nx_y:10:0\n") == {("a.b-c", 0): 12, ("x_y", 10): 0}


def test_classpath_has_broker_and_tools(kafka_classpath: str) -> None:
    jars = kafka_classpath.split(":")
    names = {j.rsplit("/", 1)[-1] for j in jars}
    version = dev_kafka.kafka_version()
    assert {
        f"kafka_2.13-{version}.jar",
        f"kafka-tools-{version}.jar",
        f"kafka-clients-{version}.jar",
    } <= names
    assert any(n.startswith("log4j-core-") for n in names)


@pytest.mark.cluster3
def test_three_node_cluster_has_three_brokers(cluster3: dev_kafka.Cluster) -> None:
    md = AdminClient({"bootstrap.servers": cluster3.bootstrap}).list_topics(timeout=10)
    assert sorted(md.brokers) == [1, 2, 3] == sorted(cluster3.node_ids)
    assert {b.port for b in md.brokers.values()} == {n.port for n in cluster3.nodes}
    assert cluster3.is_running()


@pytest.mark.cluster3
@pytest.mark.slow
def test_three_node_cluster_survives_a_killed_node(cluster3: dev_kafka.Cluster, topic_name: str) -> None:
    create_topic(cluster3.bootstrap, topic_name, partitions=3, replication=3)
    produce(cluster3.bootstrap, topic_name, [(p, None, None, "x") for p in range(3) for _ in range(4)])
    victim = 3
    old_pid = cluster3.node(victim).pid
    cluster3.signal(victim, signal.SIGKILL)
    deadline = time.monotonic() + 15
    while cluster3.node(victim).alive():
        assert time.monotonic() < deadline, "SIGKILLed node still alive"
        time.sleep(0.1)
    assert cluster3.alive_nodes() == [1, 2]
    # the rest of the cluster still answers (leaders move off the dead node)
    survivors = ",".join(n.bootstrap for n in cluster3.nodes if n.node_id != victim)
    expected = {(topic_name, p): 4 for p in range(3)}
    deadline = time.monotonic() + 60
    while True:
        try:
            if get_offset_shell(survivors, "--topic", topic_name) == expected:
                break
        except Exception:
            pass
        assert time.monotonic() < deadline, "offsets not served after losing one of three nodes"
        time.sleep(1)
    node = cluster3.start_node(victim)
    assert node.pid != old_pid and node.alive()
    assert cluster3.is_running()
    assert dev_kafka.get(cluster3.name) is not None
    assert dev_kafka.get(cluster3.name).node(victim).pid == node.pid  # type: ignore[union-attr]
