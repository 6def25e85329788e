"""JSON and JSON lines of flat records at C speed, byte for byte what :mod:`.formats` writes.

``json.dumps(..., indent=2)`` runs the pure-Python encoder (CPython uses its C encoder only
without ``indent``): about a third of ``lag -o json``'s CPU over 50,000 rows. A flat record
(a non-empty ``dict`` whose values are ``str``, ``int``, ``float``, ``bool`` or ``None``) needs
no recursion, so its values can go through the C encoder and the layout be written around them.

Both ways rest on one fact: a newline never appears raw inside JSON text (strings escape it
as ``\\n``), so a separator holding a newline can be found again in the C encoder's output.

* Same keys in the same order in every record (the usual case: one row type): all the values
  go through the C encoder in one list, separated by newlines, so splitting on newlines gives
  each value's text exactly; the keys are encoded once, and each value is put after its key's
  prefix (``,`` and indent, or the break between two records, then ``"key": ``).
* Otherwise the whole list goes through the C encoder with separators holding a newline, and
  the layout is fixed by replacing the separators between records: in a list of flat records
  ``}`` followed by such a separator can only close a record. (Both encoders turn non-``str``
  keys into the same text, so those take this way too.)

The C and the Python encoder agree on exact scalars (``float.__repr__``, ``NaN``/``Infinity``,
the same string escaping), which is why only exact types qualify. Anything else (a nested value,
a subclass such as an ``Enum`` or a ``dict`` subclass, an empty record) falls back to
:mod:`.formats`, whose output is the contract.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import chain
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
    # exact dicts first: dict.values on a subclass would bypass what it overrides
    if not set(map(type, records)) <= {dict} or not all(records):
        return False
    return set(map(type, chain.from_iterable(map(dict.values, records)))) <= _SCALARS


def _shared_keys(recs: Sequence[Any]) -> tuple[str, ...] | None:
    """The keys of the records when all are exact ``dict``s with the same ``str`` keys in one order."""
    if not recs or type(recs[0]) is not dict or not recs[0] or set(map(type, recs)) != {dict}:
        return None
    keys = tuple(recs[0])
    # a key equal to an exact str is a str of the same text, which both encoders write alike
    if not all(type(k) is str for k in keys):
        return None
    # the last record first: rows of another shape tend to come as a run at the end (a summary
    # row, a second kind), and then the walk over all of them, up to ~12 ms per 50,000, is saved
    if tuple(recs[-1]) != keys or not all(map(keys.__eq__, map(tuple, recs))):
        return None
    return keys


def _value_texts(recs: Sequence[Any]) -> list[str] | None:
    """The JSON text of every value, record after record (exact ``dict``s: see :func:`_shared_keys`);
    ``None`` when a value is not a scalar."""
    values = list(chain.from_iterable(map(dict.values, recs)))
    if not set(map(type, values)) <= _SCALARS:
        return None
    # one C call; "\n" between the values cannot occur inside one, so split() cuts exactly there
    return json.dumps(values, ensure_ascii=False, separators=("\n", ":"))[1:-1].split("\n")


def _weave(keys: tuple[str, ...], values: list[str], opening: str, between: str, sep: str, colon: str) -> str:
    """``opening``, then each value after its key, the records joined by ``between``, items by ``sep``."""
    names = [json.dumps(k, ensure_ascii=False) + colon for k in keys]
    # one record's prefixes with a slot after each; repeating the list and filling the slots by a
    # slice assignment keeps the per-value work in C (a generator of pairs takes three times as long)
    row: list[str] = []
    for i, name in enumerate(names):
        row += [(sep if i else between) + name, ""]
    out = row * (len(values) // len(keys))
    out[1::2] = values
    out[0] = opening + names[0]  # the first record opens the document, the others follow a record
    return "".join(out)


def to_json(records: Iterable[Record]) -> str:
    """:func:`.formats.to_json` (a JSON array, indented by two, ending in a newline), faster."""
    recs = list(records)
    keys = _shared_keys(recs)
    if keys is not None:
        values = _value_texts(recs)
        if values is None:
            return _slow_json(recs)
        return _weave(keys, values, "[\n  {\n    ", _BETWEEN_INDENTED, _ITEM_SEP, ": ") + "\n  }\n]\n"
    if not recs or not flat(recs):
        return _slow_json(recs)
    text = json.dumps(recs, ensure_ascii=False, separators=(_ITEM_SEP, ": "))
    # "[{" ... "}]" around the records; between two records "},\n    {"
    body = text[2:-2].replace(_BETWEEN, _BETWEEN_INDENTED)
    return "[\n  {\n    " + body + "\n  }\n]\n"


def to_jsonl(records: Iterable[Record]) -> str:
    """:func:`.formats.to_jsonl` (one compact JSON object a line), faster."""
    recs = list(records)
    keys = _shared_keys(recs)
    if keys is not None:
        values = _value_texts(recs)
        if values is None:
            return _slow_jsonl(recs)
        return _weave(keys, values, "{", "}\n{", ",", ":") + "}\n"
    if not recs or not flat(recs):
        return _slow_jsonl(recs)
    text = json.dumps(recs, ensure_ascii=False, separators=(_LINE_SEP, ":"))
    # the separators between records first (each becomes a line break), then those within one
    body = text[1:-1].replace(_LINE_BETWEEN, "}\n{").replace(_LINE_SEP, ",")
    return body + "\n"
