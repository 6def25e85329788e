"""The direct ``kafka-offsets lag`` for every group at 10k and 50k partitions, on a real cluster.

    .venv/bin/python -m bench.lag_scale [--scale 20] [--reps 3] [--nodes 3] [--old DIR] [--keep]

Brings up (or reuses) the local cluster ``plan-scale`` (``python -m dev.kafka up --nodes N
--name plan-scale --heap 1g``; 50,000 partitions need three nodes: one broker would hold a file
per partition, beyond the usual 20,000 open files), creates :mod:`bench.setup_data`'s data set
at ``--scale`` (20: 10,000 m partitions and 20 groups, the default data set; 100: 50,000 and
100 groups, opt-in), then times whole processes, in alternation::

    python -m kafka_offsets_cli lag -b BOOTSTRAP --group-regex 'bench\\.g\\..*' \\
        --topic 'bench\\.m\\..*' -o json --timeout 5m [--time-lag]

``--old DIR`` also runs the same commands with the package in ``DIR`` (e.g. ``git archive HEAD
kafka_offsets_cli | tar -x -C DIR``) as "before". Every run's rows are cross-checked (each group's
partitions and total lag as the data set says). Reports wall and CPU (user+sys) seconds, best and
median. ``--keep`` leaves the cluster running (``python -m dev.kafka down --name plan-scale`` stops
it). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import setup_data  # noqa: E402

NAME = "plan-scale"
VENV_PY = REPO / ".venv" / "bin" / "python"
PY = str(VENV_PY if VENV_PY.exists() else Path(sys.executable))


def _log(msg: str) -> None:
    print(f"[bench.lag_scale] {msg}", file=sys.stderr, flush=True)


def cluster_up(nodes: int) -> str:
    """The cluster's bootstrap servers (started when not running)."""
    p = subprocess.run(
        [
            PY,
            "-m",
            "dev.kafka",
            "up",
            "--nodes",
            str(nodes),
            "--name",
            NAME,
            "--heap",
            "1g",
            "--timeout",
            "900",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    if p.returncode != 0:
        raise SystemExit(f"dev.kafka up failed: {p.stderr[-2000:]}")
    return p.stdout.strip().splitlines()[-1]


def argv(bootstrap: str, time_lag: bool) -> list[str]:
    """The measured command line (after ``python -m kafka_offsets_cli``)."""
    out = [
        "lag",
        "-b",
        bootstrap,
        "--group-regex",
        r"bench\.g\..*",
        "--topic",
        setup_data.M_REGEX,
        "-o",
        "json",
        "--timeout",
        "5m",  # a budget, not a wait: a busy 2-core machine answers 50k partitions slowly
    ]
    return [*out, "--time-lag"] if time_lag else out


def expected(scale: int) -> dict[str, tuple[int, int]]:
    """Each group's (rows, total lag) within the m topics."""
    counts = setup_data.record_counts(scale)
    out = {}
    for i, g in enumerate(setup_data.groups(scale)):
        offs = {tp: o for tp, o in setup_data.group_offsets(i).items() if tp[0] != setup_data.P1}
        out[g] = (len(offs), sum(counts.get(tp, 0) - o for tp, o in offs.items()))
    return out


def _rows(doc: Any) -> list[dict[str, Any]]:
    if isinstance(doc, list):
        return [r for r in doc if isinstance(r, dict) and "group" in r and "partition" in r]
    if isinstance(doc, dict):
        return [r for v in doc.values() for r in _rows(v)]
    return []


def summary(stdout: str) -> dict[str, tuple[int, int]]:
    """``lag -o json``: group -> (rows, total lag)."""
    acc: dict[str, list[int]] = {}
    for r in _rows(json.loads(stdout)):
        a = acc.setdefault(r["group"], [0, 0])
        a[0] += 1
        a[1] += int(r.get("lag") or 0)
    return {g: (n, lag) for g, (n, lag) in acc.items()}


def run(cmd: list[str], cwd: Path) -> tuple[float, float, str]:
    """One process: (wall s, CPU s, stdout); its exit status must be 0 (no error, no threshold)."""
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return wall, cpu, p.stdout


def main(args: list[str] | None = None) -> None:
    """Set up, time each variant and print the table."""
    ap = argparse.ArgumentParser(prog="python -m bench.lag_scale")
    ap.add_argument("--scale", type=int, default=20, help="m topics and groups: 20 (10k) or 100 (50k)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--old", type=Path, help="a directory holding the package to compare with (before)")
    ap.add_argument("--keep", action="store_true", help="leave the cluster running")
    ns = ap.parse_args(args)
    bootstrap = cluster_up(ns.nodes)
    try:
        setup_data.ensure(bootstrap, timeout=900, scale=ns.scale)
        want = expected(ns.scale)
        variants = [("after", REPO)] + ([("before", ns.old.resolve())] if ns.old else [])
        results: dict[tuple[str, bool], list[tuple[float, float]]] = {}
        for _ in range(ns.reps):
            for time_lag in (False, True):
                for label, where in variants:
                    cmd = [PY, "-m", "kafka_offsets_cli", *argv(bootstrap, time_lag)]
                    wall, cpu, out = run(cmd, where)
                    got = summary(out)
                    if got != want:
                        bad = sorted(g for g in want if got.get(g) != want[g])[:3]
                        raise SystemExit(f"{label}: rows differ from the data set for {bad}")
                    results.setdefault((label, time_lag), []).append((wall, cpu))
                    _log(f"{label} time_lag={time_lag}: {wall:.2f}s wall, {cpu:.2f}s CPU")
        parts = setup_data.M_PARTITIONS * ns.scale
        print(f"lag, {parts} partitions / {ns.scale} groups, {ns.nodes}-node cluster, {ns.reps} runs each")
        print("cmd: python -m kafka_offsets_cli " + " ".join(argv("BOOTSTRAP", False)) + " [--time-lag]")
        for (label, time_lag), xs in sorted(results.items()):
            walls, cpus = [w for w, _ in xs], [c for _, c in xs]
            print(
                f"  {label:6} {'--time-lag' if time_lag else '          '}  wall best {min(walls):6.2f}s "
                f"median {statistics.median(walls):6.2f}s   CPU median {statistics.median(cpus):6.2f}s"
            )
        # the CPU ratio holds on a shared machine, where wall time depends on the other load
        for time_lag in (False, True):
            if ("before", time_lag) in results:
                cpu_med = {k: statistics.median(c for _, c in xs) for k, xs in results.items()}
                flag = "--time-lag" if time_lag else "          "
                ratio = cpu_med[("after", time_lag)] / cpu_med[("before", time_lag)]
                print(f"  after/before CPU {flag}  {ratio:.2f}")
    finally:
        if not ns.keep:
            subprocess.run([PY, "-m", "dev.kafka", "down", "--name", NAME], cwd=REPO, check=False)


if __name__ == "__main__":
    main()
