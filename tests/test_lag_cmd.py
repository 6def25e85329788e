"""`kafka-offsets lag` on a real broker, checked against kafka-consumer-groups and known timestamps."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError
from confluent_kafka import TopicPartition as CTP

from dev.kafka_data import admin, commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from kafka_offsets_cli.measures.lag.rows import lag_row
from kafka_offsets_cli.measures.lag.timelag import time_lags
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest
from tests.cli_runner import cli, subprocess_cli
from tests.kafka_helpers import consumer_groups, delete_records, produce_transactional
from tests.mock_environment import MockEnvironment, watching

#: Keep every record whatever its timestamp (the broker's retention check would delete old ones).
KEEP = {"retention.ms": "-1"}
B = 1_790_000_000_000
FIXED_NOW = B + 1_000_000
P0 = [B + 1000 * i for i in range(10)]  # in order
P1 = [B + 5000, B + 1000, B + 9000, B + 3000, B + 7000, B + 2000]  # out of order
P2 = [B + 4000] * 5  # all equal


def uid() -> str:
    return uuid.uuid4().hex[:8]


def lag_records(*args: str) -> list[dict[str, Any]]:
    run = cli("lag", *args, "-o", "json")
    assert run.code == 0, run.stderr
    recs: list[dict[str, Any]] = run.json()
    return recs


def by_key(recs: Sequence[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(r["group"], r["partition"]): r for r in recs}


def wait_until(cond: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        time.sleep(0.1)


def end_offset(bootstrap: str, topic: str, partition: int = 0) -> int:
    with KafkaClient(build_settings(bootstrap, timeout_ms=10_000)) as c:
        [r] = c.list_offsets([OffsetRequest(((TopicPartition(topic, partition), OffsetSpec.latest()),))])
    assert r.offset is not None
    return r.offset


def describe_lags(bootstrap: str, group: str) -> dict[tuple[str, int], tuple[int, int, int]]:
    """kafka-consumer-groups --describe: {(topic, partition): (current, log end, lag)}."""
    proc = consumer_groups(bootstrap, "--describe", "--group", group)
    assert proc.returncode == 0, proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        f = line.split()
        if len(f) >= 6 and f[0] == group and f[2].isdigit():
            out[(f[1], int(f[2]))] = (int(f[3]), int(f[4]), int(f[5]))
    return out


# ----------------------------------------------------------------------------- offsets lag


def test_lag_of_a_real_consumer_group_matches_kafka_consumer_groups(bootstrap: str) -> None:
    topic = create_topic(bootstrap, f"lag-real-{uid()}", partitions=3, config=KEEP)
    produce(bootstrap, topic, [(p, None, None, f"v{p}-{i}") for p in range(3) for i in range(10)])
    group = f"g-real-{uid()}"
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    try:
        consumer.subscribe([topic])
        got = 0
        deadline = time.monotonic() + 60
        while got < 30 and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is not None and msg.error() is None:
                got += 1
        assert got == 30
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    produce(bootstrap, topic, [(0, None, None, f"late-{i}") for i in range(5)])
    recs = by_key(lag_records("-b", bootstrap, "--group", group))
    assert {k: (r["committed"], r["end"], r["lag"], r["state"]) for k, r in recs.items()} == {
        (group, 0): (10, 15, 5, "ok"),
        (group, 1): (10, 10, 0, "ok"),
        (group, 2): (10, 10, 0, "ok"),
    }
    kafka = describe_lags(bootstrap, group)
    assert kafka == {
        (topic, p): (recs[(group, p)]["committed"], recs[(group, p)]["end"], recs[(group, p)]["lag"])
        for p in range(3)
    }


@pytest.fixture(scope="module")
def flagged(bootstrap: str) -> tuple[str, str]:
    """A 3-partition topic: p0 10 records, p1 10 records, p2 10 records with the first 6 deleted."""
    topic = create_topic(bootstrap, f"lag-flag-{uid()}", partitions=3, config=KEEP)
    produce(bootstrap, topic, [(p, None, None, "x") for p in range(3) for _ in range(10)])
    group = f"g-flag-{uid()}"
    commit_group_offsets(bootstrap, group, {(topic, 0): 4, (topic, 2): 2})
    assert delete_records(bootstrap, {(topic, 2): 6}) == {(topic, 2): 6}
    return topic, group


def test_no_commit_and_below_start_are_flagged(bootstrap: str, flagged: tuple[str, str]) -> None:
    topic, group = flagged
    recs = by_key(lag_records("-b", bootstrap, "-g", group))
    assert recs[(group, 0)] == {
        "group": group,
        "group_type": "classic",  # ListGroups v5: offsets committed without a member make a classic group
        "topic": topic,
        "partition": 0,
        "committed": 4,
        "log_start": 0,
        "end": 10,
        "lag": 6,
        "time_lag_ms": None,
        "state": "ok",
        "error": None,
        "resume_timestamp": None,  # both filled only with --time-lag
        "taken_at_ms": None,
        "remote_read": False,  # no tiered storage: every record is local
    }
    assert (recs[(group, 1)]["committed"], recs[(group, 1)]["lag"], recs[(group, 1)]["state"]) == (
        None,
        None,
        "no-commit",
    )
    p2 = recs[(group, 2)]
    assert (p2["committed"], p2["log_start"], p2["end"], p2["lag"], p2["state"]) == (
        2,
        6,
        10,
        None,
        "below-start",
    )


def test_only_lagging_sort_and_columns(bootstrap: str, flagged: tuple[str, str]) -> None:
    _, group = flagged
    run = cli(
        "lag",
        "-b",
        bootstrap,
        "-g",
        group,
        "--only-lagging",
        "--sort",
        "lag",
        "-o",
        "csv",
        "--columns",
        "partition,lag,state",
    )
    assert run.code == 0, run.stderr
    assert run.stdout == "partition,lag,state\n0,6,ok\n2,,below-start\n"


def test_table_shows_states_and_totals(bootstrap: str, flagged: tuple[str, str]) -> None:
    topic, group = flagged
    run = cli(
        "lag", "-b", bootstrap, "-g", group, "-o", "table", environment=MockEnvironment(stderr_isatty=True)
    )
    assert run.code == 0, run.stderr
    assert re.search(rf"{group}\s+{topic}\s+2\s+2\s+6\s+10\s+-\s+below-start", run.stdout)
    assert re.search(rf"{group}\s+{topic}\s+1\s+-\s+0\s+10\s+-\s+no-commit", run.stdout)
    assert re.search(r"\(all topics\)\s+6\s+total: 3 partition\(s\), 2 lagging, 2 flagged", run.stdout)
    assert f"group {group}: empty, 0 member(s)" in run.stderr  # a note for the person at the terminal
    quiet = cli("lag", "-b", bootstrap, "-g", group, "-o", "table")  # stderr not a terminal (issue 32.4)
    assert quiet.code == 0 and quiet.stdout == run.stdout and quiet.stderr == ""


def test_literal_topics_are_shown_for_named_groups_only(bootstrap: str, flagged: tuple[str, str]) -> None:
    _, group = flagged
    other = create_topic(bootstrap, f"lag-other-{uid()}", partitions=2, config=KEEP)
    recs = lag_records("-b", bootstrap, "-g", group, "-t", other)
    assert [(r["topic"], r["partition"], r["state"]) for r in recs] == [
        (other, 0, "no-commit"),
        (other, 1, "no-commit"),
    ]
    # matched by a regex, a group that never touched the topic is left out, not listed as no-commit
    run = cli("lag", "-b", bootstrap, "--group-regex", re.escape(group), "-t", other, "-o", "json")
    assert run.code == 5 and run.stdout == ""


def test_deleted_topic_drops_its_offsets_and_naming_it_exits_1(bootstrap: str) -> None:
    topic = create_topic(bootstrap, f"lag-gone-{uid()}", partitions=1, config=KEEP)
    keep = create_topic(bootstrap, f"lag-keep-{uid()}", partitions=1, config=KEEP)
    produce(bootstrap, keep, [(0, None, None, "x")])
    group = f"g-gone-{uid()}"
    commit_group_offsets(bootstrap, group, {(topic, 0): 0, (keep, 0): 0})
    client = admin(bootstrap)  # keep a reference: the future dies with its client
    client.delete_topics([topic], operation_timeout=30)[topic].result(timeout=30)
    wait_until(lambda: topic not in client.list_topics(timeout=5).topics)
    # the coordinator forgets a deleted topic's offsets (asynchronously): only the kept topic remains
    wait_until(lambda: _committed_topics(bootstrap, group) == {keep}, timeout=60)
    assert [r["topic"] for r in lag_records("-b", bootstrap, "-g", group)] == [keep]
    run = subprocess_cli("lag", "-b", bootstrap, "-g", group, "-t", keep, "-t", topic, "-o", "jsonl")
    assert run.code == 1, run.stderr
    got = {r["topic"]: r for r in run.jsonl()}
    assert (got[topic]["group"], got[topic]["partition"], got[topic]["state"], got[topic]["error"]) == (
        None,
        None,
        "error",
        "UNKNOWN_TOPIC_OR_PARTITION",
    )
    assert (got[keep]["state"], got[keep]["lag"]) == ("ok", 1)
    assert "UNKNOWN_TOPIC_OR_PARTITION" in run.stderr


def _committed_topics(bootstrap: str, group: str) -> set[str]:
    """Topics with committed offsets for ``group``, read with kafka-offsets' client."""
    client = KafkaClient(build_settings(bootstrap, timeout_ms=10_000))
    (offsets,) = client.committed_offsets([group])
    return {tp.topic for tp, off in offsets.offsets.items() if off is not None}


