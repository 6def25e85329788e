"""The direct ``kafka-offsets lag`` for every group at 10k and 50k partitions, on a real cluster,
side by side with Kafka's ``kafka-consumer-groups --describe --all-groups``.

    .venv/bin/python -m bench.lag_scale [--scale 20] [--reps 3] [--nodes 3] [--old DIR] [--keep]
        [--cases all,topic,time-lag] [--no-peer]

Brings up (or reuses) the local cluster ``plan-scale`` (``python -m dev.kafka up --nodes N
--name plan-scale --heap 1g``; 50,000 partitions need three nodes: one broker would hold a file
per partition, beyond the usual 20,000 open files), creates :mod:`bench.setup_data`'s data set
at ``--scale`` (20: 10,000 m partitions and 20 groups, the default data set; 100: 50,000 and
100 groups, opt-in), then times whole processes, in alternation, each case once a round::

    all       kafka-offsets lag -b BOOTSTRAP --group-regex 'bench\\.g\\..*' -o json --timeout 5m
    topic     the same with --topic 'bench\\.m\\..*'
    time-lag  the same as all with --time-lag
    peer      kafka-consumer-groups --bootstrap-server BOOTSTRAP --describe --all-groups
              (ConsumerGroupCommand from ``python -m dev.kafka classpath``, with the JVM flags
              kafka-consumer-groups.sh gives it: bench.__main__.SCRIPT_JVM_FLAGS)

The product runs as users install and run it: the working tree installed (non-editable, refreshed
on every run) into ``bench/.venv`` as :mod:`bench.runner` does for the main benchmark, its
``kafka-offsets`` console script run from an empty directory (the development venv's editable
install adds an import hook to every start, which users do not pay). ``--old DIR`` also runs the
same commands with the package in ``DIR`` (e.g. ``git archive main kafka_offsets_cli | tar -x -C
DIR``) as "before", the same script with ``PYTHONPATH=DIR``. Every run's rows are cross-checked
(each group's partitions and total lag as the data set says; Kafka's tool's table too). Reports
wall and CPU (user+sys) seconds, best and median, and the ratios: peer wall / ours, before / after.
``--keep`` leaves the cluster running (``python -m dev.kafka down --name plan-scale`` stops it).
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import setup_data  # noqa: E402
from bench.__main__ import SCRIPT_JVM_FLAGS  # noqa: E402
from bench.runner import CGC, CLI, install_product, parse_cgc  # noqa: E402
from dev import kafka as dev_kafka  # noqa: E402

NAME = "plan-scale"
DEV_PY = REPO / ".venv" / "bin" / "python"
PY = str(DEV_PY if DEV_PY.exists() else Path(sys.executable))


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


#: the cases: what each adds to ``lag -b B --group-regex 'bench\\.g\\..*' -o json``
CASES: dict[str, tuple[str, ...]] = {
    "all": (),
    "topic": ("--topic", setup_data.M_REGEX),
    "time-lag": ("--time-lag",),
}


def argv(bootstrap: str, case: str) -> list[str]:
    """The measured command line (after ``kafka-offsets``)."""
    out = [
        "lag",
        "-b",
        bootstrap,
        "--group-regex",
        r"bench\.g\..*",
        *CASES[case],
        "-o",
        "json",
        "--timeout",
        "5m",  # a budget, not a wait: a busy 2-core machine answers 50k partitions slowly
    ]
    return out


def peer_argv(bootstrap: str) -> list[str]:
    """Kafka's own tool, as kafka-consumer-groups.sh runs it (its default JVM flags)."""
    return [
        dev_kafka.java_executable(),
        *SCRIPT_JVM_FLAGS,
        f"-Dlog4j2.configurationFile={dev_kafka.TOOLS_LOG4J}",
        "-cp",
        dev_kafka.classpath(),
        CGC,
        "--bootstrap-server",
        bootstrap,
        "--describe",
        "--all-groups",
    ]


def expected(scale: int, m_only: bool) -> dict[str, tuple[int, int]]:
    """Each group's (rows, total lag): within the m topics (``m_only``), or on every topic it has."""
    counts = setup_data.record_counts(scale)
    out = {}
    for i, g in enumerate(setup_data.groups(scale)):
        offs = {
            tp: o for tp, o in setup_data.group_offsets(i).items() if not m_only or tp[0] != setup_data.P1
        }
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


def run(cmd: list[str], cwd: Path, package: Path | None = None) -> tuple[float, float, str]:
    """One process in ``cwd``: (wall s, CPU s, stdout); its exit status must be 0 (no error, no
    threshold). ``package``: a directory holding the package, first on the path (``--old``); else the
    installed one."""
    # bytecode cached as an installed wheel has it (pip compiles it): a shell with
    # PYTHONDONTWRITEBYTECODE=1 would time the compilation of the whole package on every run
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    if package is not None:
        env["PYTHONPATH"] = str(package)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"exit {p.returncode}: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return wall, cpu, p.stdout


