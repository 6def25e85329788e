"""Faults on the 3-node cluster: a leader killed mid-`list`, a frozen broker, a partition without a
leader, and a long `--watch` soak. The tool must be correct or clearly failed, never wrong, never hung.

Node 2 is the one the tests kill, freeze or stop: it only hosts the replicas these tests give it, so it
restarts quickly; every test hands the cluster back healed (all nodes up, preferred leaders).
"""

from __future__ import annotations

import json
import signal
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from dev import kafka as dev_kafka
from dev.kafka_data import produce, producer_conf, send
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from kafka_offsets_cli.models.offsets import OffsetSpec
from kafka_offsets_cli.models.topics import ClusterMetadata
from kafka_offsets_cli.parse.selection import parse_selection
from kafka_offsets_cli.plan.queries import list_table
from tests.fault_helpers import (
    assert_one_error_line,
    create_assigned,
    delete_topics,
    rss_kib,
    run_timed,
    start,
)
from tests.kafka_helpers import get_offset_shell

VICTIM = 2
OTHERS = (1, 3)


def _prefix() -> str:
    return f"flt-{uuid.uuid4().hex[:6]}"


# ----------------------------------------------------------------------------- soak


SOAK_PARTITIONS = 100
SOAK_REFRESHES = 1000
SOAK_WARMUP = 100
#: RSS may grow this much between refresh SOAK_WARMUP and SOAK_REFRESHES (allocator noise is ~1 MiB).
SOAK_RSS_GROWTH_KIB = 6 * 1024


