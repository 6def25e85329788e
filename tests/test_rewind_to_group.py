"""`rewind -g TARGET --to-group SOURCE` against a real broker (kafkactl's clone, rpk's --to-group).

SOURCE's offsets are committed by a real consumer; after `--execute` the target's committed offsets,
as Kafka's own `kafka-consumer-groups --describe` shows them, are SOURCE's. A dry run changes nothing,
a partition SOURCE has no offset on keeps the target's, the undo file puts the target back, an
exported plan applies only while unmoved, a target with a member is refused, `-t` narrows the copy,
a source that does not exist is one line with the groups close to its name, and a share group
takes a consumer group's offsets as its start offsets (and gives its own to a consumer group).
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.errors import ExitCode
from tests.cli_runner import Run, cli
from tests.kafka_helpers import (
    CONSUMER_GROUP_COMMAND,
    SHARE_GROUP_COMMAND,
    delete_records,
    group_tool_table,
    read_as_share_group,
    reading,
)

Offsets = dict[tuple[str, int], int]


@pytest.fixture(autouse=True)
def _state_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def uid() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="module")
def topics(bootstrap: str) -> tuple[str, str]:
    """``a``: 2 partitions of 6 records each; ``b``: 1 partition of 6 records."""
    a = create_topic(bootstrap, f"rtg-a-{uid()}", partitions=2)
    b = create_topic(bootstrap, f"rtg-b-{uid()}", partitions=1)
    produce(bootstrap, a, [(p, None, None, "x") for p in (0, 1) for _ in range(6)])
    produce(bootstrap, b, [(0, None, None, "x") for _ in range(6)])
    return a, b


def group_at(bootstrap: str, offsets: Offsets) -> str:
    group = f"rtg-g-{uid()}"
    commit_group_offsets(bootstrap, group, offsets)
    return group


def kafka_says(bootstrap: str, group: str) -> Offsets:
    """The group's committed offsets as kafka-consumer-groups --describe prints them."""
    rows = group_tool_table(CONSUMER_GROUP_COMMAND, bootstrap, "--describe", "--group", group)
    offsets = {(r["TOPIC"], int(r["PARTITION"])): r["CURRENT-OFFSET"] for r in rows}
    return {tp: int(off) for tp, off in offsets.items() if off.isdigit()}


def rewind(bootstrap: str, *args: str) -> Run:
    return cli("rewind", "-b", bootstrap, *args)


def test_clone_into_a_new_group_gives_it_the_sources_offsets(bootstrap: str, topics: tuple[str, str]) -> None:
    a, b = topics
    source = group_at(bootstrap, {(a, 0): 4, (a, 1): 2, (b, 0): 5})
    target = f"rtg-new-{uid()}"
    r = rewind(bootstrap, "-g", target, "--to-group", source, "--execute")
    assert r.code == 0, r.stderr
    assert f"(the committed offsets of group '{source}')" in r.stderr
    assert "Verified: the groups' committed offsets equal the plan." in r.stderr
    assert kafka_says(bootstrap, target) == kafka_says(bootstrap, source) == {(a, 0): 4, (a, 1): 2, (b, 0): 5}


def test_dry_run_plans_the_copy_and_changes_nothing(bootstrap: str, topics: tuple[str, str]) -> None:
    a, b = topics
    source = group_at(bootstrap, {(a, 0): 4, (b, 0): 5})  # nothing on a:1
    target = group_at(bootstrap, {(a, 0): 1, (a, 1): 3, (b, 0): 6})
    r = rewind(bootstrap, "-g", target, "--to-group", source, "-o", "json")
    assert r.code == 0, r.stderr
    rows = [(x["topic"], x["partition"], x["current"], x["target"], x["note"]) for x in r.json()]
    assert rows == [(a, 0, 1, 4, None), (a, 1, 3, None, "no-source-offset"), (b, 0, 6, 5, None)]
    assert f"{a}:1: group '{source}' has no committed offset; left untouched" in r.stderr
    assert "Dry run: would commit 2 offset(s)" in r.stderr and "1 partition(s) untouched" in r.stderr
    assert kafka_says(bootstrap, target) == {(a, 0): 1, (a, 1): 3, (b, 0): 6}


def test_clone_into_an_existing_group_and_undo(
    bootstrap: str, topics: tuple[str, str], tmp_path: Path
) -> None:
    a, b = topics
    source = group_at(bootstrap, {(a, 0): 4, (b, 0): 5})
    before = {(a, 0): 1, (a, 1): 3, (b, 0): 6}
    target = group_at(bootstrap, before)
    undo = tmp_path / "undo.csv"
    r = rewind(bootstrap, "-g", target, "--to-group", source, "--execute", "--undo-file", str(undo))
    assert r.code == 0, r.stderr
    # a:1, where the source has no offset, keeps the target's
    assert kafka_says(bootstrap, target) == {(a, 0): 4, (a, 1): 3, (b, 0): 5}
    back = cli("rewind", "-b", bootstrap, "--from-file", str(undo), "--execute")
    assert back.code == 0, back.stderr
    assert kafka_says(bootstrap, target) == before


