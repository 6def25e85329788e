"""``python -m bench``: kafka-offsets against Kafka's own tools and kcat (see bench/README.md).

Usage::

    python -m bench [--quick] [--reps N] [--keep] [--only REGEX] [--no-write]

Brings up (or reuses) the 3-node local cluster ``bench`` (dev/kafka.py), creates the data set
(bench/setup_data.py) when missing, times every comparison with alternating runs, prints a
PASS/MISS line per target of issue 5, writes bench/results/results.json and RESULTS.md, and
stops the cluster unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from dev import kafka as dev_kafka

from . import setup_data
from .runner import (
    CGC,
    CLI,
    GOS,
    KCAT,
    REPO,
    VENV_PY,
    Case,
    Tool,
    install_product,
    log,
    machine_info,
    now_iso,
    parse_cgc,
    parse_csv_specs,
    parse_kcat,
    parse_lag_jsonl,
    parse_plain,
    run_case,
    same_lag,
    same_offsets,
    short,
    versions,
    workdir,
    write_results,
)

CLUSTER = "bench"
SPECS = ("latest", "earliest", "max-timestamp")
SPARK_MODULES = ("pyspark", "py4j", "pyarrow")


#: The JVM flags kafka-run-class.sh gives Kafka's command-line tools (kafka-get-offsets.sh,
#: kafka-consumer-groups.sh) when KAFKA_HEAP_OPTS/KAFKA_JVM_PERFORMANCE_OPTS are unset.
SCRIPT_JVM_FLAGS = (
    "-Xmx256M",
    "-server",
    "-XX:+UseG1GC",
    "-XX:MaxGCPauseMillis=20",
    "-XX:InitiatingHeapOccupancyPercent=35",
    "-XX:+ExplicitGCInvokesConcurrent",
    "-XX:MaxInlineLevel=15",
    "-Djava.awt.headless=true",
)
#: "script": as kafka-get-offsets.sh runs them; "light": dev.kafka's fast-start flags and CDS archive.
PEER_JVM = {"mode": "script"}


def java_flags() -> list[str]:
    """The peer JVM's flags in the chosen mode (for the results file)."""
    if PEER_JVM["mode"] == "light":
        return [*dev_kafka.TOOL_JVM_FLAGS, "-XX:SharedArchiveFile=<tool CDS archive>"]
    return list(SCRIPT_JVM_FLAGS)


def _java(main_class: str, *args: str) -> list[str]:
    if PEER_JVM["mode"] == "light":
        return dev_kafka.tool_command(main_class, *args)
    return [
        dev_kafka.java_executable(),
        *SCRIPT_JVM_FLAGS,
        f"-Dlog4j2.configurationFile={dev_kafka.TOOLS_LOG4J}",  # WARN and above to stderr, as tools-log4j2
        "-cp",
        dev_kafka.classpath(),
        main_class,
        *args,
    ]


def _java_display(name: str, args: Sequence[str]) -> str:
    return short([name, *args])


def _ours(label: str, *args: str, parse: Any = None, ok: tuple[int, ...] = (0,)) -> Tool:
    argv = [str(CLI), *args]
    return Tool(label, [argv], short(["kafka-offsets", *args]), parse, ok)


def _spec_label(spec: str, ds: setup_data.DataSet) -> str:
    return "timestamp" if spec == str(ds.lookup_ts) else spec


