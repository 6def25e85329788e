"""Write command records to stdout in the machine formats (json, jsonl, csv), with ``--columns``.

Used by ``lag``, ``liveness`` and ``rewind``; each command owns its record schema.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import UsageError


def parse_columns(text: str | None, known: Sequence[str]) -> list[str] | None:
    """The ``--columns`` list, checked against the record's keys (``None``: all)."""
    if not text:
        return None
    cols = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in cols if c not in known]
    if bad:
        raise UsageError(f"--columns: unknown column {bad[0]!r} (choose from {', '.join(known)})")
    return cols


def records_text(
    records: Sequence[Mapping[str, Any]],
    fmt: str,
    columns: Sequence[str],
    selected: Sequence[str] | None = None,
    *,
    header: bool = True,
) -> str:
    """``records`` as ``json``, ``jsonl`` or ``csv`` text, keeping only ``selected`` columns if given."""
    from ..render.formats import select_columns, to_csv, to_json, to_jsonl

    recs = select_columns(records, list(selected) if selected else None)
    if fmt == "json":
        return to_json(recs)
    if fmt == "jsonl":
        return to_jsonl(recs)
    if fmt == "csv":
        return to_csv(recs, list(selected or columns), header=header)
    raise ValueError(f"not a record format: {fmt}")


def default_format(tty_default: str, pipe_default: str) -> str:
    """The output format when ``--output`` is not given: one for terminals, one for pipes."""
    from .output import stdout_is_tty

    return tty_default if stdout_is_tty() else pipe_default