def test_group_selection_errors(bootstrap: str) -> None:
    # no --group at all reads every group (issue 16): tests/test_lag_monitor.py
    none = cli("lag", "-b", bootstrap, "--group-regex", f"no-such-{uid()}.*")
    assert none.code == 5 and "no consumer group matched" in none.stderr
    bad = cli("lag", "-b", bootstrap, "--group-regex", "(")
    assert bad.code == 2
    never = f"never-{uid()}"
    unknown = cli("lag", "-b", bootstrap, "-g", never, "-o", "json")
    # a group that does not exist is not an empty group (issue 14): an error, exit 1
    assert unknown.code == 1 and f"consumer group '{never}' does not exist" in unknown.stderr
    recs = [(r["group"], r["state"], r["error"]) for r in unknown.json()]
    assert recs == [(never, "error", "GROUP_ID_NOT_FOUND")]


def test_subprocess_keeps_data_on_stdout_and_a_quiet_stderr(bootstrap: str, flagged: tuple[str, str]) -> None:
    """As from cron (no terminal): the data on stdout and nothing on stderr but warnings and errors."""
    _, group = flagged
    run = subprocess_cli("lag", "-b", bootstrap, "-g", group, "--time-lag", "-o", "jsonl")
    assert run.code == 0, run.stderr
    assert [r["partition"] for r in run.jsonl()] == [0, 1, 2]
    assert run.stderr == "" and "exact" not in run.stdout
    nagios = subprocess_cli(
        "lag", "-b", bootstrap, "-g", group, "--time-lag", "--crit-lag", "1000", "-o", "nagios"
    )
    assert nagios.code == 2 and nagios.stdout.startswith("KAFKA LAG CRITICAL"), nagios  # below-start
    assert nagios.stderr == ""  # cron mails what is written: the status line only (issue 32.4)
    down = subprocess_cli("lag", "-b", "127.0.0.1:1", "-g", group, "--timeout", "6s")
    assert (
        down.code == 3
        and down.stdout == ""
        and "cannot connect to 127.0.0.1:1: Connection refused" in down.stderr
    )