def test_watch_soak_keeps_memory_flat(cluster: dev_kafka.Cluster) -> None:
    """1,000 refreshes of `list --watch` in one process (one client, restart_clock per refresh)."""
    topic = f"{_prefix()}.soak"
    create_assigned(cluster.bootstrap, topic, [[1 + p % 3] for p in range(SOAK_PARTITIONS)])
    produce(
        cluster.bootstrap, topic, [(p, None, None, "x") for p in range(SOAK_PARTITIONS) for _ in range(p % 3)]
    )
    per_refresh = SOAK_PARTITIONS * 2  # jsonl lines: one per partition and spec
    proc = start(
        "list", "-b", cluster.bootstrap, "-t", topic, "--spec", "earliest", "--spec", "latest",
        "--watch", "1ms", "-o", "jsonl", "--timeout", "30s",
    )  # fmt: skip
    assert proc.stdout is not None
    rss: dict[int, int] = {}
    lines = 0
    t0 = time.monotonic()
    try:
        for line in proc.stdout:
            lines += 1
            if lines % per_refresh:
                continue
            refresh = lines // per_refresh
            if refresh in (1, SOAK_WARMUP, SOAK_REFRESHES // 2, SOAK_REFRESHES):
                rss[refresh] = rss_kib(proc.pid)
            if refresh >= SOAK_REFRESHES:
                last = json.loads(line)
                assert last["topic"] == topic and last["error"] is None
                break
            assert time.monotonic() - t0 < 300, f"only {refresh} refreshes in 300s"
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert lines == SOAK_REFRESHES * per_refresh
    assert proc.returncode == 0, err  # Ctrl-C ends --watch normally
    assert "Traceback" not in err and "warning" not in err, err
    growth = rss[SOAK_REFRESHES] - rss[SOAK_WARMUP]
    print(
        f"\nsoak: {SOAK_REFRESHES} refreshes x {per_refresh} queries in {time.monotonic() - t0:.1f}s; "
        f"RSS KiB at refresh {sorted(rss.items())}; growth after warm-up {growth} KiB"
    )
    assert growth < SOAK_RSS_GROWTH_KIB, rss


# ----------------------------------------------------------------------------- a leader killed mid-list


@dataclass(frozen=True)
class BigLayout:
    """5,000 partitions: ``moved`` (500, RF 2, led by node 2) and ``fixed`` (4,500, RF 1 on nodes 1/3)."""

    moved: str
    fixed: str
    expected: dict[tuple[str, int], int]  # records produced = latest offset

    @property
    def topics(self) -> tuple[str, str]:
        return (self.moved, self.fixed)


MOVED, FIXED = 500, 4500


@pytest.fixture
def big(cluster: dev_kafka.Cluster) -> Iterator[BigLayout]:
    prefix = _prefix()
    layout = BigLayout(f"{prefix}.moved", f"{prefix}.fixed", {})
    t0 = time.monotonic()
    create_assigned(cluster.bootstrap, layout.moved, [[VICTIM, OTHERS[p % 2]] for p in range(MOVED)])
    create_assigned(cluster.bootstrap, layout.fixed, [[OTHERS[p % 2]] for p in range(FIXED)])
    t1 = time.monotonic()
    moved = {p: p % 4 for p in range(MOVED)}
    fixed = {p: 2 if p % 45 == 0 else 0 for p in range(FIXED)}
    _produce_slowly(cluster.bootstrap, layout.moved, moved)
    _produce_slowly(cluster.bootstrap, layout.fixed, fixed)
    print(f"\n5,000 partitions created in {t1 - t0:.1f}s, records produced in {time.monotonic() - t1:.1f}s")
    layout.expected.update({(layout.moved, p): n for p, n in moved.items()})
    layout.expected.update({(layout.fixed, p): n for p, n in fixed.items()})
    try:
        yield layout
    finally:
        # before node 2 restarts (in the `cluster` fixture): it then has 500 fewer logs to load
        delete_topics(cluster.bootstrap, layout.topics)


def _produce_slowly(bootstrap: str, topic: str, counts: dict[int, int]) -> None:
    """Produce counts[p] records to each partition p, exactly once (idempotent), with time to spare:
    brokers that just created thousands of partitions answer slowly."""
    producer = Producer(producer_conf(bootstrap, **{"message.timeout.ms": 180_000}))
    sink: list[Any] = []
    send(producer, topic, [(p, None, None, "x") for p, n in counts.items() for _ in range(n)], sink)
    assert producer.flush(200) == 0
    failed = [r for r in sink if isinstance(r, Exception)]
    assert not failed, failed[0]


class KillAfterMetadata:
    """A KafkaClient whose first metadata answer is followed by SIGKILL of a node: the node that
    metadata names as leader dies between the metadata and the ListOffsets requests."""

    def __init__(self, client: KafkaClient, cluster: dev_kafka.Cluster, node_id: int) -> None:
        self.client, self.cluster, self.node_id = client, cluster, node_id
        self.killed_at: float | None = None
        self.metadata_leaders: dict[tuple[str, int], int] = {}

    def metadata(self, topic: str | None = None, **kwargs: Any) -> ClusterMetadata:
        md = self.client.metadata(topic, **kwargs)
        if self.killed_at is None:
            self.metadata_leaders = {
                (p.topic, p.partition): p.leader for t in md.topics.values() for p in t.partitions
            }
            self.cluster.signal(self.node_id, signal.SIGKILL)
            self.killed_at = time.monotonic()
        return md

    def list_offsets(self, *args: Any, **kwargs: Any) -> Any:
        return self.client.list_offsets(*args, **kwargs)


def test_leader_killed_during_list_is_retried_never_invented(
    cluster: dev_kafka.Cluster, big: BigLayout
) -> None:
    timeout_s = 60
    specs = [OffsetSpec.earliest(), OffsetSpec.latest()]
    selection = parse_selection(topics=list(big.topics))
    client = KafkaClient(build_settings(cluster.bootstrap, timeout_ms=timeout_s * 1000))
    source = KillAfterMetadata(client, cluster, VICTIM)
    t0 = time.monotonic()
    table = list_table(source, selection, specs)
    took = time.monotonic() - t0
    client.close()

    assert source.killed_at is not None
    assert {source.metadata_leaders[(big.moved, p)] for p in range(MOVED)} == {VICTIM}
    assert len(table.partitions) == MOVED + FIXED and len(table.results) == 2 * (MOVED + FIXED)
    assert took < timeout_s + 10, f"list took {took:.1f}s with --timeout {timeout_s}s"

    # The reference, read by Kafka's own GetOffsetShell once leadership has moved: it must agree
    # with the records produced, and every offset kafka-offsets returned must agree with it.
    reference = get_offset_shell(cluster.bootstrap, "--topic-partitions", ",".join(big.topics))
    assert dict(reference) == big.expected
    errors: dict[str, int] = {}
    for r in table.results:
        if r.error is not None:
            assert r.offset is None, r  # an error never comes with an offset
            errors[r.error] = errors.get(r.error, 0) + 1
            continue
        want = 0 if r.spec == OffsetSpec.earliest() else reference[(r.topic, r.partition)]
        assert r.offset == want, r
    print(
        f"\nleader killed: list of {len(table.results)} queries took {took:.1f}s; errors {errors or 'none'}"
    )
    # leadership moves within ~10 s (broker session timeout): the moved partitions are asked again
    # at their new leader well within the 60 s budget, so none is left failing
    assert errors == {}, errors


# ----------------------------------------------------------------------------- a frozen broker


def _spec_file(tmp_path: Path, bootstrap: str, topic: str, timeout: str) -> Path:
    path = tmp_path / "checks.yaml"
    path.write_text(
        f'clusters:\n  c: {{bootstrap_servers: "{bootstrap}", timeout: {timeout}}}\n'
        f"checks:\n  - {{name: alive, type: liveness, cluster: c, topics: [{topic}], warn: 5m, crit: 15m}}\n"
    )
    return path


FROZEN_TIMEOUT_S = 3
#: Allowed beyond --timeout: interpreter start-up and imports on a busy 2-core machine.
MARGIN_S = 4


def test_frozen_broker_every_command_gives_up_in_time(cluster: dev_kafka.Cluster, tmp_path: Path) -> None:
    """SIGSTOP: the broker accepts connections and never answers. Each command (its only bootstrap
    server frozen) returns within --timeout + margin, exit 3 (unreachable / UNKNOWN), one line."""
    frozen = cluster.node(VICTIM).bootstrap
    t = f"{FROZEN_TIMEOUT_S}s"
    group = f"{_prefix()}.g"
    commands: dict[str, Sequence[str]] = {
        "list": ("list", "-b", frozen, "-t", "anything", "--timeout", t),
        "lag": ("lag", "-b", frozen, "-g", group, "--timeout", t),
        "liveness": ("liveness", "-b", frozen, "-t", "anything", "-w", "1m", "-c", "5m", "--timeout", t),
        "rewind": ("rewind", "-b", frozen, "-g", group, "--to", "earliest", "--timeout", t),
        "check": ("check", str(_spec_file(tmp_path, frozen, "anything", t)), "-o", "nagios"),
    }
    cluster.signal(VICTIM, signal.SIGSTOP)
    try:
        runs = {name: run_timed(*args) for name, args in commands.items()}  # one at a time: fair timings
    finally:
        cluster.signal(VICTIM, signal.SIGCONT)
    print(f"\nfrozen broker, --timeout {t}: " + ", ".join(f"{k} {r.seconds:.1f}s" for k, r in runs.items()))
    for name, run in runs.items():
        assert run.code == 3, (name, run)
        assert run.seconds < FROZEN_TIMEOUT_S + MARGIN_S, (name, run.seconds)
        assert run.seconds > FROZEN_TIMEOUT_S - 0.5, (name, run.seconds)  # it did wait for the broker
        if name == "check":  # nagios: the one status line on stdout
            assert run.stderr.strip() == "", run.stderr
            assert run.stdout.count("\n") == 1 and run.stdout.startswith("KAFKA CHECK UNKNOWN"), run.stdout
            assert f"no answer from {frozen} within {t}" in run.stdout
        else:
            assert run.stdout == ""
            assert_one_error_line(run.stderr, contains=f"no answer from {frozen} within {t}")


# ----------------------------------------------------------------------------- no leader


def test_partition_without_leader_errors_while_others_answer(cluster: dev_kafka.Cluster) -> None:
    topic = f"{_prefix()}.rf1"
    layout = [[VICTIM], [1], [3], [VICTIM], [1], [3]]
    create_assigned(cluster.bootstrap, topic, layout)
    produce(cluster.bootstrap, topic, [(p, None, None, "x") for p in range(6) for _ in range(p + 1)])
    cluster.stop_node(VICTIM)  # its partitions' only replica is gone: no leader
    try:
        run = run_timed("list", "-b", cluster.bootstrap, "-t", topic, "-o", "jsonl", "--timeout", "6s")
    finally:
        delete_topics(cluster.bootstrap, [topic])  # node 2 restarts with one topic less to load
    rows = {r["partition"]: r for r in map(json.loads, run.stdout.splitlines())}
    assert run.code == 1, run
    assert sorted(rows) == list(range(6))
    for p, replicas in enumerate(layout):
        if replicas == [VICTIM]:
            assert rows[p]["offset"] is None and rows[p]["error"] == "LEADER_NOT_AVAILABLE", rows[p]
        else:
            assert rows[p]["error"] is None and rows[p]["offset"] == p + 1, rows[p]
    assert_one_error_line(run.stderr, contains="2 x LEADER_NOT_AVAILABLE")
    assert run.seconds < 6 + MARGIN_S
