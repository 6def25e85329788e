"""A bootstrap server that freezes costs the groups it coordinates, never the run (issue 27).

kafka-python's client is made (bootstrapped) for the committed offsets. Its bootstrap picks one
server at random, connects (ApiVersions) and asks it for Metadata; a server that freezes then (a
SIGSTOPped or GC-paused JVM: the kernel still accepts, nobody answers) holds the bootstrap for the
whole request timeout, which was what remained of ``--timeout``: the run ended as "did not answer"
(exit 3, nothing on stdout) though two nodes of three were healthy (1 of 6 CI runs of
tests/test_coordinator_freeze.py). Before the freeze, a frozen server held whole attempts the same way,
and the later attempts tried the servers in ``-b`` order.

Here the node that is the first ``-b`` server and the coordinator of one group (and not of the
other) freezes just as kafka-python's bootstrap asks it for Metadata. The child's prelude
(:data:`PRELUDE`) makes that moment certain: kafka-python keeps ``-b`` order and its random pick is
the first server (its worst case, one run in three otherwise), and the node is SIGSTOPped from the
child as the bootstrap's first Metadata request is logged, before it is sent. The healthy group must
be answered, the frozen coordinator's group must get its error (or its right answer, when the
controller fenced the frozen node and another broker took the group over within the run), exit 1
(or 0), within ``--timeout`` + a few seconds.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev.kafka_data import commit_group_offsets, produce
from tests.fault_helpers import REPO_ROOT, Timed, admin, child_env, create_assigned

pytestmark = [pytest.mark.broker, pytest.mark.cluster3, pytest.mark.slow]

TIMEOUT_S = 20
#: What a run may take beyond --timeout (interpreter start, output).
SLACK_S = 8
#: Committed offsets of both groups: partition -> offset (each partition holds 5 records).
COMMITTED = {0: 2, 1: 4}

#: The CLI child's prelude: kafka-python keeps the bootstrap servers in ``-b`` order (no shuffle) and
#: its bootstrap's random pick is the first of them (every other use of ``random`` is untouched); the
#: process ``FREEZE_PID`` is SIGSTOPped as the first bootstrap Metadata request is logged (before it
#: is sent: kafka.cluster logs, then sends).
PRELUDE = """
import logging, os, random, runpy, signal, sys, types
import kafka.cluster, kafka.net.manager
kafka.cluster.random = types.SimpleNamespace(shuffle=lambda seq: None)
kafka.net.manager.random = types.SimpleNamespace(
    choice=lambda seq: seq[0], shuffle=random.shuffle, uniform=random.uniform
)
frozen = []
def freeze(record):
    message = record.getMessage()
    if not frozen and message.startswith("Sending metadata request") and " bootstrap-" in message:
        os.kill(int(os.environ["FREEZE_PID"]), signal.SIGSTOP)
        frozen.append(record)
    return True
logging.getLogger("kafka.cluster").setLevel(logging.DEBUG)
logging.getLogger("kafka.cluster").addFilter(freeze)
sys.argv[0] = "kafka-offsets"
runpy.run_module("kafka_offsets_cli", run_name="__main__", alter_sys=True)
"""


def _coordinators(cluster: dev_kafka.Cluster, prefix: str, groups: list[str]) -> dict[str, int]:
    """Each group's coordinator. A first commit makes __consumer_offsets on a fresh cluster: describing
    a group while its coordinator loads can abort librdkafka (#3663) in this process."""
    seed = f"{prefix}.seed"
    create_assigned(cluster.bootstrap, seed, [cluster.node_ids])
    commit_group_offsets(cluster.bootstrap, f"{prefix}.seed", {(seed, 0): 0})
    client = admin(cluster.bootstrap)  # kept: a collected client never completes its futures
    futures = client.describe_consumer_groups(groups, request_timeout=30)
    return {g: int(f.result(timeout=40).coordinator.id) for g, f in futures.items()}


def test_frozen_first_bootstrap_server_costs_only_its_groups(cluster: dev_kafka.Cluster) -> None:
    prefix = f"bfz-{uuid.uuid4().hex[:6]}"
    candidates = [f"{prefix}.g{i}" for i in range(24)]
    coordinators = _coordinators(cluster, prefix, candidates)
    frozen_group = candidates[0]
    victim = coordinators[frozen_group]
    healthy_group = next(g for g in candidates if coordinators[g] != victim)
    others = [n for n in cluster.node_ids if n != victim]
    topic = f"{prefix}.t"  # on the healthy nodes only: just the committed offsets need the victim
    create_assigned(cluster.bootstrap, topic, [[others[0], others[1]], [others[1], others[0]]])
    produce(cluster.bootstrap, topic, [(p, None, None, "x") for p in COMMITTED for _ in range(5)])
    for g in (frozen_group, healthy_group):
        commit_group_offsets(cluster.bootstrap, g, {(topic, p): o for p, o in COMMITTED.items()})
    servers = ",".join(cluster.node(n).bootstrap for n in [victim, *others])

    pid = cluster.node(victim).pid
    assert pid is not None
    try:
        run = _run_with_prelude(
            pid, "lag", "-b", servers, "-g", frozen_group, "-g", healthy_group, "-o", "jsonl",
            "--timeout", f"{TIMEOUT_S}s",
        )  # fmt: skip
        frozen = _stopped(pid)
    finally:
        cluster.signal(victim, signal.SIGCONT)

    assert frozen, f"node {victim} was not frozen by the bootstrap: {run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr, run.stderr
    assert run.code in (0, 1), (run.code, run.stdout, run.stderr)  # never 3: the cluster did answer
    assert run.seconds <= TIMEOUT_S + SLACK_S, run.seconds
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    want = {p: 5 - o for p, o in COMMITTED.items()}
    assert {r["partition"]: r["lag"] for r in rows if r["group"] == healthy_group} == want, rows
    mine = [r for r in rows if r["group"] == frozen_group]
    if run.code == 1:  # the frozen coordinator's group: its error, said once on stderr
        assert [r["error"] for r in mine if r["state"] == "error"], rows
        errors = [ln for ln in run.stderr.splitlines() if ln.startswith("kafka-offsets: error: ")]
        assert len(errors) == 1 and "some groups or partitions failed" in errors[0], run.stderr
    else:  # the controller fenced the frozen node and another broker took the group over in time
        assert {r["partition"]: r["lag"] for r in mine} == want, rows


def _run_with_prelude(freeze_pid: int, *args: str) -> Timed:
    """Run the CLI after :data:`PRELUDE` (which freezes ``freeze_pid``)."""
    t0 = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-c", PRELUDE, *args],
        cwd=REPO_ROOT,
        env=child_env(FREEZE_PID=str(freeze_pid)),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S + 60,
    )
    return Timed(p.returncode, p.stdout, p.stderr, time.monotonic() - t0)


def _stopped(pid: int) -> bool:
    """True when ``pid`` is stopped (SIGSTOP): its state in /proc is ``T``."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "T"