def list_cases(ds: setup_data.DataSet, quick: bool) -> list[Case]:
    """list vs GetOffsetShell per spec and size, and all four specs in one run vs four runs."""
    b = ds.bootstrap
    ts = str(ds.lookup_ts)
    sizes: list[tuple[str, int, list[str]]] = [
        ("1", 1, ["--topic", ds.p1]),
        ("1k", ds.k1_partitions, ["--topic", ds.k1]),
    ]
    if not quick:
        sizes.append(("10k", ds.m_partitions, ["--topic", ds.m_regex]))
    cases = []
    for size, n, sel in sizes:
        for spec in (*SPECS, ts):
            name = _spec_label(spec, ds)
            gos_args = ["--bootstrap-server", b, *sel, "--time", spec]
            cases.append(
                Case(
                    key=f"list.{size}.{name}",
                    group="list",
                    title=f"list --time {name}, {n:,} partition(s)",
                    ours=_ours(
                        "kafka-offsets",
                        "list",
                        "-b",
                        b,
                        *sel,
                        "--time",
                        spec,
                        "-o",
                        "plain",
                        parse=parse_plain,
                    ),
                    peer=Tool(
                        "GetOffsetShell",
                        [_java(GOS, *gos_args)],
                        _java_display("GetOffsetShell", gos_args),
                        parse_plain,
                    ),
                    partitions=n,
                    verify=same_offsets,
                )
            )
        four = [*SPECS, ts]
        spec_args = [a for s in four for a in ("--spec", s)]
        gos_runs = [["--bootstrap-server", b, *sel, "--time", s] for s in four]
        cases.append(
            Case(
                key=f"list.{size}.4specs",
                group="list4",
                title=f"list with 4 specs in one run vs GetOffsetShell x4, {n:,} partition(s)",
                ours=_ours(
                    "kafka-offsets", "list", "-b", b, *sel, *spec_args, "-o", "csv", parse=parse_csv_specs
                ),
                peer=Tool(
                    "GetOffsetShell x4",
                    [_java(GOS, *a) for a in gos_runs],
                    " ; ".join(_java_display("GetOffsetShell", a) for a in gos_runs),
                    parse_plain,
                ),
                partitions=n,
                verify=same_offsets,
            )
        )
    return cases


def kcat_cases(ds: setup_data.DataSet) -> list[Case]:
    """list by timestamp vs kcat -Q at 1 and 1,000 partitions."""
    b = ds.bootstrap
    ts = str(ds.lookup_ts)
    cases = []
    for size, topic, n in (("1", ds.p1, 1), ("1k", ds.k1, ds.k1_partitions)):
        targs = [a for p in range(n) for a in ("-t", f"{topic}:{p}:{ts}")]
        argv = [KCAT, "-Q", "-b", b, *targs]
        cases.append(
            Case(
                key=f"kcat.{size}",
                group="kcat",
                title=f"list --time <timestamp> vs kcat -Q, {n:,} partition(s)",
                ours=_ours(
                    "kafka-offsets",
                    "list",
                    "-b",
                    b,
                    "--topic",
                    topic,
                    "--time",
                    ts,
                    "-o",
                    "plain",
                    parse=parse_plain,
                ),
                peer=Tool("kcat -Q", [argv], short(argv, 120) if n > 1 else short(argv), parse_kcat),
                partitions=n,
                verify=same_offsets,
            )
        )
    # the floor of the stack (Python + confluent-kafka, no CLI): how close any tool on it can get
    floor = [str(VENV_PY), str(REPO / "bench" / "floor.py"), b, ds.k1, str(ds.k1_partitions), ts]
    argv = [KCAT, "-Q", "-b", b, *(a for p in range(ds.k1_partitions) for a in ("-t", f"{ds.k1}:{p}:{ts}"))]
    cases.append(
        Case(
            key="kcat.1k.floor",
            group="kcat",
            title=f"bench/floor.py (Python + confluent-kafka only) vs kcat -Q, {ds.k1_partitions:,} "
            "partition(s)",
            ours=Tool("floor.py", [floor], short(["python", "bench/floor.py", *floor[2:]]), parse_plain),
            peer=Tool("kcat -Q", [argv], short(argv, 120), parse_kcat),
            partitions=ds.k1_partitions,
            verify=same_offsets,
        )
    )
    return cases


