"""Driver-side writes of ``check --write`` without starting Spark (they need pyarrow, the spark extra,
so they are not unit tests; the rest of deploying: tests/unit/spark/test_spark_deploy.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kafka_offsets_cli.spark.write import RECORD_COLUMNS, check_write_dir, write_table


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_the_table_is_written_by_the_driver_whole(tmp_path: Path, fmt: str) -> None:
    row = tuple(None if t != "string" else n for n, t in RECORD_COLUMNS)
    out = tmp_path / "out"
    write_table(None, [row, row], fmt, str(out))
    write_table(None, [row], fmt, f"file://{out}")  # an earlier output is replaced whole
    assert sorted(p.name for p in out.iterdir()) == ["_SUCCESS", f"part-00000.{fmt}"]
    if fmt == "csv":
        lines = (out / "part-00000.csv").read_text().splitlines()
        assert lines[0].startswith("check,kind,cluster,topic,partition,group,committed,end,lag")
        assert lines[0].endswith(",error,group_type,loss_eta_ms")  # added last: the columns before stay
        assert len(lines) == 2
    else:
        import pyarrow.parquet as pq

        assert pq.read_table(out).num_rows == 1
    assert check_write_dir(str(out)) == out
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary directory left


def test_a_replaced_write_dir_keeps_its_mode_and_its_link(tmp_path: Path) -> None:
    """Issue 27 item 7: the directory swapped in was mkdtemp's 0700, whatever the one it replaced."""
    row = tuple(None if t != "string" else n for n, t in RECORD_COLUMNS)
    real = tmp_path / "real"
    write_table(None, [row], "csv", str(real))
    real.chmod(0o750)
    link = tmp_path / "out"
    link.symlink_to(real)
    write_table(None, [row, row], "csv", str(link))
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o750
    assert len((real / "part-00000.csv").read_text().splitlines()) == 3
    fresh = tmp_path / "fresh"
    old = os.umask(0o022)
    try:
        write_table(None, [row], "csv", str(fresh))
    finally:
        os.umask(old)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o755  # as mkdir makes it
