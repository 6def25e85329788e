"""Broker test helpers beyond the shared data ones (``dev.kafka_data``: topics, produce, commit, watermarks):
transactions, deleting records, and Kafka's own Java tools through ``dev.kafka``, so tests can compare
kafka-offsets against the reference implementation.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence

from confluent_kafka import Consumer, Producer, TopicPartition

from dev import kafka as dev_kafka
from dev.kafka_data import TP, Delivered, Record, admin, producer_conf, send
from tests.availability import unavailable

GET_OFFSET_SHELL = "org.apache.kafka.tools.GetOffsetShell"
CONSUMER_GROUP_COMMAND = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"


def produce_transactional(
    bootstrap: str,
    topic: str,
    records: Iterable[Record],
    *,
    commit: bool | None = None,
    transactional_id: str | None = None,
    timeout: float = 30.0,
) -> Producer:
    """Produce ``records`` inside a transaction; ``commit`` True commits, False aborts, None leaves it OPEN.

    Returns the producer so a test can ``commit_transaction()``/``abort_transaction()`` later (an open
    transaction pins the partition's last stable offset, which read_committed readers see).
    """
    producer = Producer(
        producer_conf(bootstrap, **{"transactional.id": transactional_id or f"tx-{uuid.uuid4().hex[:12]}"})
    )
    producer.init_transactions(timeout)
    producer.begin_transaction()
    results: list[Delivered | Exception] = []
    send(producer, topic, records, results)
    remaining = producer.flush(timeout)
    if remaining:
        raise TimeoutError(f"{remaining} transactional record(s) not delivered within {timeout}s")
    errors = [r for r in results if isinstance(r, Exception)]
    if errors:
        producer.abort_transaction(timeout)
        raise errors[0]
    if commit is True:
        producer.commit_transaction(timeout)
    elif commit is False:
        producer.abort_transaction(timeout)
    if commit is not None:
        partitions = sorted({r[0] for r in results if not isinstance(r, Exception)})
        wait_transactions_settled(bootstrap, topic, partitions, timeout)
    return producer


def wait_transactions_settled(
    bootstrap: str, topic: str, partitions: Sequence[int], timeout: float = 30.0
) -> None:
    """Wait until no transaction is open on the partitions: last stable offset == high watermark.

    EndTxn returns once the coordinator has logged the outcome; the commit/abort markers
    reach the partitions just after it (tens of ms), and until then the marker's offset
    and the last stable offset are not there yet.
    """
    from confluent_kafka import IsolationLevel
    from confluent_kafka.admin import OffsetSpec  # type: ignore[attr-defined]

    client = admin(bootstrap)
    query = {TopicPartition(topic, p): OffsetSpec.latest() for p in partitions}  # type: ignore[no-untyped-call]
    deadline = time.monotonic() + timeout
    while True:
        ends = []
        for iso in (IsolationLevel.READ_UNCOMMITTED, IsolationLevel.READ_COMMITTED):
            futures = client.list_offsets(query, isolation_level=iso)
            ends.append({k.partition: f.result(timeout).offset for k, f in futures.items()})
        if ends[0] == ends[1]:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"transactions on {topic} {list(partitions)} open after {timeout}s: {ends}")
        time.sleep(0.02)


def delete_records(bootstrap: str, offsets: Mapping[TP, int], timeout: float = 30.0) -> dict[TP, int]:
    """Delete records before ``offsets`` {(topic, partition): offset}; returns the new low watermarks."""
    client = admin(bootstrap)
    futures = client.delete_records(
        [TopicPartition(t, p, o) for (t, p), o in offsets.items()],
        request_timeout=timeout,
        operation_timeout=timeout,
    )
    out: dict[TP, int] = {}
    for tp, fut in futures.items():
        res = fut.result(timeout=timeout)
        out[(tp.topic, tp.partition)] = int(res.low_watermark)
    return out


class OffsetShellOutput(dict[TP, int]):
    """GetOffsetShell's ``topic:partition:offset`` lines as {(topic, partition): offset}, plus raw output."""

    stdout: str
    stderr: str

    def __init__(self, offsets: Mapping[TP, int], stdout: str, stderr: str) -> None:
        super().__init__(offsets)
        self.stdout = stdout
        self.stderr = stderr


def parse_offset_shell(stdout: str) -> dict[TP, int]:
    """Parse GetOffsetShell output (``topic:partition:offset`` per line; topics cannot contain ':')."""
    out: dict[TP, int] = {}
    for line in stdout.splitlines():
        line = line.strip()
        if not line:
            continue
        topic, partition, offset = line.rsplit(":", 2)
        out[(topic, int(partition))] = int(offset)
    return out


def get_offset_shell(bootstrap: str, *args: str, timeout: float = 120.0) -> OffsetShellOutput:
    """Run Kafka's real GetOffsetShell (``--bootstrap-server bootstrap *args``) and parse its output.

    E.g. ``get_offset_shell(b, "--topic", t, "--time", "max-timestamp")``.  Partitions for which Kafka
    returns no offset are absent from the result (GetOffsetShell omits them).  Raises
    ``subprocess.CalledProcessError`` (with stderr) if the tool exits non-zero.
    """
    proc = dev_kafka.run_tool(GET_OFFSET_SHELL, "--bootstrap-server", bootstrap, *args, timeout=timeout)
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, proc.stdout, proc.stderr)
    return OffsetShellOutput(parse_offset_shell(proc.stdout), proc.stdout, proc.stderr)


