"""How many tasks ``check`` cuts a cluster into follows the Spark settings (pure)."""

from __future__ import annotations

import os

import pytest

from kafka_offsets_cli.spark.driver import task_slots


@pytest.mark.parametrize(
    ("master", "conf", "expected"),
    [
        ("local", {}, 1),
        ("local[3]", {}, 3),
        ("local[4, 2]", {}, 4),
        ("local[*]", {}, os.cpu_count() or 1),
        ("local[*]", {"spark.default.parallelism": "12"}, 12),
        ("spark://h:7077", {"spark.default.parallelism": "40"}, 40),
        ("spark://h:7077", {"spark.executor.instances": "5", "spark.executor.cores": "4"}, 20),
        ("yarn", {"spark.executor.instances": "5"}, None),
        ("k8s://https://api:6443", {}, None),
        (None, {}, None),  # Spark Connect: the server's size is not known before the run
        ("spark://h:7077", {"spark.default.parallelism": "zero"}, None),
    ],
)
def test_task_slots(master: str | None, conf: dict[str, str], expected: int | None) -> None:
    assert task_slots(master, conf) == expected
