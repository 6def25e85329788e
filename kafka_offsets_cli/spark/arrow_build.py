"""Arrow columns from Python values, laid out as Arrow buffers (no ``pyarrow.array``).

``pyarrow.array`` asks pyarrow's pandas shim whether a list is "array-like" whenever numpy is
installed, and the shim imports pandas to answer: about 0.5 s in each process that builds its
first array, that is in every Spark Python worker of a run, on the collect's critical path. The
columns of samples, records and verdicts are ints, floats, strings and bytes; here they are
written in Arrow's columnar layout directly (a validity bitmap, then the values, or offsets
and data for strings and bytes) and wrapped with ``Array.from_buffers``, which converts nothing.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

__all__ = ["arrow_column", "record_batch_of"]

#: Spark SQL type -> array typecode of the fixed-width values (``i`` is 32 bits, ``q`` 64, ``d`` a double)
_FIXED = {"int": "i", "bigint": "q", "double": "d"}
#: the largest offset of a (non-large) Arrow string or binary column
_MAX_OFFSET = 2**31 - 1


def _validity(values: Sequence[Any]) -> tuple[bytes | None, int]:
    """Arrow's validity bitmap of ``values`` (bit i set: value i is not null) and the null count."""
    nulls = [i for i, v in enumerate(values) if v is None]
    if not nulls:
        return None, 0
    bits = bytearray(b"\xff" * ((len(values) + 7) // 8))
    for i in nulls:
        bits[i >> 3] &= 0xFF ^ (1 << (i & 7))
    return bytes(bits), len(nulls)


def arrow_column(values: Sequence[Any], spark_type: str) -> Any:
    """An Arrow array of ``values`` (None: null) of a Spark SQL type: int, bigint, double, string, binary.

    Equal to ``pyarrow.array(values, type=...)`` (tested), without importing pandas. A value out
    of the type's range raises OverflowError; a string or bytes column over 2 GiB, ValueError.
    """
    import pyarrow as pa

    n = len(values)
    valid, nulls = _validity(values)
    mask = None if valid is None else pa.py_buffer(valid)
    if spark_type in _FIXED:
        code = _FIXED[spark_type]
        zero = 0.0 if code == "d" else 0
        data = array(code, values if not nulls else [zero if v is None else v for v in values])
        arrow_type = {"i": pa.int32(), "q": pa.int64(), "d": pa.float64()}[code]
        return pa.Array.from_buffers(arrow_type, n, [mask, pa.py_buffer(data)], null_count=nulls)
    if spark_type == "string":
        chunks = [b"" if v is None else v.encode() for v in values]
        arrow_type = pa.string()
    elif spark_type == "binary":
        chunks = [b"" if v is None else bytes(v) for v in values]
        arrow_type = pa.binary()
    else:
        raise ValueError(f"no Arrow column for Spark type {spark_type!r}")
    offsets = (
        array("i", accumulate(map(len, chunks), initial=0)) if sum(map(len, chunks)) <= _MAX_OFFSET else None
    )
    if offsets is None:
        raise ValueError(f"a {spark_type} column over 2 GiB does not fit one Arrow batch")
    body = pa.py_buffer(b"".join(chunks))
    return pa.Array.from_buffers(arrow_type, n, [mask, pa.py_buffer(offsets), body], null_count=nulls)


def record_batch_of(columns: Sequence[tuple[str, str]], rows: Sequence[tuple[Any, ...]]) -> Any:
    """A RecordBatch of ``rows`` (tuples in ``columns`` order) with ``columns``' (name, Spark type)."""
    import pyarrow as pa

    cols: list[Sequence[Any]] = list(zip(*rows, strict=True)) if rows else [() for _ in columns]
    arrays = [arrow_column(c, t) for c, (_, t) in zip(cols, columns, strict=True)]
    return pa.RecordBatch.from_arrays(arrays, names=[n for n, _ in columns])
