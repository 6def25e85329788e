"""`kafka-offsets lag` as a monitor and over every group (issue 16), on a real broker.

Thresholds and exit codes, nagios and Prometheus output (promtool: tests/test_prometheus_lint.py),
the state a table shows, every group without ``-g``, "which groups read topic X", the per-group
summary and the ``--min-lag`` / ``--min-time-lag`` filters.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
from confluent_kafka import Consumer

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka.describe_groups import describe_groups
from kafka_offsets_cli.kafka.describe_groups_rdkafka import describe_groups_rdkafka
from kafka_offsets_cli.kafka.session import Session
from kafka_offsets_cli.models.groups import GroupMembers, Member
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import Run, cli
from tests.kafka_helpers import consumer_groups

KEEP = {"retention.ms": "-1"}
HOUR_MS = 3_600_000


def uid() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="module")
def lagging(bootstrap: str) -> dict[str, str]:
    """Topic T (2 partitions, 10 records each, the first 4 of partition 1 two hours old): group
    ``behind`` at lag 0 and 6 (its first unconsumed record two hours old), group ``caught`` at lag 0;
    topic U read by group ``other`` only."""
    t, u = f"mon-t-{uid()}", f"mon-u-{uid()}"
    behind, caught, other = f"mon-behind-{uid()}", f"mon-caught-{uid()}", f"mon-other-{uid()}"
    create_topic(bootstrap, t, 2, config=KEEP)
    create_topic(bootstrap, u, 1, config=KEEP)
    old = int(time.time() * 1000) - 2 * HOUR_MS
    produce(bootstrap, t, [(0, None, None, b"x") for _ in range(10)])
    produce(bootstrap, t, [(1, old + i, None, b"x") for i in range(10)])
    produce(bootstrap, u, [(0, None, None, b"x") for _ in range(3)])
    commit_group_offsets(bootstrap, behind, {(t, 0): 10, (t, 1): 4})
    commit_group_offsets(bootstrap, caught, {(t, 0): 10, (t, 1): 10})
    commit_group_offsets(bootstrap, other, {(u, 0): 1})
    return {"b": bootstrap, "t": t, "u": u, "behind": behind, "caught": caught, "other": other}


def lag(d: dict[str, str], *args: str) -> Run:
    return cli("lag", "-b", d["b"], *args)


@pytest.mark.parametrize(
    ("thresholds", "code", "status"),
    [
        (("--warn-lag", "3", "--crit-lag", "5"), 2, "critical"),
        (("--warn-lag", "3", "--crit-lag", "6"), 1, "warning"),  # above a threshold alerts, equal does not
        (("--warn-lag", "6"), 0, "ok"),
        (("--warn-time-lag", "1h", "--crit-time-lag", "3h"), 1, "warning"),
        (("--crit-time-lag", "90m"), 2, "critical"),
    ],
)
def test_thresholds_set_the_exit_status_and_each_record_status(
    lagging: dict[str, str], thresholds: tuple[str, ...], code: int, status: str
) -> None:
    run = lag(lagging, "-g", lagging["behind"], *thresholds, "-o", "json")
    assert run.code == code, run.stderr
    got = {(r["partition"], r["state"], r["status"]) for r in run.json()}
    assert got == {(0, "ok", "ok"), (1, "ok", status)}
    if "--crit-time-lag" in thresholds:  # a time threshold computes the time lag
        [late] = [r for r in run.json() if r["partition"] == 1]
        assert 2 * HOUR_MS - 60_000 < late["time_lag_ms"] < 2 * HOUR_MS + 600_000


def test_the_table_state_never_says_ok_beside_a_lag(lagging: dict[str, str]) -> None:
    plain = lag(lagging, "-g", lagging["behind"], "-o", "wide")
    assert plain.code == 0, plain.stderr
    lines = plain.stdout.splitlines()
    assert lines[1].split()[-1] == "ok" and lines[1].split()[-2] == "0"
    assert lines[2].split()[-1] == "lagging" and lines[2].split()[-2] == "6"
    crit = lag(lagging, "-g", lagging["behind"], "--warn-lag", "1", "--crit-lag", "5", "-o", "wide")
    assert crit.code == 2
    assert crit.stdout.splitlines()[2].split()[-1] == "critical"


def test_nagios_line_and_perfdata(lagging: dict[str, str]) -> None:
    g = lagging["behind"]
    run = lag(lagging, "-g", g, "--warn-lag", "3", "--crit-lag", "5", "-o", "nagios")
    assert run.code == 2
    line = run.stdout.strip()
    assert line.startswith("KAFKA LAG CRITICAL - 1 group(s), 2 partition(s): 1 critical;")
    assert line.endswith(f"| '{g} lag'=6;3;5;0")
    ok = lag(lagging, "-g", lagging["caught"], "-o", "nagios")
    assert ok.code == 0 and ok.stdout.startswith("KAFKA LAG OK - 1 group(s), 2 partition(s): all OK")


def test_prometheus_file_and_stdout(lagging: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "lag.prom"
    g = lagging["behind"]
    run = lag(lagging, "-g", g, "--warn-lag", "3", "-o", "prometheus", "--prometheus-file", str(out))
    assert run.code == 1, run.stderr
    assert out.read_text() == run.stdout
    got = parse_prometheus_text(run.stdout)
    base = {"cluster": lagging["b"], "group": g, "type": "classic"}  # the type the brokers list
    assert got["kafka_offsets_lag_group_lag"] == [(base, 6.0)]
    assert got["kafka_offsets_lag_group_status"] == [(base, 1.0)]
    assert got["kafka_offsets_lag_status"] == [({"cluster": lagging["b"]}, 1.0)]
    assert got["kafka_offsets_lag_warn_lag"] == [({"cluster": lagging["b"]}, 3.0)]
    assert ({**base, "topic": lagging["t"], "partition": "1"}, 6.0) in got["kafka_offsets_lag_partition_lag"]


def test_unreachable_cluster_is_unknown_with_up_0(tmp_path: Path) -> None:
    out = tmp_path / "down.prom"
    run = cli("lag", "-b", "127.0.0.1:1", "--timeout", "3s", "--warn-lag", "1", "-o", "nagios",
              "--prometheus-file", str(out))  # fmt: skip
    assert run.code == 3
    assert run.stdout.startswith("KAFKA LAG UNKNOWN - ")
    assert parse_prometheus_text(out.read_text())["kafka_offsets_lag_up"] == [
        ({"cluster": "127.0.0.1:1"}, 0.0)
    ]


def test_a_named_group_that_does_not_exist_is_unknown(lagging: dict[str, str]) -> None:
    run = lag(lagging, "-g", lagging["behind"], "-g", f"never-{uid()}", "--warn-lag", "100", "-o", "json")
    assert run.code == 3
    assert {r["status"] for r in run.json()} == {"ok", "unknown"}


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("--warn-lag", "10", "--crit-lag", "5"), 3),  # a monitoring check: UNKNOWN, not CRITICAL
        (("--warn-time-lag", "2h", "--crit-time-lag", "1h"), 3),
        (("--summary", "--by-partition"), 2),  # plain lag
        (("--summary", "--by-partition", "-o", "nagios"), 3),
        (("--warn-lag", "-1"), 3),
    ],
)
def test_contradictions_are_usage_errors(args: tuple[str, ...], code: int) -> None:
    assert cli("lag", "-b", "127.0.0.1:1", *args).code == code


def test_without_group_every_group_and_topic_lists_its_readers(lagging: dict[str, str]) -> None:
    every = lag(lagging, "-o", "json")
    assert every.code in (0, 1), every.stderr  # other tests' groups may carry errors
    groups = {r["group"] for r in every.json()}
    assert {lagging["behind"], lagging["caught"], lagging["other"]} <= groups
    readers = lag(lagging, "-t", lagging["t"], "-o", "json")
    assert readers.code == 0, readers.stderr
    assert {r["group"] for r in readers.json()} == {lagging["behind"], lagging["caught"]}
    only_u = lag(lagging, "-t", lagging["u"], "-o", "json")
    assert [(r["group"], r["lag"]) for r in only_u.json()] == [(lagging["other"], 2)]


def test_summary_is_the_table_of_several_unnamed_groups(lagging: dict[str, str]) -> None:
    run = lag(lagging, "-t", lagging["t"], "-o", "wide")
    assert run.code == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header.split() == ["GROUP", "STATE", "TYPE", "MEMBERS", "PARTITIONS", "LAGGING", "LAG", "STATUS"]
    assert [r.split() for r in rows] == [
        [lagging["behind"], "empty", "classic", "0", "2", "1", "6", "lagging"],
        [lagging["caught"], "empty", "classic", "0", "2", "0", "0", "ok"],
    ]
    per = lag(lagging, "-t", lagging["t"], "--by-partition", "-o", "wide")
    assert per.stdout.split()[:3] == ["GROUP", "TOPIC", "PARTITION"]
    named = lag(lagging, "-g", lagging["behind"], "-g", lagging["caught"], "-o", "wide")
    assert named.stdout.split()[:3] == ["GROUP", "TOPIC", "PARTITION"]
    recs = lag(lagging, "-t", lagging["t"], "--summary", "--crit-lag", "5", "-o", "json")
    assert recs.code == 2
    assert [(r["group"], r["partitions"], r["lag"], r["status"]) for r in recs.json()] == [
        (lagging["behind"], 2, 6, "critical"),
        (lagging["caught"], 2, 0, "ok"),
    ]


def test_min_lag_and_min_time_lag_filter_rows(lagging: dict[str, str]) -> None:
    rows = lag(lagging, "-t", lagging["t"], "--min-lag", "1", "-o", "json").json()
    assert [(r["group"], r["partition"]) for r in rows] == [(lagging["behind"], 1)]
    assert lag(lagging, "-t", lagging["t"], "--min-lag", "7", "-o", "json").json() == []
    timed = lag(lagging, "-t", lagging["t"], "--min-time-lag", "1h", "-o", "json").json()
    assert [(r["group"], r["partition"]) for r in timed] == [(lagging["behind"], 1)]
    assert lag(lagging, "-t", lagging["t"], "--min-time-lag", "3h", "-o", "json").json() == []


# ----------------------------------------------------------------------------- members and group type


def _describe_members(bootstrap: str, group: str) -> dict[tuple[str, int], tuple[str, str, str]]:
    """kafka-consumer-groups --describe: {(topic, partition): (consumer id, host, client id)}."""
    proc = consumer_groups(bootstrap, "--describe", "--group", group)
    assert proc.returncode == 0, proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        f = line.split()
        if len(f) == 9 and f[0] == group and f[2].isdigit():
            out[(f[1], int(f[2]))] = (f[6], f[7], f[8])
    return out


def _member_epoch(bootstrap: str, group: str) -> int:
    """kafka-consumer-groups --describe --members --verbose: the one member's CURRENT-EPOCH."""
    proc = consumer_groups(bootstrap, "--describe", "--members", "--verbose", "--group", group)
    assert proc.returncode == 0, proc.stderr
    lines = [line.split() for line in proc.stdout.splitlines() if line.strip()]
    header = next(f for f in lines if f[:1] == ["GROUP"])
    [member] = [f for f in lines if f[:1] == [group]]
    assert "CURRENT-EPOCH" in header, proc.stdout
    return int(member[header.index("CURRENT-EPOCH")])


