"""Time whole commands, alternating tools, and write bench/results/.

Every sample is one whole process (or, for "GetOffsetShell x4", four processes run one after
the other): wall time from fork to exit, user+sys CPU time and peak RSS from ``os.wait4``'s
rusage (``ru_maxrss``, the largest of the processes). Before the timed runs each tool runs
once untimed; that run's output is parsed and cross-checked against the peer's (same offsets,
same lag), so a fast wrong answer cannot pass. Then the tools alternate A B A B … for
``reps`` rounds.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS_DIR = Path(__file__).resolve().parent / "results"
#: The product as users get it (``pipx install .``: a regular, non-editable install), in a venv of its
#: own: the development venv's editable install adds an import hook to every interpreter start.
BENCH_VENV = Path(__file__).resolve().parent / ".venv"
CLI = BENCH_VENV / "bin" / "kafka-offsets"
VENV_PY = BENCH_VENV / "bin" / "python"
KCAT = "/usr/bin/kcat"
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
GOS = "org.apache.kafka.tools.GetOffsetShell"
CGC = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"
RUN_TIMEOUT = 600.0


def install_product(python: str) -> None:
    """Install the working tree into :data:`BENCH_VENV` as a regular wheel install (refreshed every run).

    Dependencies come from the same index as the development venv; pip compiles the
    installed modules, so no run pays for byte-compilation.
    """
    import subprocess

    if not VENV_PY.exists():
        log(f"creating {BENCH_VENV.relative_to(REPO)} (the product installed as users install it) …")
        subprocess.run([python, "-m", "venv", str(BENCH_VENV)], check=True)
        subprocess.run([str(VENV_PY), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
        subprocess.run([str(VENV_PY), "-m", "pip", "install", "-q", str(REPO)], check=True)
    log("installing the working tree into the bench venv (non-editable) …")
    subprocess.run(
        [str(VENV_PY), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(REPO)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def log(msg: str) -> None:
    """Progress to stderr."""
    import sys

    print(f"[bench] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------
# measuring


@dataclass(frozen=True)
class Sample:
    """One timed run of a tool (possibly several processes in sequence)."""

    wall: float
    cpu: float
    rss_kb: int
    rc: int


@dataclass
class Tool:
    """A command line (or several run in sequence) and how to read what it prints."""

    label: str
    argvs: list[list[str]]
    display: str
    parse: Callable[[list[str]], Any] | None = None
    ok_codes: tuple[int, ...] = (0,)


def run_once(tool: Tool, workdir: Path, tag: str) -> tuple[Sample, list[str], str]:
    """Run every argv of ``tool`` once; return the sample, each argv's stdout, and stderr's tail."""
    wall = cpu = 0.0
    rss = 0
    rc = 0
    outs: list[str] = []
    err_tail = ""
    for i, argv in enumerate(tool.argvs):
        out_path = workdir / f"{tag}.{i}.out"
        err_path = workdir / f"{tag}.{i}.err"
        rss_path = workdir / f"{tag}.{i}.rss"
        # GNU time reports the tool's own peak RSS: wait4's ru_maxrss of a child started by
        # this (large) Python process would include the parent's RSS, inherited at fork
        wrapped = [TIME, "-f", "%M", "-o", str(rss_path), *argv] if TIME else list(argv)
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            t0 = time.perf_counter()
            proc = subprocess.Popen(wrapped, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            timer = threading.Timer(RUN_TIMEOUT, proc.kill)
            timer.start()
            try:
                _, status, ru = os.wait4(proc.pid, 0)
            finally:
                timer.cancel()
            wall += time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu += ru.ru_utime + ru.ru_stime  # the tool's CPU (time's own is ~1 ms)
        rss = max(rss, _time_rss(rss_path) if TIME else ru.ru_maxrss)
        if proc.returncode not in tool.ok_codes and rc == 0:
            rc = proc.returncode
            err_tail = err_path.read_text(errors="replace")[-1500:]
        outs.append(out_path.read_text(errors="replace"))
    return Sample(wall, cpu, rss, rc), outs, err_tail


def _time_rss(path: Path) -> int:
    """Peak RSS in KiB from GNU time's ``-f %M`` output (last line; 0 if unreadable)."""
    try:
        lines = path.read_text().split()
        return int(lines[-1]) if lines else 0
    except (OSError, ValueError):
        return 0


def summary(samples: Sequence[Sample]) -> dict[str, Any]:
    """Median/min/max wall time, median CPU time and peak RSS of ``samples``."""
    walls = [s.wall for s in samples]
    return {
        "runs": len(samples),
        "median_s": round(statistics.median(walls), 4),
        "min_s": round(min(walls), 4),
        "max_s": round(max(walls), 4),
        "cpu_median_s": round(statistics.median(s.cpu for s in samples), 4),
        "peak_rss_mb": round(max(s.rss_kb for s in samples) / 1024, 1),
        "samples": [
            {"wall_s": round(s.wall, 4), "cpu_s": round(s.cpu, 4), "rss_kb": s.rss_kb} for s in samples
        ],
    }


