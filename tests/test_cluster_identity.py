"""Which cluster a command talks to, and which one a plan was made on: two real clusters.

An explicit ``--cluster`` beats ``KAFKA_BOOTSTRAP_SERVERS`` (command line > environment >
config file), and says so; a rewind names the cluster it plans for and commits on; a plan or
undo file records the cluster it was made on (its Kafka cluster id, in ``FILE.seen``), and
applying it to another cluster is refused (exit 6) unless ``--allow-other-cluster``.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from tests.availability import unavailable
from tests.cli_runner import cli

B = 1_790_000_000_000
KEEP = {"retention.ms": "-1"}


@dataclass(frozen=True)
class Pair:
    """Two clusters: ``staging`` (the session's broker) and ``other``, each a profile of the config file."""

    staging: str
    other: str


@pytest.fixture(scope="module")
def other_cluster() -> Iterator[str]:
    """A second one-node cluster (its own cluster id), for this module only."""
    dev_kafka.reap_orphans()
    name = f"pytest-other-{os.getpid()}"
    try:
        cluster = dev_kafka.up(name, nodes=1, owner_pid=os.getpid())
    except Exception as exc:
        dev_kafka.down(name, grace=0)
        unavailable(f"a second Kafka cluster could not be started: {exc}")
    try:
        yield cluster.bootstrap
    finally:
        dev_kafka.down(name, grace=0)


@pytest.fixture
def pair(bootstrap: str, other_cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pair:
    """Profiles ``staging`` and ``other`` in a config file; undo plans under a temporary state dir."""
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[clusters.staging]\nbootstrap_servers = "{bootstrap}"\n'
        f'[clusters.other]\nbootstrap_servers = "{other_cluster}"\n'
    )
    monkeypatch.setenv("KAFKA_OFFSETS_CONFIG", str(cfg))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return Pair(bootstrap, other_cluster)


def uid() -> str:
    return uuid.uuid4().hex[:8]


def seeded(bootstrap: str, records: int = 10) -> str:
    """A one-partition topic with ``records`` records, one second apart from ``B``."""
    topic = create_topic(bootstrap, f"cid-{uid()}", partitions=1, config=KEEP)
    produce(bootstrap, topic, [(0, B + i * 1000, None, "v") for i in range(records)])
    return topic


def committed(bootstrap: str, group: str) -> dict[tuple[str, int], int | None]:
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as c:
        [res] = c.committed_offsets([group])
    return {(tp.topic, tp.partition): off for tp, off in res.offsets.items()}


def flat(text: str) -> str:
    return " ".join(text.split())


def test_an_explicit_cluster_wins_over_the_environment(pair: Pair) -> None:
    """``KAFKA_BOOTSTRAP_SERVERS`` names the other cluster; ``--cluster staging`` answers from staging."""
    topic = seeded(pair.staging)
    group = f"cid-g-{uid()}"
    commit_group_offsets(pair.staging, group, {(topic, 0): 4})
    r = cli(
        "lag", "--cluster", "staging", "-g", group, "-o", "json", env={"KAFKA_BOOTSTRAP_SERVERS": pair.other}
    )
    assert r.code == 0, r.stderr
    [rec] = r.json()
    assert (rec["group"], rec["topic"], rec["committed"], rec["lag"]) == (group, topic, 4, 6)
    assert (
        f"KAFKA_BOOTSTRAP_SERVERS={pair.other} is overridden by --cluster staging ({pair.staging})"
        in flat(r.stderr)
    )
    # the same command without --cluster is the environment's cluster, where the group does not exist
    r = cli("lag", "-g", group, "-o", "json", env={"KAFKA_BOOTSTRAP_SERVERS": pair.other})
    assert r.code == 1 and "does not exist" in r.stderr


def test_a_plan_or_undo_made_on_one_cluster_is_refused_on_another(pair: Pair, tmp_path: Path) -> None:
    """The same topic and group on both clusters: a plan made on staging, applied to the other one."""
    topic = f"cid-{uid()}"
    group = f"cid-g-{uid()}"
    for servers in (pair.staging, pair.other):
        create_topic(servers, topic, partitions=1, config=KEEP)
        produce(servers, topic, [(0, B + i * 1000, None, "v") for i in range(10)])
        commit_group_offsets(servers, group, {(topic, 0): 8})
    plan = tmp_path / "plan.csv"
    r = cli(
        "rewind", "--cluster", "staging", "-g", group, "-t", topic, "--to-offset", "2", "--export", str(plan)
    )
    assert r.code == 0, r.stderr
    assert f"for group {group!r} on cluster 'staging' [{pair.staging}, id " in flat(r.stderr)
    assert plan.read_text() == f"{topic},0,2\n"  # Kafka's CSV, byte for byte: the cluster is in plan.csv.seen
    assert re.search(r"^# cluster-id: \S+$", Path(f"{plan}.seen").read_text(), re.M)

    # applied to the other cluster: refused, nothing changed; the dry run says it would be
    r = cli("rewind", "--cluster", "other", "--from-file", str(plan), "--execute")
    assert r.code == 6, r.stderr
    err = flat(r.stderr)
    assert (
        f"was made on cluster 'staging' [{pair.staging}, id" in err and "not on this cluster 'other'" in err
    )
    assert "refused for safety, nothing changed" in err and "--allow-other-cluster" in err
    assert committed(pair.other, group) == {(topic, 0): 8}
    r = cli("rewind", "--cluster", "other", "--from-file", str(plan))
    assert r.code == 0 and "--execute would be refused" in r.stderr

    # asked for explicitly: applied there, named in the result; its undo file names that cluster
    r = cli("rewind", "--cluster", "other", "--from-file", str(plan), "--execute", "--allow-other-cluster")
    assert r.code == 0, r.stderr
    err = flat(r.stderr)
    assert f"Committed 1 offset(s) for group {group!r} on cluster 'other' [{pair.other}, id" in err
    assert committed(pair.other, group) == {(topic, 0): 2}
    m = re.search(r"Undo plan written to (\S+\.csv);", err)
    assert m is not None, err
    undo = m.group(1)
    r = cli("rewind", "--cluster", "staging", "--from-file", undo, "--execute")
    assert r.code == 6 and "refused for safety" in r.stderr, r.stderr
    assert committed(pair.staging, group) == {(topic, 0): 8}
    r = cli("rewind", "--cluster", "other", "--from-file", undo, "--execute")
    assert r.code == 0, r.stderr
    assert committed(pair.other, group) == {(topic, 0): 8}

    # on the cluster it was made on, the plan applies as it is; -b names the cluster by address
    r = cli("rewind", "-b", pair.staging, "--from-file", str(plan), "--execute")
    assert r.code == 0, r.stderr
    assert f"Committed 1 offset(s) for group {group!r} on cluster [{pair.staging}, id " in flat(r.stderr)
    assert committed(pair.staging, group) == {(topic, 0): 2}
