"""`rewind` plans as change tickets, against a real broker, with kafka-consumer-groups as the oracle.

Every reset mode gives the offsets Kafka's own `--reset-offsets --dry-run --export` gives on the
same data (clamping included); an exported plan is applied exactly (and refused when the group
moved since); every --execute leaves an undo plan that rolls it back; groups with members are
explained (classic and KIP-848 consumers).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest
from confluent_kafka import Consumer

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from tests.cli_runner import Run, cli
from tests.kafka_helpers import consumer_groups, delete_records

KEEP = {"retention.ms": "-1"}
S = 1000
B = 1_790_000_000_000


@pytest.fixture(autouse=True)
def _state_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Undo plans go under $XDG_STATE_HOME: a temporary one per test."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def uid() -> str:
    return uuid.uuid4().hex[:8]


@dataclass(frozen=True)
class Data:
    """p0: offsets 0-9 one second apart, 0-2 deleted (log start 3); p1: offsets 0-3; p2: empty."""

    topic: str


@pytest.fixture(scope="module")
def data(bootstrap: str) -> Data:
    topic = create_topic(bootstrap, f"rwp-{uid()}", partitions=3, config=KEEP)
    produce(bootstrap, topic, [(0, B + i * S, None, "a") for i in range(10)])
    produce(bootstrap, topic, [(1, B + 2 * i * S, None, "b") for i in range(4)])
    delete_records(bootstrap, {(topic, 0): 3})
    return Data(topic)


def group_at(bootstrap: str, offsets: dict[tuple[str, int], int]) -> str:
    group = f"rwp-g-{uid()}"
    commit_group_offsets(bootstrap, group, offsets)
    return group


def committed(bootstrap: str, group: str) -> dict[tuple[str, int], int | None]:
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as c:
        [res] = c.committed_offsets([group])
    return {(tp.topic, tp.partition): off for tp, off in res.offsets.items()}


_CSV = re.compile(r"^[^\s,]+(,[^\s,]+){2,3}$")


def kafka_export(bootstrap: str, *args: str) -> set[str]:
    """kafka-consumer-groups --reset-offsets ARGS --dry-run --export: the CSV lines it prints."""
    proc = consumer_groups(bootstrap, "--reset-offsets", *args, "--dry-run", "--export")
    assert proc.returncode == 0 and "Error" not in proc.stdout, proc.stdout + proc.stderr
    return {line for line in proc.stdout.splitlines() if _CSV.match(line)}


def our_export(bootstrap: str, tmp_path: Path, *args: str) -> tuple[set[str], Run]:
    path = tmp_path / f"plan-{uid()}.csv"
    r = cli("rewind", "-b", bootstrap, *args, "--export", str(path), "-o", "json")
    assert r.code == 0, r.stderr
    return set(path.read_text().splitlines()), r


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]


@pytest.mark.parametrize(
    ("ours", "kafkas"),
    [
        (("--to-offset", "1"), ("--to-offset", "1")),  # p0 clamped up to its log start 3
        (("--to-offset", "7"), ("--to-offset", "7")),  # p1 clamped down to its end 4
        (("--to-current",), ("--to-current",)),  # p2 has no committed offset: its end
        (("--shift-by", "-4"), ("--shift-by", "-4")),
        (("--shift-by", "3"), ("--shift-by", "3")),
        (("--to", "earliest"), ("--to-earliest",)),
        (("--to", "latest"), ("--to-latest",)),
        (("--to", iso(B + 5 * S) + "Z"), ("--to-datetime", iso(B + 5 * S) + "Z")),
        (("--to", "PT1H"), ("--by-duration", "PT1H")),  # every record is older: the end offsets
    ],
)
def test_every_mode_matches_kafka_consumer_groups(
    bootstrap: str, data: Data, tmp_path: Path, ours: tuple[str, ...], kafkas: tuple[str, ...]
) -> None:
    t = data.topic
    g1 = group_at(bootstrap, {(t, 0): 6, (t, 1): 2})
    g2 = group_at(bootstrap, {(t, 0): 9, (t, 1): 1})
    # --shift-by: the groups' own partitions (Kafka's --all-topics, ours without a selection);
    # the others: the whole topic, with p2 that no group has committed
    scope: tuple[str, ...] = ("--all-topics",) if "--shift-by" in ours else ("--topic", t)
    mine: tuple[str, ...] = () if "--shift-by" in ours else ("--topic", t)
    lines, _ = our_export(bootstrap, tmp_path, "-g", g1, "-g", g2, *mine, *ours)
    assert lines == kafka_export(bootstrap, "--group", g1, "--group", g2, *scope, *kafkas)
    assert all(line.startswith((g1, g2)) for line in lines)  # several groups: Kafka's four columns
    single, _ = our_export(bootstrap, tmp_path, "-g", g1, *mine, *ours)
    assert single == kafka_export(bootstrap, "--group", g1, *scope, *kafkas)


def test_relative_time_is_resolved_once_and_printed(bootstrap: str, data: Data) -> None:
    g = group_at(bootstrap, {(data.topic, 1): 2})
    r = cli("rewind", "-b", bootstrap, "-g", g, "--to", "30m ago")
    assert r.code == 0, r.stderr
    m = re.search(r"--to '30m ago' = (\S+Z) \(resolved once", r.stderr)
    assert m is not None, r.stderr
    assert f"at or after {m.group(1)}" in " ".join(r.stderr.split())  # the plan used that instant


def test_a_time_after_now_is_refused_unless_allowed(bootstrap: str, data: Data) -> None:
    """No record is at or after a future time: every partition would silently go to its end."""
    t = data.topic
    g = group_at(bootstrap, {(t, 0): 5, (t, 1): 2})
    for to in ("2999-01-01", "now+1d"):
        r = cli("rewind", "-b", bootstrap, "-g", g, "--to", to, "--execute")
        assert r.code == 2, r.stderr
        assert "after now" in r.stderr and "--allow-future" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert committed(bootstrap, g) == {(t, 0): 5, (t, 1): 2}
    r = cli("rewind", "-b", bootstrap, "-g", g, "--to", "now+1d", "--allow-future", "-o", "json")
    assert r.code == 0, r.stderr
    assert {(x["partition"], x["target"]) for x in r.json()} == {(0, 10), (1, 4)}  # the ends
    assert "after now" in " ".join(r.stderr.split())
    # list answers a future time as GetOffsetShell does (no offset), and says it is after now
    r = cli("list", "-b", bootstrap, "-t", t, "-s", "now+1d", "-o", "json")
    assert r.code == 0, r.stderr
    assert "after now" in " ".join(r.stderr.split())


def test_plan_apply_refuse_force_and_undo(
    bootstrap: str, data: Data, tmp_path: Path, _state_home: Path
) -> None:
    t = data.topic
    g1 = group_at(bootstrap, {(t, 0): 9, (t, 1): 4})
    g2 = group_at(bootstrap, {(t, 0): 5})
    plan = tmp_path / "ticket.csv"
    r = cli("rewind", "-b", bootstrap, "-g", g1, "-g", g2, "--to-offset", "4", "--export", str(plan))
    assert r.code == 0, r.stderr
    assert (tmp_path / "ticket.csv.seen").exists()
    # Kafka's tool reads the plan as it is (a multi-group file, with one --group too)
    assert kafka_export(bootstrap, "--group", g1, "--from-file", str(plan)) == {f"{t},0,4", f"{t},1,4"}

    # the group moves after the plan was approved: applying it is refused, nothing changes
    commit_group_offsets(bootstrap, g1, {(t, 0): 8})
    r = cli("rewind", "-b", bootstrap, "--from-file", str(plan), "--execute")
    assert r.code == 6, r.stderr
    err = " ".join(r.stderr.split())
    assert f"{g1} {t}:0: 9 when planned, now 8" in err and "nothing changed" in err and "--force" in err
    assert committed(bootstrap, g1) == {(t, 0): 8, (t, 1): 4}
    dry = cli("rewind", "-b", bootstrap, "--from-file", str(plan))
    assert dry.code == 0 and "--execute would be refused" in dry.stderr

    # --force applies exactly the plan, and leaves an undo plan that puts the offsets back
    r = cli("rewind", "-b", bootstrap, "--from-file", str(plan), "--execute", "--force", "-o", "json")
    assert r.code == 0, r.stderr
    assert committed(bootstrap, g1) == {(t, 0): 4, (t, 1): 4} and committed(bootstrap, g2) == {(t, 0): 4}
    m = re.search(r"Undo plan written to (\S+\.csv);", " ".join(r.stderr.split()))
    assert m is not None, r.stderr
    undo = Path(m.group(1))
    assert undo.parent == _state_home / "kafka-offsets"
    assert set(undo.read_text().splitlines()) == {f"{g1},{t},0,8", f"{g1},{t},1,4", f"{g2},{t},0,5"}
    # Kafka's tool reads the undo plan too
    assert kafka_export(bootstrap, "--group", g2, "--from-file", str(undo)) == {f"{t},0,5"}
    r = cli("rewind", "-b", bootstrap, "--from-file", str(undo), "--execute")
    assert r.code == 0, r.stderr
    assert committed(bootstrap, g1) == {(t, 0): 8, (t, 1): 4} and committed(bootstrap, g2) == {(t, 0): 5}


def test_from_file_clamps_like_kafka_and_reads_single_group_files(
    bootstrap: str, data: Data, tmp_path: Path
) -> None:
    t = data.topic
    g = group_at(bootstrap, {(t, 0): 9})
    plan = tmp_path / "hand.csv"
    plan.write_text(f"{t},0,1\n{t},1,99\n")  # below the log start, beyond the end
    ours, r = our_export(bootstrap, tmp_path, "-g", g, "--from-file", str(plan))
    assert ours == kafka_export(bootstrap, "--group", g, "--from-file", str(plan)) == {f"{t},0,3", f"{t},1,4"}
    assert f"{plan}.seen not found" in " ".join(r.stderr.split())  # no record: said, not refused
    assert cli("rewind", "-b", bootstrap, "--from-file", str(plan)).code == 2  # whose plan? name -g
    other = cli("rewind", "-b", bootstrap, "-g", g, "-g", "nope", "--from-file", str(plan))
    assert other.code == 2


@contextmanager
def member(bootstrap: str, topic: str, group: str, protocol: str, client_id: str) -> Iterator[None]:
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "group.protocol": protocol,
            "client.id": client_id,
            "enable.auto.commit": False,
        }
    )
    c.subscribe([topic])
    deadline = time.monotonic() + 60
    while not c.assignment() and time.monotonic() < deadline:
        c.poll(0.2)
    assert c.assignment(), "the consumer did not join"
    try:
        yield
    finally:
        c.close()


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_active_members_are_named_with_how_long_they_stay(bootstrap: str, data: Data, protocol: str) -> None:
    t = data.topic
    g = group_at(bootstrap, {(t, 0): 9, (t, 1): 4})
    cid = f"billing-worker-{uid()}"
    with member(bootstrap, t, g, protocol, cid):
        dry = cli("rewind", "-b", bootstrap, "-g", g, "--to", "earliest")
        refused = cli("rewind", "-b", bootstrap, "-g", g, "--to", "earliest", "--execute")
    dry_err = " ".join(dry.stderr.split())
    assert dry.code == 0 and f"client id {cid!r}" in dry_err and "--execute would be refused" in dry_err
    assert f"{protocol} protocol" in dry_err
    err = " ".join(refused.stderr.split())
    assert refused.code == 6 and f"client id {cid!r}" in err and "nothing changed" in err
    assert "stop the group's consumers" in err
    if protocol == "consumer":
        assert "45s (the group's consumer.session.timeout.ms)" in err  # read from the broker
    else:
        assert "session.timeout.ms (45s by default)" in err
    assert committed(bootstrap, g) == {(t, 0): 9, (t, 1): 4}


def test_groups_by_regex_and_all_groups(bootstrap: str, data: Data) -> None:
    t = data.topic
    tag = uid()
    g1 = f"rx-{tag}-a"
    g2 = f"rx-{tag}-b"
    for g in (g1, g2):
        commit_group_offsets(bootstrap, g, {(t, 1): 1})
    r = cli("rewind", "-b", bootstrap, "--group-regex", f"rx-{tag}-.*", "--to", "latest", "-o", "json")
    assert r.code == 0, r.stderr
    assert {(x["group"], x["target"]) for x in r.json()} == {(g1, 4), (g2, 4)}
    everything = cli("rewind", "-b", bootstrap, "--all-groups", "--to-current", "-o", "json")
    assert {g1, g2} <= {x["group"] for x in everything.json()}
    listed = consumer_groups(bootstrap, "--list").stdout.split()
    assert {x["group"] for x in everything.json()} <= set(listed)


def test_one_group_plan_applies_without_naming_the_group(bootstrap: str, data: Data, tmp_path: Path) -> None:
    t = data.topic
    g = group_at(bootstrap, {(t, 0): 9, (t, 1): 4})
    plan = tmp_path / "one.csv"
    r = cli("rewind", "-b", bootstrap, "-g", g, "--to-offset", "5", "--export", str(plan))
    assert r.code == 0, r.stderr
    assert plan.read_text() == f"{t},0,5\n{t},1,4\n"  # Kafka's one-group format; the group is in .seen
    r = cli("rewind", "-b", bootstrap, "--from-file", str(plan), "--execute")
    assert r.code == 0, r.stderr
    assert committed(bootstrap, g) == {(t, 0): 5, (t, 1): 4}


def test_no_undo_plan_no_commit(bootstrap: str, data: Data, tmp_path: Path) -> None:
    t = data.topic
    g = group_at(bootstrap, {(t, 0): 9})
    args = ("rewind", "-b", bootstrap, "-g", g, "--to", "earliest", "--execute")
    r = cli(*args, "--undo-file", str(tmp_path / "no-such-dir" / "undo.csv"))
    assert r.code == 6 and "cannot write the undo plan" in r.stderr and "nothing changed" in r.stderr
    assert committed(bootstrap, g) == {(t, 0): 9}
    chosen = tmp_path / "undo.csv"
    r = cli(*args, "--undo-file", str(chosen))
    assert r.code == 0, r.stderr
    assert chosen.read_text() == f"{g},{t},0,9\n" and committed(bootstrap, g) == {(t, 0): 3}


def test_a_duration_back_lands_where_kafkas_by_duration_does(bootstrap: str, tmp_path: Path) -> None:
    topic = create_topic(bootstrap, f"rwp-now-{uid()}", partitions=1, config=KEEP)
    now = int(time.time() * 1000)
    hour = 3600 * S
    produce(bootstrap, topic, [(0, now - h * hour, None, "x") for h in (3, 2, 1, 0)])
    g = group_at(bootstrap, {(topic, 0): 4})
    # 2.5 hours back falls between the records of 3 and 2 hours ago (half an hour either side)
    ours, r = our_export(bootstrap, tmp_path, "-g", g, "-t", topic, "--to", "PT2H30M")
    assert ours == kafka_export(bootstrap, "--group", g, "--topic", topic, "--by-duration", "PT2H30M")
    assert ours == {f"{topic},0,1"}
    assert "--to 'PT2H30M' = " in r.stderr
    relative, _ = our_export(bootstrap, tmp_path, "-g", g, "-t", topic, "--to", "150m ago")
    assert relative == ours


KILLED_CONSUMER = """
import sys, time
from confluent_kafka import Consumer
bootstrap, group, topic, protocol, client_id = sys.argv[1:6]
c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol,
              "client.id": client_id, "enable.auto.commit": False})
c.subscribe([topic])
while not c.assignment():
    c.poll(0.2)
print("joined", flush=True)
while True:
    c.poll(0.2)
"""


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_a_killed_consumer_blocks_until_its_session_times_out(
    bootstrap: str, data: Data, protocol: str
) -> None:
    """The issue's case: the consumers are stopped (killed), yet the group still has the member."""
    t = data.topic
    g = group_at(bootstrap, {(t, 1): 4})
    cid = f"killed-{uid()}"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_CONSUMER, bootstrap, g, t, protocol, cid],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "joined"
    finally:
        proc.kill()
        proc.wait(30)
    r = cli("rewind", "-b", bootstrap, "-g", g, "--to", "earliest", "--execute")
    err = " ".join(r.stderr.split())
    assert r.code == 6 and f"client id {cid!r}" in err and "nothing changed" in err
    assert "one that crashed, was killed or is a static member is dropped by the broker" in err
    assert committed(bootstrap, g) == {(t, 1): 4}