# ----------------------------------------------------------------------------- time lag


@pytest.fixture(scope="module")
def timed(bootstrap: str) -> tuple[str, str]:
    topic = create_topic(bootstrap, f"lag-time-{uid()}", partitions=3, config=KEEP)
    produce(bootstrap, topic, [(0, ts, None, "a") for ts in P0])
    produce(bootstrap, topic, [(1, ts, None, "b") for ts in P1])
    produce(bootstrap, topic, [(2, ts, None, "c") for ts in P2])
    prefix = f"g-time-{uid()}"
    commit_group_offsets(bootstrap, f"{prefix}-a", {(topic, 0): 3, (topic, 1): 1, (topic, 2): 0})
    commit_group_offsets(bootstrap, f"{prefix}-b", {(topic, 0): 9, (topic, 1): 3, (topic, 2): 4})
    commit_group_offsets(bootstrap, f"{prefix}-c", {(topic, 1): 5, (topic, 0): 10})
    return topic, prefix


def expected_max_ts(times: Sequence[int], committed: int) -> int:
    """The newest timestamp among the records up to and including the committed offset."""
    return max(times[: committed + 1])


def test_time_lag_matches_the_produced_timestamps(bootstrap: str, timed: tuple[str, str]) -> None:
    _, prefix = timed
    at_fixed_now = MockEnvironment(now_ms=lambda: FIXED_NOW)
    run = cli(
        "lag",
        "-b",
        bootstrap,
        "--group-regex",
        f"{prefix}-.*",
        "--time-lag",
        "-o",
        "json",
        environment=at_fixed_now,
    )
    assert run.code == 0, run.stderr
    times = {0: P0, 1: P1, 2: P2}
    got = {(r["group"][-1], r["partition"]): r for r in run.json()}
    assert len(got) == 9
    for (g, p), r in got.items():
        if r["state"] == "no-commit":
            assert (g, p) == ("c", 2) and r["time_lag_ms"] is None
        elif r["lag"] == 0:
            assert r["time_lag_ms"] == 0
        else:
            want = FIXED_NOW - expected_max_ts(times[p], r["committed"])
            assert r["time_lag_ms"] == want, (g, p, r)
    # out of order: group a at p1 offset 1 (ts B+1s) is behind record 0 (B+5s), so 5s counts
    assert got[("a", 1)]["time_lag_ms"] == FIXED_NOW - (B + 5000)
    assert got[("b", 1)]["time_lag_ms"] == FIXED_NOW - (B + 9000)
    assert run.stderr == ""  # a machine format: how time lag is found is told by --help, not stderr


