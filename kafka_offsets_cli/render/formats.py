"""Generic machine formats shared by every command: JSON, JSON lines and CSV.

Each command turns its results into flat records (``dict`` of JSON scalars) with
a documented, stable set of keys; these functions only serialise them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

Record = Mapping[str, Any]


def to_json(records: Iterable[Record]) -> str:
    """A JSON array, pretty-printed with two spaces, ending in a newline."""
    return json.dumps(list(records), indent=2, ensure_ascii=False) + "\n"


def to_json_document(doc: Any) -> str:
    """Any JSON document, pretty-printed, ending in a newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def to_jsonl(records: Iterable[Record]) -> str:
    """One compact JSON object per line."""
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


def to_csv(records: Iterable[Record], columns: Sequence[str], *, header: bool = True) -> str:
    """RFC 4180 CSV with the given columns; ``None`` becomes an empty field, booleans ``true``/``false``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")  # writes None as an empty field
    if header:
        w.writerow(columns)
    row_of = _row_getter(columns)
    for r in records:
        row = row_of(r)
        if bool in map(type, row):
            row = tuple(_BOOL_TEXT[v] if type(v) is bool else v for v in row)
        w.writerow(row)
    return buf.getvalue()


_BOOL_TEXT = {True: "true", False: "false"}


def _row_getter(columns: Sequence[str]) -> Callable[[Record], tuple[Any, ...]]:
    """A function from a record to its values in ``columns`` order (a missing key: ``None``)."""
    cols = tuple(columns)
    many = itemgetter(*cols) if len(cols) > 1 else None

    def row(r: Record) -> tuple[Any, ...]:
        try:
            return many(r) if many is not None else (r[cols[0]],)
        except KeyError:
            return tuple(r.get(c) for c in cols)

    return row


def select_columns(records: Iterable[Record], columns: Sequence[str] | None) -> list[Record]:
    """Keep only ``columns`` (in that order) of each record; all (the records themselves) when None."""
    if not columns:
        return list(records)
    return [{c: r.get(c) for c in columns} for r in records]
