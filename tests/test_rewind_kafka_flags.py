"""Kafka's own `--reset-offsets` command lines run as `rewind`, against a real broker.

Each command line is given word for word to kafka-consumer-groups (with `--dry-run --export`)
and to `kafka-offsets rewind` (the program name swapped): both print the same plan (group, topic,
partition, new offset) as CSV on stdout, and `--execute` commits the same offsets.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from tests.cli_runner import cli
from tests.kafka_helpers import consumer_groups, delete_records

S = 1000
B = 1_790_000_000_000
_CSV = re.compile(r"^[^\s,{]+(,[^\s,]+){2,3}$")


@pytest.fixture(autouse=True)
def _state_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def uid() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="module")
def topic(bootstrap: str) -> str:
    """p0: offsets 0-9 one second apart, 0-2 deleted (log start 3); p1: offsets 0-3; p2: empty."""
    t = create_topic(bootstrap, f"rwk-{uid()}", partitions=3, config={"retention.ms": "-1"})
    produce(bootstrap, t, [(0, B + i * S, None, "a") for i in range(10)])
    produce(bootstrap, t, [(1, B + 2 * i * S, None, "b") for i in range(4)])
    delete_records(bootstrap, {(t, 0): 3})
    return t


def group_at(bootstrap: str, offsets: dict[tuple[str, int], int]) -> str:
    group = f"rwk-g-{uid()}"
    commit_group_offsets(bootstrap, group, offsets)
    return group


def committed(bootstrap: str, group: str) -> dict[tuple[str, int], int | None]:
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as c:
        [res] = c.committed_offsets([group])
    return {(tp.topic, tp.partition): off for tp, off in res.offsets.items()}


def csv_lines(stdout: str) -> set[str]:
    return {line for line in stdout.splitlines() if _CSV.match(line)}


def both(bootstrap: str, words: Sequence[str]) -> tuple[set[str], set[str], str]:
    """The CSV plans kafka-consumer-groups and `rewind` print for ``words``, and ours' stdout."""
    kafka = consumer_groups(bootstrap, *words)
    assert kafka.returncode == 0 and "Error" not in kafka.stdout, kafka.stdout + kafka.stderr
    ours = cli("rewind", "--bootstrap-server", bootstrap, *words)
    assert ours.code == 0, ours.stderr
    return csv_lines(kafka.stdout), csv_lines(ours.stdout), ours.stdout


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]


@pytest.mark.parametrize(
    "flags",
    [
        ("--topic", "{t}", "--to-earliest"),
        ("--topic", "{t}", "--to-latest"),
        ("--topic", "{t}", "--to-datetime", iso(B + 5 * S) + "Z"),
        ("--topic", "{t}", "--to-datetime", iso(B + 4 * S + 500) + "+00:00"),
        ("--topic", "{t}", "--to-datetime", iso(B + 6 * S) + "+01:00"),  # an hour before: p0's start
        ("--topic", "{t}", "--by-duration", "PT1H"),  # every record is older: the ends
        ("--topic", "{t}", "--by-duration", "P3650D"),  # every record is newer: the starts
        ("--topic", "{t}", "--to-offset", "1"),  # p0 clamped up to its log start 3
        ("--topic", "{t}", "--to-offset", "7"),  # p1 clamped down to its end 4
        ("--topic", "{t}", "--to-current"),  # p2 has no committed offset: its end
        ("--all-topics", "--shift-by", "-4"),
        ("--all-topics", "--shift-by", "3"),
        ("--topic", "{t}:0,2", "--to-earliest"),  # Kafka's TOPIC:PARTITIONS
        ("--topic", "{t}:1", "--topic", "{t}:0", "--to-offset", "5"),
    ],
)
def test_kafka_reset_flags_give_kafkas_plan(bootstrap: str, topic: str, flags: tuple[str, ...]) -> None:
    g1 = group_at(bootstrap, {(topic, 0): 6, (topic, 1): 2})
    g2 = group_at(bootstrap, {(topic, 0): 9, (topic, 1): 1})
    words = [w.format(t=topic) for w in flags]
    for groups in (["--group", g1], ["--group", g1, "--group", g2]):
        line = ["--reset-offsets", *groups, *words, "--dry-run", "--export"]
        kafka, ours, stdout = both(bootstrap, line)
        assert kafka, stdout
        assert ours == kafka
        assert set(stdout.splitlines()) == ours  # --export: stdout is the CSV alone, as Kafka's


def test_kafka_from_file_and_export_order_free(bootstrap: str, topic: str, tmp_path: Path) -> None:
    g = group_at(bootstrap, {(topic, 0): 9})
    plan = tmp_path / "plan.csv"
    plan.write_text(f"{topic},0,1\n{topic},1,2\n")  # p0 clamped up to its log start
    words = ["--export", "--group", g, "--reset-offsets", "--from-file", str(plan), "--dry-run"]
    kafka, ours, _ = both(bootstrap, words)
    assert ours == kafka == {f"{topic},0,3", f"{topic},1,2"}


def test_kafka_execute_commits_what_kafkas_commits(bootstrap: str, topic: str) -> None:
    twin = {(topic, 0): 8, (topic, 1): 3}
    theirs, mine = group_at(bootstrap, twin), group_at(bootstrap, twin)
    words = ["--reset-offsets", "--topic", f"{topic}:0", "--to-datetime", iso(B + 5 * S) + "Z", "--execute"]
    kafka = consumer_groups(bootstrap, "--group", theirs, *words)
    assert kafka.returncode == 0, kafka.stdout + kafka.stderr
    ours = cli("rewind", "--bootstrap-server", bootstrap, "--group", mine, *words)
    assert ours.code == 0, ours.stderr
    assert committed(bootstrap, mine) == committed(bootstrap, theirs) == {(topic, 0): 5, (topic, 1): 3}


def test_two_targets_and_dry_run_with_execute_are_refused(bootstrap: str, topic: str) -> None:
    g = group_at(bootstrap, {(topic, 0): 6})
    for words, said in (
        (["--to-earliest", "--to-latest"], "--to-earliest and --to-latest are both a reset target"),
        (["--to-earliest", "--to-offset", "3"], "--to-earliest and --to-offset are both a reset target"),
        (["--to-latest", "--dry-run", "--execute"], "--dry-run and --execute: give one"),
    ):
        r = cli("rewind", "--bootstrap-server", bootstrap, "--reset-offsets", "--group", g, *words)
        assert r.code == 2, r.stderr
        assert said in r.stderr and r.stderr.count("error:") == 1, r.stderr
    assert committed(bootstrap, g) == {(topic, 0): 6}
