"""The commit-staleness state file (lag.stale_state): where it lives, concurrent runs in real processes,
corrupt and foreign files (one warning, a fresh start, never a crash)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_offsets_cli.lag.stale_state import FORMAT, FileStore, MemoryStore, cluster_key, state_dir
from kafka_offsets_cli.measures.lag.rows import LagRow, lag_row
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition

T0 = 1_800_000_000_000
CLUSTER = "id:abc"


def row(group: str, committed: int, end: int = 100, partition: int = 0) -> LagRow:
    tp = TopicPartition("t", partition)
    start = OffsetResult("t", partition, OffsetSpec.earliest(), 0)
    return lag_row(group, tp, committed, start, OffsetResult("t", partition, OffsetSpec.latest(), end))


def test_state_dir_follows_xdg_and_falls_back_to_home() -> None:
    assert state_dir({"XDG_STATE_HOME": "/x/state", "HOME": "/h"}) == Path("/x/state/kafka-offsets")
    assert state_dir({"HOME": "/h"}) == Path("/h/.local/state/kafka-offsets")
    # the spec: a relative path is invalid and ignored
    assert state_dir({"XDG_STATE_HOME": "rel", "HOME": "/h"}) == Path("/h/.local/state/kafka-offsets")


def test_cluster_key_is_the_id_else_the_sorted_servers() -> None:
    assert cluster_key("Xy1", "b:9092") == "id:Xy1"
    assert cluster_key(None, " b:9092,a:9092 ") == "bootstrap:a:9092,b:9092"


def test_two_runs_share_the_file_and_a_third_cluster_has_its_own(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    assert store.observe(CLUSTER, [row("g", 10)], T0).first_sight == 1
    # a new store (a new process) reads what the first wrote
    assert FileStore(tmp_path).observe(CLUSTER, [row("g", 10)], T0 + 7000).stale_ms == {("g", "t", 0): 7000}
    assert FileStore(tmp_path).observe("id:other", [row("g", 10)], T0 + 8000).first_sight == 1
    files = sorted(p.name for p in tmp_path.glob("*.json"))
    assert len(files) == 2 and all(f.startswith("id_") for f in files)
    doc = json.loads(store.path(CLUSTER).read_text())
    assert doc["format"] == FORMAT and doc["cluster"] == CLUSTER
    assert doc["groups"] == {"g": {"t": {"0": [10, T0, T0 + 7000]}}}
    assert not list(tmp_path.glob("*.tmp"))  # the temporary file was renamed, never left


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "",
        json.dumps({"format": "something else", "groups": {}}),
        json.dumps([1, 2, 3]),
        json.dumps({"format": FORMAT, "version": 99, "cluster": CLUSTER, "groups": {}}),
        json.dumps({"format": FORMAT, "version": 1, "cluster": "id:another", "groups": {}}),
        json.dumps({"format": FORMAT, "version": 1, "cluster": CLUSTER, "groups": {"g": {"t": {"0": "x"}}}}),
        json.dumps(
            {"format": FORMAT, "version": 1, "cluster": CLUSTER, "groups": {"g": {"t": {"0": [1, "a", 2]}}}}
        ),
    ],
    ids=["corrupt", "empty", "foreign", "list", "version", "other-cluster", "bad-entry", "bad-type"],
)
def test_a_file_not_ours_is_one_warning_and_a_fresh_start(tmp_path: Path, content: str) -> None:
    store = FileStore(tmp_path)
    store.path(CLUSTER).write_text(content)
    seen = store.observe(CLUSTER, [row("g", 10)], T0)
    assert seen.first_sight == 1  # nothing trusted from the file
    notes = store.notes()
    assert len(notes) == 1 and "unreadable" in notes[0] and "starting afresh" in notes[0], notes
    assert store.notes() == []  # once
    # the file is this tool's again: the next run knows the partition
    assert FileStore(tmp_path).observe(CLUSTER, [row("g", 10)], T0 + 1).stale_ms == {("g", "t", 0): 1}


def test_a_state_directory_that_cannot_be_written_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = FileStore(blocker / "staleness")  # a directory under a file: mkdir fails
    seen = store.observe(CLUSTER, [row("g", 10, end=10)], T0)
    assert seen.stale_ms == {("g", "t", 0): 0}
    (note,) = store.notes()
    assert "cannot keep state" in note


def test_memory_store_remembers_between_observations_without_a_file(tmp_path: Path) -> None:
    mem = MemoryStore()
    assert mem.observe(CLUSTER, [row("g", 10)], T0).first_sight == 1
    assert mem.observe(CLUSTER, [row("g", 10)], T0 + 500).stale_ms == {("g", "t", 0): 500}
    assert mem.observe("id:other", [row("g", 10)], T0 + 600).first_sight == 1  # per cluster
    backed = MemoryStore(backing=FileStore(tmp_path))
    backed.observe(CLUSTER, [row("g", 10)], T0)
    assert FileStore(tmp_path).observe(CLUSTER, [row("g", 10)], T0 + 9).stale_ms == {("g", "t", 0): 9}


WORKER = """
import sys
from pathlib import Path
from kafka_offsets_cli.lag.stale_state import FileStore
from tests.unit.lag.test_stale_state import row
directory, me, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for i in range(rounds):
    # each round a new store, as a new cron run: read, merge, replace
    rows = [row(f"{me}-{i}", 10, partition=p) for p in range(3)]
    FileStore(directory).observe("id:abc", rows, 1_800_000_000_000 + i)
"""


def test_concurrent_processes_never_lose_or_corrupt_each_others_entries(tmp_path: Path) -> None:
    workers, rounds = 6, 25
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path.cwd()), os.environ.get("PYTHONPATH", "")])}
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), f"w{n}", str(rounds)], env=env)
        for n in range(workers)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * workers
    doc = json.loads(FileStore(tmp_path).path("id:abc").read_text())
    groups = doc["groups"]
    # every round of every process is there, each with its 3 partitions: no read-modify-write lost one
    assert len(groups) == workers * rounds
    assert all(sorted(g["t"]) == ["0", "1", "2"] for g in groups.values())
    assert not list(tmp_path.glob("*.tmp"))
