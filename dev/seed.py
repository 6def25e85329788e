"""Demo data for kafka-offsets: ``python -m dev.seed --bootstrap HOST:PORT [--reset]``.

Creates, idempotently (a topic that already holds data is left as it is):

``orders``       6 partitions, CreateTime.  Timestamps spread over the last ~2 hours and deliberately out
                 of order inside each partition, so the max-timestamp offset is not latest-1.
``payments``     3 partitions, message.timestamp.type=LogAppendTime (broker-assigned timestamps).
``audit.empty``  2 partitions, no records.
``billing``      consumer group with committed offsets behind the end of every ``orders`` partition.

``--reset`` deletes the topics and the group first.  A summary goes to stderr; stdout stays empty.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

ORDERS = "orders"
PAYMENTS = "payments"
AUDIT_EMPTY = "audit.empty"
GROUP = "billing"

#: records per ``orders`` partition
ORDERS_COUNTS = (48, 61, 35, 72, 27, 53)
#: committed offset of ``billing`` = end offset minus this lag, per ``orders`` partition
BILLING_LAG = (12, 1, 7, 25, 3, 18)
PAYMENTS_COUNTS = (20, 34, 15)
SPAN_MS = 2 * 3600 * 1000
SEED = 20240601


@dataclass(frozen=True)
class TopicSpec:
    """A demo topic: name, partition count, topic configs."""

    name: str
    partitions: int
    config: dict[str, str]


TOPICS = (
    TopicSpec(ORDERS, 6, {"message.timestamp.type": "CreateTime"}),
    TopicSpec(PAYMENTS, 3, {"message.timestamp.type": "LogAppendTime"}),
    TopicSpec(AUDIT_EMPTY, 2, {}),
)


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


def _log(msg: str) -> None:
    print(f"[dev.seed] {msg}", file=sys.stderr, flush=True)


def order_timestamps(count: int, now_ms: int, rng: random.Random) -> list[int]:
    """``count`` CreateTimes in (now-2h, now-1min], mostly ascending but out of order.

    Adjacent records are swapped now and then, and the partition's newest timestamp sits about two thirds
    of the way in, so its offset (max-timestamp) is never the last offset.
    """
    start = now_ms - SPAN_MS
    step = (SPAN_MS - 60_000) // max(count, 1)
    ts = [start + i * step + rng.randrange(step) for i in range(count)]
    for i in range(count - 1):
        if rng.random() < 0.2:
            ts[i], ts[i + 1] = ts[i + 1], ts[i]
    newest = max(ts)
    ts.remove(newest)
    ts.insert(max(0, (2 * count) // 3), newest + 30_000)  # strictly the newest, well before the end
    return ts


def _admin(bootstrap: str) -> AdminClient:
    return AdminClient({"bootstrap.servers": bootstrap})


def _broker_count(admin: AdminClient) -> int:
    return len(admin.list_topics(timeout=15).brokers)


def _ensure_topics(admin: AdminClient, replication: int) -> list[str]:
    existing = set(admin.list_topics(timeout=15).topics)
    new = [
        NewTopic(t.name, num_partitions=t.partitions, replication_factor=replication, config=t.config)
        for t in TOPICS
        if t.name not in existing
    ]
    created = []
    if new:
        for name, fut in admin.create_topics(new, operation_timeout=30).items():
            try:
                fut.result()
                created.append(name)
            except KafkaException as exc:
                if exc.args[0].code() != KafkaError.TOPIC_ALREADY_EXISTS:
                    raise
    _wait_for_leaders(admin)
    return created


def _wait_for_leaders(admin: AdminClient, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        md = admin.list_topics(timeout=10)
        ok = all(
            t.name in md.topics
            and len(md.topics[t.name].partitions) == t.partitions
            and all(p.leader >= 0 for p in md.topics[t.name].partitions.values())
            for t in TOPICS
        )
        if ok:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("demo topics have no leaders after 30s")
        time.sleep(0.2)


def _end_offsets(bootstrap: str, topic: str, partitions: int, timeout: float = 30.0) -> list[tuple[int, int]]:
    """(low, high) watermarks per partition; retries while a just-created topic's leaders settle."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "dev-seed-watermarks"})
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                return [
                    consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)
                    for p in range(partitions)
                ]
            except KafkaException as exc:
                err = exc.args[0]
                settling = err.retriable() or err.code() in _LEADERS_SETTLING
                if not settling or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        consumer.close()


def _produce(bootstrap: str, topic: str, records: Sequence[tuple[int, int | None, str, str]]) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "linger.ms": 5})
    errors: list[Any] = []

    def on_delivery(err: Any, _msg: Any) -> None:
        if err is not None:
            errors.append(err)

    for partition, ts, key, value in records:
        kwargs: dict[str, Any] = {
            "partition": partition,
            "key": key,
            "value": value,
            "on_delivery": on_delivery,
        }
        if ts is not None:
            kwargs["timestamp"] = ts
        producer.produce(topic, **kwargs)
        producer.poll(0)
    if producer.flush(30) or errors:
        raise RuntimeError(f"producing to {topic} failed: {errors[:3] or 'flush timed out'}")