class Spy:
    """The real client, recording every list_offsets call (to check batching; nothing is faked)."""

    def __init__(self, client: KafkaClient) -> None:
        self.client = client
        self.calls: list[list[tuple[TopicPartition, OffsetSpec]]] = []

    def metadata(self, topic: str | None = None, **kwargs: Any) -> Any:
        return self.client.metadata(topic, **kwargs)

    def list_offsets(
        self, requests: Sequence[OffsetRequest], *, isolation: Isolation | None = None, progress: Any = None
    ) -> list[OffsetResult]:
        self.calls.append([q for r in requests for q in r.queries])
        return self.client.list_offsets(requests, isolation=isolation, progress=progress)


def test_bisection_rounds_are_batched_across_partitions(bootstrap: str, timed: tuple[str, str]) -> None:
    topic, _ = timed
    commits = {0: 3, 1: 1, 2: 0}
    ends = {0: len(P0), 1: len(P1), 2: len(P2)}
    rows = [
        lag_row(
            "g",
            TopicPartition(topic, p),
            c,
            OffsetResult(topic, p, OffsetSpec.earliest(), 0),
            OffsetResult(topic, p, OffsetSpec.latest(), ends[p]),
        )
        for p, c in commits.items()
    ]
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as client:
        spy = Spy(client)
        lags = time_lags(spy, rows)
    assert {k.partition: v.timestamp for (k, _), v in lags.items()} == {
        0: P0[3],
        1: max(P1[:2]),
        2: P2[0],
    }
    rounds = max(v.rounds for v in lags.values())
    assert len(spy.calls) == 1 + rounds  # one max-timestamp call, then one call per round
    assert sorted(tp.partition for tp, s in spy.calls[0]) == [0, 1, 2]
    assert all(s == OffsetSpec.max_timestamp() for _, s in spy.calls[0])
    sizes = [len(c) for c in spy.calls[1:]]
    # p2's newest record (all timestamps equal: the earliest offset) is at the committed offset, so
    # max-timestamp alone answers it; p0 and p1 are searched together in every round they both need
    assert lags[(TopicPartition(topic, 2), 0)].rounds == 0
    assert sizes[0] == 2
    assert sizes == sorted(sizes, reverse=True)  # searches only drop out
    assert all(all(s.kind.value == "timestamp" for _, s in c) for c in spy.calls[1:])


# ----------------------------------------------------------------------------- transactions