def _describe_state(bootstrap: str, group: str) -> tuple[str, int]:
    """kafka-consumer-groups --describe --state: (STATE in lower case, #MEMBERS)."""
    proc = consumer_groups(bootstrap, "--describe", "--state", "--group", group)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if line.split()[:1] == [group]]
    assert len(rows) == 1, proc.stdout
    return rows[0][-2].lower(), int(rows[0][-1])


def _both_routes(
    bootstrap: str, groups: list[str]
) -> tuple[dict[str, GroupMembers], dict[str, GroupMembers]]:
    """The groups described through kafka-python and through librdkafka (each member's partitions sorted:
    the order of an assignment is not an answer)."""
    session = Session(build_settings(bootstrap, timeout_ms=30_000))
    try:
        ours = describe_groups(session.kafka_python(), session.deadline, groups)
        librdkafka = describe_groups_rdkafka(session, groups)
    finally:
        session.close()

    def plain(found: dict[str, GroupMembers]) -> dict[str, GroupMembers]:
        # librdkafka's describe has no member epoch (ConsumerGroupDescribe's, kafka-python route)
        def member(m: Member) -> Member:
            return replace(m, assigned=tuple(sorted(m.assigned)), member_epoch=None)

        return {g: replace(d, members=tuple(member(m) for m in d.members)) for g, d in found.items()}

    return plain(ours), plain(librdkafka)


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_members_match_kafka_consumer_groups_and_the_type_is_the_protocol(
    lagging: dict[str, str], protocol: str
) -> None:
    b, t = lagging["b"], lagging["t"]
    group = f"mon-live-{protocol}-{uid()}"
    consumer = Consumer(
        {
            "bootstrap.servers": b,
            "group.id": group,
            "group.protocol": protocol,
            "client.id": f"app-{protocol}",
            "auto.offset.reset": "earliest",
        }
    )
    stop = threading.Event()
    assigned = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            consumer.poll(0.2)
            if len(consumer.assignment()) == 2:
                assigned.set()

    consumer.subscribe([t])
    worker = threading.Thread(target=poll)
    worker.start()
    try:
        assert assigned.wait(60)
        kafka = _describe_members(b, group)
        while len(kafka) < 2:  # the coordinator may answer before the assignment is complete
            kafka = _describe_members(b, group)
        run = lag(lagging, "-g", group, "--members", "-o", "json")
        assert run.code == 0, run.stderr
        ours = {
            (r["topic"], r["partition"]): (r["consumer_id"], r["host"], r["client_id"]) for r in run.json()
        }
        assert ours == kafka
        assert {v[2] for v in ours.values()} == {f"app-{protocol}"}
        # the member epoch: a consumer group's member has one, as kafka-consumer-groups --members
        # --verbose shows it (CURRENT-EPOCH); a classic group's member none (null)
        epochs = {r["member_epoch"] for r in run.json()}
        assert epochs == ({_member_epoch(b, group)} if protocol == "consumer" else {None}), run.json()
        summary = lag(lagging, "-g", group, "--summary", "-o", "json")
        assert [(r["group"], r["group_type"], r["members"]) for r in summary.json()] == [(group, protocol, 1)]
        # the state as kafka-consumer-groups --describe --state shows it (Stable: stable)
        assert [(r["group_state"], r["members"]) for r in summary.json()] == [_describe_state(b, group)]
        # kafka-python's describe (ConsumerGroupDescribe, DescribeGroups) says what librdkafka's said
        missing, empty = f"mon-none-{uid()}", f"mon-empty-{uid()}"
        commit_group_offsets(b, empty, {(t, 0): 1})
        through_kafka_python, librdkafka = _both_routes(b, [group, empty, missing])
        assert through_kafka_python == librdkafka
        assert [(d.description.state, d.protocol) for d in through_kafka_python.values()] == [
            ("stable", protocol),
            ("empty", "classic"),
            ("dead", librdkafka[missing].protocol),  # no such group: Dead, as DescribeGroups v5 says
        ]
    finally:
        stop.set()
        worker.join()
        consumer.close()
