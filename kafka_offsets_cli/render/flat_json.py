"""JSON and JSON lines of flat records at C speed, byte for byte what :mod:`.formats` writes.

``json.dumps(..., indent=2)`` runs the pure-Python encoder (CPython uses its C encoder only
without ``indent``): about a third of ``lag -o json``'s CPU over 50,000 rows. A flat record
(a non-empty ``dict`` whose values are ``str``, ``int``, ``float``, ``bool`` or ``None``) needs
no recursion, so the whole list goes through the C encoder in one call, with separators that
hold a newline, and the layout is fixed afterwards by replacing the separators between records.

That is exact because a newline never appears raw inside JSON text except in a separator
(strings escape it as ``\\n``), and in a list of flat records ``}`` followed by a separator can
only close a record. Anything else (a nested value, a subclass such as an ``Enum``, an empty
record) falls back to :mod:`.formats`, whose output is the contract.

Records that also share one layout (the same keys in the same order: every record a command
writes) are written a column at a time first (:func:`_columns`): each distinct string encoded
once, each column's numbers in one pass, keys and values laid out a column at a time into one
list joined once, in C. The C encoder above encodes every key of every record again; records of
several layouts take it (``python -m bench.lag_rows`` measures the two).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the ensure_ascii=False string encoder
from operator import itemgetter
from typing import Any

from .formats import Record
from .formats import to_json as _slow_json
from .formats import to_jsonl as _slow_jsonl

__all__ = ["flat", "to_json", "to_jsonl"]

#: The value types a flat record may hold (exact types: the C and Python encoders agree on them).
_SCALARS = frozenset({str, int, float, bool, type(None)})

# json.dumps(indent=2): records at two spaces, their items at four, "," between items.
_ITEM_SEP = ",\n    "
_BETWEEN = "},\n    {"  # what the C encoder writes between two records with _ITEM_SEP
_BETWEEN_INDENTED = "\n  },\n  {\n    "

# JSON lines: compact records, one a line.
_LINE_SEP = ",\n"
_LINE_BETWEEN = "},\n{"


def flat(records: Sequence[Any]) -> bool:
    """True when every record is a non-empty ``dict`` of JSON scalars (str, int, float, bool, None)."""
    types: set[type] = set()
    for r in records:
        if type(r) is not dict or not r:
            return False
        types.update(map(type, r.values()))
    return types <= _SCALARS


def to_json(records: Iterable[Record]) -> str:
    """:func:`.formats.to_json` (a JSON array, indented by two, ending in a newline), faster."""
    recs = list(records)
    layout = _columns(recs) if recs else None
    if layout is not None:  # a record's first key follows the previous record's close
        keys, columns = layout
        before = [f"\n  }},\n  {{\n    {keys[0]}: ", *(f",\n    {k}: " for k in keys[1:])]
        return _interleaved(before, columns, f"[\n  {{\n    {keys[0]}: ", "\n  }\n]\n")
    if not recs or not flat(recs):
        return _slow_json(recs)
    text = json.dumps(recs, ensure_ascii=False, separators=(_ITEM_SEP, ": "))
    # "[{" ... "}]" around the records; between two records "},\n    {"
    body = text[2:-2].replace(_BETWEEN, _BETWEEN_INDENTED)
    return "[\n  {\n    " + body + "\n  }\n]\n"


def to_jsonl(records: Iterable[Record]) -> str:
    """:func:`.formats.to_jsonl` (one compact JSON object a line), faster."""
    recs = list(records)
    layout = _columns(recs) if recs else None
    if layout is not None:
        keys, columns = layout
        before = [f"}}\n{{{keys[0]}:", *(f",{k}:" for k in keys[1:])]
        return _interleaved(before, columns, f"{{{keys[0]}:", "}\n")
    if not recs or not flat(recs):
        return _slow_jsonl(recs)
    text = json.dumps(recs, ensure_ascii=False, separators=(_LINE_SEP, ":"))
    # the separators between records first (each becomes a line break), then those within one
    body = text[1:-1].replace(_LINE_BETWEEN, "}\n{").replace(_LINE_SEP, ",")
    return body + "\n"


_NoneType = type(None)
_WORDS = {None: "null", True: "true", False: "false"}


def _interleaved(before: Sequence[str], columns: Sequence[list[str]], first: str, last: str) -> str:
    """The text ``before[0] col0[i] before[1] col1[i] …`` for every record ``i``, the very first
    ``before[0]`` replaced by ``first``, then ``last``: one list filled a column at a time (slices,
    in C) and joined once."""
    k, n = len(columns), len(columns[0])
    pieces: list[str] = [""] * (2 * k * n)
    for j, (text, column) in enumerate(zip(before, columns, strict=True)):
        pieces[2 * j :: 2 * k] = [text] * n
        pieces[2 * j + 1 :: 2 * k] = column
    pieces[0] = first
    pieces.append(last)
    return "".join(pieces)


def _columns(records: Sequence[Any]) -> tuple[list[str], list[list[str]]] | None:
    """The records' keys (JSON strings) and each column's values as JSON text; ``None`` unless every
    record is a non-empty ``dict`` of JSON scalars with the first record's keys in its order
    (string keys)."""
    first = records[0]
    if type(first) is not dict or not first or any(type(k) is not str for k in first):
        return None
    keys = tuple(first)
    if not all(type(r) is dict for r in records) or not all(map(keys.__eq__, map(tuple, records))):
        return None
    columns = []
    for key in keys:
        text = _column_text(list(map(itemgetter(key), records)))
        if text is None:
            return None
        columns.append(text)
    return [encode_basestring(k) for k in keys], columns


def _column_text(values: Sequence[Any]) -> list[str] | None:
    """One column's values as JSON text (``None`` for a value that is not a JSON scalar)."""
    types = set(map(type, values))
    if not types <= _SCALARS:
        return None
    if types <= {str, _NoneType}:  # names and states: few distinct values, each encoded once
        distinct = {v: "null" if v is None else encode_basestring(v) for v in set(values)}
        return list(map(distinct.__getitem__, values))
    if types <= {int, _NoneType}:  # offsets: each distinct, in one pass of int.__repr__
        text = list(map(repr, values))
        return [s if s != "None" else "null" for s in text] if _NoneType in types else text
    if types <= {bool, _NoneType}:
        return list(map(_WORDS.__getitem__, values))
    return list(map(_scalar_text, values))


def _scalar_text(value: Any) -> str:
    """A JSON scalar as both encoders write it (floats as ``float.__repr__``, or NaN/Infinity)."""
    if type(value) is str:
        return str(encode_basestring(value))
    if type(value) is float:
        return json.dumps(value) if value != value or value in (_INF, -_INF) else repr(value)
    return _WORDS[value] if value is None or type(value) is bool else repr(value)


_INF = float("inf")
