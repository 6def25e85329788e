"""Data on a real Kafka for the demo, the benchmarks and the broker tests: topics, records, group offsets.

``dev.seed`` (demo data), ``bench.setup_data`` (the benchmark data set) and the broker tests all write
their data with these. They use confluent-kafka directly: dev/, bench/ and tests/ are not the package.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

TP = tuple[str, int]
#: (partition, offset) of a delivered record
Delivered = tuple[int, int]
#: (partition, CreateTime timestamp in ms or None for "now", key, value)
Record = tuple[int, int | None, bytes | str | None, bytes | str | None]

#: errors while a just-created topic's partition leaders are still being set up
_LEADERS_SETTLING = frozenset(
    {
        KafkaError.NOT_LEADER_FOR_PARTITION,
        KafkaError.LEADER_NOT_AVAILABLE,
        KafkaError.UNKNOWN_TOPIC_OR_PART,
        KafkaError._UNKNOWN_PARTITION,
        KafkaError._UNKNOWN_TOPIC,
    }
)

#: errors while the group coordinator is not ready (the first commit on a fresh broker creates
#: __consumer_offsets)
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


def admin(bootstrap: str, **conf: Any) -> AdminClient:
    """A fresh AdminClient for ``bootstrap`` (``conf``: more librdkafka settings)."""
    return AdminClient({"bootstrap.servers": bootstrap, **conf})


def create_topic(
    bootstrap: str,
    name: str,
    partitions: int = 1,
    replication: int = 1,
    config: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    *,
    exist_ok: bool = False,
    client: AdminClient | None = None,
) -> str:
    """Create topic ``name`` and wait until metadata shows every partition with a leader; returns the name.

    ``exist_ok``: a topic that already exists is no error (its partitions are still waited for).
    ``client``: an AdminClient to reuse instead of a new one.
    """
    client = client or admin(bootstrap)
    new = NewTopic(name, num_partitions=partitions, replication_factor=replication, config=dict(config or {}))
    futures = client.create_topics([new], operation_timeout=timeout, request_timeout=timeout)
    try:
        futures[name].result(timeout=timeout + 5)
    except KafkaException as exc:
        if not exist_ok or exc.args[0].code() != KafkaError.TOPIC_ALREADY_EXISTS:
            raise
    wait_for_leaders(client, {name: partitions}, timeout)
    return name


def wait_for_leaders(client: AdminClient, topics: Mapping[str, int], timeout: float = 30.0) -> None:
    """Wait until metadata shows each of ``topics`` {name: partition count} with a leader everywhere."""
    deadline = time.monotonic() + timeout
    while True:
        # one topic's metadata when there is one: the bench cluster holds 11,000 partitions
        md = client.list_topics(topic=next(iter(topics)) if len(topics) == 1 else None, timeout=timeout)
        missing = [
            name
            for name, count in topics.items()
            if (t := md.topics.get(name)) is None
            or t.error is not None
            or len(t.partitions) != count
            or any(p.leader < 0 for p in t.partitions.values())
        ]
        if not missing:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"topics without a leader on every partition after {timeout}s: {missing}")
        time.sleep(0.2)


def producer_conf(bootstrap: str, **extra: Any) -> dict[str, Any]:
    """An idempotent producer's settings (order kept exactly as given); ``extra`` added or overriding."""
    conf: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        "enable.idempotence": True,  # keeps per-partition order exactly as given
        "linger.ms": 5,
        "message.timeout.ms": 30000,
    }
    conf.update(extra)
    return conf


def send(
    producer: Producer, topic: str, records: Iterable[Record], sink: list[Delivered | Exception]
) -> None:
    """Hand ``records`` to ``producer``; each delivery report lands in ``sink`` (after a poll or flush)."""

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


def produce(
    bootstrap: str, topic: str, records: Iterable[Record], timeout: float = 30.0, **conf: Any
) -> list[Delivered]:
    """Produce ``records`` (partition, ts_ms|None, key, value) in order, flush, return (partition, offset)s.

    Timestamps are producer-side CreateTime (the broker keeps them unless the topic is LogAppendTime);
    None (or 0, which librdkafka treats as unset) means "now". ``conf``: producer settings on top of
    :func:`producer_conf`. Raises on any delivery error.
    """
    producer = Producer(producer_conf(bootstrap, **conf))
    results: list[Delivered | Exception] = []
    send(producer, topic, records, results)
    remaining = producer.flush(timeout)
    if remaining:
        raise TimeoutError(f"{remaining} record(s) to {topic} not delivered within {timeout}s")
    errors = [r for r in results if isinstance(r, Exception)]
    if errors:
        raise errors[0]
    return [r for r in results if not isinstance(r, Exception)]


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
                not_ready = err.retriable() or err.code() in _COORDINATOR_NOT_READY
                if not not_ready or time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
    finally:
        consumer.close()


def watermarks(bootstrap: str, tps: Sequence[TP], timeout: float = 30.0) -> dict[TP, tuple[int, int]]:
    """(low, high) watermarks per partition, read with a plain consumer (independent of kafka-offsets).

    Asks again while a just-created topic's leaders settle, for up to ``timeout`` seconds.
    """
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"wm-{uuid.uuid4().hex[:8]}"})
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                out: dict[TP, tuple[int, int]] = {}
                for topic, partition in tps:
                    low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=10)
                    out[(topic, partition)] = (int(low), int(high))
                return out
            except KafkaException as exc:
                err = exc.args[0]
                settling = err.retriable() or err.code() in _LEADERS_SETTLING
                if not settling or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        consumer.close()
