"""DR cutover per partition on a real DR pair: two KRaft clusters and Kafka's MirrorMaker 2.

A topic with CreateTime timestamps (unique and in order on partition 0, five records per
millisecond on partition 1, out of order on partition 2) is produced on the primary and replicated
by MirrorMaker 2 (default replication policy: the DR topic is ``primary.T``). A consumer group is
part-way through it on the primary; ``rewind --from-cluster primary`` plans the cutover on DR,
``--execute`` commits it, and a consumer of the group on DR must then read every record the group
had not read on the primary. Its re-reads are counted and compared with the offsets MirrorMaker
itself synced to DR for the group (``sync.group.offsets.enabled``), with its sync up to date, and
after the group moved on while MirrorMaker was down (its sync lags).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka import TopicPartition as CTP
from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

from dev import mirror as dev_mirror
from tests.cli_runner import cli

PARTITIONS = 3
RECORDS = 300
BASE_MS = int(time.time() * 1000) - 600_000  # within the broker's accepted timestamp range


def timestamp(p: int, i: int) -> int:
    """The CreateTime of record ``i`` of partition ``p``: see the module docstring."""
    if p == 0:
        return BASE_MS + 10 * i
    if p == 1:
        return BASE_MS + 10 * (i // 5)
    late = -500 if i % 7 == 3 else (300 if i % 11 == 5 else 0)  # older and newer than their place
    return BASE_MS + 10 * i + late


def produce(bootstrap: str, topic: str) -> None:
    """RECORDS records per partition, value ``p:i`` (the primary offset)."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    prod = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "linger.ms": 5})
    for i in range(RECORDS):
        for p in range(PARTITIONS):
            prod.produce(topic, f"{p}:{i}".encode(), partition=p, timestamp=timestamp(p, i))
    assert prod.flush(30) == 0


def commit(bootstrap: str, group: str, topic: str, offsets: Mapping[int, int]) -> None:
    """Commit ``offsets`` for ``group`` as a consumer would (then leave: the group is empty)."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        for attempt in range(60):  # a new cluster's group coordinator may still be loading
            try:
                c.commit(offsets=[CTP(topic, p, o) for p, o in offsets.items()], asynchronous=False)
                return
            except KafkaException as e:
                loading = e.args[0].code() in (
                    KafkaError.NOT_COORDINATOR,
                    KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
                )
                if attempt == 59 or not (loading or e.args[0].retriable()):
                    raise
                time.sleep(0.5)
    finally:
        c.close()


def committed(bootstrap: str, group: str, topic: str) -> dict[int, int]:
    """The group's committed offsets on ``topic`` (partitions without one left out)."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        got = c.committed([CTP(topic, p) for p in range(PARTITIONS)], timeout=30)
    finally:
        c.close()
    return {t.partition: t.offset for t in got if t.offset >= 0}


def wait_for(what: str, check: Any, timeout: float = 90.0) -> Any:
    """Poll ``check()`` until it returns a truthy value (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


#: what a topic MirrorMaker has just created answers until its partitions have leaders
_NOT_YET = (
    KafkaError.NOT_LEADER_FOR_PARTITION,
    KafkaError.LEADER_NOT_AVAILABLE,
    KafkaError.UNKNOWN_TOPIC_OR_PART,
)


def ends(bootstrap: str, topic: str) -> dict[int, int]:
    """The end offsets of ``topic`` (empty while it does not exist or its partitions have no leader yet)."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "probe"})
    try:
        if topic not in c.list_topics(topic, timeout=10).topics or c.list_topics(topic).topics[topic].error:
            return {}
        return {p: c.get_watermark_offsets(CTP(topic, p), timeout=10)[1] for p in range(PARTITIONS)}
    except KafkaException as e:
        if e.args[0].code() in _NOT_YET:  # the topic is being created (seen once under CI load)
            return {}
        raise
    finally:
        c.close()