def seed_orders(bootstrap: str, now_ms: int) -> bool:
    """Fill ``orders`` unless it already has data; returns True if records were produced."""
    if any(high > 0 for _, high in _end_offsets(bootstrap, ORDERS, len(ORDERS_COUNTS))):
        return False
    rng = random.Random(SEED)
    customers = [f"cust-{i:03d}" for i in range(40)]
    records = []
    order_id = 1000
    for partition, count in enumerate(ORDERS_COUNTS):
        for ts in order_timestamps(count, now_ms, rng):
            order_id += 1
            customer = rng.choice(customers)
            value = {
                "order_id": order_id,
                "customer": customer,
                "amount": round(rng.uniform(5, 500), 2),
                "ts": ts,
            }
            records.append((partition, ts, customer, json.dumps(value)))
    _produce(bootstrap, ORDERS, records)
    return True


def seed_payments(bootstrap: str) -> bool:
    """Fill ``payments`` (LogAppendTime) unless it already has data; returns True if records were produced.

    Records go out in three flushed rounds a little apart, so partitions hold several batches with
    different broker-assigned timestamps (one batch shares a single LogAppendTime).
    """
    if any(high > 0 for _, high in _end_offsets(bootstrap, PAYMENTS, len(PAYMENTS_COUNTS))):
        return False
    rng = random.Random(SEED + 1)
    rounds: list[list[tuple[int, int | None, str, str]]] = [[], [], []]
    for partition, count in enumerate(PAYMENTS_COUNTS):
        for i in range(count):
            value = {"payment_id": f"p{partition}-{i}", "amount": round(rng.uniform(5, 500), 2)}
            rounds[(3 * i) // count].append((partition, None, f"p{partition}-{i}", json.dumps(value)))
    for n, batch in enumerate(rounds):
        if n:
            time.sleep(0.05)
        _produce(bootstrap, PAYMENTS, batch)
    return True


def seed_billing(bootstrap: str) -> dict[int, int]:
    """Commit ``billing``'s offsets on ``orders`` (end minus BILLING_LAG); returns {partition: offset}."""
    ends = _end_offsets(bootstrap, ORDERS, len(ORDERS_COUNTS))
    offsets = {p: max(low, high - BILLING_LAG[p]) for p, (low, high) in enumerate(ends)}
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": GROUP, "enable.auto.commit": False})
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                result = consumer.commit(
                    offsets=[TopicPartition(ORDERS, p, o) for p, o in offsets.items()], asynchronous=False
                )
                errors = [tp.error for tp in result or [] if tp.error is not None]
                if errors:
                    raise KafkaException(errors[0])
                return offsets
            except KafkaException as exc:
                # the first commit on a fresh broker creates __consumer_offsets: wait for its coordinator
                if not exc.args[0].retriable() and exc.args[0].code() != KafkaError.NOT_COORDINATOR:
                    raise
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
    finally:
        consumer.close()


def reset(bootstrap: str) -> None:
    """Delete the demo topics and the ``billing`` group (missing ones are ignored)."""
    admin = _admin(bootstrap)
    try:
        admin.delete_consumer_groups([GROUP], request_timeout=15)[GROUP].result()
    except KafkaException as exc:
        if exc.args[0].code() not in (KafkaError.GROUP_ID_NOT_FOUND, KafkaError._UNKNOWN_GROUP):
            _log(f"could not delete group {GROUP}: {exc}")
    existing = set(admin.list_topics(timeout=15).topics)
    names = [t.name for t in TOPICS if t.name in existing]
    if names:
        for fut in admin.delete_topics(names, operation_timeout=30).values():
            fut.result()
        deadline = time.monotonic() + 30
        while set(names) & set(admin.list_topics(timeout=10).topics):
            if time.monotonic() > deadline:
                raise TimeoutError(f"topics {names} still listed 30s after deletion")
            time.sleep(0.2)


def seed(bootstrap: str, *, do_reset: bool = False, replication: int | None = None) -> None:
    """Create the demo topics, records and group on ``bootstrap`` (idempotent)."""
    if do_reset:
        reset(bootstrap)
    admin = _admin(bootstrap)
    rf = replication or min(3, _broker_count(admin))
    created = _ensure_topics(admin, rf)
    now_ms = int(time.time() * 1000)
    orders_new = seed_orders(bootstrap, now_ms)
    payments_new = seed_payments(bootstrap)
    committed = seed_billing(bootstrap)
    ends = _end_offsets(bootstrap, ORDERS, len(ORDERS_COUNTS))
    _log(f"topics created: {', '.join(created) or 'none (already there)'}; replication factor {rf}")
    _log(
        f"{ORDERS}: {sum(h for _, h in ends)} records in {len(ends)} partitions "
        f"({'produced now' if orders_new else 'already seeded'}; CreateTime, out of order, last ~2h)"
    )
    _log(
        f"{PAYMENTS}: {sum(PAYMENTS_COUNTS)} records in {len(PAYMENTS_COUNTS)} partitions "
        f"({'produced now' if payments_new else 'already seeded'}; LogAppendTime)"
    )
    _log(f"{AUDIT_EMPTY}: 2 partitions, empty")
    lag = {p: ends[p][1] - o for p, o in committed.items()}
    _log(f"group {GROUP}: committed on {ORDERS} {committed}, lag {lag} (total {sum(lag.values())})")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dev.seed`` entry point."""
    parser = argparse.ArgumentParser(prog="python -m dev.seed", description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap", required=True, help="bootstrap servers, e.g. 127.0.0.1:9092")
    parser.add_argument("--reset", action="store_true", help="delete the demo topics and group first")
    parser.add_argument("--replication", type=int, default=None, help="default: min(3, brokers)")
    args = parser.parse_args(argv)
    try:
        seed(args.bootstrap, do_reset=args.reset, replication=args.replication)
    except (KafkaException, RuntimeError, TimeoutError) as exc:
        print(f"dev.seed: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
