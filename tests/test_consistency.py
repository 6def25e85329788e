"""One rule gives one answer: the direct commands and `check` over every state (issue 26 items 5 and 7).

On a real broker with tiered storage (so ``__remote_log_metadata`` exists) and a real local Spark
session, one selection of groups and topics runs through ``lag`` and ``liveness`` and through
``check``, and the records are compared field by field: state, lag, status and error per group and
partition (and the offsets they come from). The states: a group that does not exist, an empty
group (members gone, offsets committed), a group with nothing committed in the selection, partial
commits, an active classic group, an active KIP-848 (``group.protocol=consumer``) group, a
committed offset below the log start, an empty topic, a user topic named ``__…``, Kafka's own
system topics, and a cluster that cannot be reached.

Fields that legitimately differ, and are not compared: ``age_ms`` and ``time_lag_ms`` (measured
from each run's own clock); a group's record without a partition has ``topic`` null in ``lag`` and
``""`` in ``check`` (its Arrow column is not nullable); a status is spelled ``warning`` in ``lag``'s
records and ``WARNING`` in ``check``'s (compared by name); an unreachable cluster has no record in the
direct commands (one line on stderr, exit 3 = UNKNOWN, stdout empty), and in ``check`` one record
per check (state ``error``, status UNKNOWN, error ``CLUSTER_UNREACHABLE``).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer

from dev import kafka as dev_kafka
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.system_topics import KAFKA_SYSTEM_TOPICS
from tests.cli_runner import cli
from tests.kafka_helpers import GET_OFFSET_SHELL, delete_records

DOWN = "127.0.0.1:9"  # nothing listens there: connection refused at once
THRESHOLDS = ("--warn-lag", "3", "--crit-lag", "8")
MASTER = ("--master", "local[2]")


class Member:
    """A live member of ``group`` on ``topic`` (classic or KIP-848) that stays until :meth:`stop`.

    ``offset``: committed on each partition before it joins (standalone, so the member never
    commits: a synchronous commit from a KIP-848 member could wait for ever on a new member epoch);
    an empty classic group with offsets becomes a consumer group when a KIP-848 member joins.
    """

    def __init__(
        self, bootstrap: str, group: str, topic: str, parts: int, protocol: str, offset: int | None
    ) -> None:
        if offset is not None:
            commit_group_offsets(bootstrap, group, {(topic, p): offset for p in range(parts)})
        conf = {"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol}
        self.consumer = Consumer({**conf, "enable.auto.commit": False, "auto.offset.reset": "earliest"})
        self.done = threading.Event()
        assigned = threading.Event()

        def poll() -> None:
            while not self.done.is_set():
                self.consumer.poll(0.2)
                if len(self.consumer.assignment()) == parts:
                    assigned.set()

        self.consumer.subscribe([topic])
        self.worker = threading.Thread(target=poll, daemon=True)
        self.worker.start()
        assert assigned.wait(90), f"{group}: no assignment"

    def stop(self) -> None:
        self.done.set()
        self.worker.join(10)
        self.consumer.close()


class World:
    """Topics and groups in every state on the tiered broker; ``g(name)`` is a group's id."""

    def __init__(self, bootstrap: str) -> None:
        self.b = bootstrap
        self.u = uuid.uuid4().hex[:6]
        self.data, self.empty, self.trim = (f"c-{self.u}-{x}" for x in ("data", "empty", "trim"))
        self.mine = f"__c-{self.u}"  # a user's topic with Kafka's prefix: it stays
        self.members: list[Member] = []

    def g(self, name: str) -> str:
        return f"g-{self.u}-{name}"

    def build(self) -> World:
        b = self.b
        for t, n in ((self.data, 3), (self.empty, 2), (self.trim, 1), (self.mine, 1)):
            create_topic(b, t, n, config={"retention.ms": "-1"})
        produce(b, self.data, [(p, None, None, b"d") for p in range(3) for _ in range(10)])
        produce(b, self.trim, [(0, None, None, b"t") for _ in range(10)])
        produce(b, self.mine, [(0, None, None, b"m")])
        commit_group_offsets(b, self.g("empty"), {(self.data, p): 10 for p in range(3)})  # Empty, lag 0
        commit_group_offsets(b, self.g("partial"), {(self.data, 0): 4})  # lag 6; 1, 2: no-commit
        commit_group_offsets(b, self.g("elsewhere"), {(self.mine, 0): 1})  # nothing in the selection
        commit_group_offsets(b, self.g("trim"), {(self.trim, 0): 2})
        delete_records(b, {(self.trim, 0): 5})  # the commit is now below the log start
        # a group that committed on __remote_log_metadata: left out by default, as a system topic
        commit_group_offsets(b, self.g("system"), {("__remote_log_metadata", 0): 0, (self.data, 1): 10})
        self.members = [
            Member(b, self.g("active"), self.data, 3, "classic", 5),  # lag 5: WARNING
            Member(b, self.g("kip848"), self.data, 3, "consumer", 1),  # lag 9: CRITICAL
            Member(b, self.g("nocommit"), self.empty, 2, "classic", None),  # assigned, nothing committed
        ]
        return self

    @property
    def groups(self) -> list[str]:
        names = ("none", "empty", "partial", "elsewhere", "trim", "system", "active", "kip848", "nocommit")
        return [self.g(n) for n in names]

    @property
    def topics(self) -> str:
        """The liveness selection: this world's topics and every one of Kafka's system topic names."""
        return "|".join([f"c-{self.u}-.*", self.mine, *sorted(KAFKA_SYSTEM_TOPICS)])

    def spec(self) -> str:
        groups = ", ".join(self.groups)
        return f"""
clusters:
  local: {{bootstrap_servers: "{self.b}", timeout: 60s}}
  down: {{bootstrap_servers: "{DOWN}", timeout: 5s}}
checks:
  - {{name: alive, type: liveness, clusters: [local, down], topics: ['{self.topics}'],
      warn: 1h, crit: 2h}}
  - {{name: lag, type: lag, clusters: [local, down], groups: [{groups}],
      topics: ['c-{self.u}-.*'], warn_lag: 3, crit_lag: 8}}
  - {{name: all-topics, type: lag, cluster: local, groups: [{self.g("system")}, {self.g("elsewhere")}]}}
"""


