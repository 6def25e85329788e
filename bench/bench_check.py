"""Benchmark of `kafka-offsets check` (Spark) against the direct `liveness` + `lag` commands.

    python -m bench.bench_check [--scale 20] [--scale 100] [--masters local,standalone]
                                [--remote sc://HOST:PORT] [--reps 3] [--keep] [--no-write]

Brings up (or reuses) the 3-node local Kafka cluster ``bench`` (``python -m dev.kafka up --nodes
3``) and :mod:`bench.setup_data`'s data set at each ``--scale``: 20 (the default data set:
10,000 partitions in ``bench.m.00`` … ``bench.m.19``, 20 groups) and, opt-in, 100 (50,000
partitions, 100 groups). Each scale's spec names exactly its topics and groups (a cluster grown
to 100 topics is benchmarked at 20 too). The cases, timed as whole processes in alternation:

* ``check SPEC --timings -o json --write parquet --write-dir DIR`` with a liveness check over
  the partitions and a lag check (time lag on) for the groups, on each Spark master of
  ``--masters``: ``local`` (``local[*]``) and ``standalone`` (a real standalone cluster from
  :mod:`dev.spark_cluster`: a master and two workers of one core each, in mount namespaces that
  hide the checkout; needs root), and, with ``--remote``, on a Spark Connect server (``check
  --remote URL``; the server must reach the Kafka cluster);
* the direct commands on the same data: ``liveness`` then ``lag --time-lag``, timed together.

Before timing, one run of each check case is cross-checked against the direct commands (every
liveness and lag record identical), with Spark's event log on to read the executors' peak
memory (``Task Executor Metrics`` of every task: JVM RSS and Python RSS of the executor's
process tree, polled every 100 ms). Every run also records, from ``/proc`` (polled), the peak
RSS (``VmHWM``) of the CLI's Python process (the driver), of the JVM it starts (the driver's
JVM; on ``local[*]`` the executor too) and of the largest Python worker it forks, and GNU time's
``%M``. Results: bench/results/check.json and bench/results/CHECK.md (the Markdown also on
stdout). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import setup_data  # noqa: E402
from bench.runner import RESULTS_DIR, TIME, log, machine_info, now_iso  # noqa: E402
from dev import kafka as dev_kafka  # noqa: E402

CLUSTER = "bench"
VENV_PY = REPO / ".venv" / "bin" / "python"
PY = str(VENV_PY if VENV_PY.exists() else Path(sys.executable))
CLI = [PY, "-m", "kafka_offsets_cli"]
_TIMINGS = re.compile(r"kafka-offsets: timings: (.*)")
RUN_TIMEOUT = 900.0
#: Spark settings of the untimed verifying run: the event log with the executors' memory peaks
EVENT_CONF = (
    "spark.eventLog.enabled=true",
    "spark.executor.processTreeMetrics.enabled=true",
    "spark.executor.metrics.pollingInterval=100ms",
    "spark.eventLog.logStageExecutorMetrics=true",
    "spark.eventLog.compress=false",  # Spark 4 compresses it with zstd by default
    "spark.eventLog.rolling.enabled=false",
)


def alternation(names: tuple[str, ...]) -> str:
    """A regex matching exactly ``names``."""
    return "|".join(re.escape(n) for n in names)


def spec_text(bootstrap: str, topics: str, groups: str) -> str:
    """The benchmark's spec: every m partition's liveness, and the groups' lag with time lag."""
    return f"""\
clusters:
  bench: {{bootstrap_servers: "{bootstrap}", timeout: 300s}}
checks:
  - {{name: m-alive, type: liveness, cluster: bench, topics: ['{topics}'], warn: 1h, crit: 1d}}
  - name: g-lag
    type: lag
    cluster: bench
    groups: ['{groups}']
    topics: ['{topics}']
    warn_lag: 10
    crit_lag: 100
    warn_time_lag: 1h
    crit_time_lag: 1d
"""


