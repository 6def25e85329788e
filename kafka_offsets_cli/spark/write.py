"""``--write parquet|csv --write-dir DIR``: the full per-partition table, never lost silently.

A plain path (or ``file:``) is written by the driver with pyarrow from the records' Arrow table
(which the driver holds anyway), in report order, a slice of rows at a time (a Parquet row group
or CSV lines per slice: the table is never copied whole into order, never a list of every row),
and a driver path is where the user will look for it
(executors of a cluster would write into their own disks, leaving the driver's directory with
only ``_SUCCESS``). The directory is built beside the target and swapped in whole:
``part-00000.parquet`` (or ``.csv`` with a header) and ``_SUCCESS``; a directory replaced keeps
its mode (a new one gets what ``mkdir`` gives), and a symlink to it stays a link.

A URI every node shares (``hdfs://``, ``s3a://``...) is written by Spark from the records'
DataFrame, in parallel (one file per task, no single-task ``coalesce(1)``), and read back: a
count that differs from the rows written is an error, not a silent loss.
"""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .failure import SparkJobFailed
from .frames import RECORD_COLUMNS, RECORD_DDL, arrow_schema

__all__ = ["RECORD_COLUMNS", "RECORD_SCHEMA", "check_write_dir", "is_uri", "probe_writable", "write_table"]

#: Spark SQL schema of the table.
RECORD_SCHEMA = RECORD_DDL


def is_uri(path: str) -> bool:
    """A URI Spark resolves (``hdfs://``, ``s3a://``); ``file:`` paths are the driver's own."""
    return "://" in path and not path.startswith("file:")


def local_path(path: str) -> Path:
    """The driver path of a plain path or a ``file:`` URI."""
    if path.startswith("file://"):
        return Path(path[len("file://") :])
    if path.startswith("file:"):
        return Path(path[len("file:") :])
    return Path(path)


def check_write_dir(path: str) -> Path | None:
    """``--write`` target: a new directory or the output of an earlier run (which is replaced),
    in a place this process can write (:func:`probe_writable`).

    A URI (``hdfs://…``, ``s3a://…``) is left to Spark (``None``).
    """
    if is_uri(path):
        return None
    p = local_path(path)
    if p.exists():
        if not p.is_dir():
            raise UsageError(f"--write-dir {path}: exists and is not a directory")
        entries = list(p.iterdir())
        if entries and not (p / "_SUCCESS").exists():
            raise UsageError(
                f"--write-dir {path}: not empty and not an earlier --write output; refusing to replace it"
            )
    # the table is built beside the target (write_table): there, or where its missing parents would go
    place = p.absolute().parent
    while not place.exists() and place != place.parent:
        place = place.parent
    probe_writable(place, f"--write-dir {path}")
    return p


def probe_writable(directory: Path, what: str) -> None:
    """:class:`UsageError` unless a file can be created, written and removed in ``directory``.

    A real write, not ``os.access``: for root, access says yes on a full disk and on a directory
    marked immutable, and a late failure would come after the whole Spark run. (A disk with room
    for this probe but not for the table still fails at the end: the verdict is shown, then exit 3.)
    """
    try:
        fd, name = tempfile.mkstemp(prefix=".kafka-offsets-probe.", dir=directory)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(b"\n")
                fh.flush()
                os.fsync(fh.fileno())
        finally:
            os.unlink(name)
    except OSError as e:
        raise UsageError(f"{what}: cannot write in {directory}: {e.strerror or e}") from None


#: Rows per slice of a driver write (a Parquet row group): about 2 MB of records copied at a time.
WRITE_SLICE = 10_000


def write_table(spark: Any, rows: Sequence[tuple[Any, ...]] | Any, fmt: str, path: str) -> None:
    """Write the table's ``rows`` as ``fmt`` to ``path``.

    ``rows``: on the driver (a plain path) the report's records (anything with ``slices(size)``
    giving Arrow tables in order: :class:`~kafka_offsets_cli.check.records.PartitionRecords`),
    an Arrow table of :data:`RECORD_COLUMNS` or tuples in that order; for a URI a DataFrame
    with those columns.
    """
    if is_uri(path):
        _spark_write(spark, rows, fmt, path)
        return
    target = Path(os.path.realpath(local_path(path)))  # a link to the directory stays a link
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _new_dir(target)
    try:
        slices = rows.slices(WRITE_SLICE) if hasattr(rows, "slices") else iter((_arrow(rows),))
        if fmt == "csv":
            _write_csv(slices, tmp / "part-00000.csv")
        else:
            _write_parquet(slices, tmp / "part-00000.parquet")
        (tmp / "_SUCCESS").touch()
        if target.exists():
            shutil.rmtree(target)
        tmp.rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _new_dir(target: Path) -> Path:
    """A new directory beside ``target`` with the mode of the directory it will replace, else
    ``mkdir``'s (``mkdtemp``'s 0700 turned a shared output directory private on every run)."""
    for attempt in range(100):
        tmp = target.parent / f".{target.name}.{os.getpid()}.{attempt}.tmp"
        try:
            tmp.mkdir()
        except FileExistsError:
            continue
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        return tmp
    return Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))


def _arrow(rows: Sequence[tuple[Any, ...]] | Any) -> Any:
    """``rows`` as an Arrow table of :data:`RECORD_COLUMNS` (an Arrow table is taken as it is)."""
    if hasattr(rows, "num_rows"):
        return rows
    import pyarrow as pa

    schema = arrow_schema(RECORD_COLUMNS)
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in RECORD_COLUMNS]
    return pa.table([pa.array(c, type=f.type) for c, f in zip(columns, schema, strict=True)], schema=schema)


def _write_parquet(slices: Iterator[Any], path: Path) -> None:
    """One Parquet file, a row group per slice (the schema of :data:`RECORD_COLUMNS`)."""
    import pyarrow.parquet as pq

    schema = arrow_schema(RECORD_COLUMNS)
    with pq.ParquetWriter(path, schema) as writer:  # no rows: a file with the schema and no row group
        for part in slices:
            if part.num_rows:
                writer.write_table(part.select(schema.names).cast(schema))


def _write_csv(slices: Iterator[Any], path: Path, size: int = 2_000) -> None:
    """CSV with a header, ``None`` as an empty field, from Arrow ``slices`` (``size`` rows at a time).

    Python's ``csv`` writes it (pyarrow's writer would quote every string and end lines
    differently: the files stay what they were).
    """
    names = [n for n, _ in RECORD_COLUMNS]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(names)
        for table in slices:
            for start in range(0, table.num_rows, size):
                part = table.slice(start, size)
                rows = zip(*(part.column(n).to_pylist() for n in names), strict=True)
                w.writerows(["" if v is None else v for v in r] for r in rows)


def _spark_write(spark: Any, frame: Any, fmt: str, path: str) -> None:
    df = frame.select(*[n for n, _ in RECORD_COLUMNS])
    expected = df.count()
    writer = df.write.mode("overwrite")
    reader = spark.read.schema(RECORD_SCHEMA)
    if fmt == "csv":
        writer.option("header", "true").csv(path)
        got = reader.option("header", "true").csv(path).count()
    else:
        writer.parquet(path)
        got = reader.parquet(path).count()
    if got != expected:
        raise SparkJobFailed(
            f"--write-dir {path}: {expected} row(s) written, {got} read back: the directory is not "
            "shared by the driver and every executor"
        )
