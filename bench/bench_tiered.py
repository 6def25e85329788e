"""``python -m bench.bench_tiered``: the tiered specs against GetOffsetShell (see bench/README.md).

Usage::

    python -m bench.bench_tiered [--reps N] [--sizes 1k,10k] [--keep] [--no-write]
    python -m bench.bench_tiered --render     # TIERED.md again from tiered.json

Brings up (or reuses) the one-node cluster ``bench-tiered`` with tiered storage (dev/tiered.py:
Kafka's ``LocalTieredStorage``), creates tiered topics of 1,000 and 10,000 partitions whose
sampled partitions have really moved segments to remote storage (waited for, bounded), and times

* ``list -s earliest -s earliest-local -s latest-tiered -s latest`` against GetOffsetShell run once
  per spec (4 JVMs, what a user must do), outputs checked equal first;
* the import cost of kafka-python, the second client library: ``list -s latest`` against
  ``list -s earliest-local`` on a one-partition topic, and ``-X importtime`` of the latter;
* which commands import kafka-python at all (only a tiered spec may).

Writes bench/results/tiered.json and bench/results/TIERED.md (not the main suite's files).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from confluent_kafka.admin import NewTopic  # type: ignore[attr-defined]

from dev import kafka as dev_kafka
from dev import tiered
from dev.kafka_data import admin, wait_for_leaders

from .__main__ import PEER_JVM, _java, _java_display, _ours, imported_modules, java_flags
from .runner import (
    CLI,
    GOS,
    REPO,
    RESULTS_DIR,
    VENV_PY,
    Case,
    Tool,
    install_product,
    log,
    machine_info,
    now_iso,
    parse_csv_specs,
    parse_plain,
    run_case,
    same_offsets,
    versions,
    workdir,
)

CLUSTER = "bench-tiered"
SPECS = ("earliest", "earliest-local", "latest-tiered", "latest")
T1 = "bench.t1"
#: name prefix, partitions per topic, topics (KRaft refuses more than 10,000 partitions per request)
SIZES = {"1k": ("bench.tk", 1000, 1), "10k": ("bench.tm", 1000, 10)}
#: 1 KiB records into every SAMPLE_EVERY-th partition: a few 16 KiB segments, all uploaded and deleted
#: locally within seconds (with local.retention.ms=1000 Kafka rolls the active segment too once its
#: records are older), so earliest 0 < latest-tiered 47 < earliest-local = latest 48
RECORDS = 48
SAMPLE_EVERY = {"1k": 10, "10k": 100}
MOVE_TIMEOUT_S = 600.0


def _topics(size: str) -> list[str]:
    prefix, _, count = SIZES[size]
    return [f"{prefix}.{i:02d}" for i in range(count)]


def _selector(size: str) -> list[str]:
    prefix = SIZES[size][0]
    return ["--topic", prefix.replace(".", r"\.") + r"\..*"]


def _sampled(size: str) -> list[tuple[str, int]]:
    _, parts, _ = SIZES[size]
    return [(t, p) for t in _topics(size) for p in range(0, parts, SAMPLE_EVERY[size])]


def ensure_data(bootstrap: str, sizes: Sequence[str]) -> dict[str, float]:
    """Create what is missing (tiered topics, records in the sampled partitions) and wait until the
    sampled partitions' rolled segments are uploaded and deleted locally. Returns seconds per step."""
    took: dict[str, float] = {}
    client = admin(bootstrap)
    existing = set(client.list_topics(timeout=30).topics)
    wanted = {T1: 1} | {t: SIZES[s][1] for s in sizes for t in _topics(s)}
    t0 = time.monotonic()
    for name, parts in wanted.items():
        if name not in existing:
            log(f"creating tiered topic {name} ({parts} partitions) …")
            fut = client.create_topics([NewTopic(name, parts, 1, config=tiered.TOPIC_CONFIG)])
            fut[name].result(300)
    wait_for_leaders(client, wanted, timeout=600)
    took["create_s"] = round(time.monotonic() - t0, 1)
    t0 = time.monotonic()
    ends = _query(bootstrap, [(T1, 0)], "latest")
    if ends.get((T1, 0), 0) == 0:
        tiered.produce(bootstrap, T1, 1, RECORDS)
    for size in sizes:
        for topic in _topics(size):
            sample = [p for t, p in _sampled(size) if t == topic]
            have = _query(bootstrap, [(topic, p) for p in sample], "latest")
            if all(have.get((topic, p), 0) >= RECORDS for p in sample):
                continue
            log(f"producing {RECORDS} records into {len(sample)} partitions of {topic} …")
            _produce(bootstrap, topic, sample)
    took["produce_s"] = round(time.monotonic() - t0, 1)
    t0 = time.monotonic()
    for size in sizes:
        _wait_moved(bootstrap, _sampled(size))
    _wait_moved(bootstrap, [(T1, 0)])
    took["move_s"] = round(time.monotonic() - t0, 1)
    return took