@pytest.fixture(scope="module")
def world(tiered_bootstrap: str) -> Iterator[World]:
    w = World(tiered_bootstrap)
    try:
        yield w.build()
    finally:
        for m in w.members:
            m.stop()


def _lag_direct(w: World, *args: str) -> tuple[int, dict[tuple[Any, ...], dict[str, Any]]]:
    group_args = [a for g in w.groups for a in ("-g", g)]
    run = cli("lag", "-b", w.b, *group_args, *args, *THRESHOLDS, "-o", "json")
    return run.code, {(r["group"], r["topic"], r["partition"]): r for r in run.json()}


LAG_FIELDS = ("committed", "log_start", "end", "lag", "state", "status", "error", "group_type")


def _v(record: dict[str, Any], field: str) -> Any:
    """A record's field; a status by name, whatever its case (lag: ``warning``, check: ``WARNING``)."""
    value = record[field]
    return value.upper() if field == "status" and isinstance(value, str) else value


LIVE_FIELDS = ("offset", "timestamp", "state", "error")


@pytest.mark.spark
def test_check_and_the_direct_commands_agree_record_by_record(
    world: World, spark_runtime: Any, tmp_path: Path
) -> None:
    w = world
    spec = tmp_path / "spec.yaml"
    spec.write_text(w.spec())
    run = cli("check", str(spec), *MASTER, "-o", "json")
    doc = run.json()
    assert run.code == 2, run.stderr  # CRITICAL: kip848 and trim
    mine = [p for p in doc["partitions"] if p["cluster"] == "local"]

    def checked_by(check: str) -> list[dict[str, Any]]:
        return [r for r in mine if r["check"] == check]

    # lag: every group and partition, the same record ------------------------------------------
    code, direct = _lag_direct(w, "-t", f"c-{w.u}-.*")
    assert code == 2  # the direct command's run status: CRITICAL too
    checked = {(r["group"], r["topic"] or None, r["partition"]): r for r in checked_by("lag")}
    assert checked.keys() == direct.keys()
    for key, d in direct.items():
        assert [_v(checked[key], f) for f in LAG_FIELDS] == [_v(d, f) for f in LAG_FIELDS], key
    g = w.g

    def rec(group: str, topic: str | None = None, part: int | None = None) -> tuple[str, str, Any]:
        r = direct[(g(group), topic, part)]
        return r["state"], _v(r, "status"), r["error"]

    assert rec("none") == ("error", "UNKNOWN", "GROUP_ID_NOT_FOUND")  # check said no-commit, WARNING
    assert rec("elsewhere") == ("no-commit", "WARNING", None)  # named, nothing in the selection
    assert [rec("partial", w.data, p)[0] for p in range(3)] == ["ok", "no-commit", "no-commit"]
    assert rec("trim", w.trim, 0)[:2] == ("below-start", "CRITICAL")
    assert [rec(x, w.data, 0)[1] for x in ("empty", "active", "kip848")] == ["OK", "WARNING", "CRITICAL"]
    assert {rec("nocommit", w.empty, p)[0] for p in range(2)} == {"no-commit"}
    types = cli("lag", "-b", w.b, "-g", g("kip848"), "-g", g("active"), "--summary", "-o", "json").json()
    assert {r["group"]: r["group_type"] for r in types} == {g("kip848"): "consumer", g("active"): "classic"}
    # and check's records of them (compared with lag's above, field by field) carry the same
    assert {checked[(g(x), w.data, 0)]["group_type"] for x in ("kip848", "active")} == {"consumer", "classic"}

    # a lag check without topics: Kafka's system topics left out, as `lag` without --topic ----------
    code, bare = _lag_direct(w)
    all_topics = {(r["group"], r["topic"] or None, r["partition"]) for r in checked_by("all-topics")}
    assert all_topics == {k for k in bare if k[0] in (g("system"), g("elsewhere"))}
    assert {k[1] for k in all_topics} == {w.data, w.mine}  # no __remote_log_metadata; __c-… stays

    # liveness: every partition, the same record ------------------------------------------------
    live = cli("liveness", "-b", w.b, "-t", w.topics, "--warn", "1h", "--crit", "2h", "-o", "json")
    assert live.code == 0, live.stderr
    direct_live = {(r["topic"], r["partition"]): r for r in live.json()}
    checked_live = {(r["topic"], r["partition"]): r for r in checked_by("alive")}
    assert checked_live.keys() == direct_live.keys()
    for lkey, d in direct_live.items():
        assert [checked_live[lkey][f] for f in LIVE_FIELDS] == [d[f] for f in LIVE_FIELDS], lkey
    assert {t for t, _ in direct_live} == {w.data, w.empty, w.trim, w.mine}  # no system topic
    assert {r["status"] for r in checked_live.values()} == {"OK"}
    assert {r["group_type"] for r in checked_live.values()} == {None}  # no group, no type

    # the unreachable cluster: the direct commands exit 3 (UNKNOWN); check has a record per check ----
    down = [p for p in doc["partitions"] if p["cluster"] == "down"]
    assert sorted((r["check"], r["state"], r["status"], r["error"]) for r in down) == [
        ("alive", "error", "UNKNOWN", "CLUSTER_UNREACHABLE"),
        ("lag", "error", "UNKNOWN", "CLUSTER_UNREACHABLE"),
    ]
    for args in (("lag", "-g", g("none"), *THRESHOLDS), ("liveness", "-t", w.topics)):
        r = cli(args[0], "-b", DOWN, "--timeout", "5s", *args[1:], "-o", "json")
        assert (r.code, r.stdout) == (3, ""), r.stderr  # UNKNOWN, as the record's status
        assert "cannot connect to 127.0.0.1:9" in r.stderr


