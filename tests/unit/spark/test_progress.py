"""The Spark progress line says what runs and for how long (spark/progress.py, class_cache's note)."""

from __future__ import annotations

from pathlib import Path

from kafka_offsets_cli.spark.class_cache import first_start_note
from kafka_offsets_cli.spark.progress import StageProgress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_each_step_shows_its_own_seconds_after_the_first() -> None:
    clock = Clock()
    p = StageProgress(clock=clock)
    assert p._text() == "starting Spark…"
    clock.now += 26.4
    assert p._text() == "starting Spark (26 s)…"
    p.set("planning")
    assert p._text() == "planning…"
    clock.now += 3
    assert p._text() == "planning (3 s)…"


def test_a_step_told_more_precisely_keeps_its_clock() -> None:
    clock = Clock()
    p = StageProgress(clock=clock)
    clock.now += 5
    p.set("starting Spark, the first time")
    clock.now += 2
    assert p._text() == "starting Spark, the first time (7 s)…"


def test_the_first_start_says_where_the_archive_goes_and_later_ones_nothing(tmp_path: Path) -> None:
    archive = tmp_path / "spark-cds" / "driver-abc.jsa"
    note = first_start_note(("-Xss4m", f"-XX:ArchiveClassesAtExit={archive}"))
    assert note is not None and str(archive.parent) in note and "165 MB" in note
    assert note.startswith("starting Spark")
    assert first_start_note((f"-XX:SharedArchiveFile={archive}",)) is None
    assert first_start_note(()) is None