def _produce(bootstrap: str, topic: str, partitions: Sequence[int]) -> None:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 4096})
    for part in partitions:
        for i in range(RECORDS):
            p.produce(topic, f"{topic}/{part}/{i}".encode().ljust(1024, b"."), partition=part)
        p.poll(0)
    if p.flush(120) != 0:
        raise RuntimeError(f"could not produce to {topic}")


def _query(bootstrap: str, tps: Sequence[tuple[str, int]], *specs: str) -> dict[Any, int]:
    """Offsets of ``tps`` by the development CLI (jsonl): {(topic, partition): offset} of the last spec,
    or with several specs {(topic, partition, spec): offset}."""
    sel = ",".join(f"{t}:{p}" for t, p in tps)
    args = [a for s in specs for a in ("-s", s)]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafka_offsets_cli",
            "list",
            "-b",
            bootstrap,
            "--topic-partitions",
            sel,
            *args,
            "-o",
            "jsonl",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    out: dict[Any, int] = {}
    for line in run.stdout.splitlines():
        r = json.loads(line)
        if r.get("offset") is not None:
            key = (r["topic"], r["partition"]) if len(specs) == 1 else (r["topic"], r["partition"], r["spec"])
            out[key] = r["offset"]
    return out


def _wait_moved(bootstrap: str, tps: Sequence[tuple[str, int]]) -> None:
    """Until every partition's rolled segments are remote only: earliest-local = latest-tiered + 1 > 1,
    unchanged over two polls (bounded by MOVE_TIMEOUT_S)."""
    deadline = time.monotonic() + MOVE_TIMEOUT_S
    last: dict[Any, int] | None = None
    while True:
        seen = _query(bootstrap, tps, "earliest-local", "latest-tiered")
        done = all(
            seen.get((t, p, "latest-tiered"), -1) > 0
            and seen.get((t, p, "earliest-local")) == seen[(t, p, "latest-tiered")] + 1
            for t, p in tps
        )
        if done and seen == last:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"segments of {len(tps)} partitions did not move within {MOVE_TIMEOUT_S:.0f}s")
        last = seen
        time.sleep(3)


def four_spec_cases(bootstrap: str, sizes: Sequence[str]) -> list[Case]:
    """list with the four specs in one run vs GetOffsetShell once per spec."""
    cases = []
    for size in sizes:
        _, parts, count = SIZES[size]
        sel = _selector(size)
        spec_args = [a for s in SPECS for a in ("--spec", s)]
        gos_runs = [["--bootstrap-server", bootstrap, *sel, "--time", s] for s in SPECS]
        cases.append(
            Case(
                key=f"tiered.{size}.4specs",
                group="tiered",
                title=f"list -s earliest -s earliest-local -s latest-tiered -s latest vs GetOffsetShell x4, "
                f"{parts * count:,} tiered partitions",
                ours=_ours(
                    "kafka-offsets",
                    "list",
                    "-b",
                    bootstrap,
                    *sel,
                    *spec_args,
                    "-o",
                    "csv",
                    parse=parse_csv_specs,
                ),
                peer=Tool(
                    "GetOffsetShell x4",
                    [_java(GOS, *a) for a in gos_runs],
                    " ; ".join(_java_display("GetOffsetShell", a) for a in gos_runs),
                    parse_plain,
                ),
                partitions=parts * count,
                verify=same_offsets,
            )
        )
    return cases


