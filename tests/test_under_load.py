"""Answers under normal load: a real ``acks=all`` producer on an RF=3 topic of the 3-node cluster.

While a record is being replicated it sits beyond the high watermark, and the broker withholds a
max-timestamp or timestamp answer whose record is there (offset -1, no error). Such a partition is
busy, not empty: ``liveness`` must never call it ``empty`` (CRITICAL), and ``list`` must never show a
null offset with a null error on a partition that has records.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Producer, TopicPartition
from confluent_kafka.admin import AdminClient, OffsetSpec  # type: ignore[attr-defined]

from dev import kafka as dev_kafka
from tests.fault_helpers import create_assigned, delete_topics, heal, run_timed

PARTITIONS = 6
RATE = 300  # records/s in all: "a few hundred", where the audit saw a third of answers withheld
RUNS = 6  # liveness and list runs each


class LoadProducer:
    """A background ``acks=all`` producer spreading ``RATE`` records/s over the topic's partitions."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.topic = topic
        self.producer = Producer(
            {"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0, "enable.idempotence": True}
        )
        self.stop = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        period = 1.0 / RATE
        next_at = time.monotonic()
        while not self.stop.is_set():
            self.producer.produce(self.topic, value=b"x", partition=self.sent % PARTITIONS)
            self.sent += 1
            self.producer.poll(0)
            next_at += period
            time.sleep(max(0.0, next_at - time.monotonic()))
        self.producer.flush(30)

    def __enter__(self) -> LoadProducer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(60)


@pytest.fixture
def busy(cluster3: dev_kafka.Cluster) -> Iterator[tuple[str, str]]:
    """(bootstrap, topic): an RF=3 topic receiving RATE records/s from an acks=all producer."""
    heal(cluster3)
    topic = f"load-{uuid.uuid4().hex[:6]}"
    replicas = [[1 + (p + k) % 3 for k in range(3)] for p in range(PARTITIONS)]  # RF=3, leaders spread
    create_assigned(cluster3.bootstrap, topic, replicas)
    with LoadProducer(cluster3.bootstrap, topic) as load:
        deadline = time.monotonic() + 30
        while load.sent < 2 * RATE and time.monotonic() < deadline:  # every partition has records
            time.sleep(0.1)
        yield cluster3.bootstrap, topic
    delete_topics(cluster3.bootstrap, [topic])


def _withheld_raw(bootstrap: str, topic: str, rounds: int) -> int:
    """How many raw max-timestamp answers (Kafka's own AdminClient) come back withheld (offset -1)."""
    client = AdminClient({"bootstrap.servers": bootstrap})
    spec = OffsetSpec.max_timestamp()  # type: ignore[no-untyped-call]
    withheld = 0
    for _ in range(rounds):
        futures = client.list_offsets(
            {TopicPartition(topic, p): spec for p in range(PARTITIONS)},
            request_timeout=10,
        )
        withheld += sum(1 for f in futures.values() if f.result(timeout=15).offset < 0)
    return withheld


def _run_json(*args: str) -> tuple[int, Any, str]:
    run = run_timed(*args, "-o", "json", "--timeout", "20s", timeout=60)
    return run.code, json.loads(run.stdout) if run.stdout.strip() else None, run.stderr


def test_busy_partitions_are_never_empty(busy: tuple[str, str]) -> None:
    bootstrap, topic = busy
    raw = _withheld_raw(bootstrap, topic, rounds=20)
    print(f"\nraw max-timestamp answers withheld under load: {raw} of {20 * PARTITIONS}")
    states: dict[str, int] = {}
    for _ in range(RUNS):
        code, rows, err = _run_json("liveness", "-b", bootstrap, "-t", topic, "--warn", "1h", "--crit", "2h")
        assert "Traceback" not in err, err
        assert rows is not None and len(rows) == PARTITIONS, (code, err)
        for row in rows:
            states[row["state"]] = states.get(row["state"], 0) + 1
        assert code in (0, 3), (code, rows)  # OK, or UNKNOWN for a partition still pending; never CRITICAL
        assert all(r["state"] in ("ok", "pending") for r in rows), rows
    print(f"liveness states over {RUNS} runs: {states}")
    assert states.get("ok", 0) >= RUNS * PARTITIONS // 2, states  # pending is the rare exception
    for _ in range(RUNS):
        code, recs, err = _run_json("list", "-b", bootstrap, "-t", topic, "-s", "max-timestamp", "-s", "now")
        assert recs is not None, (code, err)
        for r in recs:
            # a record, a proven none (no record at or after "now"), or PENDING: never a silent null
            if r["spec"] == "max-timestamp":
                assert r["offset"] is not None or r["error"] == "PENDING", r
            else:
                assert r["offset"] is not None or r["error"] in (None, "PENDING"), r


SNAPSHOT_RUNS = 10  # list runs under load: 60 rows, each checked
SNAPSHOT_SPECS = ("earliest", "latest", "max-timestamp", "now", "earliest-local")


def _relations(rows: list[dict[str, Any]]) -> list[str]:
    """What breaks one snapshot in ``rows`` (one ``list -o json`` output), per partition.

    Within one output a partition's answers must hold together: earliest <= every offset <=
    latest; a max-timestamp or time answer is an existing record, so strictly below latest.
    """
    by: dict[int, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["partition"], {})[r["spec"]] = r
    broken: list[str] = []
    for p, specs in sorted(by.items()):
        start, end = specs["earliest"]["offset"], specs["latest"]["offset"]
        if start is None or end is None:
            continue  # an error row is reported as such; no relation to hold
        for name, r in specs.items():
            off = r["offset"]
            if off is None:
                continue
            record = name not in ("earliest", "latest", "earliest-local")  # max-timestamp, the time
            if off < start or off > end or (record and off >= end):
                broken.append(f"p{p} {name}={off} outside earliest={start} latest={end}")
    return broken


def test_list_with_several_specs_is_one_snapshot(busy: tuple[str, str]) -> None:
    """Issue 27 item 4: every row of a ``list`` output under acks=all load is one consistent snapshot."""
    bootstrap, topic = busy
    args = [a for s in SNAPSHOT_SPECS for a in ("-s", s)]
    broken: list[str] = []
    rows_seen = 0
    deadline = time.monotonic() + 120  # bounded by count and time
    for _ in range(SNAPSHOT_RUNS):
        if time.monotonic() > deadline:
            break
        code, recs, err = _run_json("list", "-b", bootstrap, "-t", topic, *args)
        assert "Traceback" not in err, err
        assert recs is not None and len(recs) == PARTITIONS * len(SNAPSHOT_SPECS), (code, err)
        rows_seen += PARTITIONS
        broken += _relations(recs)
    print(f"\nlist snapshot under load: {len(broken)} broken relation(s) in {rows_seen} partition rows")
    assert rows_seen >= 3 * PARTITIONS
    assert not broken, broken
