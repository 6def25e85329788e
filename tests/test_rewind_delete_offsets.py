"""`rewind --delete-offsets` against a real broker, beside Kafka's `kafka-consumer-groups --delete-offsets`.

Two groups with the same committed offsets: one has its offsets deleted by Kafka's tool, the other by
`kafka-offsets rewind` given the same words (the program name swapped, `--execute` added: ours is a
dry run until then); both groups then have the same committed offsets. A dry run changes nothing, a
group whose member reads the topic keeps its offsets (GROUP_SUBSCRIBED_TO_TOPIC, exit 6, for both
tools), the undo file puts the deleted offsets back, an exported plan applies only while unmoved.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from tests.cli_runner import cli
from tests.kafka_helpers import consumer_groups, reading

Offsets = dict[tuple[str, int], int | None]


@pytest.fixture(autouse=True)
def _state_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def uid() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="module")
def topics(bootstrap: str) -> tuple[str, str]:
    """``a``: 2 partitions of 6 records each; ``b``: 1 partition of 6 records."""
    a = create_topic(bootstrap, f"rwd-a-{uid()}", partitions=2)
    b = create_topic(bootstrap, f"rwd-b-{uid()}", partitions=1)
    produce(bootstrap, a, [(p, None, None, "x") for p in (0, 1) for _ in range(6)])
    produce(bootstrap, b, [(0, None, None, "x") for _ in range(6)])
    return a, b


def start(topics: tuple[str, str]) -> dict[tuple[str, int], int]:
    a, b = topics
    return {(a, 0): 4, (a, 1): 2, (b, 0): 5}


def group_at(bootstrap: str, offsets: dict[tuple[str, int], int]) -> str:
    group = f"rwd-g-{uid()}"
    commit_group_offsets(bootstrap, group, offsets)
    return group


def committed(bootstrap: str, group: str) -> Offsets:
    with KafkaClient(build_settings(bootstrap, timeout_ms=20_000)) as c:
        [res] = c.committed_offsets([group])
    return {(tp.topic, tp.partition): off for tp, off in res.offsets.items() if off is not None}


@pytest.mark.parametrize("which", ["{a}", "{a}:1", "{b}"])
def test_deletes_what_kafka_consumer_groups_deletes(
    bootstrap: str, topics: tuple[str, str], which: str
) -> None:
    a, b = topics
    theirs, ours = group_at(bootstrap, start(topics)), group_at(bootstrap, start(topics))
    chosen = which.format(a=a, b=b)
    kafka = consumer_groups(bootstrap, "--delete-offsets", "--group", theirs, "--topic", chosen)
    assert kafka.returncode == 0 and "Error" not in kafka.stdout, kafka.stdout + kafka.stderr
    r = cli(
        "rewind",
        "--bootstrap-server",
        bootstrap,
        "--delete-offsets",
        "--group",
        ours,
        "--topic",
        chosen,
        "--execute",
    )
    assert r.code == 0, r.stderr
    assert "Verified: the deleted offsets are gone." in r.stderr
    kept = {
        tp: off for tp, off in start(topics).items() if not (tp[0] == chosen or f"{tp[0]}:{tp[1]}" == chosen)
    }
    assert committed(bootstrap, theirs) == kept != start(topics)
    assert committed(bootstrap, ours) == kept


def test_dry_run_shows_the_plan_and_changes_nothing(bootstrap: str, topics: tuple[str, str]) -> None:
    a, _ = topics
    group = group_at(bootstrap, start(topics))
    r = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", group, "--topic", a, "-o", "json")
    assert r.code == 0, r.stderr
    rows = [(x["topic"], x["partition"], x["current"], x["target"], x["note"]) for x in r.json()]
    assert rows == [(a, 0, 4, None, "delete"), (a, 1, 2, None, "delete")]
    assert "Dry run: would delete 2 committed offset(s)" in r.stderr
    table = cli(
        "rewind",
        "-b",
        bootstrap,
        "--delete-offsets",
        "-g",
        group,
        "--topic",
        a,
        "-o",
        "table",
        "--columns",
        "topic,current,target",
    )
    assert table.code == 0 and table.stdout.count("deleted") == 2, table.stdout
    assert committed(bootstrap, group) == start(topics)


def test_undo_file_commits_the_deleted_offsets_again(
    bootstrap: str, topics: tuple[str, str], tmp_path: Path
) -> None:
    a, b = topics
    group = group_at(bootstrap, start(topics))
    undo = tmp_path / "undo.csv"
    r = cli(
        "rewind",
        "-b",
        bootstrap,
        "--delete-offsets",
        "-g",
        group,
        "-t",
        a,
        "-t",
        b,
        "--execute",
        "--undo-file",
        str(undo),
    )
    assert r.code == 0, r.stderr
    assert committed(bootstrap, group) == {}
    back = cli("rewind", "-b", bootstrap, "--from-file", str(undo), "--execute")
    assert back.code == 0, back.stderr
    assert committed(bootstrap, group) == start(topics)


def test_an_exported_plan_applies_only_while_the_offsets_have_not_moved(
    bootstrap: str, topics: tuple[str, str], tmp_path: Path
) -> None:
    a, b = topics
    group = group_at(bootstrap, start(topics))
    plan = tmp_path / "plan.csv"
    r = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", group, "-t", a, "--export", str(plan))
    assert r.code == 0 and f"--from-file {plan} --delete-offsets --execute" in r.stderr, r.stderr
    commit_group_offsets(bootstrap, group, {(a, 0): 5})  # consumed since the plan
    moved = cli("rewind", "-b", bootstrap, "--from-file", str(plan), "--delete-offsets", "--execute")
    assert moved.code == 6 and "moved since" in moved.stderr, moved.stderr
    assert committed(bootstrap, group) == {**start(topics), (a, 0): 5}
    forced = cli(
        "rewind", "-b", bootstrap, "--from-file", str(plan), "--delete-offsets", "--execute", "--force"
    )
    assert forced.code == 0, forced.stderr
    assert committed(bootstrap, group) == {(b, 0): 5}


def test_a_topic_the_groups_member_reads_keeps_its_offsets(bootstrap: str, topics: tuple[str, str]) -> None:
    a, b = topics
    theirs, ours = group_at(bootstrap, start(topics)), group_at(bootstrap, start(topics))
    with reading(bootstrap, a, theirs), reading(bootstrap, a, ours):
        kafka = consumer_groups(bootstrap, "--delete-offsets", "--group", theirs, "--topic", a)
        assert "Error" in kafka.stdout + kafka.stderr, kafka.stdout + kafka.stderr
        dry = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", ours, "-t", a)
        assert dry.code == 0 and f"topic {a}: group '{ours}' has 1 active member(s)" in dry.stderr, dry.stderr
        r = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", ours, "-t", a, "--execute")
        assert r.code == 6, r.stderr
        assert (
            f"topic {a}: group '{ours}' has members subscribed to it (GROUP_SUBSCRIBED_TO_TOPIC)" in r.stderr
        )
        assert "nothing changed" in r.stderr
        assert committed(bootstrap, theirs) == committed(bootstrap, ours) == start(topics)
        # a topic no member reads goes, as with Kafka's tool, while the group runs
        other = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", ours, "-t", b, "--execute")
        assert other.code == 0, other.stderr
        kafka = consumer_groups(bootstrap, "--delete-offsets", "--group", theirs, "--topic", b)
        assert kafka.returncode == 0 and "Error" not in kafka.stdout, kafka.stdout + kafka.stderr
        assert committed(bootstrap, theirs) == committed(bootstrap, ours) == {(a, 0): 4, (a, 1): 2}