def test_transaction_marker_is_detected_by_a_fetch(bootstrap: str) -> None:
    topic = create_topic(bootstrap, f"lag-txn-{uid()}", partitions=1, config=KEEP)
    produce_transactional(bootstrap, topic, [(0, None, None, f"t{i}") for i in range(3)], commit=True)
    wait_until(lambda: end_offset(bootstrap, topic) == 4)  # 3 records + the commit marker at offset 3
    # measured: max-timestamp points AT the marker (stamped with the broker's clock at commit), so it
    # cannot tell "the last offset is a marker"; the lag command fetches instead.
    mx = cli("list", "-b", bootstrap, "-t", topic, "-s", "max-timestamp", "-o", "json").json()
    assert mx[0]["offset"] == 3
    g_marker, g_data = f"g-mk-{uid()}", f"g-dt-{uid()}"
    commit_group_offsets(bootstrap, g_marker, {(topic, 0): 3})  # after the last record, before the marker
    commit_group_offsets(bootstrap, g_data, {(topic, 0): 2})  # before the last data record
    recs = by_key(lag_records("-b", bootstrap, "-g", g_marker, "-g", g_data, "--time-lag"))
    m, d = recs[(g_marker, 0)], recs[(g_data, 0)]
    assert (m["lag"], m["state"], m["time_lag_ms"]) == (1, "marker", 0)
    assert (d["lag"], d["state"]) == (2, "ok") and d["time_lag_ms"] is not None and d["time_lag_ms"] >= 0
    off = by_key(lag_records("-b", bootstrap, "-g", g_marker, "--no-marker-check"))
    assert (off[(g_marker, 0)]["lag"], off[(g_marker, 0)]["state"]) == (1, "ok")
    # a data record at committed == end - 1 stays ok
    plain = create_topic(bootstrap, f"lag-plain-{uid()}", partitions=1, config=KEEP)
    produce(bootstrap, plain, [(0, None, None, "x"), (0, None, None, "y")])
    g_plain = f"g-pl-{uid()}"
    commit_group_offsets(bootstrap, g_plain, {(plain, 0): 1})
    p = by_key(lag_records("-b", bootstrap, "-g", g_plain))[(g_plain, 0)]
    assert (p["lag"], p["state"]) == (1, "ok")


def test_read_committed_end_is_the_last_stable_offset(bootstrap: str) -> None:
    topic = create_topic(bootstrap, f"lag-lso-{uid()}", partitions=1, config=KEEP)
    produce(bootstrap, topic, [(0, None, None, "a"), (0, None, None, "b")])
    producer = produce_transactional(
        bootstrap, topic, [(0, None, None, f"open{i}") for i in range(3)], commit=None
    )
    try:
        wait_until(lambda: end_offset(bootstrap, topic) == 5)
        group = f"g-lso-{uid()}"
        commit_group_offsets(bootstrap, group, {(topic, 0): 2})
        hw = by_key(lag_records("-b", bootstrap, "-g", group))[(group, 0)]
        lso = by_key(lag_records("-b", bootstrap, "-g", group, "--isolation", "read_committed"))[(group, 0)]
        assert (hw["end"], hw["lag"]) == (5, 3)
        assert (lso["end"], lso["lag"]) == (2, 0)
    finally:
        producer.abort_transaction(30)


def test_marker_check_consumer_sees_control_records_directly(bootstrap: str) -> None:
    """The fetch the marker check relies on: librdkafka never delivers control records."""
    topic = create_topic(bootstrap, f"lag-probe-{uid()}", partitions=1, config=KEEP)
    produce_transactional(bootstrap, topic, [(0, None, None, "t")], commit=True)
    wait_until(lambda: end_offset(bootstrap, topic) == 2)
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as client:
        got = client.control_records([(TopicPartition(topic, 0), 1), (TopicPartition(topic, 0), 0)])
    assert got == {(TopicPartition(topic, 0), 1): True, (TopicPartition(topic, 0), 0): False}
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"p-{uid()}", "enable.partition.eof": True})
    try:
        c.assign([CTP(topic, 0, 1)])
        deadline = time.monotonic() + 20
        seen = None
        while seen is None and time.monotonic() < deadline:
            msg = c.poll(0.5)
            if msg is not None:
                seen = msg
        assert seen is not None
        err = seen.error()
        assert err is not None and err.code() == KafkaError._PARTITION_EOF and seen.offset() == 2
    finally:
        c.close()


# ----------------------------------------------------------------------------- --watch


