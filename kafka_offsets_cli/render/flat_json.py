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
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
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
    if not recs or not flat(recs):
        return _slow_json(recs)
    text = json.dumps(recs, ensure_ascii=False, separators=(_ITEM_SEP, ": "))
    # "[{" ... "}]" around the records; between two records "},\n    {"
    body = text[2:-2].replace(_BETWEEN, _BETWEEN_INDENTED)
    return "[\n  {\n    " + body + "\n  }\n]\n"


def to_jsonl(records: Iterable[Record]) -> str:
    """:func:`.formats.to_jsonl` (one compact JSON object a line), faster."""
    recs = list(records)
    if not recs or not flat(recs):
        return _slow_jsonl(recs)
    text = json.dumps(recs, ensure_ascii=False, separators=(_LINE_SEP, ":"))
    # the separators between records first (each becomes a line break), then those within one
    body = text[1:-1].replace(_LINE_BETWEEN, "}\n{").replace(_LINE_SEP, ",")
    return body + "\n"
