"""`kafka-offsets rewind` against a real broker, checked against Kafka's own kafka-consumer-groups."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

import pytest
from confluent_kafka import Consumer

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.errors import Refused
from kafka_offsets_cli.kafka import KafkaClient
from kafka_offsets_cli.models.groups import GroupDescription, GroupMembers
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.rewind.execute import build_plan, execute
from kafka_offsets_cli.rewind.plan import Target, TargetKind
from kafka_offsets_cli.sources import RewindSource
from tests.cli_runner import cli, subprocess_cli
from tests.kafka_helpers import consumer_groups

KEEP = {"retention.ms": "-1"}


@pytest.fixture(autouse=True)
def _undo_files_in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every --execute writes an undo plan under $XDG_STATE_HOME: keep them out of the user's home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


S = 1000
B = 1_790_000_000_000
#: p0: 10 records one second apart; p1: 4 records; p2: 3 records all before the p0 range ends
P0 = [B + i * S for i in range(10)]
P1 = [B + 2 * S, B + 4 * S, B + 6 * S, B + 8 * S]
P2 = [B, B + S, B + 2 * S]


@dataclass(frozen=True)
class Setup:
    topic: str
    group: str  # committed at the end of every partition


def uid() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="module")
def setup(bootstrap: str) -> Setup:
    topic = create_topic(bootstrap, f"rw-{uid()}", partitions=3, config=KEEP)
    produce(bootstrap, topic, [(0, ts, None, "a") for ts in P0])
    produce(bootstrap, topic, [(1, ts, None, "b") for ts in P1])
    produce(bootstrap, topic, [(2, ts, None, "c") for ts in P2])
    return Setup(topic, f"rw-g-{uid()}")


def fresh_group(bootstrap: str, setup: Setup) -> str:
    """A group committed at the end of every partition."""
    group = f"rw-g-{uid()}"
    commit_group_offsets(bootstrap, group, {(setup.topic, 0): 10, (setup.topic, 1): 4, (setup.topic, 2): 3})
    return group


def committed(bootstrap: str, group: str) -> dict[tuple[str, int], int | None]:
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as c:
        [res] = c.committed_offsets([group])
    return {(tp.topic, tp.partition): off for tp, off in res.offsets.items()}


def plan(*args: str) -> tuple[int, dict[int, dict[str, Any]], str]:
    r = cli("rewind", *args, "-o", "json")
    recs = r.json() if r.stdout else []
    return r.code, {x["partition"]: x for x in recs}, r.stderr


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]


def kafka_dry_run(bootstrap: str, *args: str) -> dict[tuple[str, int], int]:
    """kafka-consumer-groups --reset-offsets ... --dry-run: {(topic, partition): NEW-OFFSET}."""
    proc = consumer_groups(bootstrap, "--reset-offsets", *args, "--dry-run")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2].isdigit():
            out[(f[1], int(f[2]))] = int(f[3])
    return out


def test_dry_run_by_time_changes_nothing(bootstrap: str, setup: Setup) -> None:
    group = fresh_group(bootstrap, setup)
    target = B + 5 * S + 500  # between records
    code, rows, err = plan("-b", bootstrap, "-g", group, "--to", iso(target) + "Z")
    assert code == 0, err
    assert {p: (r["current"], r["target"], r["delta"], r["note"]) for p, r in rows.items()} == {
        0: (10, 6, -4, None),  # first record at or after B+5.5s is B+6s at offset 6
        1: (4, 2, -2, None),
        2: (3, 3, 0, "no-record-at-time"),  # nothing that late: the end offset, as Kafka's tool does
    }
    assert "no record at or after" in err and "Dry run: would commit 3 offset(s)" in err
    assert committed(bootstrap, group) == {(setup.topic, 0): 10, (setup.topic, 1): 4, (setup.topic, 2): 3}


def test_plan_matches_kafka_to_datetime(bootstrap: str, setup: Setup) -> None:
    group = fresh_group(bootstrap, setup)
    target = B + 3 * S
    _, rows, _ = plan("-b", bootstrap, "-g", group, "--to", iso(target) + "Z")
    kafka = kafka_dry_run(
        bootstrap, "--group", group, "--topic", setup.topic, "--to-datetime", iso(target) + "Z"
    )
    assert kafka == {(setup.topic, p): r["target"] for p, r in rows.items()}
    assert kafka == {(setup.topic, 0): 3, (setup.topic, 1): 1, (setup.topic, 2): 3}


def test_exported_csv_is_accepted_by_kafka_consumer_groups(
    bootstrap: str, setup: Setup, tmp_path: Path
) -> None:
    group = fresh_group(bootstrap, setup)
    csv_path = tmp_path / "plan.csv"
    code, rows, err = plan("-b", bootstrap, "-g", group, "--shift-by", "-3", "--export", str(csv_path))
    assert code == 0, err
    text = csv_path.read_text()
    assert text == f"{setup.topic},0,7\n{setup.topic},1,1\n{setup.topic},2,0\n"
    assert f"Plan written to {csv_path}" in " ".join(err.split())
    # the dry run says how to apply what it exported, not to plan again with --execute
    assert f"To commit this plan: --from-file {csv_path} --execute" in " ".join(err.split()), err
    assert "Add --execute" not in err
    kafka = kafka_dry_run(bootstrap, "--group", group, "--from-file", str(csv_path))
    assert kafka == {(setup.topic, p): r["target"] for p, r in rows.items()}
    assert committed(bootstrap, group)[(setup.topic, 0)] == 10  # dry runs on both sides


def test_execute_commits_and_verifies(bootstrap: str, setup: Setup) -> None:
    group = fresh_group(bootstrap, setup)
    r = cli("rewind", "-b", bootstrap, "-g", group, "--to", iso(B + 2 * S) + "Z", "--execute", "-o", "json")
    assert r.code == 0, r.stderr
    planned = {(setup.topic, x["partition"]): x["target"] for x in r.json()}
    assert planned == {(setup.topic, 0): 2, (setup.topic, 1): 0, (setup.topic, 2): 2}
    assert committed(bootstrap, group) == planned
    assert "Verified" in r.stderr
    assert kafka_dry_run(bootstrap, "--group", group, "--all-topics", "--to-current") == planned


def test_new_group_starts_ten_minutes_back(bootstrap: str) -> None:
    topic = create_topic(bootstrap, f"rw-new-{uid()}", partitions=1, config=KEEP)
    now = int(time.time() * 1000)
    produce(bootstrap, topic, [(0, now - m * 60 * S, None, "x") for m in (30, 20, 5, 0)])
    group = f"rw-new-{uid()}"
    r = cli("rewind", "-b", bootstrap, "-g", group, "-t", topic, "--to", "10m", "--execute", "-o", "json")
    assert r.code == 0, r.stderr
    assert [(x["current"], x["target"]) for x in r.json()] == [(None, 2)]
    assert committed(bootstrap, group) == {(topic, 0): 2}
    early = cli("rewind", "-b", bootstrap, "-g", group, "--to", "earliest", "-o", "json").json()
    late = cli("rewind", "-b", bootstrap, "-g", group, "--to", "latest", "-o", "json").json()
    assert (early[0]["target"], late[0]["target"]) == (0, 4)


@contextmanager
def member(bootstrap: str, topic: str, group: str, protocol: str = "classic") -> Iterator[None]:
    """A real consumer in ``group`` (``classic`` or KIP-848 ``consumer`` protocol), assigned ``topic``."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "group.protocol": protocol,
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