def import_case(bootstrap: str, reps: int) -> Case:
    """The same one-partition list with a spec librdkafka answers and one kafka-python answers."""
    one = ["list", "-b", bootstrap, "-t", T1, "-o", "plain", "-s"]
    tiered_spec = _ours("kafka-offsets -s earliest-local", *one, "earliest-local", parse=parse_plain)
    return Case(
        key="tiered.1.import",
        group="import",
        title="list -s latest vs list -s earliest-local (kafka-python imported), 1 partition",
        ours=_ours("kafka-offsets -s latest", *one, "latest", parse=parse_plain),
        peer=tiered_spec,
        partitions=1,
        reps=max(10, 2 * reps),
        note="ratio = earliest-local / latest: the extra cost of the second client library",
    )


def importtime(bootstrap: str, runs: int) -> dict[str, Any]:
    """``python -X importtime`` of ``list -s earliest-local``: kafka-python's own modules (sum of their
    self times) and everything ``kafka_offsets_cli.kafka.list_offsets_kafka_python`` pulls in (its
    cumulative time)."""
    argv = [str(VENV_PY), "-X", "importtime", "-m", "kafka_offsets_cli"]
    argv += ["list", "-b", bootstrap, "-t", T1, "-s", "earliest-local", "-o", "plain"]
    own, module = [], []
    for _ in range(runs):
        p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"-X importtime run failed: {p.stderr[-500:]}")
        selfs = cum = 0
        for line in p.stderr.splitlines():
            if not line.startswith("import time:") or "|" not in line:
                continue
            fields = [f.strip() for f in line[len("import time:") :].split("|")]
            if not fields[0].isdigit():
                continue
            name = fields[2]
            if name == "kafka" or name.startswith("kafka."):
                selfs += int(fields[0])
            if name == "kafka_offsets_cli.kafka.list_offsets_kafka_python":
                cum = int(fields[1])
        own.append(selfs)
        module.append(cum)
    # CPU time is what a loaded machine does not stretch: the tiered module's import alone, after what
    # every list command imports anyway
    probe = (
        "import time, kafka_offsets_cli.kafka, kafka_offsets_cli.kafka.tiered_config\n"
        "t = time.process_time()\n"
        "import kafka_offsets_cli.kafka.list_offsets_kafka_python\n"
        "print(time.process_time() - t)\n"
    )
    cpu = []
    for _ in range(runs):
        p = subprocess.run(
            [str(VENV_PY), "-c", probe], capture_output=True, text=True, timeout=120, check=True
        )
        cpu.append(float(p.stdout.strip()))
    return {
        "cpu_method": (
            "process_time() around `import kafka_offsets_cli.kafka.list_offsets_kafka_python` (bench venv)"
        ),
        "tiered_import_cpu_ms_median": round(statistics.median(cpu) * 1000, 1),
        "method": "python -X importtime -m kafka_offsets_cli list -t bench.t1 -s earliest-local (bench venv)",
        "runs": runs,
        "kafka_python_self_ms_median": round(statistics.median(own) / 1000, 1),
        "tiered_module_cumulative_ms_median": round(statistics.median(module) / 1000, 1),
    }


