"""The requests sent through kafka-python work with its coming release, not only the pinned one (issue 26.8).

kafka-python's main branch removed ``KafkaConnectionManager.run`` (#3142), which the tiered specs used;
the next minor release would have broken ``-4/-5/-6`` and ``tiering``. A clean venv gets this package
(with its declared dependencies) and then the newest kafka-python the range allows: the snapshot of
its main branch in ``../shared/upstream/`` (3.1.0.dev; CI has ``shared/`` beside the clone, read-only).
Against a real tiered broker, each tiered spec printed by that venv's ``kafka-offsets`` equals
GetOffsetShell's output, ``tiering`` answers, and ``lag`` reads committed offsets (OffsetFetch, also
through kafka-python).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev import tiered
from dev.kafka_data import commit_group_offsets
from tests.availability import unavailable
from tests.fault_helpers import child_env
from tests.kafka_helpers import GET_OFFSET_SHELL, wait_moved_to_remote

pytestmark = [pytest.mark.broker, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = REPO_ROOT.parent / "shared" / "upstream"
RECORDS = 200


@pytest.fixture(scope="session")
def upstream_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with this package, then kafka-python from the upstream snapshot; its ``bin`` directory."""
    tarballs = sorted(UPSTREAM.glob("kafka-python-*.tar.gz"))
    if not tarballs:
        unavailable(f"no kafka-python snapshot in {UPSTREAM}")
    venv = tmp_path_factory.mktemp("kp-upstream") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    for args in ([str(REPO_ROOT)], ["--no-deps", str(tarballs[-1])]):
        p = subprocess.run([*pip, *args], capture_output=True, text=True, timeout=900, cwd=venv.parent)
        if p.returncode != 0:
            unavailable(f"pip install {' '.join(args)} failed: {p.stderr.strip()[-500:]}")
    return venv / "bin"