def cluster_up(name: str) -> tuple[str, bool]:
    """``python -m dev.kafka up --nodes 3 --name NAME``; (bootstrap, whether it was already running)."""
    existing = dev_kafka.get(name)
    running = existing is not None and existing.is_running()
    p = subprocess.run(
        [PY, "-m", "dev.kafka", "up", "--nodes", "3", "--name", name],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if p.returncode != 0:
        raise SystemExit(f"cluster did not start:\n{p.stderr[-2000:]}")
    return p.stdout.strip().splitlines()[-1], running


def ensure_data(bootstrap: str, scale: int) -> Any:
    """:func:`bench.setup_data.ensure` at ``scale`` (the larger data set is opt-in there)."""
    if "scale" in inspect.signature(setup_data.ensure).parameters:
        return setup_data.ensure(bootstrap, scale=scale)  # type: ignore[call-arg,unused-ignore]
    if scale != 20:
        raise SystemExit(f"bench/setup_data.py has no scale {scale} data set")
    return setup_data.ensure(bootstrap)


def parse_timings(stderr: str) -> dict[str, float]:
    """The ``--timings`` line: {stage: seconds}."""
    m = _TIMINGS.search(stderr)
    if m is None:
        raise ValueError(f"no timings in: {stderr[-500:]!r}")
    out = {}
    for part in m.group(1).split(", "):
        name, _, secs = part.rpartition(" ")
        out[name] = float(secs.rstrip("s"))
    return out


def cross_check(check_doc: dict[str, Any], live: list[dict[str, Any]], lag: list[dict[str, Any]]) -> str:
    """Compare the check's records with the direct commands'; raise on any difference."""
    mine_live = {(r["topic"], r["partition"]): r for r in check_doc["partitions"] if r["check"] == "m-alive"}
    direct_live = {(r["topic"], r["partition"]): r for r in live}
    if mine_live.keys() != direct_live.keys():
        raise AssertionError("liveness: different partitions")
    for k, d in direct_live.items():
        m = mine_live[k]
        if (m["offset"], m["timestamp"], m["state"]) != (d["offset"], d["timestamp"], d["state"]):
            raise AssertionError(f"liveness differs on {k}: {m} vs {d}")
    mine_lag = {
        (r["group"], r["topic"], r["partition"]): r for r in check_doc["partitions"] if r["check"] == "g-lag"
    }
    direct_lag = {(r["group"], r["topic"], r["partition"]): r for r in lag}
    if mine_lag.keys() != direct_lag.keys():
        raise AssertionError("lag: different rows")
    fields = ("committed", "log_start", "end", "lag", "state")
    for row, d in direct_lag.items():
        if [mine_lag[row][f] for f in fields] != [d[f] for f in fields]:
            raise AssertionError(f"lag differs on {row}: {mine_lag[row]} vs {d}")
    return f"{len(mine_live)} liveness and {len(mine_lag)} lag records identical"


# ------------------------------------------------------------------------------------------ measuring


@dataclass
class Run:
    """One timed process (or several in sequence): wall, CPU, peaks in MiB by role, outputs."""

    wall: float = 0.0
    cpu: float = 0.0
    rc: int = 0
    time_m_mb: float = 0.0  # GNU time %M
    peaks: dict[str, float] = field(default_factory=dict)  # driver_python, driver_jvm, worker_python
    outs: list[str] = field(default_factory=list)
    errs: list[str] = field(default_factory=list)


def _proc_table() -> dict[int, int]:
    """pid -> parent pid of every process."""
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{d}/stat").read_text()
                out[int(d)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def _hwm_mb(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Poller:
    """Peak RSS (``VmHWM``, a high-water mark: polling only has to see each process alive) by role of
    every process under ``root``: the CLI's Python, Java processes, other Python processes."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peaks: dict[str, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _role(self, pid: int) -> str | None:
        # read each time, never cached by pid: spark-class runs a small launcher JVM, then execs the
        # driver's JVM in its own (bash) process
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return None
        exe = os.path.basename(argv[0].decode(errors="replace"))
        if b"kafka_offsets_cli" in argv or b"bench.spark_floor" in argv:
            return "driver_python"
        if exe == "java":
            return "driver_jvm"
        if exe.startswith("python"):
            return "worker_python"
        return None

    def _loop(self) -> None:
        while not self.stop.is_set():
            table = _proc_table()
            kids: dict[int, list[int]] = {}
            for pid, ppid in table.items():
                kids.setdefault(ppid, []).append(pid)
            todo = list(kids.get(self.root, []))
            while todo:
                pid = todo.pop()
                todo.extend(kids.get(pid, []))
                role = self._role(pid)
                if role:
                    self.peaks[role] = max(self.peaks.get(role, 0.0), _hwm_mb(pid))
            self.stop.wait(0.2)

    def done(self) -> dict[str, float]:
        self.stop.set()
        self.thread.join()
        return {k: round(v, 1) for k, v in self.peaks.items()}


def run(argvs: list[list[str]], workdir: Path, tag: str) -> Run:
    """Run each argv in turn (wall from fork to exit, CPU from ``wait4``, peaks polled)."""
    out = Run()
    for i, argv in enumerate(argvs):
        paths = [workdir / f"{tag}.{i}.{x}" for x in ("out", "err", "rss")]
        wrapped = [TIME, "-f", "%M", "-o", str(paths[2]), *argv] if TIME else list(argv)
        with open(paths[0], "wb") as o, open(paths[1], "wb") as e:
            t0 = time.perf_counter()
            proc = subprocess.Popen(wrapped, stdin=subprocess.DEVNULL, stdout=o, stderr=e, cwd=REPO)
            poller = Poller(proc.pid)
            timer = threading.Timer(RUN_TIMEOUT, proc.kill)
            timer.start()
            try:
                _, status, ru = os.wait4(proc.pid, 0)
            finally:
                timer.cancel()
            out.wall += time.perf_counter() - t0
        for role, mb in poller.done().items():
            out.peaks[role] = max(out.peaks.get(role, 0.0), mb)
        rc = os.waitstatus_to_exitcode(status)
        out.rc = out.rc or (rc if rc not in (0, 1, 2, 3) else 0)  # 1-3: the monitoring status
        out.cpu += ru.ru_utime + ru.ru_stime
        with contextlib.suppress(OSError, ValueError, IndexError):
            out.time_m_mb = max(out.time_m_mb, int(paths[2].read_text().split()[-1]) / 1024)
        out.outs.append(paths[0].read_text(errors="replace"))
        out.errs.append(paths[1].read_text(errors="replace"))
    return out


def executor_peaks(event_dir: Path) -> dict[str, dict[str, float]]:
    """Executor id -> peak JVM heap, JVM RSS and Python RSS (MiB) from Spark's event log."""
    keys = {
        "JVMHeapMemory": "jvm_heap",
        "ProcessTreeJVMRSSMemory": "jvm_rss",
        "ProcessTreePythonRSSMemory": "py_rss",
    }
    out: dict[str, dict[str, float]] = {}
    for f in event_dir.rglob("*"):
        if not f.is_file() or f.name.startswith("."):
            continue
        for line in f.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                ev = json.loads(line)
                kind = ev.get("Event")
                if kind == "SparkListenerTaskEnd":
                    eid, metrics = ev["Task Info"]["Executor ID"], ev.get("Task Executor Metrics") or {}
                elif kind == "SparkListenerStageExecutorMetrics":
                    eid, metrics = ev["Executor ID"], ev.get("Executor Metrics") or {}
                else:
                    continue
                peaks = out.setdefault(str(eid), {})
                for k, name in keys.items():
                    if k in metrics:
                        peaks[name] = max(peaks.get(name, 0.0), round(metrics[k] / 2**20, 1))
    return out


# ---------------------------------------------------------------------------------------------- cases


@dataclass
class Case:
    """A command (or two) timed as one sample; ``verify_conf``: ``--conf`` of the verifying run."""

    key: str
    title: str
    argvs: list[list[str]]
    check: bool = True
    verify_conf: list[str] = field(default_factory=list)


def check_case(key: str, title: str, spec: Path, target: list[str], table: Path, events: Path | None) -> Case:
    argv = [*CLI, "check", str(spec), *target, "--timings", "-o", "json", "--write", "parquet"]
    argv += ["--write-dir", str(table)]
    conf = []
    if events is not None:
        events.mkdir(parents=True, exist_ok=True)
        for c in (*EVENT_CONF, f"spark.eventLog.dir=file://{events}"):
            conf += ["--conf", c]
    return Case(key, title, [argv], verify_conf=conf)


def direct_case(bootstrap: str, topics: str, groups: str) -> Case:
    common = ["-b", bootstrap, "-t", topics, "-o", "json", "--timeout", "300s"]
    return Case(
        "direct",
        "`liveness` + `lag --time-lag` (direct)",
        [
            [*CLI, "liveness", *common, "--warn", "1h", "--crit", "1d"],
            [*CLI, "lag", *common, "--group-regex", groups, "--time-lag"],
        ],
        check=False,
    )


def floor_case() -> Case:
    """The floor of a ``local[*]`` run (:mod:`bench.spark_floor`): session and job shapes, no Kafka."""
    return Case(
        "floor",
        "Spark floor: session + one empty Python task per core + one aggregate, no Kafka (local[*])",
        [[PY, "-m", "bench.spark_floor", "local[*]"]],
        check=False,
    )


def standalone(tmp: Path) -> tuple[Any, list[str]]:
    """A standalone cluster of :mod:`dev.spark_cluster` (workers hide the checkout and ``tmp``)."""
    import secrets

    from dev import spark_cluster

    why = spark_cluster.namespaces_work()
    if why is not None:
        raise RuntimeError(why)
    state = Path(tempfile.mkdtemp(prefix="kafka-offsets-bench-spark-"))
    cluster = spark_cluster.up(state, hidden=[REPO, tmp], secret=secrets.token_hex(16))
    return cluster, [
        "--master",
        cluster.master_url,
        *[a for c in cluster.spark_conf() for a in ("--conf", c)],
    ]


def stat(xs: list[float]) -> dict[str, float]:
    return {
        "median_s": round(statistics.median(xs), 3),
        "min_s": round(min(xs), 3),
        "max_s": round(max(xs), 3),
    }


def bench_scale(
    args: argparse.Namespace, bootstrap: str, scale: int, tmp: Path, spark_target: Any
) -> dict[str, Any]:
    """Verify and time every case at ``scale``; the scale's results."""
    ds = ensure_data(bootstrap, scale)
    topics = tuple(getattr(ds, "m_topics", setup_data.M_TOPICS))
    groups = tuple(getattr(ds, "groups", setup_data.GROUPS))
    t_re, g_re = alternation(topics), alternation(groups)
    spec = tmp / f"bench-check-{scale}.yaml"
    spec.write_text(spec_text(ds.bootstrap, t_re, g_re))
    cases: list[Case] = []
    notes: dict[str, str] = {}
    for key in args.masters:
        if key == "local":
            target = ["--master", "local[*]"]
        else:
            try:
                target = spark_target()
            except Exception as exc:  # no mount namespaces (not root), or the cluster did not start
                notes[key] = f"not run: {exc}"
                log(f"standalone: {notes[key]}")
                continue
        title = {"local": "`check` local[*]", "standalone": "`check` standalone (2 workers x 1 core)"}[key]
        cases.append(
            check_case(key, title, spec, target, tmp / f"table-{key}", tmp / f"events-{key}-{scale}")
        )
    if args.remote:
        cases.append(
            check_case(
                "connect",
                f"`check --remote` ({args.remote})",
                spec,
                ["--remote", args.remote],
                tmp / "table-connect",
                None,
            )
        )
    if "local" in args.masters:
        cases.append(floor_case())
    direct = direct_case(ds.bootstrap, t_re, g_re)
    log(f"scale {scale}: {len(topics)} topics, {len(groups)} groups; cross-checking one run of each …")
    d = run(direct.argvs, tmp, f"{scale}-direct-verify")
    if d.rc:
        raise SystemExit(f"direct commands failed (exit {d.rc}):\n{d.errs[-1][-1500:]}")
    live, lag = json.loads(d.outs[0]), json.loads(d.outs[1])
    results: dict[str, Any] = {"cross_check": {}, "executors": {}}
    lag_rows = 0
    for c in list(cases):
        if not c.check:
            continue  # no records to cross-check (the floor)
        argv = [*c.argvs[0], *c.verify_conf]
        r = run([argv], tmp, f"{scale}-{c.key}-verify")
        if r.rc or not r.outs[0].strip():  # one case failing does not cost the others' numbers
            cases.remove(c)
            notes[c.key] = f"failed (exit {r.rc}): {_last_line(r.errs[0])}"
            log(f"  {c.key}: {notes[c.key]}")
            continue
        doc = json.loads(r.outs[0])
        results["cross_check"][c.key] = cross_check(doc, live, lag)
        lag_rows = sum(1 for x in doc["partitions"] if x["check"] == "g-lag")
        if c.verify_conf:
            results["executors"][c.key] = executor_peaks(tmp / f"events-{c.key}-{scale}")
        log(f"  {c.key}: {results['cross_check'][c.key]}; executors {results['executors'].get(c.key)}")
    runs: dict[str, list[Run]] = {c.key: [] for c in [*cases, direct]}
    stages: dict[str, dict[str, list[float]]] = {c.key: {} for c in cases}  # the floor's too
    for i in range(args.reps):
        for c in [*cases, direct]:
            log(f"scale {scale} round {i + 1}/{args.reps}: {c.key} …")
            r = run(c.argvs, tmp, f"{scale}-{c.key}-{i}")
            if r.rc:
                if c is direct:
                    raise SystemExit(f"{c.key} failed (exit {r.rc}):\n{r.errs[-1][-2000:]}")
                cases.remove(c)
                notes[c.key] = f"failed in round {i + 1} (exit {r.rc}): {_last_line(r.errs[0])}"
                log(f"  {c.key}: {notes[c.key]}")
                continue
            runs[c.key].append(r)
            if c is direct:
                continue
            got = parse_timings(r.errs[0]) if c.check else json.loads(r.outs[0])["timings"]  # the floor's
            for k, v in got.items():
                stages[c.key].setdefault(k, []).append(v)
    d_med = statistics.median(r.wall for r in runs["direct"])
    out_cases = {}
    for c in [*cases, direct]:
        rs = runs[c.key]
        wall = stat([r.wall for r in rs])
        out_cases[c.key] = {
            "title": c.title,
            "wall": wall,
            "cpu_median_s": round(statistics.median(r.cpu for r in rs), 3),
            "ratio_to_direct": round(wall["median_s"] / d_med, 2),
            "peaks_mb": {
                k: max(r.peaks.get(k, 0.0) for r in rs)
                for k in ("driver_python", "driver_jvm", "worker_python")
            },
            "time_m_mb": round(max(r.time_m_mb for r in rs), 1),
            "stages": {k: stat(v) for k, v in stages.get(c.key, {}).items()},
            "executors": results["executors"].get(c.key, {}),
        }
    return {
        "scale": scale,
        "partitions": len(topics) * setup_data.M_PARTITIONS,
        "groups": len(groups),
        "lag_rows": lag_rows,
        "cross_check": results["cross_check"],
        "notes": notes,
        "cases": out_cases,
    }


def _last_line(text: str) -> str:
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return lines[-1][:300] if lines else "(no output)"


def _executors_text(ex: dict[str, dict[str, float]]) -> str:
    if not ex:
        return "–"
    parts = []
    for eid, p in sorted(ex.items()):
        parts.append(f"{eid}: {p.get('jvm_rss', 0):.0f} / {p.get('py_rss', 0):.0f}")
    return "; ".join(parts)


def markdown(data: dict[str, Any]) -> str:
    """The Markdown summary docs/performance.md quotes."""
    m = data["machine"]
    lines = [
        f"# `kafka-offsets check` benchmark ({data['date']})",
        "",
        f"Machine: {m['cores']} cores, {m['memory_gib']} GiB, {m['cpu_model'] or '?'}; load average "
        f"{data['load_before']:.1f} before, {data['load_after']:.1f} after. Kafka: 3 local KRaft nodes "
        f"(`python -m dev.kafka up --nodes 3`), time lag on, `--write parquet`. {data['reps']} timed runs "
        "of each case in alternation, medians. Command: `" + data["command"] + "`.",
        "",
        "Memory: peak RSS (MiB) of the CLI's Python process (driver), of the JVM it starts (driver; "
        "with `local[*]` also the executor) and of its largest Python worker, polled from `/proc`; "
        "executors: peak JVM RSS / Python RSS of each executor's process tree from Spark's event log "
        "(one verifying run). CPU s: user+sys of the CLI's processes that it waits for (not Spark's JVM).",
    ]
    for s in data["scales"]:
        cases = s["cases"]
        lines += [
            "",
            f"## {s['partitions']:,} partitions, {s['groups']} groups ({s['lag_rows']:,} lag rows)",
            "",
            "| case | wall median s | min | max | CPU s | x direct | driver Python MB | driver JVM MB "
            "| Python worker MB | executors: JVM / Python MB |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for c in cases.values():
            w, p = c["wall"], c["peaks_mb"]
            lines.append(
                f"| {c['title']} | {w['median_s']:.2f} | {w['min_s']:.2f} | {w['max_s']:.2f} "
                f"| {c['cpu_median_s']:.2f} | {c['ratio_to_direct']:.2f} | {p['driver_python']:.0f} "
                f"| {p['driver_jvm']:.0f} | {p['worker_python']:.0f} | {_executors_text(c['executors'])} |"
            )
        checks = [k for k, c in cases.items() if c["stages"]]
        names: list[str] = []
        for k in checks:
            names += [n for n in cases[k]["stages"] if n not in names]
        if checks:
            lines += [
                "",
                "| stage (median s) | " + " | ".join(checks) + " |",
                "|---|" + "---:|" * len(checks),
            ]
            for n in names:
                vals = [cases[k]["stages"].get(n, {}).get("median_s") for k in checks]
                lines.append(f"| {n} | " + " | ".join("–" if v is None else f"{v:.2f}" for v in vals) + " |")
        lines += ["", "Cross-check: " + "; ".join(f"{k}: {v}" for k, v in s["cross_check"].items()) + "."]
        lines += [f"{k}: {v}." for k, v in s["notes"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(prog="python -m bench.bench_check", description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3, help="timed runs of each case (default 3)")
    ap.add_argument(
        "--scale", type=int, action="append", choices=(20, 100), help="data set(s): 20 (default), 100"
    )
    ap.add_argument(
        "--masters", default="local,standalone", help="check cases: local, standalone (default both)"
    )
    ap.add_argument(
        "--remote", metavar="sc://HOST:PORT", help="also time `check --remote URL` (Spark Connect)"
    )
    ap.add_argument("--keep", action="store_true", help="leave the bench cluster running afterwards")
    ap.add_argument("--cluster", default=CLUSTER, help=f"dev.kafka cluster name (default {CLUSTER})")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results/")
    args = ap.parse_args(argv)
    args.masters = [m.strip() for m in args.masters.split(",") if m.strip()]
    if set(args.masters) - {"local", "standalone"}:
        ap.error("--masters: local and/or standalone")
    scales = args.scale or [20]
    # a TERM (timeout, kill) still runs the clean-ups below: the Spark cluster's daemons are not orphaned
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    load_before = os.getloadavg()[0]
    log(f"starting cluster {args.cluster!r} (python -m dev.kafka up --nodes 3) …")
    bootstrap, was_running = cluster_up(args.cluster)
    tmp = Path(tempfile.mkdtemp(prefix="kafka-offsets-bench-check-"))
    spark_cluster: list[Any] = []

    def spark_target() -> list[str]:
        if not spark_cluster:
            cluster, target = standalone(tmp)
            spark_cluster.extend([cluster, target])
        return list(spark_cluster[1])

    try:
        results = [bench_scale(args, bootstrap, s, tmp, spark_target) for s in scales]
    finally:
        if spark_cluster:
            spark_cluster[0].down()
            shutil.rmtree(spark_cluster[0].state, ignore_errors=True)
        if not args.keep and not was_running:
            log("stopping the bench cluster …")
            dev_kafka.down(args.cluster)
        shutil.rmtree(tmp, ignore_errors=True)
    data = {
        "date": now_iso(),
        "machine": machine_info(),
        "command": "python -m bench.bench_check " + " ".join(argv if argv is not None else sys.argv[1:]),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "reps": args.reps,
        "scales": results,
    }
    md = markdown(data)
    print(md)
    if not args.no_write:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        for path, text in (
            (RESULTS_DIR / "check.json", json.dumps(data, indent=2) + "\n"),
            (RESULTS_DIR / "CHECK.md", md),
        ):
            tmp_path = path.with_suffix(path.suffix + ".tmp")
            tmp_path.write_text(text)
            tmp_path.replace(path)
        log(f"wrote {RESULTS_DIR / 'check.json'} and {RESULTS_DIR / 'CHECK.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
