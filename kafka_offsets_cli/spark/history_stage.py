"""The history stage of ``kafka-offsets check`` (``--history DIR``): append, read back, judge, join.

This run's lag samples are appended to the Parquet dataset (:mod:`.history_store`), each
partition's last N samples read back and judged by the shared rules
(:func:`kafka_offsets_cli.check.evaluate.evaluate_history`), and the verdicts joined to the
run's records.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..check.collect import LagSample
from ..check.evaluate import evaluate_history
from ..check.history import Sample
from ..check.plan import CheckPlan
from ..check.spec import LagCheck
from ..models.topics import TopicPartition
from .history_store import append_samples, check_dir, load_window, utc_date

__all__ = ["join_history"]


def _history_row(s: LagSample, run_ms: int, date: str) -> tuple[Any, ...]:
    r = s.row
    return (
        run_ms,
        s.cluster,
        r.group,
        r.topic,
        r.partition,
        r.committed,
        r.log_start,
        r.end,
        r.lag,
        r.state.value,
        date,
    )


def join_history(
    spark: Any,
    sc: Any,
    path: str,
    *,
    samples_rdd: Any,
    records: Any,
    plan: CheckPlan,
    lag_checks: list[LagCheck],
    run_ms: int,
    partitions: int,
) -> tuple[Any, dict[tuple[str, str], list[int | None]], int]:
    """Append the run's samples, read the windows back; (record, verdict) pairs, lag trends, runs.

    ``partitions``: the partition count of the shuffles (the pipeline's parallelism).
    """
    from pyspark.sql import functions as F

    check_dir(path)
    date = utc_date(run_ms)
    rows = samples_rdd.filter(lambda s: isinstance(s, LagSample)).map(lambda s: _history_row(s, run_ms, date))
    append_samples(spark, path, rows, run_ms)
    window = max(c.history.window for c in lag_checks)
    lookback = max(c.history.lookback_ms for c in lag_checks)
    win = load_window(spark, path, run_ms, lookback, window)
    trend_rows = win.groupBy("cluster", "group", "run_ms").agg(F.sum("lag").alias("lag")).collect()
    series: dict[tuple[str, str], list[tuple[int, int | None]]] = {}
    for t in trend_rows:
        series.setdefault((t["cluster"], t["group"]), []).append((t["run_ms"], t["lag"]))
    trends = {k: [lag for _, lag in sorted(v)][-window:] for k, v in series.items()}
    runs = len({t["run_ms"] for t in trend_rows})

    by_name = {c.name: c for c in lag_checks}
    routes = sc.broadcast(
        {k: tuple(by_name[n] for n in v if n in by_name) for k, v in plan.lag_routes.items()}
    )
    owners = sc.broadcast(plan.owners)

    def judge(kv: tuple[tuple[str, str, str, int], Iterable[Sample]]) -> list[Any]:
        key, samples = kv
        cluster, group, topic, partition = key
        chk = routes.value.get((cluster, group, topic), ())
        owned = (cluster, group, TopicPartition(topic, partition)) in owners.value
        return evaluate_history(key, samples, chk, run_ms, owned)

    verdicts = (
        win.rdd.map(
            lambda r: (
                (r["cluster"], r["group"], r["topic"], r["partition"]),
                Sample(r["run_ms"], r["committed"], r["end"], r["lag"]),
            )
        )
        .groupByKey(partitions)
        .flatMap(judge)
    )
    pairs = (
        records.map(
            lambda r: (
                (r.check, r.cluster, r.group or "", r.topic, -1 if r.partition is None else r.partition),
                r,
            )
        )
        .leftOuterJoin(verdicts, partitions)
        .values()
    )
    return pairs, trends, runs
