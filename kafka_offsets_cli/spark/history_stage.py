"""The history stage of ``kafka-offsets check`` (``--history DIR``): append, read back, judge, join.

This run's lag samples are appended to the Parquet dataset (:mod:`.history_store`), each
partition's last N samples read back (only the newest runs are read) and judged by the shared
rules (:func:`kafka_offsets_cli.check.evaluate.evaluate_history`, in a grouped Arrow function
per partition), and the verdicts joined to the run's records: DataFrames throughout, so a Spark
Connect session runs it too. The lag trend of each group (its summed lag per run) is an
aggregate in the JVM; only it comes to the driver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..check.evaluate import evaluate_history
from ..check.history import Sample
from ..check.plan import CheckPlan
from ..check.spec import LagCheck
from ..models.topics import TopicPartition
from .frames import VERDICT_DDL, verdict_batch
from .history_store import COLUMNS, append_samples, check_dir, load_window, utc_date

__all__ = ["join_history"]

_KEY = ("cluster", "group", "topic", "partition")


def _samples_of_run(samples: Any, run_ms: int) -> Any:
    """The run's lag samples as history rows (:data:`.history_store.COLUMNS`)."""
    from pyspark.sql import functions as F

    const = {"run_ms": F.lit(run_ms).cast("bigint"), "date": F.lit(utc_date(run_ms))}
    return samples.where(F.col("kind") == "lag").select(
        *[const[n].alias(n) if n in const else F.col(n) for n, _ in COLUMNS]
    )


def join_history(
    spark: Any,
    path: str,
    *,
    samples: Any,
    records: Any,
    plan: CheckPlan,
    lag_checks: Sequence[LagCheck],
    run_ms: int,
) -> tuple[Any, dict[tuple[str, str], list[int | None]], int]:
    """Append the run's samples, read the windows back; the records with the verdict columns
    (``h_*`` of :data:`.frames.VERDICT_COLUMNS`, ``history`` set), lag trends, runs read.

    ``samples``: the run's collected samples (a DataFrame); ``records``: its evaluated records.
    """
    import pyarrow as pa
    from pyspark.sql import functions as F

    check_dir(path)
    append_samples(spark, path, _samples_of_run(samples, run_ms), run_ms)
    window = max(c.history.window for c in lag_checks)
    lookback = max(c.history.lookback_ms for c in lag_checks)
    win = load_window(spark, path, run_ms, lookback, window)
    trend_rows = win.groupBy("cluster", "group", "run_ms").agg(F.sum("lag").alias("lag")).collect()
    series: dict[tuple[str, str], list[tuple[int, int | None]]] = {}
    for t in trend_rows:
        series.setdefault((t["cluster"], t["group"]), []).append((t["run_ms"], t["lag"]))
    trends = {k: [lag for _, lag in sorted(v)][-window:] for k, v in series.items()}
    runs = len({t["run_ms"] for t in trend_rows})

    # plan data (not secrets), captured in the function rather than broadcast: Connect has no broadcast
    by_name = {c.name: c for c in lag_checks}
    routes = {k: tuple(by_name[n] for n in v if n in by_name) for k, v in plan.lag_routes.items()}
    owners = plan.owners

    def judge(key: tuple[Any, ...], table: Any) -> Any:
        cluster, group, topic, partition = (k.as_py() for k in key)
        chk = routes.get((cluster, group, topic), ())
        owned = (cluster, group, TopicPartition(topic, partition)) in owners
        got = [
            Sample(d["run_ms"], d["committed"], d["end"], d["lag"])
            for d in table.select(["run_ms", "committed", "end", "lag"]).to_pylist()
        ]
        batch = verdict_batch(evaluate_history((cluster, group, topic, partition), got, chk, run_ms, owned))
        return pa.Table.from_batches([batch])

    verdicts = (
        win.select("run_ms", *_KEY, "committed", "end", "lag")
        .groupBy(*_KEY)
        .applyInArrow(judge, VERDICT_DDL)
        .withColumnRenamed("group", "_g")
        .withColumnRenamed("partition", "_p")
    )
    keyed = records.withColumn("_g", F.coalesce(F.col("group"), F.lit(""))).withColumn(
        "_p", F.coalesce(F.col("partition"), F.lit(-1))
    )
    joined = (
        keyed.join(verdicts, on=["check", "cluster", "_g", "topic", "_p"], how="left")
        .drop("_g", "_p")
        .withColumn("history", F.col("h_status"))
    )
    return joined, trends, runs
