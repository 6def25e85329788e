"""``check``'s partition records come back from Spark in the report order Python gives.

:func:`kafka_offsets_cli.spark.records.collect_records` orders the collected Arrow table by an
index (Arrow's sort): it must be ``sorted(records, key=PartitionRecord.key)`` for any names
(non-ASCII, astral, spaces, quotes, newlines, empty), a null group or partition among others,
and records spread over several Spark partitions.

Under CI=true a Spark session that cannot start fails the tests.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kafka_offsets_cli.check.records import PartitionRecord, PartitionRecords
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.spark.frames import RECORD_DDL, record_row
from kafka_offsets_cli.spark.records import collect_records

pytestmark = pytest.mark.spark

NAMES = ["a", "b", "B", "é", "e\u0301", "Z", "a b", "日本", "x\ny", 'q"', "", "\U0001f600", "\ufb00", "a.b"]


@pytest.fixture(scope="module")
def spark(spark_runtime: Any) -> Any:
    """The module's Spark session (conftest.spark_runtime)."""
    return spark_runtime.spark


def _records(n: int, seed: int) -> list[PartitionRecord]:
    """``n`` records with distinct keys, in a shuffled order."""
    rnd = random.Random(seed)
    keys: set[tuple[str, str, str | None, str, int | None]] = set()
    while len(keys) < n:
        group = rnd.choice([None, *NAMES])
        keys.add(
            (rnd.choice(NAMES), rnd.choice(NAMES), group, rnd.choice(NAMES), rnd.choice([None, 0, 1, 7, 10]))
        )
    out = [
        PartitionRecord(
            check=check,
            kind="lag" if group is not None else "liveness",
            cluster=cluster,
            topic=topic,
            partition=partition,
            group=group,
            lag=rnd.choice([None, 0, 5]),
            state="ok",
            status=rnd.choice(list(MonitoringStatus)),
        )
        for check, cluster, group, topic, partition in keys
    ]
    rnd.shuffle(out)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_collected_records_are_in_report_order(spark: Any, seed: int) -> None:
    recs = _records(400, seed)
    frame = spark.createDataFrame([record_row(r) for r in recs], RECORD_DDL).repartition(4)
    got = collect_records(frame)
    assert isinstance(got, PartitionRecords)
    assert list(got) == sorted(recs, key=lambda r: r.key)