# ------------------------------------------------------------------ Kafka's system topics (item 7)


def test_liveness_and_tiering_leave_out_kafkas_system_topics_by_name(world: World) -> None:
    w = world
    # --empty-status warning: the empty partitions of __remote_log_metadata made this WARNING
    run = cli("liveness", "-b", w.b, "-t", w.topics, "--empty-status", "warning", "-o", "json")
    topics = {r["topic"] for r in run.json()}
    assert topics == {w.data, w.empty, w.trim, w.mine}, topics
    assert run.code == 1  # c-…-empty: WARNING by --empty-status; nothing else
    run = cli("liveness", "-b", w.b, "-t", f"{w.mine}|__remote_log_metadata", "--empty-status", "warning")
    assert run.code == 0, run.stderr  # was WARNING: __remote_log_metadata counted as a user topic
    with_system = cli("liveness", "-b", w.b, "-t", w.topics, "--include-internal", "-o", "json")
    assert "__remote_log_metadata" in {r["topic"] for r in with_system.json()}

    tiering = cli("tiering", "-b", w.b, "-t", w.topics, "-o", "json")
    assert tiering.code == 0, tiering.stderr
    assert {r["topic"] for r in tiering.json()} == {w.data, w.empty, w.trim, w.mine}
    tiering = cli("tiering", "-b", w.b, "-t", w.topics, "--include-internal", "-o", "json")
    assert "__remote_log_metadata" in {r["topic"] for r in tiering.json()}


