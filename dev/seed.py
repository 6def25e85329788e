"""Demo data for kafka-offsets: ``python -m dev.seed --bootstrap HOST:PORT [--reset]``.

Creates only what is missing, so that running it again (``make demo`` twice) keeps what you did to the
demo data meanwhile: a topic that exists is not touched, one that already holds data gets no more records,
and a ``billing`` group that has committed offsets on ``orders`` (say, after a ``kafka-offsets rewind``)
keeps them. It creates:

``orders``       6 partitions, CreateTime.  Timestamps spread over the last ~2 hours and deliberately out
                 of order inside each partition, so the max-timestamp offset is not latest-1.
``payments``     3 partitions, message.timestamp.type=LogAppendTime (broker-assigned timestamps).
``audit.empty``  2 partitions, no records.
``billing``      consumer group with committed offsets behind the end of every ``orders`` partition.
``tiered.orders`` 2 partitions with tiered storage (``remote.storage.enable=true``, 16 KiB segments,
                 ``local.retention.ms=1000``: dev/tiered.py): 200 records of 1 KiB each, then (once
                 their segments are uploaded and deleted locally, waited for, bounded, and local
                 retention set to unlimited) 5 more that stay in the active segment, not uploaded:
                 offsets 0-199 are remote only, 200-204 local only, the upload backlog 5 records.
                 Only on a broker with tiered storage (``make demo`` starts one); on any other it is
                 left out, with a note.

``--reset`` deletes the topics and the group first (back to the seeded state).  A summary goes to stderr;
stdout stays empty.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from confluent_kafka import ConsumerGroupTopicPartitions, KafkaError, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient  # type: ignore[attr-defined]

from dev import tiered
from dev.kafka_data import admin, commit_group_offsets, create_topic, produce, wait_for_leaders, watermarks

ORDERS = "orders"
PAYMENTS = "payments"
AUDIT_EMPTY = "audit.empty"
GROUP = "billing"
TIERED = "tiered.orders"
TIERED_PARTITIONS = 2
TIERED_RECORDS = 200
#: records produced after the move: they stay local (the active segment), the upload backlog
TIERED_LOCAL = 5
#: how long seeding waits at most for the tiered topic's segments to reach remote storage (usually
#: seconds; on a loaded 2-core CI machine one partition's local copy once outlived 90 s)
TIERED_WAIT_S = 180.0

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


def _broker_count(client: AdminClient) -> int:
    return len(client.list_topics(timeout=15).brokers)


def _ensure_topics(bootstrap: str, client: AdminClient, replication: int) -> list[str]:
    existing = set(client.list_topics(timeout=15).topics)
    created = []
    for t in TOPICS:
        if t.name not in existing:
            create_topic(bootstrap, t.name, t.partitions, replication, t.config, exist_ok=True, client=client)
            created.append(t.name)
    wait_for_leaders(client, {t.name: t.partitions for t in TOPICS})
    return created


def _end_offsets(bootstrap: str, topic: str, partitions: int) -> list[tuple[int, int]]:
    """(low, high) watermarks per partition (asked again while a just-created topic's leaders settle)."""
    marks = watermarks(bootstrap, [(topic, p) for p in range(partitions)])
    return [marks[(topic, p)] for p in range(partitions)]


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
    produce(bootstrap, ORDERS, records)
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
        produce(bootstrap, PAYMENTS, batch)
    return True


def billing_offsets(client: AdminClient, timeout: float = 60.0) -> dict[int, int]:
    """``billing``'s committed offsets on ``orders`` by partition ({} when it has none).

    Asked again while the group coordinator is not ready (a fresh broker creating __consumer_offsets).
    """
    wanted = ConsumerGroupTopicPartitions(
        GROUP, [TopicPartition(ORDERS, p) for p in range(len(ORDERS_COUNTS))]
    )
    deadline = time.monotonic() + timeout
    while True:
        try:
            answer = client.list_consumer_group_offsets([wanted], request_timeout=15)[GROUP].result()
            return {
                tp.partition: tp.offset
                for tp in answer.topic_partitions
                if tp.error is None and tp.offset >= 0
            }
        except KafkaException as exc:
            err = exc.args[0]
            if err.code() == KafkaError.GROUP_ID_NOT_FOUND:
                return {}
            if (not err.retriable() and "COORDINATOR" not in err.name()) or time.monotonic() > deadline:
                raise
            time.sleep(0.25)


def seed_billing(bootstrap: str, client: AdminClient) -> tuple[dict[int, int], bool]:
    """Commit ``billing``'s offsets on ``orders`` (end minus BILLING_LAG) unless it has committed offsets.

    Returns ({partition: committed offset}, whether they were committed now). Offsets the group already
    has are the user's (a rewind tried on the demo) and stay.
    """
    existing = billing_offsets(client)
    if existing:
        return existing, False
    ends = _end_offsets(bootstrap, ORDERS, len(ORDERS_COUNTS))
    offsets = {p: max(low, high - BILLING_LAG[p]) for p, (low, high) in enumerate(ends)}
    commit_group_offsets(bootstrap, GROUP, {(ORDERS, p): o for p, o in offsets.items()})
    return offsets, True


def tiered_storage_enabled(client: AdminClient) -> bool:
    """Whether the brokers run tiered storage (``remote.log.storage.system.enable=true``)."""
    from confluent_kafka.admin import ConfigResource, ResourceType  # type: ignore[attr-defined]

    broker = next(iter(client.list_topics(timeout=15).brokers))
    resource = ConfigResource(ResourceType.BROKER, str(broker))
    configs = client.describe_configs([resource], request_timeout=15)[resource].result()
    entry = configs.get("remote.log.storage.system.enable")
    return entry is not None and str(entry.value).lower() == "true"


def _tiered_offsets(bootstrap: str) -> dict[tuple[int, str], int | None]:
    """earliest-local and latest-tiered of ``tiered.orders`` by (partition, spec), asked with kafka-offsets
    itself (librdkafka cannot send those specs; kafka-offsets sends them with kafka-python)."""
    import subprocess

    argv = [sys.executable, "-m", "kafka_offsets_cli", "list", "-b", bootstrap, "-t", TIERED]
    argv += ["-s", "earliest-local", "-s", "latest-tiered", "-o", "jsonl"]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        raise RuntimeError(f"kafka-offsets list on {TIERED} failed: {run.stderr.strip()}")
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    return {(r["partition"], r["spec"]): r["offset"] for r in rows}


def _moved(seen: dict[tuple[int, str], int | None]) -> bool:
    """Every partition's first ``TIERED_RECORDS`` records are in remote storage only: latest-tiered is
    the last of them and earliest-local the next one.

    Kafka rolls the active segment too once its records are older than local retention (1 s), so
    that is where uploading ends; a looser test (some segments moved) let the seed set local
    retention to unlimited while the last segment was still on its way, and the upload backlog
    came out empty."""
    for p in range(TIERED_PARTITIONS):
        tiered_to, local_from = seen.get((p, "latest-tiered")), seen.get((p, "earliest-local"))
        if tiered_to != TIERED_RECORDS - 1 or local_from != TIERED_RECORDS:
            return False
    return True


def _keep_local(client: AdminClient) -> None:
    """``local.retention.ms=-2`` (as ``retention.ms``) on ``tiered.orders``: what is local stays local."""
    from confluent_kafka.admin import (  # type: ignore[attr-defined]
        AlterConfigOpType,
        ConfigEntry,
        ConfigResource,
        ResourceType,
    )

    entry = ConfigEntry("local.retention.ms", "-2", incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ResourceType.TOPIC, TIERED, incremental_configs=[entry])
    client.incremental_alter_configs([resource], request_timeout=30)[resource].result()


def seed_tiered(bootstrap: str, client: AdminClient, *, wait_s: float = TIERED_WAIT_S) -> str:
    """Create and fill ``tiered.orders`` unless it exists or has data, then wait (at most ``wait_s``) until
    its rolled segments are in remote storage only. Returns what happened, for the summary."""
    if TIERED not in client.list_topics(timeout=15).topics:
        if not tiered_storage_enabled(client):
            return (
                "left out: this broker has no tiered storage (a cluster started before make demo had it: "
                "python -m dev.kafka down, then make demo)"
            )
        create_topic(
            bootstrap, TIERED, TIERED_PARTITIONS, 1, tiered.TOPIC_CONFIG, exist_ok=True, client=client
        )
    ends = _end_offsets(bootstrap, TIERED, TIERED_PARTITIONS)
    produced = not any(high > 0 for _, high in ends)
    if produced:
        tiered.produce(bootstrap, TIERED, TIERED_PARTITIONS, TIERED_RECORDS)
    deadline = time.monotonic() + wait_s
    seen = _tiered_offsets(bootstrap)
    while not _moved(seen) and time.monotonic() < deadline:
        time.sleep(1)
        seen = _tiered_offsets(bootstrap)
    if produced:
        # a few records more that stay local: with local retention at 1 s Kafka would roll their
        # segment once they are 1 s old and upload it too, so local retention goes to the topic's
        # (unlimited) first
        _keep_local(client)
        late: list[tuple[int, int | None, str, str]] = [
            (p, None, f"late-{p}-{i}", json.dumps({"late": i}))
            for p in range(TIERED_PARTITIONS)
            for i in range(TIERED_LOCAL)
        ]
        produce(bootstrap, TIERED, late)
        seen = _tiered_offsets(bootstrap)
    how = "produced now" if produced else "already seeded"
    spans = ", ".join(
        f"p{p} local from {seen.get((p, 'earliest-local'))}, tiered to {seen.get((p, 'latest-tiered'))}"
        for p in range(TIERED_PARTITIONS)
    )
    state = "segments in remote storage" if _moved(seen) else f"segments not (yet) moved after {wait_s:.0f}s"
    total = sum(high for _, high in _end_offsets(bootstrap, TIERED, TIERED_PARTITIONS))
    return f"{total} records ({how}); {state}: {spans}"


def reset(bootstrap: str, *, keep_tiered: bool = False) -> None:
    """Delete the demo topics and the ``billing`` group (missing ones are ignored); ``keep_tiered``
    keeps ``tiered.orders``, whose seeding waits for uploads (the console examples re-seed the rest)."""
    client = admin(bootstrap)
    try:
        client.delete_consumer_groups([GROUP], request_timeout=15)[GROUP].result()
    except KafkaException as exc:
        if exc.args[0].code() not in (KafkaError.GROUP_ID_NOT_FOUND, KafkaError._UNKNOWN_GROUP):
            _log(f"could not delete group {GROUP}: {exc}")
    existing = set(client.list_topics(timeout=15).topics)
    names = [n for n in (*(t.name for t in TOPICS), *(() if keep_tiered else (TIERED,))) if n in existing]
    if names:
        for fut in client.delete_topics(names, operation_timeout=30).values():
            fut.result()
        deadline = time.monotonic() + 30
        while set(names) & set(client.list_topics(timeout=10).topics):
            if time.monotonic() > deadline:
                raise TimeoutError(f"topics {names} still listed 30s after deletion")
            time.sleep(0.2)


def seed(
    bootstrap: str, *, do_reset: bool = False, replication: int | None = None, now_ms: int | None = None
) -> None:
    """Create the demo topics, records and group on ``bootstrap`` (idempotent). ``orders``' CreateTimes
    are spread over the two hours before ``now_ms`` (default: now); the console examples' test sets it
    in the past, so that their data is as old as it was when they were taken without waiting for it."""
    if do_reset:
        reset(bootstrap)
    client = admin(bootstrap)
    rf = replication or min(3, _broker_count(client))
    created = _ensure_topics(bootstrap, client, rf)
    orders_new = seed_orders(bootstrap, int(time.time() * 1000) if now_ms is None else now_ms)
    payments_new = seed_payments(bootstrap)
    committed, billing_new = seed_billing(bootstrap, client)
    tiered_note = seed_tiered(bootstrap, client)
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
    how = "committed now" if billing_new else "its own offsets, left as they are"
    _log(f"group {GROUP}: on {ORDERS} {committed} ({how}), lag {lag} (total {sum(lag.values())})")
    _log(f"{TIERED}: {tiered_note}")


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
