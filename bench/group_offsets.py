"""Committed offsets of many groups: librdkafka's one OffsetFetch per group vs one per coordinator.

    .venv/bin/python -m bench.group_offsets --bootstrap HOST:PORT[,...] [--groups 200] [--reps 5]

Commits offsets for ``--groups`` groups (``bench.go.NNN``, on the 10 partitions of ``bench.go``;
idempotent), then times, in alternation on warm clients:

* old: confluent-kafka's ``list_consumer_group_offsets``, one request per group, all in flight
  (what kafka/groups.py did before it moved to kafka-python: librdkafka aborts the process when a
  coordinator freezes under that request);
* new: :func:`kafka_offsets_cli.kafka.offset_fetch.fetch_committed` (one batched FindCoordinator,
  one OffsetFetch per coordinator).

Both answers are checked equal. Prints best and median wall seconds and the ratio, and the cost of
making the kafka-python client once (paid by every run that reads groups). Not part of the tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from confluent_kafka import ConsumerGroupTopicPartitions, TopicPartition  # noqa: E402
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]  # noqa: E402

from kafka_offsets_cli.connection.settings import build_settings  # noqa: E402
from kafka_offsets_cli.kafka.deadline import Deadline  # noqa: E402
from kafka_offsets_cli.kafka.kafka_python import KafkaPython  # noqa: E402
from kafka_offsets_cli.kafka.offset_fetch import fetch_committed  # noqa: E402

TOPIC, PARTITIONS = "bench.go", 10


def setup(admin: AdminClient, groups: list[str]) -> None:
    """The topic and each group's commits (group i commits i % 7 + p on partition p)."""
    fs = admin.create_topics([NewTopic(TOPIC, PARTITIONS, 1)])
    for f in fs.values():
        try:
            f.result()
        except Exception as e:  # already there
            if "TOPIC_ALREADY_EXISTS" not in str(e):
                raise
    time.sleep(1)
    for i, g in enumerate(groups):
        tps = [TopicPartition(TOPIC, p, i % 7 + p) for p in range(PARTITIONS)]
        admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions(g, tps)])[g].result()


def old_path(admin: AdminClient, groups: list[str]) -> dict[str, dict[int, int]]:
    futs = [admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(g)])[g] for g in groups]
    out = {}
    for g, f in zip(groups, futs, strict=True):
        out[g] = {tp.partition: tp.offset for tp in f.result().topic_partitions}
    return out


def new_path(kp: KafkaPython, deadline: Deadline, groups: list[str]) -> dict[str, dict[int, int]]:
    deadline.restart()
    out = {}
    for o in fetch_committed(kp, deadline, groups):
        assert o.error is None, o
        out[o.group] = {tp.partition: off for tp, off in o.offsets.items() if off is not None}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--groups", type=int, default=200)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    groups = [f"bench.go.{i:03d}" for i in range(a.groups)]
    admin = AdminClient({"bootstrap.servers": a.bootstrap})
    setup(admin, groups)
    settings = build_settings(a.bootstrap, timeout_ms=60000, environ={})
    deadline = Deadline(60)
    t0 = time.perf_counter()
    kp = KafkaPython(settings, deadline)
    kp.route()
    make_s = time.perf_counter() - t0
    want = old_path(admin, groups)
    assert new_path(kp, deadline, groups) == want
    old_t, new_t = [], []
    for _ in range(a.reps):
        t0 = time.perf_counter()
        old_path(admin, groups)
        old_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        new_path(kp, deadline, groups)
        new_t.append(time.perf_counter() - t0)
    kp.close()
    print(f"{a.groups} groups x {PARTITIONS} partitions, {a.reps} reps, warm clients")
    print(
        f"old (librdkafka, one OffsetFetch per group): best {min(old_t):.3f}s "
        f"median {statistics.median(old_t):.3f}s"
    )
    print(
        f"new (kafka-python, one per coordinator):     best {min(new_t):.3f}s "
        f"median {statistics.median(new_t):.3f}s"
    )
    print(f"ratio old/new (median): {statistics.median(old_t) / statistics.median(new_t):.1f}x")
    print(f"kafka-python client made once: {make_s:.3f}s")


if __name__ == "__main__":
    main()
