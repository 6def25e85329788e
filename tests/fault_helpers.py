"""Helpers for the fault, security and bad-input tests: processes, stderr checks, healing a cluster.

Tests that freeze (SIGSTOP) or kill nodes of the shared 3-node cluster call :func:`heal` afterwards,
which brings every node back, waits until the given topics have a leader for every partition again
and moves leadership back to the preferred replicas (so the next test finds the layout it set up).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from confluent_kafka import ElectionType, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition
from confluent_kafka.admin import AdminClient

from dev import kafka as dev_kafka

REPO_ROOT = Path(__file__).resolve().parent.parent
PROG = "kafka-offsets"


def command(*args: str) -> list[str]:
    """argv running the CLI in a child process."""
    return [sys.executable, "-m", "kafka_offsets_cli", *args]


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a CLI child: no ambient bootstrap servers, no colours."""
    env = dict(os.environ)
    env.pop("KAFKA_BOOTSTRAP_SERVERS", None)
    env.pop("KAFKA_OFFSETS_CLUSTER", None)
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


def start(*args: str, **extra: str) -> subprocess.Popen[str]:
    """Start the CLI as a child process with piped stdout and stderr."""
    return subprocess.Popen(
        command(*args),
        cwd=REPO_ROOT,
        env=child_env(**extra),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@dataclass
class Timed:
    """A finished CLI run and how long it took."""

    code: int
    stdout: str
    stderr: str
    seconds: float


def run_timed(*args: str, timeout: float = 120, **extra: str) -> Timed:
    """Run the CLI to completion; exit code, output and wall-clock seconds."""
    t0 = time.monotonic()
    p = subprocess.run(
        command(*args),
        cwd=REPO_ROOT,
        env=child_env(**extra),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Timed(p.returncode, p.stdout, p.stderr, time.monotonic() - t0)


def error_lines(stderr: str) -> list[str]:
    """The lines of stderr other than blank ones and ``  hint:`` continuations."""
    return [ln for ln in stderr.splitlines() if ln.strip() and not ln.startswith("  hint: ")]


def assert_one_error_line(stderr: str, *, contains: str = "") -> str:
    """stderr is exactly one ``kafka-offsets: error:`` line (plus an optional hint); returns it."""
    assert "Traceback" not in stderr, stderr
    lines = error_lines(stderr)
    assert len(lines) == 1, f"expected one error line, got:\n{stderr}"
    assert lines[0].startswith(f"{PROG}: error: "), stderr
    assert contains in lines[0], f"{contains!r} not in {lines[0]!r}"
    return lines[0]


# ----------------------------------------------------------------------------- processes


def _proc_table() -> dict[int, list[tuple[int, str]]]:
    children: dict[int, list[tuple[int, str]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append((int(entry), cmd))
    return children


def descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every process below ``pid``."""
    table = _proc_table()
    out: list[tuple[int, str]] = []
    todo = [pid]
    while todo:
        for child, cmd in table.get(todo.pop(), []):
            out.append((child, cmd))
            todo.append(child)
    return out


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_gone(pids: Iterable[int], timeout: float) -> list[int]:
    """Wait until none of ``pids`` runs; the ones still running after ``timeout`` seconds."""
    pending = list(pids)
    deadline = time.monotonic() + timeout
    while pending and time.monotonic() < deadline:
        time.sleep(0.2)
        pending = [p for p in pending if running(p)]
    return pending


def rss_kib(pid: int | str = "self") -> int:
    """Resident set size (VmRSS) of a process in KiB, from /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


# ----------------------------------------------------------------------------- the 3-node cluster


def admin(bootstrap: str) -> AdminClient:
    """A quiet AdminClient (librdkafka's logs go nowhere)."""
    import logging

    quiet = logging.getLogger("tests.fault_helpers.librdkafka")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    conf: dict[str, Any] = {"bootstrap.servers": bootstrap, "logger": quiet}
    return AdminClient(conf)


def heal(cluster: dev_kafka.Cluster, topics: Sequence[str] = (), timeout: float = 180) -> None:
    """Every node running and unfrozen, every partition of ``topics`` led by its preferred replica."""
    for node in cluster.nodes:
        if node.alive():
            assert node.pid is not None
            os.kill(node.pid, signal.SIGCONT)
    for node in cluster.nodes:
        if not node.alive():
            cluster.start_node(node.node_id)
    deadline = time.monotonic() + timeout
    client = admin(cluster.bootstrap)
    want = set(cluster.node_ids)
    while True:
        problem = _unhealthy(client, want, topics)
        if problem is None:
            return
        if problem == "not preferred":
            tps = [CTopicPartition(t, p) for t in topics for p in _partitions(client, t)]
            # ELECTION_NOT_NEEDED for some, or a replica still catching up: look again
            with contextlib.suppress(KafkaException):
                client.elect_leaders(ElectionType.PREFERRED, tps).result()
        if time.monotonic() > deadline:
            raise AssertionError(f"cluster {cluster.name} did not heal within {timeout}s: {problem}")
        time.sleep(0.5)


def _partitions(client: AdminClient, topic: str) -> list[int]:
    md = client.list_topics(topic=topic, timeout=10)
    return sorted(md.topics[topic].partitions)


def _unhealthy(client: AdminClient, want: set[int], topics: Sequence[str]) -> str | None:
    try:
        md = client.list_topics(timeout=5)
    except KafkaException as e:
        return str(e)
    if set(md.brokers) != want:
        return f"brokers {sorted(md.brokers)}"
    preferred = True
    for t in topics:
        info = md.topics.get(t)
        if info is None or info.error is not None:
            return f"topic {t}: {info.error if info else 'missing'}"
        for p in info.partitions.values():
            if p.leader < 0 or len(p.isrs) != len(p.replicas):
                return f"{t}:{p.id} leader {p.leader} isr {p.isrs}"
            preferred &= p.leader == p.replicas[0]
    return None if preferred else "not preferred"


def create_assigned(
    bootstrap: str, topic: str, assignment: Sequence[Sequence[int]], timeout: float = 120
) -> None:
    """Create ``topic`` with an explicit replica assignment (first replica = preferred leader) and wait
    until every partition has its preferred leader."""
    from confluent_kafka.admin import NewTopic  # type: ignore[attr-defined]

    client = admin(bootstrap)
    new = NewTopic(topic, num_partitions=len(assignment), replica_assignment=[list(a) for a in assignment])
    client.create_topics([new], request_timeout=timeout, operation_timeout=timeout)[topic].result(
        timeout=timeout
    )
    deadline = time.monotonic() + timeout
    while True:
        info = client.list_topics(topic=topic, timeout=10).topics.get(topic)
        if (
            info is not None
            and info.error is None
            and len(info.partitions) == len(assignment)
            and all(p.leader == assignment[p.id][0] for p in info.partitions.values())
        ):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"topic {topic} not ready after {timeout}s")
        time.sleep(0.2)


def delete_topics(bootstrap: str, topics: Sequence[str], timeout: float = 120) -> None:
    """Delete ``topics`` (best effort: a missing topic is fine)."""
    client = admin(bootstrap)
    for fut in client.delete_topics(list(topics), operation_timeout=timeout).values():
        with contextlib.suppress(KafkaException):
            fut.result(timeout=timeout)
