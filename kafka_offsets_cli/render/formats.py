"""Generic machine formats shared by every command: JSON, JSON lines and CSV.

Each command turns its results into flat records (``dict`` of JSON scalars) with
a documented, stable set of keys; these functions only serialise them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
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
    """RFC 4180 CSV with the given columns; ``None`` becomes an empty field."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if header:
        w.writerow(columns)
    for r in records:
        w.writerow(["" if r.get(c) is None else _cell(r.get(c)) for c in columns])
    return buf.getvalue()


def _cell(v: Any) -> Any:
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def select_columns(records: Iterable[Record], columns: Sequence[str] | None) -> list[dict[str, Any]]:
    """Keep only ``columns`` (in that order) of each record; all when ``columns`` is None."""
    if not columns:
        return [dict(r) for r in records]
    return [{c: r.get(c) for c in columns} for r in records]
