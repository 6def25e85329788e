"""The ``--history DIR`` dataset: one Parquet sample per run and group partition, partitioned by date.

Layout: ``DIR/date=YYYY-MM-DD/part-*.parquet`` (UTC dates), columns
:data:`COLUMNS`. Each run appends its lag samples (every (cluster, group,
topic, partition) a lag check evaluated); liveness partitions are not sampled.
Reading takes the dates within the lookback and, per partition, the newest
``window`` samples, which :func:`kafka_offsets_cli.check.history.evaluate_partition`
judges.

With a cluster master the executors write the samples: the path must be a URI every node shares
(:func:`require_shared`, before anything runs), and each append is read back (:func:`append_samples`).
"""

from __future__ import annotations

import contextlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import UsageError

__all__ = ["COLUMNS", "append_samples", "history_schema", "load_window", "require_shared", "utc_date"]

#: (column, Spark SQL type) of the history dataset; ``date`` is the partition column.
COLUMNS = (
    ("run_ms", "bigint"),
    ("cluster", "string"),
    ("group", "string"),
    ("topic", "string"),
    ("partition", "int"),
    ("committed", "bigint"),
    ("log_start", "bigint"),
    ("end", "bigint"),
    ("lag", "bigint"),
    ("state", "string"),
    ("date", "string"),
)


def history_schema() -> Any:
    """The Spark schema of :data:`COLUMNS`."""
    from pyspark.sql.types import StructType

    return StructType.fromDDL(", ".join(f"`{n}` {t}" for n, t in COLUMNS))


def utc_date(ms: int) -> str:
    """The UTC date (``YYYY-MM-DD``) of an epoch-ms time: the partition a run's samples go to."""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d")


def check_dir(path: str) -> Path | None:
    """The history directory, created if missing; :class:`UsageError` if it cannot be used.

    A URL (``hdfs://…``, ``s3a://…``, for a cluster master) is left to Spark (``None``).
    """
    if "://" in path:
        return None
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise UsageError(f"--history {path}: not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--history {path}: cannot create: {e.strerror}") from None
    if not any(p.iterdir()):
        return p
    stray = [c.name for c in p.iterdir() if not (c.name.startswith(("date=", "_", ".")))]
    if stray:
        raise UsageError(
            f"--history {path}: not a kafka-offsets history (unexpected {stray[0]!r}); use an empty directory"
        )
    return p


def append_samples(spark: Any, path: str, rows: Any, run_ms: int) -> None:
    """Append ``rows`` (an RDD of tuples in :data:`COLUMNS` order) to the dataset and read this run's
    rows back: fewer than written is an error (executors that wrote where the driver cannot read)."""
    from pyspark.sql import functions as F

    from .session import SparkJobFailed

    df = spark.createDataFrame(rows, history_schema())
    written = df.count()
    df.write.mode("append").partitionBy("date").parquet(path)
    got = 0
    with contextlib.suppress(Exception):  # nothing there to read (no file at all) is counted as 0
        got = (
            spark.read.schema(history_schema())
            .option("basePath", path)
            .parquet(path)
            .where((F.col("date") == utc_date(run_ms)) & (F.col("run_ms") == run_ms))
            .count()
        )
    if got != written:
        raise SparkJobFailed(
            f"--history {path}: {written} sample(s) written, {got} read back: the directory is not "
            "shared by the driver and every executor",
            hint="with a cluster master give --history a URI every node shares (hdfs://, s3a://, "
            "file:///shared/mount)",
        )


def require_shared(path: str, local_master: bool) -> None:
    """:class:`UsageError` for a plain path with a cluster master: the executors write the history."""
    if local_master or "://" in path:
        return
    raise UsageError(
        f"--history {path}: a path of this machine, but a cluster's executors write the history; "
        "give a URI every node shares (hdfs://..., s3a://..., or file:///a/shared/mount)"
    )


def load_window(spark: Any, path: str, now_ms: int, lookback_ms: int, window: int) -> Any:
    """The newest ``window`` samples of every partition within the lookback (a DataFrame)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    since = now_ms - lookback_ms
    first_date = utc_date(since)
    df = (
        spark.read.schema(history_schema())
        .option("basePath", path)
        .parquet(path)
        .where((F.col("date") >= first_date) & (F.col("run_ms") >= since) & (F.col("run_ms") <= now_ms))
    )
    w = Window.partitionBy("cluster", "group", "topic", "partition").orderBy(F.col("run_ms").desc())
    return df.withColumn("_n", F.row_number().over(w)).where(F.col("_n") <= window).drop("_n")