@dataclass
class Case:
    """One comparison: kafka-offsets against a peer (or alone, for start-up)."""

    key: str
    group: str
    title: str
    ours: Tool
    peer: Tool | None
    partitions: int | None = None
    #: check that the parsed outputs of ours and peer agree: returns (ok, detail)
    verify: Callable[[Any, Any], tuple[bool, str]] | None = None
    reps: int | None = None
    note: str = ""
    result: dict[str, Any] = field(default_factory=dict)


def run_case(case: Case, reps: int, workdir: Path) -> dict[str, Any]:
    """Warm up and verify once, then time ``reps`` alternating rounds; return the case's results."""
    reps = case.reps or reps
    tools = [case.ours] + ([case.peer] if case.peer else [])
    load_before = os.getloadavg()[0]
    log(f"{case.key}: {case.title} ({reps} rounds)")
    res: dict[str, Any] = {
        "key": case.key,
        "group": case.group,
        "title": case.title,
        "partitions": case.partitions,
        "note": case.note,
    }
    parsed: list[Any] = []
    for t in tools:
        sample, outs, err = run_once(t, workdir, f"{case.key}.{t.label}.warm")
        if sample.rc:
            res["error"] = f"{t.label} exited {sample.rc}: {err.strip()[-600:]}"
            log(f"  {res['error']}")
            return res
        parsed.append(t.parse(outs) if t.parse else None)
    if case.verify and case.peer:
        ok, detail = case.verify(parsed[0], parsed[1])
        res["verified"] = ok
        res["verify_detail"] = detail
        log(f"  outputs {'agree' if ok else 'DIFFER'}: {detail}")
    samples: dict[str, list[Sample]] = {t.label: [] for t in tools}
    for r in range(reps):
        for t in tools:
            sample, _, err = run_once(t, workdir, f"{case.key}.{t.label}.{r}")
            if sample.rc:
                res["error"] = f"{t.label} exited {sample.rc}: {err.strip()[-600:]}"
                log(f"  {res['error']}")
                return res
            samples[t.label].append(sample)
    for role, tool in (("ours", case.ours), ("peer", case.peer)):
        if tool is not None:
            res[role] = {"tool": tool.label, "command": tool.display, **summary(samples[tool.label])}
    if case.peer:
        ours, peer = res["ours"], res["peer"]
        res["ratio"] = round(peer["median_s"] / ours["median_s"], 2)
        res["cpu_ratio"] = round(peer["cpu_median_s"] / max(ours["cpu_median_s"], 1e-6), 2)
        log(
            f"  ours {ours['median_s']:.3f}s (cpu {ours['cpu_median_s']:.2f}s, {ours['peak_rss_mb']} MB)  "
            f"{case.peer.label} {peer['median_s']:.3f}s "
            f"(cpu {peer['cpu_median_s']:.2f}s, {peer['peak_rss_mb']} MB)  ratio {res['ratio']}x"
        )
    else:
        o = res["ours"]
        log(f"  median {o['median_s']:.3f}s min {o['min_s']:.3f}s (cpu {o['cpu_median_s']:.3f}s)")
    res["load_1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    return res


# --------------------------------------------------------------------------------------------------
# parsers and checks


def parse_plain(outs: list[str]) -> list[dict[tuple[str, int], int]]:
    """``topic:partition:offset`` lines (GetOffsetShell, ``list -o plain``), one dict per process."""
    res = []
    for out in outs:
        d: dict[tuple[str, int], int] = {}
        for line in out.splitlines():
            if line.strip():
                t, p, o = line.strip().rsplit(":", 2)
                d[(t, int(p))] = int(o)
        res.append(d)
    return res


def parse_csv_specs(outs: list[str]) -> list[dict[tuple[str, int], int]]:
    """``list -o csv`` with several specs: one dict per spec (in the order given), offsets only."""
    import csv
    import io

    by_spec: dict[str, dict[tuple[str, int], int]] = {}
    for row in csv.DictReader(io.StringIO(outs[0])):
        d = by_spec.setdefault(row["spec"], {})
        if row["offset"] not in ("", None) and not row["error"]:
            d[(row["topic"], int(row["partition"]))] = int(row["offset"])
    return list(by_spec.values())


_KCAT_RE = re.compile(r"^(.+) \[(\d+)\] offset (-?\d+)$")


def parse_kcat(outs: list[str]) -> list[dict[tuple[str, int], int]]:
    """``kcat -Q`` lines ``topic [partition] offset N`` (negative offsets: no answer, left out)."""
    d: dict[tuple[str, int], int] = {}
    for line in outs[0].splitlines():
        m = _KCAT_RE.match(line.strip())
        if m and int(m.group(3)) >= 0:
            d[(m.group(1), int(m.group(2)))] = int(m.group(3))
    return [d]


def parse_lag_jsonl(outs: list[str]) -> dict[str, tuple[int, int]]:
    """``lag -o jsonl``: group -> (partitions, total lag)."""
    out: dict[str, list[int]] = {}
    for line in outs[0].splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        if "group" not in rec or "partition" not in rec:
            continue
        acc = out.setdefault(rec["group"], [0, 0])
        acc[0] += 1
        acc[1] += int(rec.get("lag") or 0)
    return {g: (n, lag) for g, (n, lag) in out.items()}


def parse_cgc(outs: list[str]) -> dict[str, tuple[int, int]]:
    """kafka-consumer-groups ``--describe`` tables: group -> (partitions, total lag)."""
    out: dict[str, list[int]] = {}
    for line in outs[0].splitlines():
        f = line.split()
        if len(f) < 6 or f[0] == "GROUP" or not f[2].isdigit():
            continue
        acc = out.setdefault(f[0], [0, 0])
        acc[0] += 1
        acc[1] += int(f[5]) if f[5].lstrip("-").isdigit() else 0
    return {g: (n, lag) for g, (n, lag) in out.items()}


def same_offsets(ours: list[dict[Any, int]], peer: list[dict[Any, int]]) -> tuple[bool, str]:
    """Both tools returned the same offsets for the same partitions, spec by spec."""
    if len(ours) != len(peer):
        return False, f"{len(ours)} spec(s) vs {len(peer)}"
    details = []
    ok = True
    for i, (a, b) in enumerate(zip(ours, peer, strict=True)):
        diff = sum(1 for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        details.append(f"spec {i + 1}: {len(a)} offsets, {diff} differ")
        ok = ok and diff == 0 and len(a) > 0
    return ok, "; ".join(details)


def same_lag(expected: dict[str, int]) -> Callable[[Any, Any], tuple[bool, str]]:
    """Both tools report the same partitions and total lag per group, equal to what was committed."""

    def check(ours: dict[str, tuple[int, int]], peer: dict[str, tuple[int, int]]) -> tuple[bool, str]:
        groups = sorted(ours.keys() | peer.keys())
        bad = [g for g in groups if ours.get(g) != peer.get(g) or ours.get(g, (0, -1))[1] != expected.get(g)]
        rows = sum(n for n, _ in ours.values())
        return not bad and bool(
            groups
        ), f"{len(groups)} group(s), {rows} partitions, mismatches: {bad or 'none'}"

    return check


# --------------------------------------------------------------------------------------------------
# environment


def _cmd_out(argv: Sequence[str]) -> str:
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unavailable ({e})"
    return (p.stdout + p.stderr).strip()


def machine_info() -> dict[str, Any]:
    """Cores, memory, CPU model, OS, load average."""
    mem_kb = 0
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(mem_kb / 1024 / 1024, 1),
        "cpu_model": model,
        "os": platform.platform(),
        "python": platform.python_version(),
    }


def versions(kafka_version: str) -> dict[str, str]:
    """Versions of everything measured."""
    out = _cmd_out([str(CLI), "--version"])
    ck = re.search(r"confluent-kafka (\S+)", out)
    rd = re.search(r"librdkafka (\S+)", out)
    ours = re.search(r"kafka-offsets (\S+)", out)
    probe = _cmd_out(
        [
            str(VENV_PY),
            "-c",
            "import confluent_kafka as c; v = c.version(); "
            "print(v[0] if isinstance(v, tuple) else v, c.libversion()[0])",
        ]
    ).split()
    kcat = _cmd_out([KCAT, "-V"])
    kv = re.search(r"Version (\S+)", kcat)
    krd = re.search(r"librdkafka (\S+)", kcat)
    java = _cmd_out(["java", "-version"]).splitlines()
    return {
        "kafka-offsets": ours.group(1) if ours else out,
        "confluent-kafka": probe[0] if len(probe) == 2 else (ck.group(1) if ck else "?"),
        "librdkafka": probe[1] if len(probe) == 2 else (rd.group(1) if rd else "?"),
        "kafka": kafka_version,
        "kcat": kv.group(1) if kv else kcat.splitlines()[0] if kcat else "?",
        "kcat_librdkafka": krd.group(1) if krd else "?",
        "java": java[0] if java else "?",
    }


def short(argv: Sequence[str], limit: int = 160) -> str:
    """A readable, bounded rendering of a command line."""
    text = shlex.join(argv)
    return text if len(text) <= limit else text[: limit - 20] + f" … ({len(argv)} args)"


def workdir() -> Any:
    """A scratch directory for outputs (removed afterwards)."""
    return tempfile.TemporaryDirectory(prefix="kafka-offsets-bench-")


def write_results(data: dict[str, Any], markdown: str) -> tuple[Path, Path]:
    """Write results.json and RESULTS.md atomically."""
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    js = RESULTS_DIR / "results.json"
    md = RESULTS_DIR / "RESULTS.md"
    for path, text in ((js, json.dumps(data, indent=2) + "\n"), (md, markdown)):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return js, md


def now_iso() -> str:
    """The current UTC time, ISO-8601."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def which(name: str) -> str | None:
    """Path of ``name`` on PATH."""
    return shutil.which(name)