def _check(label: str, got: dict[str, tuple[int, int]], want: dict[str, tuple[int, int]]) -> None:
    if got != want:
        bad = sorted(g for g in want if got.get(g) != want[g])[:3]
        raise SystemExit(f"{label}: rows differ from the data set for {bad}")


def _stats(xs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(best wall, median wall, median CPU)."""
    walls, cpus = [w for w, _ in xs], [c for _, c in xs]
    return min(walls), statistics.median(walls), statistics.median(cpus)


def main(args: list[str] | None = None) -> None:
    """Set up, time each variant and print the table."""
    ap = argparse.ArgumentParser(prog="python -m bench.lag_scale")
    ap.add_argument("--scale", type=int, default=20, help="m topics and groups: 20 (10k) or 100 (50k)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--old", type=Path, help="a directory holding the package to compare with (before)")
    ap.add_argument("--keep", action="store_true", help="leave the cluster running")
    ap.add_argument("--cases", default=",".join(CASES), help=f"some of {', '.join(CASES)}")
    ap.add_argument("--no-peer", action="store_true", help="without kafka-consumer-groups")
    ns = ap.parse_args(args)
    cases = [c.strip() for c in ns.cases.split(",") if c.strip()]
    if not set(cases) <= set(CASES):
        raise SystemExit(f"--cases: choose from {', '.join(CASES)}")
    bootstrap = cluster_up(ns.nodes)
    try:
        setup_data.ensure(bootstrap, timeout=900, scale=ns.scale)
        want = {m_only: expected(ns.scale, m_only) for m_only in (False, True)}
        install_product(PY)  # the working tree as users install it: "after"
        variants: list[tuple[str, Path | None]] = [("after", None)]
        variants += [("before", ns.old.resolve())] if ns.old else []
        empty = Path(tempfile.mkdtemp(prefix="lag-scale-"))  # no package beside the processes
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _label, package in variants:  # untimed: writes each variant's bytecode cache, warms the brokers
            run([str(CLI), *argv(bootstrap, cases[0])], empty, package)
        for _ in range(ns.reps):
            for case in cases:
                for label, package in variants:
                    cmd = [str(CLI), *argv(bootstrap, case)]
                    wall, cpu, out = run(cmd, empty, package)
                    _check(f"{label} {case}", summary(out), want[case == "topic"])
                    results.setdefault((label, case), []).append((wall, cpu))
                    _log(f"{label} {case}: {wall:.2f}s wall, {cpu:.2f}s CPU")
            if not ns.no_peer:
                wall, cpu, out = run(peer_argv(bootstrap), REPO)
                _check("kafka-consumer-groups", parse_cgc([out]), want[False])
                results.setdefault(("peer", "all"), []).append((wall, cpu))
                _log(f"kafka-consumer-groups: {wall:.2f}s wall, {cpu:.2f}s CPU")
        report(results, ns, cases)
        empty.rmdir()
    finally:
        if not ns.keep:
            subprocess.run([PY, "-m", "dev.kafka", "down", "--name", NAME], cwd=REPO, check=False)


def report(
    results: dict[tuple[str, str], list[tuple[float, float]]], ns: argparse.Namespace, cases: list[str]
) -> None:
    """The table: each variant's times, then the ratios (peer / ours by wall; before / after)."""
    parts = setup_data.M_PARTITIONS * ns.scale
    print(f"lag, {parts} m partitions / {ns.scale} groups, {ns.nodes}-node cluster, {ns.reps} runs each")
    print("cmd: kafka-offsets " + " ".join(argv("BOOTSTRAP", "all")) + " [--topic …|--time-lag]")
    print("peer: kafka-consumer-groups --bootstrap-server BOOTSTRAP --describe --all-groups")
    print("| tool | case | wall best s | wall median s | CPU median s |")
    print("|---|---|---:|---:|---:|")
    for (label, case), xs in sorted(results.items()):
        best, med, cpu = _stats(xs)
        tool = "kafka-consumer-groups" if label == "peer" else f"kafka-offsets ({label})"
        print(f"| {tool} | {case} | {best:.2f} | {med:.2f} | {cpu:.2f} |")
    peer = results.get(("peer", "all"))
    for case in cases:
        for label in ("after", "before"):
            if peer and (label, case) in results:
                ratio = _stats(peer)[1] / _stats(results[(label, case)])[1]
                print(f"  kafka-consumer-groups / kafka-offsets ({label}, {case}): {ratio:.2f}x wall")
        if ("before", case) in results:
            (_, a, ca), (_, b, cb) = _stats(results[("after", case)]), _stats(results[("before", case)])
            print(f"  before / after ({case}): {b / a:.2f}x wall, {cb / ca:.2f}x CPU")


if __name__ == "__main__":
    main()
