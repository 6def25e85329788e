"""The benchmark data set, created idempotently on the ``bench`` cluster.

Topics (replication factor 1, ``retention.ms=-1`` so the old CreateTime timestamps are kept)::

    bench.p1            1 partition      RECORDS records in its partition
    bench.k1            1,000 partitions RECORDS records in every partition
    bench.m.00 … .19    20 x 500 = 10,000 partitions, RECORDS records in every SAMPLE_EVERY-th partition

Record ``i`` of a partition has CreateTime ``T0 + i * STEP_MS``, so a lookup of ``LOOKUP_TS``
lands in the middle of every partition that has records (offset ``LOOKUP_OFFSET``).

Consumer groups ``bench.g.00`` … ``bench.g.19``: group ``i`` has committed offsets on all 500
partitions of ``bench.m.{i}`` and on ``bench.p1``; lag is never exactly 1 (``lag`` would then
fetch the record to check for a transaction marker, which kafka-consumer-groups does not do).

Opt-in scale (``ensure(..., scale=100)``, :mod:`bench.lag_scale`): ``bench.m.00`` … ``bench.m.99``
(100 x 500 = 50,000 partitions) and groups ``bench.g.00`` … ``bench.g.99``, the same shape; the
default data set is its first 20 topics and groups, so a cluster can grow from one to the other.

Every step checks what is there first: topics are created one per request (KRaft refuses more
than 10,000 partitions in one request) only when missing, records are produced only up to the
wanted count, and group offsets are committed only when they differ.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException, TopicPartition
from confluent_kafka.admin import OffsetSpec  # type: ignore[attr-defined]

from dev.kafka_data import Record, admin, create_topic, produce, wait_for_leaders

#: CreateTime of record 0 in every partition (2025-01-01T00:00:00Z).
T0 = 1_735_689_600_000
STEP_MS = 60_000
RECORDS = 20
#: A timestamp between record LOOKUP_OFFSET-1 and LOOKUP_OFFSET.
LOOKUP_OFFSET = RECORDS // 2
LOOKUP_TS = T0 + (LOOKUP_OFFSET - 1) * STEP_MS + 1
SAMPLE_EVERY = 10

P1 = "bench.p1"
K1 = "bench.k1"
#: m topics (and groups) of the default data set; ``scale`` (at most 100) of the opt-in larger one
SCALE = 20
M_TOPICS = tuple(f"bench.m.{i:02d}" for i in range(SCALE))
M_PARTITIONS = 500
M_REGEX = r"bench\.m\..*"
GROUPS = tuple(f"bench.g.{i:02d}" for i in range(SCALE))
P1_RECORDS = 1000
TOPIC_CONFIG = {"retention.ms": "-1", "message.timestamp.type": "CreateTime"}


def _log(msg: str) -> None:
    print(f"[bench.setup] {msg}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class DataSet:
    """What the benchmarks query: topic names, regexes, the lookup timestamp, the groups."""

    bootstrap: str
    p1: str = P1
    k1: str = K1
    m_topics: tuple[str, ...] = M_TOPICS
    m_regex: str = M_REGEX
    lookup_ts: int = LOOKUP_TS
    groups: tuple[str, ...] = GROUPS
    k1_partitions: int = 1000
    m_partitions: int = M_PARTITIONS * len(M_TOPICS)
    #: expected committed lag per group (sum over its partitions), for cross-checking outputs
    group_lag: dict[str, int] = field(default_factory=dict)


def m_topics(scale: int = SCALE) -> tuple[str, ...]:
    """The m topics of the data set at ``scale`` (``bench.m.00`` … one per group)."""
    if not 1 <= scale <= 100:
        raise ValueError("scale must be 1..100")
    return tuple(f"bench.m.{i:02d}" for i in range(scale))


def groups(scale: int = SCALE) -> tuple[str, ...]:
    """The consumer groups of the data set at ``scale``."""
    return tuple(f"bench.g.{i:02d}" for i in range(len(m_topics(scale))))


def wanted_topics(scale: int = SCALE) -> dict[str, int]:
    """Topic name -> partition count of the data set."""
    out = {P1: 1, K1: 1000}
    out.update({t: M_PARTITIONS for t in m_topics(scale)})
    return out


def record_counts(scale: int = SCALE) -> dict[tuple[str, int], int]:
    """(topic, partition) -> the number of records it must hold (partitions not listed hold none)."""
    out: dict[tuple[str, int], int] = {(P1, 0): P1_RECORDS}
    out.update({(K1, p): RECORDS for p in range(1000)})
    for t in m_topics(scale):
        out.update({(t, p): RECORDS for p in range(0, M_PARTITIONS, SAMPLE_EVERY)})
    return out


def group_offsets(index: int) -> dict[tuple[str, int], int]:
    """Committed offsets of group ``index``: behind the end by 2..6 where there are records, else 0."""
    counts = record_counts(index + 1)
    topic = m_topics(index + 1)[index]
    out: dict[tuple[str, int], int] = {}
    for p in range(M_PARTITIONS):
        n = counts.get((topic, p), 0)
        out[(topic, p)] = n - 2 - (p + index) % 5 if n else 0
    out[(P1, 0)] = P1_RECORDS - 100 - index
    return out


def _ensure_topics(bootstrap: str, client: Any, timeout: float, scale: int) -> None:
    want = wanted_topics(scale)
    md = client.list_topics(timeout=timeout)
    for name, parts in want.items():
        t = md.topics.get(name)
        if t is not None and t.error is None:
            if len(t.partitions) != parts:
                raise RuntimeError(
                    f"topic {name} has {len(t.partitions)} partitions, not {parts}: "
                    "run `python -m dev.kafka down --name bench` and start again"
                )
            continue
        t0 = time.monotonic()
        create_topic(bootstrap, name, parts, 1, TOPIC_CONFIG, timeout, exist_ok=True, client=client)
        _log(f"created {name} ({parts} partitions) in {time.monotonic() - t0:.1f}s")
    wait_for_leaders(client, want, timeout)


def _latest(admin: Any, tps: Sequence[tuple[str, int]], timeout: float) -> dict[tuple[str, int], int]:
    """Latest offsets, asking again while brokers still catch up with new leaderships."""
    out: dict[tuple[str, int], int] = {}
    deadline = time.monotonic() + timeout
    pending = list(tps)
    while pending:
        failed: list[tuple[str, int]] = []
        last: Exception | None = None
        for i in range(0, len(pending), 2000):
            chunk = pending[i : i + 2000]
            futs = admin.list_offsets(
                {TopicPartition(t, p): OffsetSpec.latest() for t, p in chunk},  # type: ignore[no-untyped-call]
                request_timeout=timeout,
            )
            for ctp, f in futs.items():
                try:
                    out[(ctp.topic, ctp.partition)] = int(f.result(timeout=timeout + 5).offset)
                except KafkaException as e:
                    failed.append((ctp.topic, ctp.partition))
                    last = e
        if failed and time.monotonic() > deadline:
            raise RuntimeError(f"latest offsets of {len(failed)} partitions: {last}")
        pending = failed
        if pending:
            time.sleep(1)
            # librdkafka looks leaders up in its metadata cache, which keeps a new topic's
            # "no leader" until a metadata request refreshes it
            for topic in sorted({t for t, _ in pending}):
                admin.list_topics(topic=topic, timeout=timeout)
    return out


def _produce(bootstrap: str, todo: dict[tuple[str, int], range], timeout: float) -> int:
    by_topic: dict[str, list[Record]] = {}
    for (topic, partition), idx in todo.items():
        by_topic.setdefault(topic, []).extend(
            (partition, T0 + i * STEP_MS, None, f"{topic}:{partition}:{i}".encode()) for i in idx
        )
    conf = {"linger.ms": 20, "message.timeout.ms": int(timeout * 1000)}
    return sum(len(produce(bootstrap, topic, recs, timeout, **conf)) for topic, recs in by_topic.items())


def _ensure_records(bootstrap: str, admin: Any, timeout: float, scale: int) -> None:
    want = record_counts(scale)
    have = _latest(admin, sorted(want), timeout)
    todo: dict[tuple[str, int], range] = {}
    for tp, n in want.items():
        h = have.get(tp, 0)
        if h > n:
            raise RuntimeError(f"{tp[0]}:{tp[1]} holds {h} records, more than the {n} wanted")
        if h < n:
            todo[tp] = range(h, n)
    if todo:
        t0 = time.monotonic()
        n = _produce(bootstrap, todo, timeout)
        _log(f"produced {n} records to {len(todo)} partitions in {time.monotonic() - t0:.1f}s")


def _ensure_groups(admin: Any, bootstrap: str, timeout: float, scale: int) -> None:
    # committed offsets through the product's client: on a cluster this new, a raw ListConsumerGroupOffsets
    # can crash the process (librdkafka#5040; KafkaClient.committed_offsets waits for the coordinator)
    from kafka_offsets_cli.connection.settings import build_settings
    from kafka_offsets_cli.kafka import KafkaClient

    with KafkaClient(build_settings(bootstrap, timeout_ms=int(timeout * 1000))) as client:
        committed = {c.group: c for c in client.committed_offsets(groups(scale))}
    for i, g in enumerate(groups(scale)):
        want = group_offsets(i)
        got = committed[g]
        if got.error is not None:
            raise RuntimeError(f"committed offsets of {g}: {got.error}")
        if {(tp.topic, tp.partition): off for tp, off in got.offsets.items()} == want:
            continue
        tps = [TopicPartition(t, p, o) for (t, p), o in sorted(want.items())]
        fut = admin.alter_consumer_group_offsets(
            [ConsumerGroupTopicPartitions(g, tps)], request_timeout=timeout
        )
        fut[g].result(timeout=timeout + 5)
        _log(f"committed offsets of {g} ({len(tps)} partitions)")


def expected_group_lag(scale: int = SCALE) -> dict[str, int]:
    """Sum of lag per group, as both tools must report it."""
    counts = record_counts(scale)
    out = {}
    for i, g in enumerate(groups(scale)):
        out[g] = sum(counts.get(tp, 0) - off for tp, off in group_offsets(i).items())
    return out


def ensure(bootstrap: str, *, timeout: float = 120.0, scale: int = SCALE) -> DataSet:
    """Create whatever part of the data set is missing on ``bootstrap``; return its description.

    ``scale``: how many m topics and groups (default 20: 10,000 partitions; 100: 50,000, opt-in).
    """
    t0 = time.monotonic()
    client = admin(bootstrap, **{"socket.connection.setup.timeout.ms": 10000})
    _ensure_topics(bootstrap, client, timeout, scale)
    _ensure_records(bootstrap, client, timeout, scale)
    _ensure_groups(client, bootstrap, timeout, scale)
    _log(f"data set ready in {time.monotonic() - t0:.1f}s")
    topics = m_topics(scale)
    return DataSet(
        bootstrap=bootstrap,
        m_topics=topics,
        groups=groups(scale),
        m_partitions=M_PARTITIONS * len(topics),
        group_lag=expected_group_lag(scale),
    )


def partitions_of(topics: Iterable[str]) -> int:
    """Total partition count of ``topics`` in the data set."""
    want = wanted_topics(100)
    return sum(want[t] for t in topics)
