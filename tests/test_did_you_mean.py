"""A topic or group that does not exist is named with the cluster's close names, and never passes in
silence: every command says it on stderr, also off a terminal and with a machine format."""

from __future__ import annotations

import uuid

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.cli_runner import cli

pytestmark = pytest.mark.broker


@pytest.fixture(scope="module")
def names(bootstrap: str) -> dict[str, str]:
    tag = uuid.uuid4().hex[:6]
    topic, group = f"dym-orders-{tag}", f"dym-billing-{tag}"
    create_topic(bootstrap, topic, 2)
    produce(bootstrap, topic, [(0, None, None, f"v{i}") for i in range(3)])
    commit_group_offsets(bootstrap, group, {(topic, 0): 1})
    return {"topic": topic, "typo": topic.replace("orders", "ordrs"), "group": group, "gtypo": group[:-1]}


def test_a_mistyped_topic_gets_its_close_name_in_list_lag_and_rewind(
    bootstrap: str, names: dict[str, str]
) -> None:
    topic, typo = names["topic"], names["typo"]
    hint = f"(did you mean {topic!r}?)"
    listed = cli("list", "-b", bootstrap, "-t", typo)
    assert listed.code == 1 and f"{typo} {hint}" in listed.stderr, listed.stderr
    lag = cli("lag", "-b", bootstrap, "-g", names["group"], "-t", typo, "-o", "json")
    assert lag.code == 1 and f"{typo}: UNKNOWN_TOPIC_OR_PARTITION {hint}" in lag.stderr, lag.stderr
    rewind = cli("rewind", "-b", bootstrap, "-g", names["group"], "-t", typo, "--to", "earliest")
    assert rewind.code == 1 and f"{typo}: UNKNOWN_TOPIC_OR_PARTITION {hint}" in rewind.stderr, rewind.stderr
    # the topic's line says why nothing was planned; not that the group has no committed offsets
    assert "has no committed offsets" not in rewind.stderr, rewind.stderr
    other = cli("list", "-b", bootstrap, "-t", f"zz-{uuid.uuid4().hex}")  # nothing close: no guess
    assert other.code == 1 and "did you mean" not in other.stderr, other.stderr


def test_a_mistyped_group_gets_its_close_name(bootstrap: str, names: dict[str, str]) -> None:
    run = cli("lag", "-b", bootstrap, "-g", names["gtypo"], "-o", "json")
    gone, close = names["gtypo"], names["group"]
    want = f"consumer group '{gone}' does not exist (GROUP_ID_NOT_FOUND) (did you mean {close!r}?)"
    assert run.code == 1 and want in run.stderr, run.stderr


@pytest.mark.parametrize("command", ["liveness", "tiering"])
def test_a_missing_topic_is_said_on_stderr_with_a_machine_format(
    bootstrap: str, names: dict[str, str], command: str
) -> None:
    run = cli(command, "-b", bootstrap, "-t", names["typo"], "-o", "json")
    assert run.code == 3, run.stderr  # UNKNOWN
    assert f"warning: {names['typo']}: UNKNOWN_TOPIC_OR_PARTITION" in run.stderr, (run.stdout, run.stderr)