def import_proof(bootstrap: str) -> dict[str, Any]:
    """Which commands import kafka-python (module ``kafka``): only those with a tiered spec may."""
    base = ["list", "-b", bootstrap, "-t", T1, "-o", "csv"]
    runs = [
        ("--help", ["--help"], False),
        ("list --help", ["list", "--help"], False),
        ("list -s latest", [*base, "-s", "latest"], False),
        ("list -s latest -o table", [*base, "-s", "latest", "-o", "table"], False),
        ("list -s earliest -s '1h ago'", [*base, "-s", "earliest", "-s", "1h ago"], False),
        # every record of bench.t1 is remote: max-timestamp answers "none" and list asks earliest-local
        # once (plan/settle.py) to tell that from a pending answer, so kafka-python is loaded
        ("list -s max-timestamp (no local record)", [*base, "-s", "max-timestamp"], True),
        ("list -s earliest-local", [*base, "-s", "earliest-local"], True),
        ("list -s latest -s latest-tiered", [*base, "-s", "latest", "-s", "latest-tiered"], True),
    ]
    rows = []
    for label, args, expected in runs:
        rc, mods = imported_modules([str(CLI), *args])
        imported = "kafka" in {m.split(".")[0] for m in mods}
        rows.append(
            {"command": f"kafka-offsets {label}", "exit": rc, "kafka_python": imported, "expected": expected}
        )
    ok = all(r["exit"] == 0 and r["kafka_python"] == r["expected"] for r in rows)
    return {"method": "PYTHONPROFILEIMPORTTIME=1, modules parsed from stderr", "ok": ok, "runs": rows}


