"""The Spark driver JVM's class-data archive: which flag a run gets, one writer, whole archives only."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kafka_offsets_cli.spark import class_cache
from kafka_offsets_cli.spark.class_cache import ARCHIVE_MAGIC, archive_flags, cache_dir, spark_key
from tests.availability import unavailable


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A cache home of its own and the java the machine has (skipped when it has none)."""
    e = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": os.environ.get("PATH", "")}
    if os.environ.get("JAVA_HOME"):
        e["JAVA_HOME"] = os.environ["JAVA_HOME"]
    if spark_key(e) is None:
        unavailable("no java on this machine (skipped locally, a failure under CI=true)")
    return e


def _archive(e: dict[str, str]) -> Path:
    key = spark_key(e)
    return cache_dir(e) / f"driver-{key}.jsa"


def test_cache_dir_follows_xdg_then_home() -> None:
    assert cache_dir({"XDG_CACHE_HOME": "/x"}) == Path("/x/kafka-offsets/spark-cds")
    assert cache_dir({"HOME": "/h"}) == Path("/h/.cache/kafka-offsets/spark-cds")


def test_first_run_writes_the_others_wait_for_it(env: dict[str, str]) -> None:
    first = archive_flags(env)
    assert first == (f"-XX:ArchiveClassesAtExit={_archive(env)}",)
    assert archive_flags(env) == ()  # another run while the first one's JVM has not written it


def test_a_whole_archive_is_used_a_half_written_one_is_not(env: dict[str, str]) -> None:
    archive = _archive(env)
    archive.parent.mkdir(parents=True)
    archive.write_bytes(b"\0" * 64)  # the JVM writes the header last: zeros while it writes
    (archive.parent / f"driver-{spark_key(env)}.lock").write_text("1")
    assert archive_flags(env) == ()
    archive.write_bytes(ARCHIVE_MAGIC + b"\0" * 60)
    assert archive_flags(env) == (f"-XX:SharedArchiveFile={archive}",)


def test_a_stale_lock_is_taken_over(env: dict[str, str]) -> None:
    archive = _archive(env)
    archive.parent.mkdir(parents=True)
    lock = archive.parent / f"driver-{spark_key(env)}.lock"
    lock.write_text("1")
    old = time.time() - class_cache.STALE_LOCK_S - 5
    os.utime(lock, (old, old))
    assert archive_flags(env) == (f"-XX:ArchiveClassesAtExit={archive}",)
    assert lock.read_text() == str(os.getpid())


@pytest.mark.parametrize("value", ["off", "0", "false", "NO"])
def test_turned_off(env: dict[str, str], value: str) -> None:
    assert archive_flags({**env, "KAFKA_OFFSETS_SPARK_CDS": value}) == ()
    assert not cache_dir(env).exists()


def test_no_java_no_flags(tmp_path: Path) -> None:
    e = {"XDG_CACHE_HOME": str(tmp_path), "PATH": str(tmp_path), "JAVA_HOME": str(tmp_path / "none")}
    assert spark_key(e) is None and archive_flags(e) == ()


def test_a_path_with_a_blank_is_never_passed(env: dict[str, str], tmp_path: Path) -> None:
    e = {**env, "XDG_CACHE_HOME": str(tmp_path / "my cache")}
    assert archive_flags(e) == ()


def test_the_key_changes_with_the_java_binary(env: dict[str, str], tmp_path: Path) -> None:
    fake = tmp_path / "jdk" / "bin" / "java"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\n")
    other = spark_key({**env, "JAVA_HOME": str(tmp_path / "jdk")})
    assert other is not None and other != spark_key(env)


def test_the_key_changes_with_the_tool_version(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    import kafka_offsets_cli

    before = spark_key(env)
    monkeypatch.setattr(kafka_offsets_cli, "__version__", kafka_offsets_cli.__version__ + ".post1")
    assert spark_key(env) != before


def test_a_new_archive_leaves_one_older_archive(env: dict[str, str]) -> None:
    folder = cache_dir(env)
    folder.mkdir(parents=True)
    old = []
    for i, name in enumerate(["driver-aaa.jsa", "driver-bbb.jsa", "driver-ccc.jsa"]):
        path = folder / name
        path.write_bytes(ARCHIVE_MAGIC)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
        old.append(path)
    assert archive_flags(env) == (f"-XX:ArchiveClassesAtExit={_archive(env)}",)
    assert sorted(folder.glob("*.jsa")) == [old[2]]  # the newest other one (another java, say) stays
    assert archive_flags(env) == ()  # while it is written: no second writer, nothing removed
    assert sorted(folder.glob("*.jsa")) == [old[2]]
