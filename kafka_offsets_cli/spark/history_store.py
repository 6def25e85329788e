"""The ``--history DIR`` dataset: one Parquet sample per run and group partition, a directory per run.

Layout: ``DIR/date=YYYY-MM-DD/run=RUN_MS/part-*.parquet`` (the run's UTC date and start time in
epoch ms) with ``_SUCCESS`` once the run's samples are all there; the files hold :data:`COLUMNS`
but ``date``. Each run appends its lag samples (every (cluster, group, topic, partition) a lag
check evaluated) into a new run directory; liveness partitions are not sampled. ``group_type``
(the group's type as the brokers list it) came later: files written before it lack the column,
and every read names the columns, so there it reads as null.

Reading (:func:`load_window`) lists the date directories newest first and reads only the newest
``window`` complete run directories within the lookback, never the rest of the history. Days
entirely older than the lookback are deleted on the way (the verdicts cannot use them), so
the directory stays bounded. A run directory without ``_SUCCESS`` (a run in progress, or one
that crashed) is never read.

The layout before runs had directories of their own (``DIR/date=D/part-*.parquet``, every run of
the day in the same directory) is still read: such loose files of the dates the window reaches
are read with a filter on ``run_ms``, until they age out of the lookback.

Listing: plain paths and ``file:`` URIs with Python's ``os``; other URIs (``hdfs://``, ``s3a://``)
with Hadoop's FileSystem through the JVM; on Spark Connect (no JVM on this side) with Spark's own
file listing (``DataFrame.inputFiles``), where nothing is deleted.

With a cluster master the executors write the samples: the path must be a URI every node shares
(:func:`require_shared`, before anything runs), and each append is read back (:func:`append_samples`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .history_fs import lister
from .write import probe_writable

__all__ = [
    "COLUMNS",
    "KEEP_AT_LEAST_MS",
    "append_samples",
    "check_dir",
    "compact",
    "history_schema",
    "load_window",
    "require_shared",
    "utc_date",
]

#: (column, Spark SQL type) of the history dataset; ``date`` comes from the directory.
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
    ("group_type", "string"),
    ("date", "string"),
)
_KEY = ("cluster", "group", "topic", "partition")
#: :func:`load_window` keeps at least this much history (a spec with a short lookback does not
#: delete what another lookback, the default one, would read)
KEEP_AT_LEAST_MS = 7 * 86_400_000
#: samples per Parquet file of a run (a run's samples are small: one file up to this many rows)
_ROWS_PER_FILE = 1_000_000


def _ddl(names: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"`{n}` {t}" for n, t in names)


def history_schema() -> Any:
    """The Spark schema of :data:`COLUMNS`."""
    from pyspark.sql.types import StructType

    return StructType.fromDDL(_ddl(COLUMNS))


def _file_schema() -> Any:
    from pyspark.sql.types import StructType

    return StructType.fromDDL(_ddl(COLUMNS[:-1]))


def utc_date(ms: int) -> str:
    """The UTC date (``YYYY-MM-DD``) of an epoch-ms time: the partition a run's samples go to."""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d")


def run_dir(path: str, run_ms: int) -> str:
    """The directory of the run started at ``run_ms``."""
    return f"{path.rstrip('/')}/date={utc_date(run_ms)}/run={run_ms}"


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
    probe_writable(p, f"--history {path}")  # each run appends: refused now, not after the Spark run
    if not any(p.iterdir()):
        return p
    stray = [c.name for c in p.iterdir() if not (c.name.startswith(("date=", "_", ".")))]
    if stray:
        raise UsageError(
            f"--history {path}: not a kafka-offsets history (unexpected {stray[0]!r}); use an empty directory"
        )
    return p