def lag_cases(ds: setup_data.DataSet) -> tuple[list[Case], str]:
    """lag vs kafka-consumer-groups --describe, one group and all groups (skipped without ``lag``)."""
    probe = subprocess.run([str(CLI), "lag", "--help"], capture_output=True, text=True)
    if probe.returncode != 0:
        return [], "the `lag` command does not exist yet; lag benchmarks skipped"
    b = ds.bootstrap
    g0 = ds.groups[0]
    one = ["--bootstrap-server", b, "--describe", "--group", g0]
    every = ["--bootstrap-server", b, "--describe", "--all-groups"]
    regex = r"bench\.g\..*"
    cases = [
        Case(
            key="lag.1group",
            group="lag",
            title="lag vs kafka-consumer-groups --describe, 1 group (501 partitions)",
            ours=_ours("kafka-offsets", "lag", "-b", b, "--group", g0, "-o", "jsonl", parse=parse_lag_jsonl),
            peer=Tool(
                "kafka-consumer-groups",
                [_java(CGC, *one)],
                _java_display("kafka-consumer-groups", one),
                parse_cgc,
            ),
            partitions=501,
            verify=same_lag({g0: ds.group_lag[g0]}),
        ),
        Case(
            key="lag.20groups",
            group="lag",
            title=f"lag vs kafka-consumer-groups --describe --all-groups, {len(ds.groups)} groups",
            ours=_ours(
                "kafka-offsets", "lag", "-b", b, "--group-regex", regex, "-o", "jsonl", parse=parse_lag_jsonl
            ),
            peer=Tool(
                "kafka-consumer-groups",
                [_java(CGC, *every)],
                _java_display("kafka-consumer-groups", every),
                parse_cgc,
            ),
            partitions=501 * len(ds.groups),
            verify=same_lag(ds.group_lag),
        ),
    ]
    return cases, ""


def startup_cases(reps: int) -> list[Case]:
    """--help and --version start-up, and the interpreter's own floor for reference."""
    n = max(10, 2 * reps)
    return [
        Case(
            "startup.help", "startup", "kafka-offsets --help", _ours("kafka-offsets", "--help"), None, reps=n
        ),
        Case(
            "startup.version",
            "startup",
            "kafka-offsets --version",
            _ours("kafka-offsets", "--version"),
            None,
            reps=n,
        ),
        Case(
            "startup.floor",
            "startup",
            "python -c pass (the venv interpreter's floor, for reference)",
            Tool("python", [[str(VENV_PY), "-c", "pass"]], "python -c pass"),
            None,
            reps=n,
        ),
    ]


