"""Arrow columns laid out as buffers (kafka_offsets_cli.spark.arrow_build) equal pyarrow's own.

Spark's Python workers build every sample and record batch with them; pyarrow.array would
import pandas in each worker, so they must give exactly the arrays pyarrow.array gives.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.spark.arrow_build import arrow_column, record_batch_of

_TYPES = {
    "int": pa.int32(),
    "bigint": pa.int64(),
    "double": pa.float64(),
    "string": pa.string(),
    "binary": pa.binary(),
}
_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "int": st.integers(-(2**31), 2**31 - 1),
    "bigint": st.integers(-(2**63), 2**63 - 1),
    "double": st.floats(allow_nan=False),
    "string": st.text(),
    "binary": st.binary(),
}


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(_TYPES)).flatmap(lambda t: st.tuples(st.just(t), st.lists(st.none() | _VALUES[t])))
)
def test_a_column_equals_pyarrows_array(case: tuple[str, list[Any]]) -> None:
    kind, values = case
    got = arrow_column(values, kind)
    got.validate(full=True)
    assert got.type == _TYPES[kind]
    assert got.equals(pa.array(values, type=_TYPES[kind]))
    assert got.to_pylist() == values


def test_nulls_at_every_bit_position_and_empty_columns() -> None:
    for n in (0, 1, 7, 8, 9, 17):
        for hole in range(n):
            values: list[int | None] = [i for i in range(n)]
            values[hole] = None
            got = arrow_column(values, "bigint")
            assert got.null_count == 1 and got.to_pylist() == values
    assert arrow_column([], "string").equals(pa.array([], type=pa.string()))


def test_out_of_range_values_are_refused_not_wrapped() -> None:
    with pytest.raises(OverflowError):
        arrow_column([2**31], "int")
    with pytest.raises(ValueError, match="no Arrow column"):
        arrow_column([True], "boolean")


def test_a_batch_has_the_columns_names_and_types() -> None:
    batch = record_batch_of((("i", "int"), ("s", "string")), [(1, "a"), (None, None)])
    assert batch.schema == pa.schema([("i", pa.int32()), ("s", pa.string())])
    assert batch.to_pylist() == [{"i": 1, "s": "a"}, {"i": None, "s": None}]


def test_building_the_tasks_batches_does_not_import_pandas() -> None:
    """The point of the module: a Python worker that emits records never loads pandas (0.5 s)."""
    code = (
        "import sys\n"
        "from kafka_offsets_cli.check.records import PartitionRecord\n"
        "from kafka_offsets_cli.errors import MonitoringStatus\n"
        "from kafka_offsets_cli.spark.frames import record_batch\n"
        "r = PartitionRecord(check='c', kind='lag', cluster='k', topic='t', partition=0, group='g',\n"
        "                    lag=3, state='ok', status=MonitoringStatus.OK)\n"
        "assert record_batch([r]).num_rows == 1\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False"