def markdown(data: dict[str, Any]) -> str:
    """RESULTS-style summary of a run."""
    m, v, load = data["machine"], data["versions"], data["load_1m"]
    lines = [
        "# kafka-offsets tiered-storage benchmark",
        "",
        f"{data['date']} · {m['cores']} cores, {m['memory_gib']} GiB · load average (1 min) "
        f"{load['start']} at start, {load['end']} at end, {load['max']} at most"
        + (
            " (machine shared with other jobs: compare ratios and CPU, not wall times)"
            if data["load_1m"]["max"] > (m["cores"] or 1)
            else ""
        ),
        "",
        f"Kafka {v['kafka']} (1 local KRaft node with LocalTieredStorage, loopback) · kafka-offsets "
        f"{v['kafka-offsets']} · kafka-python (bench venv) · {v['java']}. Median of "
        f"{data['settings']['reps']} alternating runs, whole processes. "
        f"Command: `{data['settings']['command']}`.",
        "",
        f"Data: tiered topics (remote.storage.enable=true, 16 KiB segments, local.retention.ms=1000); "
        f"{RECORDS} records of 1 KiB in every 10th (1k) / 100th (10k) partition, waited for until their "
        f"rolled segments were uploaded and deleted locally. Set-up: {data['setup']}.",
        "",
        "| benchmark | partitions | kafka-offsets | peer | peer time | ratio | CPU s (ours / peer) "
        "| CPU ratio | peak RSS MB (ours / peer) |",
        "|---|---:|---|---|---|---:|---|---:|---|",
    ]
    for r in data["results"]:
        if "error" in r:
            lines.append(f"| {r['title']} | {r['partitions']} | error: {r['error'][:100]} | | | | | | |")
            continue
        o, p = r["ours"], r["peer"]
        mark = "" if r.get("verified", True) else " ⚠ outputs differ"
        lines.append(
            f"| {r['title']}{mark} | {r['partitions']:,} | {o['median_s']:.3f} s | {p['tool']} | "
            f"{p['median_s']:.3f} s | {r['ratio']}x | {o['cpu_median_s']:.2f} / {p['cpu_median_s']:.2f} | "
            f"{r['cpu_ratio']}x | {o['peak_rss_mb']:.0f} / {p['peak_rss_mb']:.0f} |"
        )
    it = data["importtime"]
    lines += [
        "",
        f"Import cost of kafka-python ({it['method']}, median of {it['runs']}): its own modules "
        f"{it['kafka_python_self_ms_median']} ms; `kafka_offsets_cli.kafka.list_offsets_kafka_python` with "
        f"everything it pulls in {it['tiered_module_cumulative_ms_median']} ms (wall clock, stretched by "
        f"the load); CPU time of that import ({it['cpu_method']}): {it['tiered_import_cpu_ms_median']} ms.",
        "",
        f"Imports kafka-python? ({data['proof']['method']}; "
        + ("as expected" if data["proof"]["ok"] else "NOT as expected")
        + ")",
        "",
        "| command | exit | kafka-python imported |",
        "|---|---:|---|",
    ]
    for row in data["proof"]["runs"]:
        lines.append(f"| `{row['command']}` | {row['exit']} | {'yes' if row['kafka_python'] else 'no'} |")
    lines += [
        "",
        "Peers: GetOffsetShell from Kafka's jars, JVM flags "
        f"`{' '.join(data['settings']['java_tool_flags'])}`.",
        "",
    ]
    for note in data["notes"]:
        lines += [f"Note: {note}", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tiered benchmark."""
    ap = argparse.ArgumentParser(prog="python -m bench.bench_tiered", description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5, help="timed rounds per comparison (default 5)")
    ap.add_argument("--sizes", default="1k,10k", help="partition counts to run: 1k, 10k or both (default)")
    ap.add_argument("--keep", action="store_true", help="leave the bench-tiered cluster running afterwards")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results/tiered.*")
    ap.add_argument("--peer-jvm", choices=("script", "light"), default="script", help="as python -m bench")
    ap.add_argument("--render", action="store_true", help="only rewrite TIERED.md from tiered.json (no run)")
    args = ap.parse_args(argv)
    if args.render:
        (RESULTS_DIR / "TIERED.md").write_text(
            markdown(json.loads((RESULTS_DIR / "tiered.json").read_text()))
        )
        return 0
    PEER_JVM["mode"] = args.peer_jvm
    sizes = [s for s in args.sizes.split(",") if s]
    if not sizes or any(s not in SIZES for s in sizes):
        ap.error("--sizes takes 1k, 10k or 1k,10k")
    command = "python -m bench.bench_tiered" + "".join(
        f" {a}" for a in (argv if argv is not None else sys.argv[1:])
    )
    install_product(sys.executable)
    loads = [os.getloadavg()[0]]
    log(f"starting cluster {CLUSTER!r} (1 node, tiered storage) …")
    cluster = tiered.up(CLUSTER, nodes=1, heap="1g", timeout=300)
    try:
        setup = ensure_data(cluster.bootstrap, sizes)
        log(f"data ready: {setup}")
        dev_kafka.run_tool(GOS, "--bootstrap-server", cluster.bootstrap, "--topic", T1)
        cases = [*four_spec_cases(cluster.bootstrap, sizes), import_case(cluster.bootstrap, args.reps)]
        results = []
        with workdir() as tmp:
            for c in cases:
                results.append(run_case(c, args.reps, Path(tmp)))
                loads.append(os.getloadavg()[0])
        log("import cost and import check …")
        data: dict[str, Any] = {
            "date": now_iso(),
            "machine": machine_info(),
            "versions": versions(dev_kafka.kafka_version()),
            "settings": {
                "reps": args.reps,
                "command": command,
                "cluster": "1 KRaft node (broker+controller) with LocalTieredStorage, loopback",
                "peer_jvm": args.peer_jvm,
                "java_tool_flags": java_flags(),
            },
            "setup": setup,
            "results": results,
            "importtime": importtime(cluster.bootstrap, 7),
            "proof": import_proof(cluster.bootstrap),
            "notes": [] if "10k" in sizes else ["10,000-partition case not run (--sizes)"],
        }
        loads.append(os.getloadavg()[0])
        data["load_1m"] = {
            "start": round(loads[0], 2),
            "end": round(loads[-1], 2),
            "max": round(max(loads), 2),
        }
        print(json.dumps({k: data[k] for k in ("setup", "importtime")}, indent=1))
        for row in data["proof"]["runs"]:
            print(
                f"{row['command']}: exit {row['exit']}, kafka-python {'yes' if row['kafka_python'] else 'no'}"
            )
        if not args.no_write:
            RESULTS_DIR.mkdir(parents=True, exist_ok=True)
            (RESULTS_DIR / "tiered.json").write_text(json.dumps(data, indent=2) + "\n")
            (RESULTS_DIR / "TIERED.md").write_text(markdown(data))
            print("wrote bench/results/tiered.json and bench/results/TIERED.md")
    finally:
        if args.keep:
            log(f"cluster {CLUSTER!r} left running: {cluster.bootstrap}")
        else:
            dev_kafka.down(CLUSTER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
