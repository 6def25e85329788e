"""Helpers for tests that talk to the real broker: create topics, produce, commit, delete, run Kafka's tools.

These use confluent-kafka directly (allowed in tests/ and dev/) and Kafka's own Java tools through
``dev.kafka``, so tests can compare kafka-offsets against the reference implementation.
"""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from dev import kafka as dev_kafka

TP = tuple[str, int]
#: (partition, offset) of a delivered record
Delivered = tuple[int, int]
#: (partition, CreateTime timestamp in ms or None for "now", key, value)
Record = tuple[int, int | None, bytes | str | None, bytes | str | None]

GET_OFFSET_SHELL = "org.apache.kafka.tools.GetOffsetShell"
CONSUMER_GROUP_COMMAND = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"


def admin(bootstrap: str) -> AdminClient:
    """A fresh AdminClient for ``bootstrap``."""
    return AdminClient({"bootstrap.servers": bootstrap})


def create_topic(
    bootstrap: str,
    name: str,
    partitions: int = 1,
    replication: int = 1,
    config: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> str:
    """Create topic ``name`` and wait until metadata shows every partition with a leader; returns the name."""
    client = admin(bootstrap)
    futures = client.create_topics(
        [
            NewTopic(
                name, num_partitions=partitions, replication_factor=replication, config=dict(config or {})
            )
        ],
        operation_timeout=timeout,
        request_timeout=timeout,
    )
    futures[name].result(timeout=timeout)
    deadline = time.monotonic() + timeout
    while True:
        md = client.list_topics(topic=name, timeout=5)
        t = md.topics.get(name)
        if (
            t is not None
            and t.error is None
            and len(t.partitions) == partitions
            and all(p.leader >= 0 for p in t.partitions.values())
        ):
            return name
        if time.monotonic() > deadline:
            raise TimeoutError(f"topic {name} not visible in metadata after {timeout}s")
        time.sleep(0.1)


def _producer_conf(bootstrap: str, **extra: Any) -> dict[str, Any]:
    conf: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        "enable.idempotence": True,  # keeps per-partition order exactly as given
        "linger.ms": 5,
        "message.timeout.ms": 30000,
    }
    conf.update(extra)
    return conf


def _send(
    producer: Producer, topic: str, records: Iterable[Record], sink: list[Delivered | Exception]
) -> None:
    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            sink.append(KafkaException(err))
        else:
            sink.append((msg.partition(), msg.offset()))

    for partition, ts, key, value in records:
        kwargs: dict[str, Any] = {
            "partition": partition,
            "key": key,
            "value": value,
            "on_delivery": on_delivery,
        }
        if ts is not None:
            kwargs["timestamp"] = ts
        while True:
            try:
                producer.produce(topic, **kwargs)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)


def produce(bootstrap: str, topic: str, records: Iterable[Record], timeout: float = 30.0) -> list[Delivered]:
    """Produce ``records`` (partition, ts_ms|None, key, value) in order, flush, return (partition, offset)s.

    Timestamps are producer-side CreateTime (the broker keeps them unless the topic is LogAppendTime);
    None (or 0, which librdkafka treats as unset) means "now".
    Raises on any delivery error.
    """
    producer = Producer(_producer_conf(bootstrap))
    results: list[Delivered | Exception] = []
    _send(producer, topic, records, results)
    remaining = producer.flush(timeout)
    if remaining:
        raise TimeoutError(f"{remaining} record(s) to {topic} not delivered within {timeout}s")
    errors = [r for r in results if isinstance(r, Exception)]
    if errors:
        raise errors[0]
    return [r for r in results if not isinstance(r, Exception)]


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
        _producer_conf(bootstrap, **{"transactional.id": transactional_id or f"tx-{uuid.uuid4().hex[:12]}"})
    )
    producer.init_transactions(timeout)
    producer.begin_transaction()
    results: list[Delivered | Exception] = []
    _send(producer, topic, records, results)
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


_COORDINATOR_NOT_READY = frozenset(
    {
        KafkaError.NOT_COORDINATOR,
        KafkaError.COORDINATOR_NOT_AVAILABLE,
        KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
        KafkaError._WAIT_COORD,
        KafkaError._TRANSPORT,
        KafkaError._TIMED_OUT,
    }
)


def commit_group_offsets(
    bootstrap: str,
    group: str,
    offsets: Mapping[TP, int],
    metadata: str | None = None,
    timeout: float = 60.0,
) -> None:
    """Commit ``offsets`` {(topic, partition): offset} for consumer group ``group`` with a real consumer.

    The consumer does not join the group (standalone commit), so the group ends up Empty with those
    committed offsets, as after a consumer application stopped.  Retries while the group coordinator
    is not ready (the first commit on a fresh broker creates __consumer_offsets).
    """
    tps = []
    for (topic, partition), offset in offsets.items():
        tp = TopicPartition(topic, partition, offset)
        if metadata is not None:
            tp.metadata = metadata
        tps.append(tp)
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "enable.auto.commit": False,
            "enable.auto.offset.store": False,
        }
    )
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                result = consumer.commit(offsets=tps, asynchronous=False)
                errors = [tp.error for tp in result or [] if tp.error is not None]
                if errors:
                    raise KafkaException(errors[0])
                return
            except KafkaException as exc:
                err = exc.args[0]
                if err.code() not in _COORDINATOR_NOT_READY or time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
    finally:
        consumer.close()


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


def consumer_groups(bootstrap: str, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run kafka-consumer-groups (ConsumerGroupCommand) with ``--bootstrap-server bootstrap *args``."""
    return dev_kafka.run_tool(CONSUMER_GROUP_COMMAND, "--bootstrap-server", bootstrap, *args, timeout=timeout)


def watermarks(bootstrap: str, tps: Sequence[TP], timeout: float = 10.0) -> dict[TP, tuple[int, int]]:
    """(low, high) watermarks per partition, read with a plain consumer (independent of kafka-offsets)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"wm-{uuid.uuid4().hex[:8]}"})
    try:
        out: dict[TP, tuple[int, int]] = {}
        for topic, partition in tps:
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=timeout)
            out[(topic, partition)] = (int(low), int(high))
        return out
    finally:
        consumer.close()
