"""The class-data archive on a real Spark driver JVM: written by one run, mapped by the next.

Each session runs in its own process (a JVM takes its flags when it starts). The first one
writes the archive when its JVM exits; the second one's JVM, asked to log where classes come
from (``-Xlog:class+load``), loads Spark's from the archive (``shared objects file (top)``:
the dynamic archive on top of the JDK's own); with ``KAFKA_OFFSETS_SPARK_CDS=off`` it does not.
Under CI=true a session that cannot start fails the test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafka_offsets_cli.spark.class_cache import ARCHIVE_MAGIC, cache_dir, spark_key
from tests.availability import unavailable

SESSION = """
import sys
from kafka_offsets_cli.spark.runtime import SessionOptions
from kafka_offsets_cli.spark.session import start_session
conf = (("spark.driver.extraJavaOptions", sys.argv[1]),) if len(sys.argv) > 1 else ()
rt = start_session(SessionOptions(master="local[1]", conf=conf), step=lambda text: print("step:", text))
rt.spark.range(3).count()
rt.stop()
"""
SHARED = "shared objects file (top)"


def _session(env: dict[str, str], *java_opts: str) -> str:
    """The steps the start told of (its stdout)."""
    p = subprocess.run(
        [sys.executable, "-c", SESSION, *java_opts], env=env, capture_output=True, text=True, timeout=300
    )
    if p.returncode != 0:
        unavailable(f"Spark session could not start: {p.stderr[-800:]}")
    return p.stdout


def _wait_whole(archive: Path, timeout: float = 240) -> None:
    """The JVM writes the archive after the process that started it has gone: wait for its header."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if archive.exists() and archive.read_bytes()[:4] == ARCHIVE_MAGIC:
            return
        time.sleep(0.5)
    raise AssertionError(f"no whole archive at {archive} after {timeout:.0f} s")


@pytest.mark.spark
def test_second_start_maps_sparks_classes_from_the_archive(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("KAFKA_OFFSETS_SPARK_CDS", None)
    key = spark_key(env)
    if key is None:
        unavailable("no java on this machine")
    archive = cache_dir(env) / f"driver-{key}.jsa"
    first = _session(env)
    _wait_whole(archive)
    # the slow first start says what it does and where the 165 MB go (issue 30.4); later ones do not
    assert "step: starting Spark, the first time" in first and str(archive.parent) in first, first

    log = tmp_path / "classes.log"
    assert _session(env, f"-Xlog:class+load=info:file={log}") == ""
    spark_lines = [ln for ln in log.read_text().splitlines() if "org.apache.spark.SparkContext " in ln]
    assert spark_lines and SHARED in spark_lines[0], spark_lines[:3]

    off = tmp_path / "off.log"
    _session({**env, "KAFKA_OFFSETS_SPARK_CDS": "off"}, f"-Xlog:class+load=info:file={off}")
    assert SHARED not in off.read_text()
    assert "org.apache.spark.SparkContext " in off.read_text()
