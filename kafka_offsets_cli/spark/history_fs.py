"""Listing and deleting in a ``--history`` directory, whatever holds it (see :mod:`.history_store`).

Plain paths and ``file:`` URIs with Python's ``os`` (the driver sees them); other URIs
(``hdfs://``, ``s3a://``) with Hadoop's FileSystem through the driver's JVM; on Spark Connect
(no JVM on this side) with Spark's own listing (``DataFrame.inputFiles``), which cannot delete.
Paths are relative to the history directory; each lister has ``children(rel)`` ((name, is a
directory) pairs, none for a missing directory), ``exists(rel)``, ``delete(rel)`` and
``deletes`` (whether it can).
"""

from __future__ import annotations

import os
import shutil
from typing import Any

from .deploy import is_connect
from .write import is_uri, local_path

__all__ = ["lister"]


class _Local:
    """A plain path or ``file:`` URI, listed with ``os`` (the driver sees it)."""

    deletes = True

    def __init__(self, path: str) -> None:
        self.root = str(local_path(path))

    def _p(self, rel: str) -> str:
        return os.path.join(self.root, rel) if rel else self.root

    def children(self, rel: str) -> list[tuple[str, bool]]:
        try:
            with os.scandir(self._p(rel)) as it:
                return [(e.name, e.is_dir()) for e in it]
        except (FileNotFoundError, NotADirectoryError):
            return []

    def exists(self, rel: str) -> bool:
        return os.path.exists(self._p(rel))

    def delete(self, rel: str) -> None:
        shutil.rmtree(self._p(rel), ignore_errors=True)


class _Hadoop:
    """A URI listed with Hadoop's FileSystem in the driver's JVM (classic Spark)."""

    deletes = True

    def __init__(self, spark: Any, path: str) -> None:
        self.jvm = spark._jvm
        self.root = path.rstrip("/")
        self.fs = self.jvm.org.apache.hadoop.fs.Path(self.root).getFileSystem(
            spark._jsc.hadoopConfiguration()
        )

    def _p(self, rel: str) -> Any:
        return self.jvm.org.apache.hadoop.fs.Path(f"{self.root}/{rel}" if rel else self.root)

    def children(self, rel: str) -> list[tuple[str, bool]]:
        p = self._p(rel)
        if not self.fs.exists(p):
            return []
        return [(s.getPath().getName(), s.isDirectory()) for s in self.fs.listStatus(p)]

    def exists(self, rel: str) -> bool:
        return bool(self.fs.exists(self._p(rel)))

    def delete(self, rel: str) -> None:
        self.fs.delete(self._p(rel), True)


class _SparkListing:
    """Spark Connect: no JVM on this side; Spark lists the files (hidden ones such as ``_SUCCESS``
    are not listed, so a run directory with data files counts as complete); nothing is deleted."""

    deletes = False

    def __init__(self, spark: Any, path: str) -> None:
        self.spark = spark
        self.root = path.rstrip("/")

    def children(self, rel: str) -> list[tuple[str, bool]]:
        base = f"{self.root}/{rel}"
        try:
            # a schema given: listing only, no footer read to infer one
            files = (
                self.spark.read.schema("run_ms bigint").option("recursiveFileLookup", "true").parquet(base)
            )
            names = files.inputFiles()
        except Exception:  # no such directory
            return []
        out: dict[str, bool] = {}
        for f in names:
            tail = f.split(f"/{rel}/", 1)[-1]
            first, _, rest = tail.partition("/")
            out[first] = bool(rest)
        return list(out.items())

    def exists(self, rel: str) -> bool:
        return True

    def delete(self, rel: str) -> None:  # pragma: no cover - never called (deletes is False)
        raise NotImplementedError


def lister(spark: Any, path: str) -> Any:
    """The lister of ``path`` for ``spark`` (a classic or a Spark Connect session)."""
    if is_connect(spark):
        return _SparkListing(spark, path)
    if not is_uri(path):
        return _Local(path)
    return _Hadoop(spark, path)