def append_samples(spark: Any, path: str, rows: Any, run_ms: int) -> None:
    """Write ``rows`` as the run's directory and read them back: fewer than written is an error
    (executors that wrote where the driver cannot read).

    ``rows``: a DataFrame with the columns of :func:`history_schema` (``date`` is ignored: the
    directory says it), or an RDD of tuples in :data:`COLUMNS` order.
    """
    from pyspark.sql import functions as F

    from .failure import SparkJobFailed

    df = rows if hasattr(rows, "write") else spark.createDataFrame(rows, history_schema())
    df = df.select(*[F.col(n).cast(t).alias(n) for n, t in COLUMNS[:-1]])
    written = df.count()
    target = run_dir(path, run_ms)
    # the count above has computed the (persisted) samples: merging their partitions into one file
    # per million rows costs no parallelism upstream and keeps the reader's file count low
    df.coalesce(max(1, -(-written // _ROWS_PER_FILE))).write.mode("overwrite").parquet(target)
    got = 0
    try:
        got = spark.read.schema(_file_schema()).parquet(target).count()
    except Exception:  # nothing there to read (no file at all) is counted as 0
        got = 0
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


@dataclass
class _Window:
    """What :func:`load_window` reads: the chosen run directories and the loose (old-layout) files."""

    runs: list[tuple[int, str]] = field(default_factory=list)  # (run_ms, date), newest first
    loose: dict[str, list[str]] = field(default_factory=dict)  # date -> file names


def _dates(since_ms: int, now_ms: int) -> list[str]:
    """The UTC dates from ``now_ms``'s back to ``since_ms``'s, newest first."""
    day = datetime.fromtimestamp(now_ms / 1000, tz=timezone.utc).date()
    first = datetime.fromtimestamp(since_ms / 1000, tz=timezone.utc).date()
    out = []
    while day >= first:
        out.append(day.strftime("%Y-%m-%d"))
        day -= timedelta(days=1)
    return out


def _choose(fs: Any, since_ms: int, now_ms: int, window: int) -> _Window:
    """The newest ``window`` complete runs within [since, now], listing dates newest first and
    stopping at the date that completes the window (older dates cannot hold newer runs)."""
    out = _Window()
    for date in _dates(since_ms, now_ms):
        rel = f"date={date}"
        candidates = []
        for name, is_dir in fs.children(rel):
            if is_dir and name.startswith("run="):
                ms = _run_ms(name)
                if ms is not None and since_ms <= ms <= now_ms:
                    candidates.append(ms)
            elif not is_dir and not name.startswith(("_", ".")):
                out.loose.setdefault(date, []).append(name)
        for ms in sorted(candidates, reverse=True):
            if len(out.runs) >= window:
                break
            if fs.exists(f"{rel}/run={ms}/_SUCCESS"):
                out.runs.append((ms, date))
        if len(out.runs) >= window:
            break
    return out


def _run_ms(name: str) -> int | None:
    try:
        return int(name[len("run=") :])
    except ValueError:
        return None


def load_window(spark: Any, path: str, now_ms: int, lookback_ms: int, window: int) -> Any:
    """The newest ``window`` samples of every partition within the lookback (a DataFrame of
    :data:`COLUMNS`), read from the newest ``window`` runs only.

    Keeps the directory bounded on the way (:func:`compact`: the days older than the lookback
    go, and at least :data:`KEEP_AT_LEAST_MS` is kept).
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    root = path.rstrip("/")
    fs = lister(spark, path)
    since = now_ms - lookback_ms
    compact(spark, path, now_ms, max(lookback_ms, KEEP_AT_LEAST_MS), fs=fs)
    chosen = _choose(fs, since, now_ms, window) if window > 0 else _Window()
    parts = []
    by_date: dict[str, list[str]] = {}
    for ms, date in chosen.runs:
        by_date.setdefault(date, []).append(f"{root}/date={date}/run={ms}")
    for date, dirs in by_date.items():
        parts.append(spark.read.schema(_file_schema()).parquet(*dirs).withColumn("date", F.lit(date)))
    if chosen.loose:
        # the old layout: every run of a day in the same files; only runs newer than the oldest chosen
        # one (or the whole lookback while fewer runs have directories) and not read from one
        lower = min(ms for ms, _ in chosen.runs) if len(chosen.runs) >= window else since
        taken = [ms for ms, _ in chosen.runs]
        for date, names in chosen.loose.items():
            old = (
                spark.read.schema(_file_schema())
                .parquet(*[f"{root}/date={date}/{n}" for n in names])
                .where((F.col("run_ms") >= lower) & (F.col("run_ms") <= now_ms))
            )
            if taken:
                old = old.where(~F.col("run_ms").isin(taken))
            parts.append(old.dropDuplicates([*_KEY, "run_ms"]).withColumn("date", F.lit(date)))
    if not parts:
        return spark.createDataFrame([], history_schema())
    df = parts[0]
    for p in parts[1:]:
        df = df.unionByName(p)
    df = df.select(*[n for n, _ in COLUMNS])
    if not chosen.loose:
        return df  # one sample per partition and run, from ``window`` runs at most
    w = Window.partitionBy(*_KEY).orderBy(F.col("run_ms").desc())
    return df.withColumn("_n", F.row_number().over(w)).where(F.col("_n") <= window).drop("_n")


def compact(spark: Any, path: str, now_ms: int, keep_ms: int, *, fs: Any = None) -> list[str]:
    """Delete the date directories no verdict within ``keep_ms`` can read; their names.

    A date entirely older than ``keep_ms`` (every run in it started before ``now_ms - keep_ms``)
    goes, whatever its layout. Run directories a crashed run left without
    ``_SUCCESS`` are never read and go with their date. Nothing on Spark Connect (no file system
    on this side).
    """
    fs = fs or lister(spark, path)
    if not fs.deletes:
        return []
    first = f"date={utc_date(now_ms - keep_ms)}"
    old = sorted(n for n, is_dir in fs.children("") if is_dir and n.startswith("date=") and n < first)
    for name in old:
        fs.delete(name)
    return old