def _run(bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "kafka-offsets"), *args],
        cwd=bin_dir,  # not the checkout: the venv's own copy of the package runs
        env={k: v for k, v in child_env().items() if k != "PYTHONPATH"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.fixture(scope="module")
def moved(tiered_bootstrap: str) -> Iterator[str]:
    """A tiered topic whose segments are all uploaded and deleted locally."""
    topic = f"kp-upstream-{uuid.uuid4().hex[:8]}"
    tiered.create_topic(tiered_bootstrap, topic, 2)
    tiered.produce(tiered_bootstrap, topic, 2, RECORDS)
    wait_moved_to_remote(tiered_bootstrap, topic, 2, RECORDS)
    yield topic


def test_the_venv_has_the_coming_kafka_python(upstream_venv: Path) -> None:
    probe = (
        "import kafka.version, kafka.net.manager as m; "
        "print(kafka.version.__version__, hasattr(m.KafkaConnectionManager, 'run'))"
    )
    out = subprocess.run(
        [str(upstream_venv / "python"), "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    version, has_run = out.stdout.split()
    assert version.startswith("3.1") and has_run == "False", out.stdout


@pytest.mark.parametrize(
    "spec", ["-4", "-5", "-6", "earliest-local", "latest-tiered", "earliest-pending-upload"]
)
def test_tiered_specs_equal_getoffsetshell_with_the_coming_kafka_python(
    upstream_venv: Path, tiered_bootstrap: str, kafka_classpath: str, moved: str, spec: str
) -> None:
    kafka = dev_kafka.run_tool(
        GET_OFFSET_SHELL, "--bootstrap-server", tiered_bootstrap, "--topic", moved, "--time", spec
    )
    ours = _run(upstream_venv, "list", "-b", tiered_bootstrap, "-t", moved, "--time", spec, "-o", "plain")
    assert (ours.returncode, ours.stdout) == (kafka.returncode, kafka.stdout), ours.stderr
    assert ours.stderr == ""


def test_tiering_and_lag_with_the_coming_kafka_python(
    upstream_venv: Path, tiered_bootstrap: str, moved: str
) -> None:
    run = _run(upstream_venv, "tiering", "-b", tiered_bootstrap, "-t", moved, "-o", "jsonl")
    assert run.returncode in (0, 1), run.stderr  # OK, or WARNING for a backlog: an answer either way
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    remote = {r["partition"]: r for r in rows if r.get("partition") is not None}
    assert sorted(remote) == [0, 1], rows
    group = f"{moved}.g"
    commit_group_offsets(tiered_bootstrap, group, {(moved, 0): 150, (moved, 1): 200})
    lag = _run(upstream_venv, "lag", "-b", tiered_bootstrap, "-g", group, "-o", "jsonl")
    assert lag.returncode == 0, lag.stderr
    got = {r["partition"]: (r["committed"], r["lag"]) for r in map(json.loads, lag.stdout.splitlines())}
    assert got == {0: (150, RECORDS - 150), 1: (200, 0)}


def test_partition_sizes_with_the_coming_kafka_python(upstream_venv: Path, tiered_bootstrap: str) -> None:
    """DescribeLogDirs (kafka/log_dirs.py) through the coming kafka-python: with ``retention.ms`` -1 the
    loss ETA is the size bound alone, so an ETA and no warning mean the partition's size came."""
    topic = f"kp-sized-{uuid.uuid4().hex[:8]}"
    config = {"retention.ms": "-1", "retention.bytes": str(10**9), "cleanup.policy": "delete"}
    tiered.create_topic(tiered_bootstrap, topic, 1, tiered=False, config=config)
    tiered.produce(tiered_bootstrap, topic, 1, 20)
    group = f"{topic}.g"
    commit_group_offsets(tiered_bootstrap, group, {(topic, 0): 5})
    lag = _run(upstream_venv, "lag", "-b", tiered_bootstrap, "-g", group, "--loss-eta", "-o", "jsonl")
    assert (lag.returncode, lag.stderr) == (0, ""), lag.stderr
    (rec,) = map(json.loads, lag.stdout.splitlines())
    assert rec["lag"] == 15 and isinstance(rec["loss_eta_ms"], int) and rec["loss_eta_ms"] > 0, rec


def test_kafka_python_is_what_the_venv_runs(upstream_venv: Path) -> None:
    """The venv's console script imports its own package, not the checkout's."""
    probe = "import kafka_offsets_cli; print(kafka_offsets_cli.__file__)"
    out = subprocess.run(
        [str(upstream_venv / "python"), "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=upstream_venv,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert str(upstream_venv.parent) in out.stdout, out.stdout


def test_share_and_streams_messages_with_the_coming_kafka_python(upstream_venv: Path) -> None:
    """The share/streams group classes (kafka/group_messages.py) load from the installed package's
    schemas and survive the coming kafka-python's wire format (its own class, should it gain one)."""
    probe = (
        "from kafka_offsets_cli.kafka import group_messages as g\n"
        "names = [n for n in dir(g) if n.endswith(('Request', 'Response')) and not n.startswith('_')]\n"
        "for n in sorted(names):\n"
        "    cls = getattr(g, n)\n"
        "    for v in range(cls.max_version + 1):\n"
        "        blank = cls(**{f.name: f.default for f in cls._struct.fields.values()})\n"
        "        back = cls.decode(bytes(blank.encode(version=v)), version=v)\n"
        "        assert back.to_dict() == blank.to_dict(), (n, v)\n"
        "    print(n, cls.API_KEY, cls.max_version, cls.__module__)\n"
    )
    out = subprocess.run(
        [str(upstream_venv / "python"), "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=upstream_venv,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert out.returncode == 0, out.stderr
    keys = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in out.stdout.splitlines()}
    assert keys == {
        "AlterShareGroupOffsetsRequest": (91, 0),
        "AlterShareGroupOffsetsResponse": (91, 0),
        "DeleteShareGroupOffsetsRequest": (92, 0),
        "DeleteShareGroupOffsetsResponse": (92, 0),
        "DescribeShareGroupOffsetsRequest": (90, 1),
        "DescribeShareGroupOffsetsResponse": (90, 1),
        "ListGroupsRequest": (16, 5),  # kafka-python's own class: v5 names each group's type (lag)
        "OffsetDeleteRequest": (47, 0),  # kafka-python's own class: rewind --delete-offsets
        "ShareGroupDescribeRequest": (77, 1),
        "ShareGroupDescribeResponse": (77, 1),
        "StreamsGroupDescribeRequest": (89, 0),
        "StreamsGroupDescribeResponse": (89, 0),
    }, out.stdout