def test_topic_narrows_the_copy(bootstrap: str, topics: tuple[str, str]) -> None:
    a, b = topics
    source = group_at(bootstrap, {(a, 0): 4, (a, 1): 2, (b, 0): 5})
    target = group_at(bootstrap, {(a, 0): 0, (b, 0): 0})
    r = rewind(bootstrap, "-g", target, "--to-group", source, "-t", b, "--execute")
    assert r.code == 0, r.stderr
    assert kafka_says(bootstrap, target) == {(a, 0): 0, (b, 0): 5}


def test_an_exported_copy_applies_only_while_the_target_has_not_moved(
    bootstrap: str, topics: tuple[str, str], tmp_path: Path
) -> None:
    a, b = topics
    source = group_at(bootstrap, {(a, 0): 4, (b, 0): 5})
    target = group_at(bootstrap, {(a, 0): 1, (b, 0): 1})
    plan = tmp_path / "plan.csv"
    r = rewind(bootstrap, "-g", target, "--to-group", source, "--export", str(plan))
    assert r.code == 0 and f"--from-file {plan} --execute" in r.stderr, r.stderr
    commit_group_offsets(bootstrap, target, {(a, 0): 2})  # consumed since the plan
    moved = rewind(bootstrap, "--from-file", str(plan), "--execute")
    assert moved.code == ExitCode.REFUSED and "moved since" in moved.stderr, moved.stderr
    assert kafka_says(bootstrap, target) == {(a, 0): 2, (b, 0): 1}
    forced = rewind(bootstrap, "--from-file", str(plan), "--execute", "--force")
    assert forced.code == 0, forced.stderr
    assert kafka_says(bootstrap, target) == {(a, 0): 4, (b, 0): 5}


def test_a_target_with_a_member_is_refused(bootstrap: str, topics: tuple[str, str]) -> None:
    a, b = topics
    source = group_at(bootstrap, {(a, 0): 4, (b, 0): 5})
    target = group_at(bootstrap, {(a, 0): 1, (b, 0): 1})
    with reading(bootstrap, a, target):
        r = rewind(bootstrap, "-g", target, "--to-group", source, "--execute")
        assert r.code == ExitCode.REFUSED, r.stderr
        assert f"group '{target}' has 1 active member(s)" in r.stderr and "nothing changed" in r.stderr
    assert kafka_says(bootstrap, target) == {(a, 0): 1, (b, 0): 1}


def test_a_source_offset_below_the_log_start_is_clamped(bootstrap: str) -> None:
    c = create_topic(bootstrap, f"rtg-c-{uid()}", partitions=1)
    produce(bootstrap, c, [(0, None, None, "x") for _ in range(6)])
    source = group_at(bootstrap, {(c, 0): 1})
    delete_records(bootstrap, {(c, 0): 3})
    target = f"rtg-new-{uid()}"
    r = rewind(bootstrap, "-g", target, "--to-group", source, "-o", "json")
    assert r.code == 0, r.stderr
    assert [(x["target"], x["log_start"], x["note"]) for x in r.json()] == [(3, 3, "clamped-to-start")]


def test_a_source_that_does_not_exist_is_one_line(bootstrap: str, topics: tuple[str, str]) -> None:
    a, _ = topics
    source = group_at(bootstrap, {(a, 0): 4})
    typo = source[:-1] + ("x" if source[-1] != "x" else "y")
    r = rewind(bootstrap, "-g", f"rtg-new-{uid()}", "--to-group", typo)
    assert r.code == ExitCode.NOT_FOUND, r.stderr
    assert f"--to-group '{typo}': no such group (did you mean '{source}'?)" in r.stderr
    same = rewind(bootstrap, "-g", source, "--to-group", source)
    assert same.code == ExitCode.USAGE and "is the group being reset" in same.stderr, same.stderr


def start_offsets(bootstrap: str, group: str) -> Offsets:
    """kafka-share-groups --describe: {(topic, partition): START-OFFSET}."""
    rows = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group)
    return {
        (r["TOPIC"], int(r["PARTITION"])): int(r["START-OFFSET"]) for r in rows if r["START-OFFSET"] != "-"
    }


def test_a_share_group_takes_and_gives_start_offsets(bootstrap: str) -> None:
    t = create_topic(bootstrap, f"rtg-s-{uid()}", partitions=2)
    produce(bootstrap, t, [(p, None, None, "x") for p in (0, 1) for _ in range(6)])
    share = f"rtg-sg-{uid()}"
    read_as_share_group(bootstrap, t, share, 3)  # a share group that read and stopped (Empty)
    source = group_at(bootstrap, {(t, 0): 4, (t, 1): 2})
    r = rewind(bootstrap, "-g", share, "--to-group", source, "--execute")
    assert r.code == 0, r.stderr
    assert start_offsets(bootstrap, share) == kafka_says(bootstrap, source) == {(t, 0): 4, (t, 1): 2}
    copy = f"rtg-new-{uid()}"
    back = rewind(bootstrap, "-g", copy, "--to-group", share, "--execute")
    assert back.code == 0, back.stderr
    assert kafka_says(bootstrap, copy) == start_offsets(bootstrap, share)