def imported_modules(argv: Sequence[str]) -> tuple[int, set[str]]:
    """Run ``argv`` with -X importtime (PYTHONPROFILEIMPORTTIME) and return (exit code, modules imported)."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    mods = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                mods.add(name)
    return p.returncode, mods


def pyspark_proof(ds: setup_data.DataSet) -> dict[str, Any]:
    """Which commands import pyspark (and py4j, pyarrow), confluent_kafka, rich; only ``check`` may."""
    b = ds.bootstrap
    runs: list[tuple[str, list[str]]] = [
        ("--help", ["--help"]),
        ("--version", ["--version"]),
        ("list (real run)", ["list", "-b", b, "--topic", ds.p1, "-o", "plain"]),
        ("lag (real run)", ["lag", "-b", b, "--group", ds.groups[0], "-o", "jsonl"]),
    ]
    for cmd in ("list", "lag", "liveness", "rewind", "config", "check"):
        runs.append((f"{cmd} --help", [cmd, "--help"]))
    rows: list[dict[str, Any]] = []
    for label, args in runs:
        rc, mods = imported_modules([str(CLI), *args])
        top = {m.split(".")[0] for m in mods}
        rows.append(
            {
                "command": f"kafka-offsets {label}",
                "exit": rc,
                "modules": len(mods),
                "pyspark": sorted(top & set(SPARK_MODULES)),
                "confluent_kafka": "confluent_kafka" in top,
                "rich": "rich" in top,
                "pydantic": "pydantic" in top,
            }
        )
    outside = [r for r in rows if " check" not in r["command"] and r["exit"] in (0,)]
    ok = bool(outside) and not any(r["pyspark"] for r in outside)
    return {
        "method": "PYTHONPROFILEIMPORTTIME=1 (python -X importtime), modules parsed from stderr",
        "ok": ok,
        "runs": rows,
    }


# --------------------------------------------------------------------------------------------------
# targets


def _find(results: list[dict[str, Any]], key: str) -> dict[str, Any] | None:
    for r in results:
        if r["key"] == key and "error" not in r:
            return r
    return None


def targets(results: list[dict[str, Any]], spark: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The targets of issue 5, each PASS, MISS or N/A (not measured)."""
    out: list[dict[str, Any]] = []

    def add(name: str, value: float | None, limit: float, better: str, unit: str, note: str = "") -> None:
        if value is None:
            status = "N/A"
        elif better == "lower":
            status = "PASS" if value < limit else "MISS"
        else:
            status = "PASS" if value >= limit else "MISS"
        out.append(
            {"target": name, "value": value, "limit": limit, "unit": unit, "status": status, "note": note}
        )

    r = _find(results, "startup.help")
    add("--help median < 200 ms", r["ours"]["median_s"] * 1000 if r else None, 200, "lower", "ms")
    for spec in ("latest", "earliest", "max-timestamp", "timestamp"):
        r = _find(results, f"list.1.{spec}")
        add(
            f"1 partition, --time {spec}: >= 5x faster than GetOffsetShell",
            r["ratio"] if r else None,
            5,
            "higher",
            "x",
        )
    r = _find(results, "list.10k.4specs")
    add("10,000 partitions x 4 specs: < 1.5 s wall", r["ours"]["median_s"] if r else None, 1.5, "lower", "s")
    add(
        "10,000 partitions x 4 specs: peak RSS < 200 MB",
        r["ours"]["peak_rss_mb"] if r else None,
        200,
        "lower",
        "MB",
    )
    add(
        "10,000 partitions x 4 specs: >= 3x faster than GetOffsetShell x4",
        r["ratio"] if r else None,
        3,
        "higher",
        "x",
    )
    r = _find(results, "kcat.1k")
    floor = _find(results, "kcat.1k.floor")
    add(
        "1,000 partitions by timestamp: no slower than kcat -Q",
        r["ratio"] if r else None,
        1.0,
        "higher",
        "x",
        f"the stack's floor (bench/floor.py) reaches {floor['ratio']}x" if floor else "",
    )
    r = _find(results, "lag.20groups")
    add(
        "all 20 groups' lag: >= 5x faster than kafka-consumer-groups --all-groups",
        r["ratio"] if r else None,
        5,
        "higher",
        "x",
    )
    if spark is not None:
        out.append(
            {
                "target": "pyspark not imported outside `check`",
                "value": None,
                "limit": None,
                "unit": "",
                "status": "PASS" if spark["ok"] else "MISS",
                "note": "",
            }
        )
    return out


# --------------------------------------------------------------------------------------------------
# report


def _t(s: dict[str, Any] | None) -> str:
    if not s:
        return "–"
    return f"{s['median_s']:.3f} s ({s['min_s']:.3f}–{s['max_s']:.3f})"