def test_watch_rates_match_records_produced_and_committed_between_refreshes(bootstrap: str) -> None:
    topic, group = f"lag-watch-{uid()}", f"g-watch-{uid()}"
    create_topic(bootstrap, topic, 2)
    produce(bootstrap, topic, [(0, None, None, b"x")] * 100 + [(1, None, None, b"y")] * 40)
    commit_group_offsets(bootstrap, group, {(topic, 0): 30, (topic, 1): 40})

    def between(refresh: int) -> None:
        # after each refresh: 50 records in on partition 0 and the group commits 40 more of them
        produce(bootstrap, topic, [(0, None, None, b"x")] * 50)
        commit_group_offsets(bootstrap, group, {(topic, 0): 30 + 40 * refresh, (topic, 1): 40})

    started_ms = int(time.time() * 1000)
    run = cli(
        "lag", "-b", bootstrap, "-g", group, "--watch", "2s", "-o", "jsonl", environment=watching(5, between)
    )
    assert run.code == 0, run.stderr
    recs = run.jsonl()
    assert len(recs) == 10  # one block of 2 partitions per refresh
    blocks = [{r["partition"]: r for r in recs[i : i + 2]} for i in range(0, 10, 2)]
    # each refresh's records say when it was taken: one time per block, in order, during the run
    stamps = [{r["refreshed_ms"] for r in b.values()} for b in blocks]
    assert all(len(s) == 1 for s in stamps), stamps
    taken = [s.pop() for s in stamps]
    assert started_ms <= taken[0] and taken == sorted(taken) and taken[-1] <= time.time() * 1000
    assert {p: (r["end"], r["committed"]) for p, r in blocks[0].items()} == {0: (100, 30), 1: (40, 40)}
    assert all(r["in_per_s"] is None and r["consumed_per_s"] is None for r in blocks[0].values())
    assert {p: (r["end"], r["committed"], r["lag"]) for p, r in blocks[4].items()} == {
        0: (300, 190, 110),
        1: (40, 40, 0),
    }
    # refreshes exactly 2 s apart: 50 records in / 2 s since the previous refresh; consumed over the
    # commit steps (a step's time is the middle of its refresh gap): 70 -> 190 in 6 s, once 4 are seen
    assert [b[0]["consumed_per_s"] for b in blocks] == [None, None, None, None, 20.0]
    assert {
        p: (r["in_per_s"], r["consumed_per_s"], r["consumed_window_s"]) for p, r in blocks[4].items()
    } == {
        0: (25.0, 20.0, 6.0),
        1: (0.0, None, None),  # no commit step: not known yet
    }


def test_settings_kafka_python_cannot_take_read_groups_through_librdkafka(bootstrap: str) -> None:
    """``-X ssl.cipher.suites`` (meaningless on plaintext, unknown to kafka-python's translation): lag
    still reads the committed offsets, through librdkafka's ListConsumerGroupOffsets (the fallback of
    kafka/offset_fetch_rdkafka.py), and describes the groups through its DescribeConsumerGroups
    (kafka/describe_groups_rdkafka.py), and says so with --debug; the same answer as without it."""
    from tests.cli_runner import subprocess_cli

    topic = create_topic(bootstrap, f"fb-{uuid.uuid4().hex[:8]}", partitions=2)
    produce(bootstrap, topic, [(p, None, None, "v") for p in (0, 1) for _ in range(5)])
    group = f"fb-g-{uuid.uuid4().hex[:8]}"
    commit_group_offsets(bootstrap, group, {(topic, 0): 3, (topic, 1): 5})
    base = (
        "lag",
        "-b",
        bootstrap,
        "-g",
        group,
        "-o",
        "jsonl",
        "--columns",
        "topic,partition,committed,lag",
    )
    plain = subprocess_cli(*base)
    fallback = subprocess_cli(*base, "-X", "ssl.cipher.suites=HIGH", "--debug")
    assert plain.code == 0 and fallback.code == 0, (plain, fallback)
    assert fallback.stdout == plain.stdout, (plain.stdout, fallback.stdout)
    assert [(r["partition"], r["committed"], r["lag"]) for r in plain.jsonl()] == [(0, 3, 2), (1, 5, 0)]
    assert "committed offsets and group descriptions through librdkafka" in fallback.stderr
    summary = ("lag", "-b", bootstrap, "-g", group, "--summary", "-o", "jsonl")
    plain_summary = subprocess_cli(*summary)
    fallback_summary = subprocess_cli(*summary, "-X", "ssl.cipher.suites=HIGH")
    assert plain_summary.stdout == fallback_summary.stdout
    assert [(r["group"], r["group_state"]) for r in plain_summary.jsonl()] == [(group, "empty")]
