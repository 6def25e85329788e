"""The ``--history`` store on a real local Spark session: a directory per run, only the newest N read.

* the window read from the run directories equals the newest N samples of every partition within
  the lookback (what the store read before, from the whole lookback), and so do the verdicts;
* only the newest N run directories are read: older ones, corrupted, change nothing, and the
  DataFrame's input files are theirs alone; a run without ``_SUCCESS`` is not read;
* a history written in the layout before (``date=D/part-*.parquet``, every run of a day together)
  is still read, alone and beside new runs;
* a history written before samples had ``group_type`` is still read (its ``group_type`` null), and
  beside runs that have it;
* compaction deletes the days older than the lookback and keeps the verdicts.

Under CI=true a Spark session that cannot start fails the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from kafka_offsets_cli.check.history import Sample, evaluate_partition
from kafka_offsets_cli.check.spec import HistoryRules

pytestmark = pytest.mark.spark

DAY = 86_400_000
RUN = 300_000  # a run every 5 minutes
T0 = 1_764_000_000_000 - 1_764_000_000_000 % DAY + DAY - 4 * RUN  # 20 minutes before a UTC midnight
KEYS = [("c1", "g1", "t", 0), ("c1", "g1", "t", 1), ("c1", "g2", "t", 0), ("c2", "g1", "u", 3)]
TYPES = {"g1": "consumer", "g2": "share"}  # each group's type as the brokers list it


@pytest.fixture(scope="module")
def spark(spark_runtime: Any) -> Any:
    """The module's Spark session (conftest.spark_runtime)."""
    return spark_runtime.spark


def sample_row(key: tuple[str, str, str, int], run: int) -> tuple[Any, ...]:
    """Run ``run``'s sample of ``key``: g1 consumes, g2 stops after run 2, c2 rewinds at run 4."""
    from kafka_offsets_cli.spark.history_store import utc_date

    cluster, group, topic, partition = key
    run_ms = T0 + run * RUN
    end = 1000 + 100 * run
    committed = {"g1": 950 + 90 * run, "g2": 900 + 60 * min(run, 2)}[group]
    if cluster == "c2":
        committed = 500 + 80 * run - (300 if run >= 4 else 0)
    return (
        run_ms,
        cluster,
        group,
        topic,
        partition,
        committed,
        0,
        end,
        end - committed,
        "STABLE",
        TYPES[group],
        utc_date(run_ms),
    )


def write_runs(spark: Any, path: str, runs: range, *, as_frame: bool = False) -> None:
    from kafka_offsets_cli.spark.history_store import append_samples, history_schema

    for run in runs:
        rows = [sample_row(k, run) for k in KEYS]
        if as_frame:
            # the columns by name, in any order (the pipeline's DataFrame)
            frame = spark.createDataFrame(rows, history_schema()).select(*reversed(history_schema().names))
            append_samples(spark, path, frame, T0 + run * RUN)
        else:
            append_samples(spark, path, spark.sparkContext.parallelize(rows, 2), T0 + run * RUN)


def write_old_layout(spark: Any, path: str, runs: range) -> None:
    """What the store wrote before: every run appended to ``date=D/`` (Spark's partitionBy)."""
    from kafka_offsets_cli.spark.history_store import history_schema

    for run in runs:
        rows = [sample_row(k, run) for k in KEYS]
        spark.createDataFrame(rows, history_schema()).write.mode("append").partitionBy("date").parquet(path)


def reference(runs: Iterable[int], now_ms: int, lookback_ms: int, window: int) -> set[tuple[Any, ...]]:
    """The newest ``window`` samples of every partition within the lookback (the old store's read)."""
    out = set()
    for k in KEYS:
        rows = [sample_row(k, r) for r in runs]
        rows = [r for r in rows if now_ms - lookback_ms <= r[0] <= now_ms]
        out |= set(sorted(rows, reverse=True)[:window])
    return out


def loaded(spark: Any, path: str, now_ms: int, lookback_ms: int, window: int) -> set[tuple[Any, ...]]:
    from kafka_offsets_cli.spark.history_store import COLUMNS, load_window

    df = load_window(spark, path, now_ms, lookback_ms, window)
    assert df.columns == [n for n, _ in COLUMNS]
    return {tuple(r) for r in df.collect()}


def verdicts(rows: set[tuple[Any, ...]], now_ms: int, window: int) -> dict[tuple[Any, ...], str]:
    rules = HistoryRules(window=window, min_samples=3)
    by_key: dict[tuple[Any, ...], list[Sample]] = {}
    for r in rows:
        by_key.setdefault(r[1:5], []).append(Sample(r[0], r[5], r[7], r[8]))
    return {k: evaluate_partition(v, rules, now_ms=now_ms).status.value for k, v in by_key.items()}


def run_dirs(path: Path) -> list[Path]:
    return sorted(path.glob("date=*/run=*"), key=lambda p: int(p.name[4:]))


def test_window_is_the_newest_runs_and_the_verdicts_are_the_same(spark: Any, tmp_path: Path) -> None:
    hist = str(tmp_path / "h")
    write_runs(spark, hist, range(7))  # across a UTC midnight: two date directories
    assert len({p.parent.name for p in run_dirs(Path(hist))}) == 2
    now = T0 + 6 * RUN
    for window, lookback in ((4, DAY), (10, DAY), (3, 2 * RUN)):
        got = loaded(spark, hist, now, lookback, window)
        assert got == reference(range(7), now, lookback, window)
    got = loaded(spark, hist, now, DAY, 5)
    v = verdicts(got, now, 5)
    assert v == verdicts(reference(range(7), now, DAY, 5), now, 5)
    assert v == {KEYS[0]: "warn", KEYS[1]: "warn", KEYS[2]: "stop", KEYS[3]: "rewind"}