@pytest.fixture
def active_group(bootstrap: str, setup: Setup) -> Iterator[str]:
    group = fresh_group(bootstrap, setup)
    with member(bootstrap, setup.topic, group):
        yield group


def test_execute_is_refused_on_an_active_group(bootstrap: str, setup: Setup, active_group: str) -> None:
    before = committed(bootstrap, active_group)
    r = cli("rewind", "-b", bootstrap, "-g", active_group, "--to", "earliest", "--execute", "-o", "json")
    assert r.code == 6
    assert "1 active member(s)" in r.stderr and "nothing changed" in r.stderr
    assert [x["target"] for x in r.json()] == [0, 0, 0]  # the plan is still shown
    assert committed(bootstrap, active_group) == before
    sub = subprocess_cli(
        "rewind", "-b", bootstrap, "-g", active_group, "--to", "earliest", "--execute", "-o", "jsonl"
    )
    assert (
        sub.code == 6
        and len(sub.jsonl()) == 3
        and "kafka-offsets: error" in sub.stderr
        and "kafka-offsets" not in sub.stdout
    )
    assert committed(bootstrap, active_group) == before


class JoinedAfterTheCheck:
    """The real client, except that rewind's member check sees the group empty.

    This is the race made deterministic: a consumer joins between rewind's check and its
    commit, so the real broker (not a fake) rejects the real commit.
    """

    def __init__(self, client: KafkaClient) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        return {g: GroupMembers(GroupDescription(g, "empty", 0)) for g in groups}


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_a_consumer_joining_before_the_commit_is_a_refusal(
    bootstrap: str, setup: Setup, protocol: str
) -> None:
    group = fresh_group(bootstrap, setup)
    before = committed(bootstrap, group)
    with member(bootstrap, setup.topic, group, protocol):
        with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as client:
            plan = build_plan(client, group, Target(TargetKind.EARLIEST), None)
            assert len(plan.planned) == 3
            with pytest.raises(Refused) as refused:
                execute(cast(RewindSource, JoinedAfterTheCheck(client)), plan)
        # Apache Kafka answers an admin commit to a group with members UNKNOWN_MEMBER_ID
        # (classic and KIP-848 groups alike); the tool maps it to exit 6, "nothing changed"
        assert refused.value.exit_code == 6
        msg = str(refused.value)
        assert "became active before the commit (Kafka answered UNKNOWN_MEMBER_ID" in msg
        assert msg.endswith("nothing changed") and "\n" not in msg
        assert committed(bootstrap, group) == before