def markdown(data: dict[str, Any]) -> str:
    """The short Markdown summary docs/performance.md quotes."""
    m, v = data["machine"], data["versions"]
    lines = [
        "# kafka-offsets benchmark results",
        "",
        f"{data['date']} · {m['cores']} cores, {m['memory_gib']} GiB ({m['cpu_model']}) · "
        f"load average {data['load_1m']['start']} at start, {data['load_1m']['end']} at end"
        + (
            " (machine shared with other jobs: compare ratios, not absolute times)"
            if data["load_1m"]["max"] > (m["cores"] or 1)
            else ""
        ),
        "",
        f"Kafka {v['kafka']} (3 local KRaft nodes, loopback) · kafka-offsets {v['kafka-offsets']} · "
        f"confluent-kafka {v['confluent-kafka']} · librdkafka {v['librdkafka']} · kcat {v['kcat']} "
        f"(librdkafka {v['kcat_librdkafka']}) · {v['java']}",
        "",
        f"Median of {data['settings']['reps']} alternating runs (min–max), whole processes; CPU = user+sys; "
        "RSS = peak resident memory. Command: `" + data["settings"]["command"] + "`.",
        "",
        "| benchmark | partitions | kafka-offsets | peer | peer time | speed-up "
        "| CPU s (ours / peer) | peak RSS MB (ours / peer) |",
        "|---|---:|---|---|---|---:|---|---|",
    ]
    for r in data["results"]:
        if r["group"] == "startup":
            continue
        if "error" in r:
            lines.append(f"| {r['title']} | {r['partitions'] or ''} | error: {r['error'][:80]} | | | | | |")
            continue
        o, p = r["ours"], r.get("peer")
        mark = "" if r.get("verified", True) else " ⚠ outputs differ"
        lines.append(
            f"| {r['title']}{mark} | {r['partitions']:,} | {_t(o)} | {p['tool'] if p else ''} | {_t(p)} | "
            f"{r.get('ratio', '')}x | {o['cpu_median_s']:.2f} / {p['cpu_median_s'] if p else 0:.2f} | "
            f"{o['peak_rss_mb']:.0f} / {p['peak_rss_mb'] if p else 0:.0f} |"
        )
    lines += ["", "| start-up | median | min–max | CPU | peak RSS MB |", "|---|---:|---|---:|---:|"]
    for r in data["results"]:
        if r["group"] != "startup" or "error" in r:
            continue
        o = r["ours"]
        lines.append(
            f"| `{o['command']}` | {o['median_s'] * 1000:.0f} ms "
            f"| {o['min_s'] * 1000:.0f}–{o['max_s'] * 1000:.0f} ms "
            f"| {o['cpu_median_s'] * 1000:.0f} ms | {o['peak_rss_mb']:.0f} |"
        )
    for note in data["notes"]:
        lines += ["", f"Note: {note}"]
    sp = data.get("pyspark")
    if sp:
        bad = [r["command"] for r in sp["runs"] if r["pyspark"] and " check" not in r["command"]]
        lines += [
            "",
            f"pyspark import check ({sp['method']}): "
            + ("no command but `check` imports pyspark/py4j/pyarrow." if sp["ok"] else f"imported by {bad}"),
        ]
    lines += ["", "| target (issue 5) | measured | status |", "|---|---:|---|"]
    for t in data["targets"]:
        val = "–" if t["value"] is None else f"{t['value']:.3g} {t['unit']}".strip()
        note = f" ({t['note']})" if t.get("note") else ""
        lines.append(f"| {t['target']} | {val} | {t['status']}{note} |")
    flags = " ".join(data["settings"]["java_tool_flags"])
    how = (
        "kafka-run-class.sh's default tool flags, as kafka-get-offsets.sh and kafka-consumer-groups.sh run"
        if data["settings"]["peer_jvm"] == "script"
        else "dev.kafka's fast-start flags and a class-data-sharing archive (faster than the stock scripts)"
    )
    lines += [
        "",
        f"Peers: Kafka's GetOffsetShell and ConsumerGroupCommand from Kafka's jars with {how} (`{flags}`); "
        "kcat is Debian's build.",
        "",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark suite."""
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="3 rounds, skip the 10,000-partition cases")
    ap.add_argument(
        "--reps", type=int, default=None, help="timed rounds per comparison (default 5, --quick 3)"
    )
    ap.add_argument("--keep", action="store_true", help="leave the bench cluster running afterwards")
    ap.add_argument(
        "--only", metavar="REGEX", help="run only the cases whose key matches (e.g. 'list\\.10k|lag')"
    )
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results/")
    ap.add_argument(
        "--peer-jvm",
        choices=("script", "light"),
        default="script",
        help="JVM flags of Kafka's tools: 'script' = kafka-run-class.sh's defaults (what "
        "kafka-get-offsets.sh runs; default), 'light' = dev.kafka's fast-start flags with a CDS archive",
    )
    args = ap.parse_args(argv)
    PEER_JVM["mode"] = args.peer_jvm
    reps = args.reps or (3 if args.quick else 5)
    only = re.compile(args.only) if args.only else None
    command = "python -m bench" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:]))

    install_product(sys.executable)
    loads = [os.getloadavg()[0]]
    log(f"starting cluster {CLUSTER!r} (3 nodes) …")
    cluster = dev_kafka.up(CLUSTER, nodes=3)
    try:
        ds = setup_data.ensure(cluster.bootstrap)
        # one real run of each Java tool records its class-data-sharing archive (as run_tool does)
        dev_kafka.run_tool(GOS, "--bootstrap-server", ds.bootstrap, "--topic", ds.p1)
        dev_kafka.run_tool(CGC, "--bootstrap-server", ds.bootstrap, "--describe", "--group", ds.groups[0])
        notes: list[str] = []
        cases = startup_cases(reps) + list_cases(ds, args.quick) + kcat_cases(ds)
        lcases, lag_note = lag_cases(ds)
        cases += lcases
        if lag_note:
            notes.append(lag_note)
            log(lag_note)
        if args.quick:
            notes.append("--quick: 10,000-partition cases skipped")
        if only:
            cases = [c for c in cases if only.search(c.key)]
        results = []
        with workdir() as tmp:
            from pathlib import Path

            for c in cases:
                results.append(run_case(c, reps, Path(tmp)))
                loads.append(os.getloadavg()[0])
        spark = None
        if not only or only.search("pyspark"):
            log("checking which commands import pyspark …")
            spark = pyspark_proof(ds)
            for row in spark["runs"]:
                log(
                    f"  {row['command']}: exit {row['exit']}, pyspark {row['pyspark'] or 'no'}, "
                    f"confluent_kafka {_yn(row['confluent_kafka'])}, rich {_yn(row['rich'])}, "
                    f"pydantic {_yn(row['pydantic'])}"
                )
        loads.append(os.getloadavg()[0])
        data: dict[str, Any] = {
            "date": now_iso(),
            "machine": machine_info(),
            "load_1m": {"start": round(loads[0], 2), "end": round(loads[-1], 2), "max": round(max(loads), 2)},
            "versions": versions(dev_kafka.kafka_version()),
            "settings": {
                "reps": reps,
                "quick": args.quick,
                "only": args.only,
                "command": command,
                "cluster": "3 KRaft nodes (broker+controller), replication factor 1, loopback",
                "peer_jvm": args.peer_jvm,
                "java_tool_flags": java_flags(),
                "lookup_timestamp": ds.lookup_ts,
            },
            "data_set": {
                "topics": setup_data.wanted_topics(),
                "records": f"{setup_data.RECORDS} per partition in {ds.k1} and in every "
                f"{setup_data.SAMPLE_EVERY}th partition of bench.m.*, {setup_data.P1_RECORDS} in {ds.p1}",
                "groups": list(ds.groups),
            },
            "notes": notes,
            "results": results,
            "pyspark": spark,
        }
        data["targets"] = targets(results, spark)
        print()
        for t in data["targets"]:
            if t["value"] is not None:
                val = f"{t['value']:.3g} {t['unit']}".strip()
            else:
                val = "not measured" if t["status"] == "N/A" else "checked"
            note = f" ({t['note']})" if t.get("note") else ""
            print(f"{t['status']:4}  {t['target']}: {val}{note}")
        print(f"load average (1 min): {data['load_1m']}")
        if not args.no_write:
            js, md = write_results(data, markdown(data))
            print(f"wrote {js.relative_to(REPO)} and {md.relative_to(REPO)}")
    finally:
        if args.keep:
            log(
                f"cluster {CLUSTER!r} left running: {cluster.bootstrap} "
                f"(python -m dev.kafka down --name {CLUSTER})"
            )
        else:
            log(f"stopping cluster {CLUSTER!r} …")
            dev_kafka.down(CLUSTER)
    return 0


if __name__ == "__main__":
    sys.exit(main())