def test_only_the_newest_runs_are_read(spark: Any, tmp_path: Path) -> None:
    from kafka_offsets_cli.spark.history_store import load_window

    hist = tmp_path / "h"
    write_runs(spark, str(hist), range(6), as_frame=True)
    now = T0 + 5 * RUN
    expected = reference(range(6), now, DAY, 3)
    dirs = run_dirs(hist)
    files = load_window(spark, str(hist), now, DAY, 3).inputFiles()
    assert {Path(f.removeprefix("file:")).parent for f in files} == set(dirs[-3:])
    for old in dirs[:-3]:  # older runs unreadable: the window does not notice
        for f in old.glob("*.parquet"):
            f.write_bytes(b"not parquet")
    assert loaded(spark, str(hist), now, DAY, 3) == expected
    # a run without _SUCCESS (in progress, or crashed) is not read: the next older one is
    (dirs[-1] / "_SUCCESS").unlink()
    got = loaded(spark, str(hist), now, DAY, 2)
    assert {r[0] for r in got} == {T0 + 4 * RUN, T0 + 3 * RUN}


def test_a_history_of_the_layout_before_is_still_read(spark: Any, tmp_path: Path) -> None:
    hist = str(tmp_path / "h")
    write_old_layout(spark, hist, range(4))
    assert not run_dirs(Path(hist))
    now = T0 + 3 * RUN
    assert loaded(spark, hist, now, DAY, 3) == reference(range(4), now, DAY, 3)
    write_runs(spark, hist, range(4, 6))  # the first runs of the new layout, beside the old files
    now = T0 + 5 * RUN
    for window in (2, 4, 10):
        assert loaded(spark, hist, now, DAY, window) == reference(range(6), now, DAY, window)
    got = loaded(spark, hist, now, DAY, 5)
    assert verdicts(got, now, 5) == verdicts(reference(range(6), now, DAY, 5), now, 5)


def test_a_history_written_before_group_type_is_read_with_it_null(spark: Any, tmp_path: Path) -> None:
    from kafka_offsets_cli.spark.history_store import COLUMNS, run_dir

    hist = str(tmp_path / "h")
    names = [n for n, _ in COLUMNS]
    assert names[-2:] == ["group_type", "date"]  # an older version's files: the columns before these
    before = ", ".join(f"`{n}` {t}" for n, t in COLUMNS[:-2])
    for run in range(3):
        target = run_dir(hist, T0 + run * RUN)
        rows = [sample_row(k, run)[:-2] for k in KEYS]
        spark.createDataFrame(rows, before).coalesce(1).write.parquet(target)
        (Path(target) / "_SUCCESS").touch()
    assert "group_type" not in spark.read.parquet(run_dir(hist, T0)).columns
    write_runs(spark, hist, range(3, 5))  # this version's runs beside them
    now = T0 + 4 * RUN
    got = loaded(spark, hist, now, DAY, 10)
    want = reference(range(5), now, DAY, 10)
    # the same samples; group_type null in the older runs' only
    assert {r[:-2]: r[-2] for r in got} == {r[:-2]: r[-2] if r[0] >= T0 + 3 * RUN else None for r in want}
    assert verdicts(got, now, 5) == verdicts(reference(range(5), now, DAY, 5), now, 5)


def test_compaction_deletes_days_older_than_the_lookback_and_keeps_the_verdicts(
    spark: Any, tmp_path: Path
) -> None:
    from kafka_offsets_cli.spark.history_store import KEEP_AT_LEAST_MS, compact

    hist = tmp_path / "h"
    week = KEEP_AT_LEAST_MS // RUN
    write_old_layout(spark, str(hist), range(-week - 288, -week - 286))  # 8 days before: old layout
    write_runs(spark, str(hist), range(-week + 6, -week + 8))  # just under 7 days before
    write_runs(spark, str(hist), range(-288, -286))  # the day before
    write_runs(spark, str(hist), range(6))
    now = T0 + 5 * RUN
    dates = sorted(p.name for p in hist.glob("date=*"))
    assert len(dates) == 5
    before = {w: loaded(spark, str(hist), now, DAY, w) for w in (4, 8)}
    # reading with a one-day lookback deleted only the day older than a week (another lookback's)
    assert sorted(p.name for p in hist.glob("date=*")) == dates[1:]
    written = [-week + 6, -week + 7, -288, -287, *range(6)]
    assert loaded(spark, str(hist), now, 8 * DAY, 10) == reference(written, now, 8 * DAY, 10)
    assert compact(spark, str(hist), now, DAY) == dates[1:3]
    assert sorted(p.name for p in hist.glob("date=*")) == dates[3:]
    for w, rows in before.items():
        assert loaded(spark, str(hist), now, DAY, w) == rows == reference(range(6), now, DAY, w)
    assert verdicts(before[4], now, 4) == verdicts(reference(range(6), now, DAY, 4), now, 4)
    assert compact(spark, str(hist), now, DAY) == []


def test_an_empty_or_missing_history_gives_no_rows(spark: Any, tmp_path: Path) -> None:
    assert loaded(spark, str(tmp_path / "none"), T0, DAY, 10) == set()
    (tmp_path / "empty").mkdir()
    assert loaded(spark, f"file://{tmp_path / 'empty'}", T0, DAY, 10) == set()