def read_dr(bootstrap: str, group: str, topic: str, stop: Mapping[int, int]) -> dict[int, list[int]]:
    """Read ``topic`` on DR as ``group`` from its committed offsets to ``stop``: the primary offsets read."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "auto.offset.reset": "error",
            "enable.auto.commit": False,
        }
    )
    read: dict[int, list[int]] = {p: [] for p in range(PARTITIONS)}
    pos: dict[int, int] = {}
    try:
        c.assign([CTP(topic, p, o) for p, o in committed(bootstrap, group, topic).items()])
        deadline = time.monotonic() + 60
        while any(pos.get(p, -1) + 1 < stop[p] for p in read) and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            assert m.error() is None, m.error()
            part, off, value = m.partition(), m.offset(), m.value()
            assert part is not None and off is not None and value is not None
            read[part].append(int(value.decode().split(":")[1]))
            pos[part] = off
    finally:
        c.close()
    return read


def dr_offsets_mm2(dr: str, group: str, topic: str, want: int) -> dict[int, int]:
    """The offsets MirrorMaker synced to DR for ``group``, once it has all ``want`` partitions and they
    hold still for six seconds."""
    last: dict[int, int] = {}
    still = 0.0

    def settled() -> dict[int, int] | None:
        nonlocal last, still
        now = committed(dr, group, topic)
        if now != last or len(now) < want:
            last, still = now, time.monotonic()
            return None
        return now if time.monotonic() - still >= 6 else None  # several flush + checkpoint + sync rounds

    return dict(wait_for("MirrorMaker's offset sync", settled))


def cutover(env: Mapping[str, str], group: str, *extra: str) -> tuple[list[dict[str, Any]], str]:
    """``rewind --cluster dr -g G --from-cluster primary --remote-topic-prefix primary. -o json``."""
    r = cli(
        "rewind", "--cluster", "dr", "-g", group, "--from-cluster", "primary",
        "--remote-topic-prefix", "primary.", "-o", "json", *extra, env=dict(env),
    )  # fmt: skip
    assert r.code == 0, r.stderr
    return json.loads(r.stdout), r.stderr


def rereads(start: Mapping[int, int], unread_from: Mapping[int, int]) -> dict[int, int]:
    """Records read again when DR partition ``p`` (an exact copy) is read from ``start[p]``."""
    return {p: max(0, unread_from[p] - start[p]) for p in unread_from}


def test_dr_cutover_per_partition(
    dr_pair: tuple[str, str, dev_mirror.Mirror],
    tmp_path: Path,
    topic_name: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    primary, dr, mm2 = dr_pair
    topic = "cutover-" + topic_name
    remote = mm2.remote_topic(topic)
    group = "g-" + topic
    config = tmp_path / "config.toml"
    config.write_text(
        f'[clusters.primary]\nbootstrap_servers = "{primary}"\n[clusters.dr]\nbootstrap_servers = "{dr}"\n'
    )
    env = {"KAFKA_OFFSETS_CONFIG": str(config)}
    produce(primary, topic)
    wait_for("the DR copy", lambda: ends(dr, remote) == {p: RECORDS for p in range(PARTITIONS)})

    # the group is part-way through on the primary: p0 mid-run, p1 inside five equal timestamps, p2 at the end
    first = {0: 150, 1: 152, 2: RECORDS}
    commit(primary, group, topic, first)
    mm2_synced = dr_offsets_mm2(dr, group, remote, PARTITIONS)
    plan, report = cutover(env, group)
    ours = {r["partition"]: r["target"] for r in plan}
    assert {r["topic"] for r in plan} == {remote}
    assert all(o <= first[p] for p, o in ours.items())  # never past the first unread record
    assert all(o <= first[p] for p, o in mm2_synced.items())  # MirrorMaker's is safe too
    ours_rr, mm2_rr = rereads(ours, first), rereads(mm2_synced, first)
    assert ours_rr[0] == 0 and ours_rr[1] == 2  # unique times: none; five per ms: the two before c
    assert ours_rr[2] >= 1  # read to the end: the last record read, at least
    assert "re-reads up to 2" in report

    # MirrorMaker goes down (its sync stops), the group moves on on the primary: its DR offsets lag
    dev_mirror.down(mm2.name)
    second = {0: 250, 1: 261, 2: RECORDS}
    commit(primary, group, topic, second)
    mm2_synced = committed(dr, group, remote)  # what MirrorMaker left on DR
    undo = tmp_path / "undo.csv"
    plan2, _ = cutover(env, group, "--execute", "--undo-file", str(undo), "--export", str(tmp_path / "p.csv"))
    ours2 = {r["partition"]: r["target"] for r in plan2}
    assert committed(dr, group, remote) == ours2
    assert undo.read_text().splitlines() == [
        f"{group},{remote},{p},{o}" for p, o in sorted(mm2_synced.items())
    ]
    read = read_dr(dr, group, remote, {p: RECORDS for p in range(PARTITIONS)})
    for p in range(PARTITIONS):
        assert set(range(second[p], RECORDS)) <= set(read[p]), f"partition {p}: an unread record was skipped"
        assert sum(1 for i in read[p] if i < second[p]) == second[p] - ours2[p]
    ours2_rr, mm2_lag_rr = rereads(ours2, second), rereads(mm2_synced, second)
    assert sum(ours2_rr.values()) < sum(mm2_lag_rr.values())
    with capsys.disabled():
        print(
            f"\nDR cutover re-reads per partition (p0 unique, p1 5/ms, p2 out of order, read to the end):"
            f"\n  up to date: ours {ours_rr} vs MirrorMaker's synced {mm2_rr}"
            f" (offsets {ours} vs {mm2_synced})"
            f"\n  MM2 down, group moved on: ours {ours2_rr} vs MirrorMaker's {mm2_lag_rr}"
        )


def test_dr_cutover_identity_policy(
    dr_pair: tuple[str, str, dev_mirror.Mirror], tmp_path: Path, topic_name: str
) -> None:
    """Under IdentityReplicationPolicy the DR topic keeps its name: no --remote-topic-prefix."""
    primary, dr, mm2 = dr_pair
    topic = "identity-" + topic_name
    group = "g-" + topic
    name = f"{mm2.name}-identity"
    mirror = dev_mirror.up(name, primary, dr, topics="identity-.*", identity=True, aliases=("src", "dst"))
    try:
        assert mirror.remote_topic(topic) == topic
        produce(primary, topic)
        wait_for("the DR copy", lambda: ends(dr, topic) == {p: RECORDS for p in range(PARTITIONS)})
    finally:
        dev_mirror.down(name)
    position = {0: 40, 1: 43, 2: 100}
    commit(primary, group, topic, position)
    config = tmp_path / "config.toml"
    config.write_text(f'[clusters.primary]\nbootstrap_servers = "{primary}"\n')
    r = cli(
        "rewind", "-b", dr, "-g", group, "--from-cluster", "primary", "-o", "json", "--execute",
        "--undo-file", str(tmp_path / "undo.csv"), env={"KAFKA_OFFSETS_CONFIG": str(config)},
    )  # fmt: skip
    assert r.code == 0, r.stderr
    planned = {rec["partition"]: rec["target"] for rec in json.loads(r.stdout)}
    assert {rec["topic"] for rec in json.loads(r.stdout)} == {topic}
    read = read_dr(dr, group, topic, {p: RECORDS for p in range(PARTITIONS)})
    for p in range(PARTITIONS):
        assert set(range(position[p], RECORDS)) <= set(read[p]), (
            f"partition {p}: an unread record was skipped"
        )
        assert planned[p] <= position[p]
    assert planned[0] == 40 and planned[1] == 40  # unique times; five records per millisecond
