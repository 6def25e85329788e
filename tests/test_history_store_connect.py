"""The ``--history`` store through a real Spark Connect server (no JVM on the client side).

The server (dev/spark_connect.py, master ``local[2]``) writes and reads a ``file://`` history;
the store lists it with Spark's own listing (``DataFrame.inputFiles``): the window is the newest
N runs, read from their directories alone, as with a classic session, and nothing is deleted.
Under CI=true a server that cannot start fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dev import spark_connect
from kafka_offsets_cli.spark.history_store import history_schema
from tests.availability import unavailable
from tests.test_history_store import DAY, KEYS, RUN, T0, reference, run_dirs, sample_row

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def connect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    state = tmp_path_factory.mktemp("spark-connect")
    try:
        server = spark_connect.up(state)
    except Exception as exc:
        unavailable(f"Spark Connect server could not be started: {exc}")
    try:
        rt = start_session(SessionOptions(remote=server.url))
        try:
            yield rt.spark
        finally:
            rt.stop()
    finally:
        server.down()


def test_the_window_over_spark_connect(connect: Any, tmp_path: Path) -> None:
    from kafka_offsets_cli.spark.history_store import append_samples, compact, load_window

    spark = connect
    assert type(spark).__module__.startswith("pyspark.sql.connect")
    hist = tmp_path / "h"
    uri = f"file://{hist}"
    for run in range(-300, -298):  # a day before the lookback below
        append_samples(
            spark,
            uri,
            spark.createDataFrame([sample_row(k, run) for k in KEYS], history_schema()),
            T0 + run * RUN,
        )
    for run in range(6):  # across a UTC midnight
        append_samples(
            spark,
            uri,
            spark.createDataFrame([sample_row(k, run) for k in KEYS], history_schema()),
            T0 + run * RUN,
        )
    now = T0 + 5 * RUN
    df = load_window(spark, uri, now, DAY, 3)
    assert {tuple(r) for r in df.collect()} == reference(range(6), now, DAY, 3)
    dirs = run_dirs(hist)
    assert {Path(f.removeprefix("file:")).parent for f in df.inputFiles()} == set(dirs[-3:])
    for window in (4, 10):
        got = {tuple(r) for r in load_window(spark, uri, now, DAY, window).collect()}
        assert got == reference(range(6), now, DAY, window)
    assert compact(spark, uri, now, DAY) == []  # no file system on this side: nothing deleted
    assert len(run_dirs(hist)) == 8