@contextlib.contextmanager
def reading(bootstrap: str, topic: str, group: str, protocol: str = "classic") -> Iterator[None]:
    """A real consumer of ``group`` (``group.protocol``: classic, or consumer for KIP-848) subscribed
    to ``topic`` (assigned before this yields)."""
    conf = {"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol}
    c = Consumer({**conf, "enable.auto.commit": False})
    c.subscribe([topic])
    deadline = time.monotonic() + 60
    while not c.assignment() and time.monotonic() < deadline:
        c.poll(0.2)
    assert c.assignment(), "the consumer did not join"
    try:
        yield
    finally:
        c.close()


def consumer_groups(bootstrap: str, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run kafka-consumer-groups (ConsumerGroupCommand) with ``--bootstrap-server bootstrap *args``."""
    return dev_kafka.run_tool(CONSUMER_GROUP_COMMAND, "--bootstrap-server", bootstrap, *args, timeout=timeout)


@contextlib.contextmanager
def own_broker(name: str, what: str, release: str | None = None) -> Iterator[dev_kafka.Cluster]:
    """A single-node broker of a test's own, named ``name-PID``, stopped after; ``what`` names it in
    the line given when it cannot start (a skip locally, a failure under CI=true). ``release``: an
    older Kafka release (:mod:`dev.releases`) in place of the pinned one."""
    full = f"{name}-{os.getpid()}"
    try:
        cluster = dev_kafka.up(full, nodes=1, owner_pid=os.getpid(), release=release)
    except Exception as exc:
        with contextlib.suppress(Exception):
            dev_kafka.down(full, grace=0)
        unavailable(f"{what} could not be started: {exc}")
    try:
        yield cluster
    finally:
        dev_kafka.down(full)


def group_tool_table(main_class: str, bootstrap: str, *args: str) -> list[dict[str, str]]:
    """The rows of a Kafka group tool's table (kafka-share-groups, kafka-streams-groups: header
    ``GROUP ...``) by column name; the tool must succeed."""
    done = dev_kafka.run_tool(main_class, "--bootstrap-server", bootstrap, *args, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines() if line.strip()]
    header = next((i for i, cells in enumerate(lines) if cells[:1] == ["GROUP"]), None)
    assert header is not None, (
        f"no GROUP table in the output of {main_class} {' '.join(args)}:\n{done.stdout}"
    )
    names = lines[header]
    return [
        dict(zip(names, cells, strict=False)) for cells in lines[header + 1 :] if len(cells) >= len(names) - 1
    ]


def wait_moved_to_remote(
    bootstrap: str, topic: str, partitions: int, records: int, timeout: float = 120.0
) -> None:
    """Wait (bounded) until every segment of ``topic`` is uploaded and its local copy deleted.

    That is when earliest-local has reached latest (``records`` in each of ``partitions``), as
    ``kafka-offsets list`` reads them; the assertion names what was last seen.
    """
    from tests.cli_runner import cli  # the CLI runner imports the app: only for tiered tests

    deadline = time.monotonic() + timeout
    while True:
        run = cli("list", "-b", bootstrap, "-t", topic, "-s", "earliest-local", "-s", "latest", "-o", "jsonl")
        seen = {(r["partition"], r["spec"]): r["offset"] for r in run.jsonl()} if run.code == 0 else {}
        if all(
            seen.get((p, "earliest-local")) == seen.get((p, "latest")) == records for p in range(partitions)
        ):
            return
        assert time.monotonic() < deadline, f"segments did not move to remote storage: {seen or run.stderr}"
        time.sleep(0.5)


def broker_warnings(cluster: dev_kafka.Cluster, last: int = 40) -> str:
    """The last ``last`` WARN and ERROR lines of each node's server.log, for a failing test's report."""
    out = []
    for node in cluster.nodes:
        try:
            lines = node.log_file.read_text(errors="replace").splitlines()
        except OSError as exc:
            out.append(f"node {node.node_id}: no server.log ({exc})")
            continue
        picked = [ln for ln in lines if " WARN " in ln or " ERROR " in ln][-last:]
        out.append(f"node {node.node_id}: {len(picked)} warnings and errors (last {last}):")
        out.extend(picked)
    return "\n".join(out)


SHARE_GROUP_COMMAND = "org.apache.kafka.tools.consumer.group.ShareGroupCommand"
CONSOLE_SHARE_CONSUMER = "org.apache.kafka.tools.consumer.ConsoleShareConsumer"
CONFIG_COMMAND = "kafka.admin.ConfigCommand"


def kafka_tool(main_class: str, *args: str) -> str:
    """A Kafka tool's standard output; the tool must succeed."""
    done = dev_kafka.run_tool(main_class, *args, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_as_share_group(bootstrap: str, topic: str, group: str, records: int) -> None:
    """Kafka's console share consumer reads ``records`` records of ``topic`` as share group ``group``
    (from the earliest: ``share.auto.offset.reset``), then stops: the group is left Empty."""
    kafka_tool(
        CONFIG_COMMAND,
        "--bootstrap-server",
        bootstrap,
        "--alter",
        "--entity-type",
        "groups",
        "--entity-name",
        group,
        "--add-config",
        "share.auto.offset.reset=earliest",
    )
    out = kafka_tool(
        CONSOLE_SHARE_CONSUMER,
        "--bootstrap-server",
        bootstrap,
        "--topic",
        topic,
        "--group",
        group,
        "--max-messages",
        str(records),
        "--timeout-ms",
        "60000",
    )
    assert len(out.splitlines()) == records, out


def share_consumer(bootstrap: str, topic: str, group: str, client_id: str) -> subprocess.Popen[bytes]:
    """A console share consumer of ``topic`` in ``group`` left running (a live member): terminate it."""
    return subprocess.Popen(
        dev_kafka.tool_command(
            CONSOLE_SHARE_CONSUMER,
            "--bootstrap-server",
            bootstrap,
            "--topic",
            topic,
            "--group",
            group,
            "--timeout-ms",
            "120000",
            "--consumer-property",
            f"client.id={client_id}",
        ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
