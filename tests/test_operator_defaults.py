"""`liveness` defaults that tell the truth, against real brokers (issue 16 item 3).

* a bare ``kafka-offsets liveness`` on a healthy cluster (a fresh broker of its own: a fresh topic, an empty
  one, a group's commits in ``__consumer_offsets``) exits 0: internal topics are left out (the broker's
  flag), an empty partition is state ``empty`` and counts as OK unless ``--empty-status`` says otherwise;
* ``--problems`` and ``--state`` keep only some rows, never change the exit status;
* a table ends with one summary line on stderr;
* ``lag --watch``'s CONSUMED/S follows a real consumer that auto-commits every 5 s (issue 16 item 5).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.cli_runner import cli
from tests.kafka_helpers import own_broker

MIN = 60_000
KEEP = {"retention.ms": "-1"}
THRESHOLDS = ("--warn", "5m", "--crit", "15m")


@pytest.fixture(scope="module")
def healthy() -> Iterator[str]:
    """A broker of its own holding only what a healthy cluster holds: fresh data, an unused topic, a group."""
    with own_broker("pytest-healthy", "Kafka broker") as cluster:
        b = cluster.bootstrap
        create_topic(b, "orders", 3, config=KEEP)
        create_topic(b, "unused", 2, config=KEEP)
        produce(b, "orders", [(p, None, None, b"x") for p in range(3)])
        commit_group_offsets(b, "billing", {("orders", p): 1 for p in range(3)})  # creates __consumer_offsets
        yield b


def records(*args: str) -> tuple[int, list[dict[str, Any]], str]:
    r = cli("liveness", *args, "-o", "json")
    return r.code, (r.json() if r.stdout else []), r.stderr


def test_a_bare_liveness_on_a_healthy_cluster_is_ok(healthy: str) -> None:
    code, recs, err = records("-b", healthy)
    assert code == 0, (recs, err)
    assert {r["topic"] for r in recs} == {"orders", "unused"}  # no __consumer_offsets
    assert {(r["topic"], r["state"]) for r in recs} == {("orders", "ok"), ("unused", "empty")}


def test_internal_topics_only_on_request(healthy: str) -> None:
    code, recs, _ = records("-b", healthy, "--include-internal")
    assert code == 0
    internal = [r for r in recs if r["topic"] == "__consumer_offsets"]
    assert internal and {r["state"] for r in internal} <= {"ok", "empty"}  # offsets.topic.num.partitions
    code, recs, _ = records("-b", healthy, "--include-internal", "--empty-status", "critical")
    assert code == 2
    # named alone, an internal topic matches nothing, and the hint says how to check it
    r = cli("liveness", "-b", healthy, "-t", "__consumer_offsets")
    assert r.code == 3 and "(--include-internal adds them)" in r.stderr, r
    assert records("-b", healthy, "-t", "__consumer_offsets", "--include-internal")[1]
    # the old flag is still accepted (it is the default now); it contradicts --include-internal
    assert records("-b", healthy, "--exclude-internal-topics")[0] == 0
    r = cli("liveness", "-b", healthy, "--include-internal", "--exclude-internal-topics")
    assert r.code == 3 and "contradict" in r.stderr  # a usage error of a monitoring check: UNKNOWN


@pytest.mark.parametrize(("status", "code"), [("ok", 0), ("warning", 1), ("critical", 2), ("unknown", 3)])
def test_empty_status_decides_how_empty_counts(healthy: str, status: str, code: int) -> None:
    got, recs, _ = records("-b", healthy, "-t", "unused", "--empty-status", status)
    assert got == code and [r["state"] for r in recs] == ["empty", "empty"]


# ----------------------------------------------------------------------------- --problems, --state, summary


@pytest.fixture(scope="module")
def mixed(bootstrap: str) -> str:
    """Partitions ok (0), warning (1), critical (2), and an empty topic beside it; returns the regex."""
    prefix = f"ops-{uuid.uuid4().hex[:6]}"
    now = int(time.time() * 1000)
    create_topic(bootstrap, f"{prefix}.mixed", 3, config=KEEP)
    create_topic(bootstrap, f"{prefix}.empty", 1, config=KEEP)
    produce(
        bootstrap,
        f"{prefix}.mixed",
        [(0, now, None, b"a"), (1, now - 10 * MIN, None, b"b"), (2, now - 20 * MIN, None, b"c")],
    )
    return f"{prefix}\\..*"


def shown(*args: str) -> tuple[int, set[tuple[str, int, str]]]:
    code, recs, _ = records(*args)
    return code, {(r["topic"].rsplit(".", 1)[1], r["partition"], r["state"]) for r in recs}


def test_problems_and_state_filter_rows_but_not_the_verdict(bootstrap: str, mixed: str) -> None:
    base = ("-b", bootstrap, "-t", mixed, *THRESHOLDS)
    assert shown(*base) == (
        2,
        {("mixed", 0, "ok"), ("mixed", 1, "warning"), ("mixed", 2, "critical"), ("empty", 0, "empty")},
    )
    assert shown(*base, "--problems") == (2, {("mixed", 1, "warning"), ("mixed", 2, "critical")})
    assert shown(*base, "--state", "critical") == (2, {("mixed", 2, "critical")})
    assert shown(*base, "--state", "ok,EMPTY") == (2, {("mixed", 0, "ok"), ("empty", 0, "empty")})
    # an empty partition that counts as a problem is shown by --problems
    assert shown(*base, "--problems", "--empty-status", "warning")[1] == {
        ("mixed", 1, "warning"),
        ("mixed", 2, "critical"),
        ("empty", 0, "empty"),
    }
    # both: the problems among those states
    assert shown(*base, "--problems", "--state", "ok,critical") == (2, {("mixed", 2, "critical")})
    r = cli("liveness", *base, "--state", "stale")
    assert r.code == 3 and "--state 'stale'" in r.stderr and r.stdout == ""  # UNKNOWN, as usage errors


def test_a_table_ends_with_one_summary_line(bootstrap: str, mixed: str) -> None:
    r = cli("liveness", "-b", bootstrap, "-t", mixed, *THRESHOLDS, "-o", "table")
    assert r.code == 2
    last = r.stderr.splitlines()[-1]
    assert last.startswith("CRITICAL: 4 partition(s) in 2 topic(s): 1 ok, 1 warning, 1 critical, 1 empty")
    assert "(empty counts as OK)" in last and last.endswith("warn 5m 00s, crit 15m 00s")
    r = cli("liveness", "-b", bootstrap, "-t", mixed, *THRESHOLDS, "-o", "table", "--problems")
    assert r.code == 2
    body = [line.split()[:2] for line in r.stdout.splitlines()[1:]]
    assert [p for _, p in body] == ["1", "2"]  # only the problems in the table
    lines = r.stderr.splitlines()
    assert "; 2 shown;" in lines[-1]
    assert not any(line.endswith("empty: OK") or ".empty: OK" in line for line in lines)  # OK topics left out
    r = cli("liveness", "-b", bootstrap, "-t", mixed, *THRESHOLDS, "-o", "jsonl")
    assert "partition(s) in" not in r.stderr  # machine formats: no summary line


# ----------------------------------------------------------------------------- lag --watch: CONSUMED/S


def test_lag_watch_consumed_rate_follows_a_real_auto_committing_consumer(bootstrap: str) -> None:
    """A producer at 20 records/s, a consumer auto-committing every 5 s, `lag --watch 2s` for ~52 s.

    Committed offsets move in 5 s steps, so a rate between two refreshes flips between 0 and ~50/s
    (checked below on the same records, so the setup really has steps); the shown rate stays within
    30 % of the truth on every refresh once it is shown, never 0, and its median within 10 %.
    """
    from confluent_kafka import Consumer, Producer

    topic, group = f"rate-{uuid.uuid4().hex[:8]}", f"rate-g-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 1, config=KEEP)
    rate, stop, consuming = 20.0, threading.Event(), threading.Event()
    produced: list[float] = []

    def produce_steadily() -> None:
        p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
        start = time.monotonic()
        sent = 0
        while not stop.is_set():
            due = int((time.monotonic() - start) * rate)  # an absolute schedule: load does not slow the rate
            while sent < due:
                p.produce(topic, b"x")
                sent += 1
            p.poll(0)
            time.sleep(0.05)
        p.flush(10)
        produced.append(sent / (time.monotonic() - start))

    def consume() -> None:
        c = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "enable.auto.commit": True,
                "auto.commit.interval.ms": 5000,
                "auto.offset.reset": "earliest",
            }
        )
        c.subscribe([topic])
        try:
            while not stop.is_set():
                if c.poll(0.2) is not None:
                    consuming.set()
        finally:
            c.close()

    threads = [threading.Thread(target=f, daemon=True) for f in (produce_steadily, consume)]
    for t in threads:
        t.start()
    assert consuming.wait(60), "the consumer never got a record"  # joined the group: commits from now on
    args = ["lag", "-b", bootstrap, "-g", group, "-t", topic, "--watch", "2s", "-o", "jsonl"]
    env = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kafka_offsets_cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or ()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while (
            len([x for x in lines if x.strip()]) < 26 and time.monotonic() < deadline and proc.poll() is None
        ):
            time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        stop.set()
        for t in threads:
            t.join(30)
    assert proc.returncode == 0, err
    recs = [json.loads(x) for x in lines if x.strip()]
    assert len(recs) >= 26, (recs, err)
    truth = produced[0]
    assert abs(truth - rate) / rate < 0.1  # the producer kept its schedule
    seen = [r["committed"] for r in recs if r["committed"] is not None]
    steps = [(b - a) / 2 for a, b in itertools.pairwise(seen)]
    shown = [r["consumed_per_s"] for r in recs]
    print(f"\ntruth {truth:.2f}/s; per-refresh committed deltas /s {steps}; shown {shown}")
    assert 0 in steps and max(steps) > 1.5 * truth  # per-refresh rates would flip between 0 and inflated
    first = next(i for i, v in enumerate(shown) if v is not None)
    assert first <= 16, shown  # 4 commit steps: ~20 s of 5 s commits after the first refresh
    after = shown[first:]
    assert all(v is not None and v > 0 and abs(v - truth) / truth < 0.3 for v in after), (truth, after)
    middle = sorted(v for v in after if v is not None)[len(after) // 2]
    assert abs(middle - truth) / truth < 0.1, (truth, after)
    assert all(r["consumed_window_s"] is not None and r["consumed_window_s"] >= 10 for r in recs[first:])
