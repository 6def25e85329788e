"""``lag``'s own per-row CPU at fleet scale, without a broker: the use case and its rendering only.

    .venv/bin/python -m bench.lag_rows [--scale 100] [--reps 3] [--topic] [--time-lag] [-o json]
        [--profile N] [--old DIR]

A cluster in memory (:class:`ScaleCluster`, :mod:`bench.setup_data`'s data set at ``--scale``:
100 topics x 500 partitions and 100 groups, each group on one topic's 500 partitions and
``bench.p1``) answers the calls a ``lag`` run makes, with the objects the real client returns
(:class:`~kafka_offsets_cli.models.offsets.OffsetResult`, ``GroupOffsets``…), so what is timed is
the package's own work between the client and stdout: the plan, the rows
(:mod:`kafka_offsets_cli.measures.lag`), the view and the output text, as ``lag --group-regex
'bench\\.g\\..*' [--topic 'bench\\.m\\..*'] [--time-lag] -o FMT`` runs them. The client's share
(librdkafka, the answers' parsing) and the interpreter's start are not in it: ``bench.lag_scale``
times whole processes against a real cluster.

Reports the median CPU seconds (of this process: the machine may be shared) of each stage
(``query``: groups to rows; ``render``: rows to text) and the microseconds per row;
``--profile N`` prints cProfile's N most expensive functions (cumulative) of one more run.
``--old DIR`` runs the same in a child process with the package in ``DIR`` (e.g. ``git archive
main kafka_offsets_cli | tar -x -C DIR``) and checks both texts are identical. Not part of the
test suite.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

#: the data set's shape (:mod:`bench.setup_data`, restated: that module needs confluent-kafka and a
#: cluster's imports, and ``--old`` runs this file against another tree)
M_PARTITIONS, RECORDS, SAMPLE_EVERY, P1, P1_RECORDS = 500, 20, 10, "bench.p1", 1000
T0, STEP_MS = 1_735_689_600_000, 60_000


def _record_counts(scale: int) -> dict[tuple[str, int], int]:
    out = {(P1, 0): P1_RECORDS}
    for i in range(scale):
        out.update({(f"bench.m.{i:02d}", p): RECORDS for p in range(0, M_PARTITIONS, SAMPLE_EVERY)})
    return out


def _group_offsets(index: int) -> dict[tuple[str, int], int]:
    """As :func:`bench.setup_data.group_offsets`: 2..6 behind where there are records, else 0."""
    topic = f"bench.m.{index:02d}"
    out = {}
    for p in range(M_PARTITIONS):
        n = RECORDS if p % SAMPLE_EVERY == 0 else 0
        out[(topic, p)] = n - 2 - (p + index) % 5 if n else 0
    out[(P1, 0)] = P1_RECORDS - 100 - index
    return out


class ScaleCluster:
    """The data set's answers, as the real client shapes them (one object per partition and spec)."""

    def __init__(self, scale: int) -> None:
        from kafka_offsets_cli.models.groups import GroupDescription, GroupOffsets
        from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition

        self.counts = _record_counts(scale)
        sizes = {P1: 1, **{f"bench.m.{i:02d}": M_PARTITIONS for i in range(scale)}}
        self.md = ClusterMetadata(
            {
                n: TopicInfo(n, tuple(PartitionInfo(n, p, 1 + p % 3) for p in range(k)), False, None)
                for n, k in sizes.items()
            }
        )
        self.groups = {
            f"bench.g.{i:02d}": GroupOffsets(
                f"bench.g.{i:02d}", {TopicPartition(t, p): o for (t, p), o in _group_offsets(i).items()}
            )
            for i in range(scale)
        }
        self._description = GroupDescription

    def metadata(
        self, topic: str | None = None, *, only: Any = None, names: Sequence[str] | None = None
    ) -> Any:
        from kafka_offsets_cli.models.topics import ClusterMetadata

        if names is not None:
            return ClusterMetadata({n: self.md.topics[n] for n in names if n in self.md.topics})
        return ClusterMetadata({n: t for n, t in self.md.topics.items() if only is None or only(n)})

    def list_offsets(
        self, requests: Sequence[Any], *, isolation: Any = None, progress: Any = None
    ) -> list[Any]:
        from kafka_offsets_cli.models.offsets import OffsetResult, SpecKind

        out = []
        for req in requests:
            for tp, spec in req.queries:
                n = self.counts.get((tp[0], tp[1]), 0)
                kind = spec.kind
                ts = None
                if kind is SpecKind.EARLIEST:
                    offset: int | None = 0
                elif kind is SpecKind.LATEST:
                    offset = n
                elif kind is SpecKind.MAX_TIMESTAMP:
                    offset, ts = (n - 1, T0 + (n - 1) * STEP_MS) if n else (None, None)
                else:  # the first record at or after the timestamp
                    first = max(0, -(-(spec.timestamp_ms - T0) // STEP_MS))
                    offset, ts = (first, T0 + first * STEP_MS) if first < n else (None, None)
                out.append(OffsetResult(tp[0], tp[1], spec, offset, ts, 0 if offset is not None else None))
        return out

    def group_types(self) -> Any:
        from kafka_offsets_cli.models.group_types import GroupListing

        return GroupListing(types=dict.fromkeys(self.groups, "classic"))

    def group_ids(self) -> list[str]:
        return sorted(self.groups)

    def describe_groups(self, groups: Sequence[str]) -> dict[str, Any]:
        return {g: self._description(g, "empty", 0) for g in groups}

    def committed_offsets(self, groups: Sequence[str], partitions: Any = None) -> list[Any]:
        return [self.groups[g] for g in groups if g in self.groups]

    def control_records(self, points: Sequence[Any]) -> dict[Any, bool | str]:
        return dict.fromkeys(points, False)

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        return {t: {} for t in topics}


def _request(topic: bool, time_lag: bool) -> Any:
    from kafka_offsets_cli.lag.monitor import LagThresholds
    from kafka_offsets_cli.lag.run import request_of

    return request_of(
        groups=None,
        regexes=[r"bench\.g\..*"],
        topics=[r"bench\.m\..*"] if topic else None,
        partitions=None,
        topic_partitions=None,
        exclude_internal_topics=False,
        time_lag=time_lag,
        marker_check=True,
        thresholds=LagThresholds(),
        min_time_lag_ms=None,
        members=False,
        clock=lambda: T0 + 10**9,
    )


def _view(fmt: str) -> Any:
    from kafka_offsets_cli.cli.lag_view import LagView
    from kafka_offsets_cli.cli.options import Format

    f = Format(fmt)
    monitor = f in (Format.prometheus, Format.nagios)
    return LagView(fmt=f, monitor=monitor, summary=False, now_ms=lambda: T0 + 2 * 10**9)


def stages(cluster: ScaleCluster, topic: bool, time_lag: bool, fmt: str) -> tuple[float, float, int, str]:
    """One run: (query s, render s, rows, text), with the collector paused as the command pauses it."""
    from kafka_offsets_cli.cli import lag_view
    from kafka_offsets_cli.lag.run import query

    request, view = _request(topic, time_lag), _view(fmt)
    gc.collect()
    gc.disable()
    try:
        t0 = time.process_time()
        report = query(cluster, request)  # type: ignore[arg-type]
        t1 = time.process_time()
        out = lag_view.render(report, view)
        text = out if isinstance(out, str) else _table_text(out)
        t2 = time.process_time()
    finally:
        gc.enable()
    return t1 - t0, t2 - t1, len(report.rows), text


def _table_text(renderable: Any) -> str:
    import io

    from rich.console import Console

    buf = io.StringIO()
    Console(file=buf, no_color=True, width=200, highlight=False).print(renderable)
    return buf.getvalue()


def measure(ns: argparse.Namespace) -> dict[str, Any]:
    """The timed runs of this tree (medians), and the text's digest."""
    cluster = ScaleCluster(ns.scale)
    qs, rs, digest, rows = [], [], "", 0
    for _ in range(ns.reps):
        q, r, rows, text = stages(cluster, ns.topic, ns.time_lag, ns.output)
        qs.append(q)
        rs.append(r)
        digest = hashlib.sha256(text.encode()).hexdigest()
    if ns.save:
        Path(ns.save).write_text(text)
    if ns.profile:
        prof = cProfile.Profile()
        prof.runcall(stages, cluster, ns.topic, ns.time_lag, ns.output)
        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumulative").print_stats(ns.profile)
    return {"query": statistics.median(qs), "render": statistics.median(rs), "rows": rows, "sha256": digest}


def _line(label: str, m: Mapping[str, Any]) -> str:
    total = m["query"] + m["render"]
    per_row = 1e6 * total / max(1, m["rows"])
    return (
        f"  {label:6} query {m['query']:6.3f}s  render {m['render']:6.3f}s  "
        f"total {total:6.3f}s  {per_row:5.1f} µs/row  ({m['rows']} rows, sha256 {m['sha256'][:12]})"
    )


def main(args: list[str] | None = None, run: Callable[..., Any] = subprocess.run) -> None:
    """Time this tree (and ``--old``'s, in a child process) and print the stages."""
    ap = argparse.ArgumentParser(prog="python -m bench.lag_rows")
    ap.add_argument("--scale", type=int, default=100, help="m topics and groups (100: 50,000 partitions)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--topic", action="store_true", help=r"with --topic 'bench\.m\..*'")
    ap.add_argument("--time-lag", action="store_true")
    ap.add_argument("-o", "--output", default="json", help="json, jsonl, csv, table, prometheus")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's top N (cumulative)")
    ap.add_argument("--old", type=Path, help="a directory holding the package to compare with (before)")
    ap.add_argument("--save", help="write the output text to this file")
    ap.add_argument("--json", action="store_true", help="print the medians as one JSON line (for --old)")
    ap.add_argument(
        "--writers", action="store_true", help="time the JSON writers on the output (json, jsonl)"
    )
    ns = ap.parse_args(args)
    if ns.json:
        print(json.dumps(measure(ns)))
        return
    flags = [a for a in (args if args is not None else sys.argv[1:]) if a not in ("--json",)]
    results = {"after": measure(ns)}
    if ns.old is not None:
        old = [a for i, a in enumerate(flags) if a != "--old" and (i == 0 or flags[i - 1] != "--old")]
        old = [a for a in old if not a.startswith("--old=")]
        # the script by path: its own folder, not the repository, is first on sys.path
        env = {**os.environ, "PYTHONPATH": str(ns.old.resolve())}
        p = run(
            [sys.executable, str(Path(__file__).resolve()), *old, "--profile", "0", "--json"],
            cwd=ns.old.resolve(),
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        results["before"] = json.loads(p.stdout.strip().splitlines()[-1])
    what = f"{'--topic ' if ns.topic else ''}{'--time-lag ' if ns.time_lag else ''}-o {ns.output}"
    print(f"lag's own work, scale {ns.scale}, {what}, {ns.reps} runs, medians:")
    for label, m in results.items():
        print(_line(label, m))
    if "before" in results:
        a, b = results["after"], results["before"]
        same = "identical" if a["sha256"] == b["sha256"] else "DIFFERENT"
        ratio = (b["query"] + b["render"]) / (a["query"] + a["render"])
        print(f"  before/after {ratio:.2f}x; outputs {same}")


if __name__ == "__main__":
    main()
