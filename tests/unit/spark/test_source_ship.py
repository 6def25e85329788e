"""spark/source_ship.py: where register() ships the package, once per session (fake sessions, no Spark)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from kafka_offsets_cli.spark import source_ship


class Context:
    def __init__(self, master: str, app: str) -> None:
        self.master, self.applicationId = master, app
        self.files: list[str] = []

    def addPyFile(self, path: str) -> None:
        self.files.append(path)


class Classic:
    def __init__(self, master: str, app: str = "app-1") -> None:
        self.sparkContext = Context(master, app)


class Connect:
    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.artifacts: list[tuple[str, bool]] = []

    def addArtifacts(self, path: str, pyfile: bool = False) -> None:
        self.artifacts.append((path, pyfile))


Connect.__module__ = "pyspark.sql.connect.session"


def test_a_local_master_ships_nothing() -> None:
    spark: Any = Classic("local[2]")
    assert source_ship.shipped_to(spark) is None
    source_ship.ship_package(spark)
    assert spark.sparkContext.files == []


def test_a_cluster_gets_the_zip_once_per_session() -> None:
    spark: Any = Classic("spark://master:7077", app="app-ship-1")
    assert source_ship.shipped_to(spark) == "pyfile"
    source_ship.ship_package(spark)
    source_ship.ship_package(spark)
    [path] = spark.sparkContext.files
    names = zipfile.ZipFile(path).namelist()
    assert "kafka_offsets_cli/spark/source.py" in names and "kafka/__init__.py" in names
    other: Any = Classic("yarn", app="app-ship-2")
    source_ship.ship_package(other)
    assert len(other.sparkContext.files) == 1  # another session: shipped again


def test_spark_connect_gets_a_pyfile_artifact() -> None:
    spark: Any = Connect("session-ship-1")
    assert source_ship.shipped_to(spark) == "artifact"
    source_ship.ship_package(spark)
    source_ship.ship_package(spark)
    [(path, pyfile)] = spark.artifacts
    assert pyfile and Path(path).name == "kafka_offsets_cli.zip"