def test_export_of_an_incomplete_plan_names_what_it_leaves_out(
    bootstrap: str, setup: Setup, tmp_path: Path
) -> None:
    group = f"rw-part-{uid()}"
    commit_group_offsets(bootstrap, group, {(setup.topic, 0): 5, (setup.topic, 1): 1})
    csv_path = tmp_path / "plan.csv"
    args = ("-g", group, "-t", setup.topic, "--shift-by", "1", "--export", str(csv_path))
    r = cli("rewind", "-b", bootstrap, *args)
    assert r.code == 1  # a script notices: the plan file is not the whole reset
    assert csv_path.read_text() == f"{setup.topic},0,6\n{setup.topic},1,2\n"  # the planned rows
    err = " ".join(r.stderr.split())  # a long line may wrap on stderr
    assert "leaves out what could not be planned:" in err and f"{setup.topic}:2 (no-commit)" in err
    assert "holds only the 2 planned offset(s)" in err
    csv_path.unlink()
    r = cli("rewind", "-b", bootstrap, *args, "--execute")
    assert r.code == 6 and "nothing changed" in r.stderr and csv_path.exists()
    assert committed(bootstrap, group) == {(setup.topic, 0): 5, (setup.topic, 1): 1}


def test_shift_by_clamps_and_refuses_incomplete_plans(bootstrap: str, setup: Setup) -> None:
    group = f"rw-part-{uid()}"
    commit_group_offsets(bootstrap, group, {(setup.topic, 0): 5, (setup.topic, 1): 1})
    code, rows, _ = plan("-b", bootstrap, "-g", group, "--shift-by", "-3")
    assert code == 0
    assert {p: (r["target"], r["note"]) for p, r in rows.items()} == {
        0: (2, None),
        1: (0, "clamped-to-start"),
    }
    code, rows, _ = plan("-b", bootstrap, "-g", group, "--shift-by", "100")
    assert {p: (r["target"], r["note"]) for p, r in rows.items()} == {
        0: (10, "clamped-to-end"),
        1: (4, "clamped-to-end"),
    }
    # with the whole topic selected, partition 2 has no committed offset to shift
    code, rows, _ = plan("-b", bootstrap, "-g", group, "-t", setup.topic, "--shift-by", "1")
    assert code == 1 and rows[2]["note"] == "no-commit" and rows[2]["target"] is None
    r = cli(
        "rewind",
        "-b",
        bootstrap,
        "-g",
        group,
        "-t",
        setup.topic,
        "--shift-by",
        "1",
        "--execute",
        "-o",
        "json",
    )
    assert r.code == 6 and "could not be planned" in r.stderr
    assert committed(bootstrap, group) == {(setup.topic, 0): 5, (setup.topic, 1): 1}


def test_usage_errors(bootstrap: str, setup: Setup) -> None:
    base = ("rewind", "-b", bootstrap, "-g", setup.group)
    assert cli(*base).code == 2
    assert cli(*base, "--to", "earliest", "--shift-by", "1").code == 2
    assert cli(*base, "--to", "max-timestamp").code == 2
    assert cli(*base, "--to", "yesterday-ish").code == 2
    bare = cli(*base, "--to", "1790000000000")  # a bare number: an offset or a time? neither, say so
    assert bare.code == 2 and "--to-offset" in bare.stderr and "PT30M" in bare.stderr
    none = cli(*base, "--to", "earliest")  # the group has no committed offsets and no topic is named
    assert none.code == 5 and "--topic" in none.stderr


def test_missing_partition_is_an_error_row(bootstrap: str, setup: Setup) -> None:
    group = fresh_group(bootstrap, setup)
    code, rows, _ = plan(
        "-b",
        bootstrap,
        "-g",
        group,
        "--topic-partitions",
        f"{setup.topic}:0,{setup.topic}:7",
        "--to",
        "latest",
    )
    assert code == 1
    assert rows[0]["target"] == 10 and rows[7]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    assert TopicPartition(setup.topic, 7).partition == 7


def test_missing_topic_is_reported_and_refused(bootstrap: str, setup: Setup) -> None:
    group = fresh_group(bootstrap, setup)
    nope = f"rw-nope-{uid()}"
    code, rows, err = plan("-b", bootstrap, "-g", group, "-t", setup.topic, "-t", nope, "--to", "latest")
    assert code == 1 and sorted(rows) == [0, 1, 2]
    assert f"{nope}: UNKNOWN_TOPIC_OR_PARTITION" in err
    r = cli(
        "rewind", "-b", bootstrap, "-g", group, "-t", setup.topic, "-t", nope, "--to", "earliest", "--execute"
    )
    assert r.code == 6 and "nothing changed" in r.stderr
    assert committed(bootstrap, group)[(setup.topic, 0)] == 10
