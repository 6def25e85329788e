"""Benchmark of the ``--history`` read: one day of 5-minute runs, before and after run directories.

    python -m bench.bench_history [--partitions 10000] [--runs 288] [--window 10] [--reps 3]

Writes a synthetic history directly with pyarrow (``--partitions`` group partitions sampled by
each of ``--runs`` runs 5 minutes apart, all on one UTC day) twice: in the layout before
(``date=D/part-*.parquet``, two files per run, as Spark's ``partitionBy("date")`` append wrote
them with two tasks) and in the run-directory layout (``date=D/run=MS/part-0.parquet`` and
``_SUCCESS``). Then, in one local Spark session (``--master``, default ``local[*]``), times what
the history stage does with the window: ``load_window`` and the two actions on it (the lag trend
per group and run, collected, and the samples counted), with the reader before
(:func:`load_before`, the whole lookback with a row_number window) and the store's reader now.
Prints a Markdown table (medians of ``--reps``); not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DAY = 86_400_000
RUN = 300_000


def load_before(spark: Any, path: str, now_ms: int, lookback_ms: int, window: int) -> Any:
    """The store's reader before run directories (the whole lookback, newest ``window`` per partition)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    from kafka_offsets_cli.spark.history_store import history_schema, utc_date

    since = now_ms - lookback_ms
    df = (
        spark.read.schema(history_schema())
        .option("basePath", path)
        .parquet(path)
        .where((F.col("date") >= utc_date(since)) & (F.col("run_ms") >= since) & (F.col("run_ms") <= now_ms))
    )
    w = Window.partitionBy("cluster", "group", "topic", "partition").orderBy(F.col("run_ms").desc())
    return df.withColumn("_n", F.row_number().over(w)).where(F.col("_n") <= window).drop("_n")


def synthesize(root: Path, partitions: int, runs: int, t0: int) -> tuple[Path, Path]:
    """The same samples in both layouts under ``root``: (before, runs)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from kafka_offsets_cli.spark.history_store import utc_date

    groups, per_topic = 20, 500
    idx = pa.array(range(partitions), pa.int64())
    group = pa.array([f"bench.g.{(i // per_topic) % groups:02d}" for i in range(partitions)])
    topic = pa.array([f"bench.m.{i // per_topic:02d}" for i in range(partitions)])
    part = pa.array([i % per_topic for i in range(partitions)], pa.int32())
    before, after = root / "before", root / "runs"
    for r in range(runs):
        run_ms = t0 + r * RUN
        end = pa.compute.add(idx, 100 * r)
        committed = pa.compute.add(idx, 90 * r)
        table = pa.table(
            {
                "run_ms": pa.array([run_ms] * partitions, pa.int64()),
                "cluster": pa.array(["bench"] * partitions),
                "group": group,
                "topic": topic,
                "partition": part,
                "committed": committed,
                "log_start": pa.array([0] * partitions, pa.int64()),
                "end": end,
                "lag": pa.compute.subtract(end, committed),
                "state": pa.array(["STABLE"] * partitions),
            }
        )
        day = before / f"date={utc_date(run_ms)}"
        day.mkdir(parents=True, exist_ok=True)
        half = partitions // 2
        pq.write_table(table.slice(0, half), day / f"part-00000-{r:05d}.c000.snappy.parquet")
        pq.write_table(table.slice(half), day / f"part-00001-{r:05d}.c000.snappy.parquet")
        rd = after / f"date={utc_date(run_ms)}" / f"run={run_ms}"
        rd.mkdir(parents=True)
        pq.write_table(table, rd / "part-00000.snappy.parquet")
        (rd / "_SUCCESS").touch()
    return before, after


def stage(spark: Any, df: Any) -> int:
    """What the history stage asks of the window: the lag trend per group and run, and the samples."""
    from pyspark.sql import functions as F

    df.groupBy("cluster", "group", "run_ms").agg(F.sum("lag").alias("lag")).collect()
    return int(df.count())


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(prog="python -m bench.bench_history", description=__doc__.split("\n")[0])
    ap.add_argument("--partitions", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=288)
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--master", default="local[*]")
    args = ap.parse_args(argv)

    from kafka_offsets_cli.spark.history_store import load_window
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    t0 = (int(time.time() * 1000) // DAY - 1) * DAY  # yesterday 00:00 UTC: the whole day of runs
    now = t0 + (args.runs - 1) * RUN
    with tempfile.TemporaryDirectory(prefix="kafka-offsets-bench-history-") as tmp:
        s = time.perf_counter()
        before, after = synthesize(Path(tmp), args.partitions, args.runs, t0)
        print(
            f"[bench] synthesized {args.runs} runs x {args.partitions} partitions in "
            f"{time.perf_counter() - s:.1f}s",
            file=sys.stderr,
        )
        rt = start_session(SessionOptions(master=args.master))
        try:
            times: dict[str, list[float]] = {"before": [], "runs": []}
            rows = {}
            for _ in range(args.reps):
                for label, path, reader in (("before", before, load_before), ("runs", after, load_window)):
                    s = time.perf_counter()
                    rows[label] = stage(rt.spark, reader(rt.spark, str(path), now, 7 * DAY, args.window))
                    times[label].append(time.perf_counter() - s)
        finally:
            rt.stop()
    if rows["before"] != rows["runs"]:
        raise SystemExit(f"different windows: {rows}")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(
        f"| history read ({args.runs} runs x {args.partitions:,} partitions, window {args.window}) "
        "| median s | min | max |"
    )
    print("|---|---:|---:|---:|")
    for label, name in (
        ("before", "whole lookback, row_number (before)"),
        ("runs", "newest N run directories"),
    ):
        v = times[label]
        print(f"| {name} | {med[label]:.2f} | {min(v):.2f} | {max(v):.2f} |")
    print(
        f"\n{rows['runs']:,} samples in the window; {med['before'] / med['runs']:.1f}x faster",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
