"""``lag`` on a real tiered broker (``tiered_bootstrap``, dev/tiered.py): a group committed below
earliest-local reads from remote storage (``remote_read``, STATE ``(remote read)``), one above does
not, and a group on a topic without tiered storage never pays the lookup (kafka-python not imported).
kafka-consumer-groups, on the same groups, shows the same LAG and nothing about remote reads.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from dev import tiered
from dev.kafka_data import commit_group_offsets
from tests.cli_runner import cli
from tests.kafka_helpers import consumer_groups, wait_moved_to_remote

RECORDS = 200  # of 1 KiB per partition: a dozen 16 KiB segments


@dataclass(frozen=True)
class Setup:
    moved: str  # every segment uploaded and deleted locally: earliest-local == latest == RECORDS
    kept: str  # tiered, local copies kept (local.retention.ms=-2): earliest-local 0
    plain: str  # no tiered storage
    remote: str  # committed at 10 on both partitions of moved: below earliest-local
    local: str  # committed at 10 on kept (above earliest-local) and at the end of moved (nothing left)
    untiered: str  # committed at 10 on plain


def _local_and_latest(bootstrap: str, topic: str) -> dict[tuple[int, str], int | None]:
    run = cli("list", "-b", bootstrap, "-t", topic, "-s", "earliest-local", "-s", "latest", "-o", "jsonl")
    assert run.code == 0, run.stderr
    return {(r["partition"], r["spec"]): r["offset"] for r in run.jsonl()}


@pytest.fixture(scope="module")
def setup(tiered_bootstrap: str) -> Iterator[Setup]:
    uid = uuid.uuid4().hex[:8]
    s = Setup(
        moved=f"lag-moved-{uid}",
        kept=f"lag-kept-{uid}",
        plain=f"lag-plain-{uid}",
        remote=f"lag-remote-{uid}",
        local=f"lag-local-{uid}",
        untiered=f"lag-untiered-{uid}",
    )
    tiered.create_topic(tiered_bootstrap, s.moved, 2)
    tiered.create_topic(tiered_bootstrap, s.plain, 2, tiered=False)
    tiered.create_topic(tiered_bootstrap, s.kept, 1, config={"local.retention.ms": "-2"})
    tiered.produce(tiered_bootstrap, s.moved, 2, RECORDS)
    tiered.produce(tiered_bootstrap, s.kept, 1, RECORDS)
    tiered.produce(tiered_bootstrap, s.plain, 2, RECORDS)
    wait_moved_to_remote(tiered_bootstrap, s.moved, 2, RECORDS)
    commit_group_offsets(tiered_bootstrap, s.remote, {(s.moved, 0): 10, (s.moved, 1): 10})
    commit_group_offsets(tiered_bootstrap, s.local, {(s.kept, 0): 10, (s.moved, 1): RECORDS})
    commit_group_offsets(tiered_bootstrap, s.untiered, {(s.plain, 0): 10, (s.plain, 1): 10})
    assert _local_and_latest(tiered_bootstrap, s.kept)[(0, "earliest-local")] == 0
    yield s


def _records(bootstrap: str, group: str, *args: str) -> dict[int, dict[str, object]]:
    run = cli("lag", "-b", bootstrap, "-g", group, "-o", "jsonl", *args)
    assert run.code == 0, run.stderr
    return {r["partition"]: r for r in run.jsonl()}


def test_a_group_below_earliest_local_reads_from_remote_storage(tiered_bootstrap: str, setup: Setup) -> None:
    recs = _records(tiered_bootstrap, setup.remote)
    assert {p: (r["lag"], r["state"], r["remote_read"]) for p, r in recs.items()} == {
        0: (RECORDS - 10, "ok", True),
        1: (RECORDS - 10, "ok", True),
    }
    table = cli("lag", "-b", tiered_bootstrap, "-g", setup.remote, "-o", "wide")
    assert table.code == 0, table.stderr
    lines = [line for line in table.stdout.splitlines() if setup.moved in line]
    assert len(lines) == 2 and all(line.rstrip().endswith("lagging (remote read)") for line in lines)
    assert "2/2 lagging, 2 remote" in table.stdout or "2 lagging, 2 remote read" in table.stdout


def test_a_group_at_or_above_earliest_local_does_not(tiered_bootstrap: str, setup: Setup) -> None:
    run = cli("lag", "-b", tiered_bootstrap, "-g", setup.local, "-o", "jsonl")
    assert run.code == 0, run.stderr
    got = {(r["topic"], r["partition"]): (r["lag"], r["remote_read"]) for r in run.jsonl()}
    assert got == {
        (setup.kept, 0): (RECORDS - 10, False),  # asked: earliest-local 0
        (setup.moved, 0): (None, None),  # no-commit: no fetch position, so unknown
        (setup.moved, 1): (0, False),  # read to the end: nothing left to fetch
    }
    table = cli("lag", "-b", tiered_bootstrap, "-g", setup.local, "-o", "wide")
    assert table.code == 0 and "remote" not in table.stdout


def test_the_summary_counts_remote_reads_and_the_status_is_not_changed(
    tiered_bootstrap: str, setup: Setup
) -> None:
    groups = ("-g", setup.remote, "-g", setup.untiered)
    run = cli("lag", "-b", tiered_bootstrap, *groups, "--summary", "-o", "jsonl", "--warn-lag", "1000")
    assert run.code == 0, run.stderr  # a remote read is not lag: OK below the threshold
    got = {r["group"]: (r["remote_reads"], r["status"]) for r in run.jsonl()}
    assert got == {setup.remote: (2, "ok"), setup.untiered: (0, "ok")}
    table = cli("lag", "-b", tiered_bootstrap, *groups, "--summary", "-o", "wide")
    header = table.stdout.splitlines()[0].split()
    assert "REMOTE" in header
    row = next(line.split() for line in table.stdout.splitlines() if line.startswith(setup.remote))
    assert row[header.index("REMOTE")] == "2"


def test_kafka_consumer_groups_shows_the_same_lag_and_nothing_about_remote_reads(
    tiered_bootstrap: str, kafka_classpath: str, setup: Setup
) -> None:
    kafka = consumer_groups(tiered_bootstrap, "--describe", "--group", setup.remote)
    assert kafka.returncode == 0, kafka.stderr
    lines = [line.split() for line in kafka.stdout.splitlines() if line.strip()]
    header = lines[0]
    assert header[:6] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG"]
    assert not any("REMOTE" in h or "TIER" in h for h in header)
    theirs = {int(x[2]): int(x[5]) for x in lines[1:] if x[1] == setup.moved}
    ours = {p: r["lag"] for p, r in _records(tiered_bootstrap, setup.remote).items()}
    assert theirs == ours


PROBE = """
import json, sys
sys.argv = ["kafka-offsets", *json.loads(sys.argv[1])]
from kafka_offsets_cli.kafka import list_offsets_kafka_python as wire
asked = set()
build = wire._request
def _request(keys, *rest):
    asked.update(spec.name for _, spec in keys)
    return build(keys, *rest)
wire._request = _request
from kafka_offsets_cli.__main__ import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print(json.dumps("earliest-local" in asked), file=sys.stderr)
"""


@pytest.mark.parametrize("which", ["untiered", "remote"])
def test_only_a_group_on_a_tiered_topic_pays_the_lookup(
    tiered_bootstrap: str, setup: Setup, which: str
) -> None:
    group = setup.untiered if which == "untiered" else setup.remote
    argv = json.dumps(["lag", "-b", tiered_bootstrap, "-g", group, "-o", "jsonl"])
    run = subprocess.run([sys.executable, "-c", PROBE, argv], capture_output=True, text=True, timeout=120)
    recs = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(recs) == 2 and {r["lag"] for r in recs} == {RECORDS - 10}, run.stderr
    assert {r["remote_read"] for r in recs} == {which == "remote"}
    # ListOffsets -4 asked? (lag's ListOffsets go through kafka-python either way: it read the group)
    assert json.loads(run.stderr.strip().splitlines()[-1]) is (which == "remote")