def test_lag_without_a_topic_leaves_out_system_topics_and_a_named_one_is_shown(world: World) -> None:
    w = world
    run = cli("lag", "-b", w.b, "-g", w.g("system"), "-o", "json")
    assert run.code == 0, run.stderr
    assert {r["topic"] for r in run.json()} == {w.data}
    run = cli("lag", "-b", w.b, "-g", w.g("system"), "-t", "__remote_log_metadata", "-o", "json")
    assert {(r["topic"], r["committed"]) for r in run.json() if r["partition"] == 0} == {
        ("__remote_log_metadata", 0)
    }


def test_list_exclude_internal_topics_is_getoffsetshell_byte_for_byte(world: World) -> None:
    """GetOffsetShell goes by the broker's is_internal flag: __remote_log_metadata (not flagged) stays."""
    w = world
    for extra in ((), ("--exclude-internal-topics",)):
        args = ("--topic", w.topics, "--time", "-1", *extra)
        kafka = dev_kafka.run_tool(GET_OFFSET_SHELL, "--bootstrap-server", w.b, *args)
        ours = cli("list", "--bootstrap-server", w.b, *args, "-o", "plain")
        assert (ours.code, ours.stdout) == (kafka.returncode, kafka.stdout), (extra, kafka.stderr)
        assert "__remote_log_metadata:0:" in ours.stdout and f"{w.mine}:0:1" in ours.stdout
    assert "__consumer_offsets:" not in ours.stdout  # flagged internal: excluded by the last run


def test_the_system_topic_names_are_the_brokers_internal_ones_and_the_tiered_one(world: World) -> None:
    """Every topic the broker flags internal is one of ours (a new one in a Kafka release fails here)."""
    from kafka_offsets_cli.connection.settings import ClientSettings
    from kafka_offsets_cli.kafka import KafkaClient

    with KafkaClient(ClientSettings(bootstrap_servers=world.b)) as client:
        listed = client.metadata().topics
        described = client.metadata(names=[n for n in listed if n.startswith("__")]).topics
    flagged = {n for n, t in described.items() if t.internal}
    assert "__consumer_offsets" in flagged and flagged <= KAFKA_SYSTEM_TOPICS
    assert "__remote_log_metadata" in listed and not described["__remote_log_metadata"].internal
