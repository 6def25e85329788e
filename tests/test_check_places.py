"""``check --history`` / ``--write`` to a place that cannot be written (issue 27 item 5).

Before the run: a read-only or full place is a usage error (UNKNOWN, 3, for this monitoring command)
before anything is contacted,
not a failure after the whole Spark run. After the run (the disk filled meanwhile): the verdict
is printed, then the run exits UNKNOWN (3) with one line naming what was not written.

The tests run as root, where file modes stop nothing: each CLI run gets a mount namespace of its
own (``unshare -m``) with a real read-only bind mount, or a tmpfs with no room left (no space, or
no inode), which refuse writes to root too and vanish with the process.
"""

from __future__ import annotations

import subprocess
import time
import uuid
from pathlib import Path

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.availability import unavailable
from tests.fault_helpers import REPO_ROOT, child_env, command

MIN = 60_000


def _namespaces() -> None:
    """Mount namespaces (root with CAP_SYS_ADMIN) are how these places are made; else unavailable."""
    try:
        ok = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        unavailable("unshare -m (a mount namespace) is needed to make a place unwritable for root")


def run_in_namespace(setup: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The CLI with ``args``, in a mount namespace of its own prepared by the shell commands ``setup``."""
    return subprocess.run(
        [
            "unshare",
            "-m",
            "--propagation",
            "private",
            "sh",
            "-ec",
            f'{setup}\nexec "$@"',
            "sh",
            *command(*args),
        ],
        cwd=REPO_ROOT,
        env=child_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def read_only(d: Path) -> str:
    """Shell commands making the (empty) directory ``d`` a read-only mount."""
    return f"mkdir -p {d}\nmount --bind {d} {d}\nmount -o remount,ro,bind {d} {d}"


def full_disk(d: Path) -> str:
    """Shell commands mounting a 4 KiB tmpfs on ``d`` and filling it: no space left, even for root."""
    fill = f"dd if=/dev/zero of={d}/fill bs=4096 count=1 2>/dev/null || true"
    return f"mkdir -p {d}\nmount -t tmpfs -o size=4k tmpfs {d}\n{fill}"


def test_an_unwritable_place_is_refused_before_anything_runs(tmp_path: Path) -> None:
    """Exit 2 naming the place and the OS's reason, before the (unreachable) cluster is tried."""
    _namespaces()
    spec = tmp_path / "s.yaml"
    spec.write_text(
        'clusters: {down: {bootstrap_servers: "127.0.0.1:1", timeout: 2s}}\n'
        "checks: [{name: x, type: lag, groups: [g], crit_lag: 1}]\n"
    )
    ro, full = tmp_path / "ro", tmp_path / "full"
    cases = [
        (
            read_only(ro),
            ("--history", str(ro)),
            f"--history {ro}: cannot write in {ro}: Read-only file system",
        ),
        (
            read_only(ro),
            ("--write", "parquet", "--write-dir", str(ro / "table")),
            f"--write-dir {ro / 'table'}: cannot write in {ro}: Read-only file system",
        ),
        (
            full_disk(full),
            ("--history", str(full)),
            f"--history {full}: cannot write in {full}: No space left",
        ),
        (
            full_disk(full),
            ("--write", "csv", "--write-dir", str(full / "t")),
            f"--write-dir {full / 't'}: cannot write in {full}: No space left",
        ),
    ]
    for setup, opts, message in cases:
        r = run_in_namespace(setup, "check", str(spec), "-o", "nagios", *opts, timeout=120)
        # before: the run went on, found the cluster down and answered UNKNOWN (3); a real cluster
        # would have run Spark for its whole length before the write failed
        assert r.returncode == 3, (opts, r.returncode, r.stdout, r.stderr)
        assert r.stdout.startswith(f"KAFKA CHECK UNKNOWN - {message}"), r.stdout
        assert r.stderr.startswith(f"kafka-offsets: error: {message}"), (opts, r.stderr)
        assert "127.0.0.1:1" not in r.stderr  # nothing was contacted


@pytest.mark.spark
def test_a_write_that_fails_after_the_run_prints_the_verdict_then_unknown(
    bootstrap: str, tmp_path: Path
) -> None:
    """The places pass the check, then run out of inodes under Spark's and the driver's writes."""
    _namespaces()
    i = uuid.uuid4().hex[:6]
    topic = create_topic(bootstrap, f"place-{i}", 2, config={"retention.ms": "-1"})
    old = int(time.time() * 1000) - 20 * MIN
    produce(bootstrap, topic, [(0, old, None, b"x"), (1, old, None, b"y")])
    commit_group_offsets(bootstrap, f"pl-{i}", {(topic, 0): 0, (topic, 1): 1})
    spec = tmp_path / "p.yaml"
    spec.write_text(
        f'clusters: {{local: {{bootstrap_servers: "{bootstrap}"}}}}\n'
        "checks:\n"
        f"  - {{name: alive, type: liveness, topics: [{topic}], warn: 5m, crit: 10m}}\n"
        f"  - {{name: lag, type: lag, groups: [pl-{i}], topics: [{topic}], warn_lag: 5, crit_lag: 10}}\n"
    )
    hist, out = tmp_path / "hist", tmp_path / "out"
    # three inodes each: the root, and room for the precheck's probe (one file, removed), not for the
    # run's directories and files (Spark's date=/run=/_temporary, the driver's temp dir, part file, _SUCCESS)
    setup = "\n".join(f"mkdir -p {d}\nmount -t tmpfs -o nr_inodes=3,size=1m tmpfs {d}" for d in (hist, out))
    r = run_in_namespace(
        setup,
        "check",
        str(spec),
        "--master",
        "local[2]",
        "-o",
        "nagios",
        "--history",
        str(hist),
        "--write",
        "parquet",
        "--write-dir",
        str(out / "table"),
    )
    # the verdict first (both partitions 20 min old: CRITICAL), then UNKNOWN for the lost outputs
    line = r.stdout.strip()
    assert line.startswith("KAFKA CHECK CRITICAL - 2 check(s):"), (r.returncode, r.stdout, r.stderr)
    assert "\n" not in line
    assert r.returncode == 3, r.stderr
    errors = [x for x in r.stderr.splitlines() if x.startswith("kafka-offsets: error:")]
    assert len(errors) == 1, r.stderr
    assert f"--history {hist}: this run's samples were not written" in errors[0], errors
    assert f"--write-dir {out / 'table'}: the table was not written: No space left on device" in errors[0]
