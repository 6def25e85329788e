"""From a command's output to stdout: one dispatch from (format, records) to text, one way to show.

Each command owns its record schema and its view (which formats it draws
itself: tables, plain, nagios, prometheus); the record formats (json, jsonl,
csv, with ``--columns`` and ``--no-headers``) are written here for all of them,
and so is what a view returns: printed once, or as one ``--watch`` block.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..render.flat_json import to_json, to_jsonl
from ..render.formats import select_columns, to_csv
from .options import Format
from .output import Screen, print_renderable, write


def parse_columns(text: str | None, known: Sequence[str]) -> list[str] | None:
    """The ``--columns`` list, checked against the record's keys (``None``: all)."""
    if not text:
        return None
    cols = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in cols if c not in known]
    if bad:
        raise UsageError(f"--columns: unknown column {bad[0]!r} (choose from {', '.join(known)})")
    return cols


#: under ``--watch``, the field every record of a record format gains: when its refresh was taken
REFRESHED_FIELD = "refreshed_ms"


@dataclass(frozen=True)
class Refresh:
    """One ``--watch`` refresh as its records carry it: its number (from 1) and when it was taken."""

    number: int
    taken_ms: int | None


def records_text(
    records: Sequence[Mapping[str, Any]],
    fmt: Format,
    columns: Sequence[str],
    selected: Sequence[str] | None = None,
    *,
    header: bool = True,
    refresh: Refresh | None = None,
) -> str:
    """``records`` as ``json``, ``jsonl`` or ``csv`` text, keeping only ``selected`` columns if given.

    Under ``--watch`` (``refresh``) every record gains :data:`REFRESHED_FIELD` and a CSV stream has
    its header once, on the first refresh: the refreshes' rows then read as one CSV table.
    """
    if refresh is not None:
        records = [{**r, REFRESHED_FIELD: refresh.taken_ms} for r in records]
        columns = (*columns, REFRESHED_FIELD)
        header = header and refresh.number == 1
    recs = select_columns(records, list(selected) if selected else None)
    if fmt is Format.json:
        return to_json(recs)
    if fmt is Format.jsonl:
        return to_jsonl(recs)
    if fmt is Format.csv:
        return to_csv(recs, list(selected or columns), header=header)
    raise ValueError(f"not a record format: {fmt.value}")


def show(out: Any, screen: Screen) -> None:
    """Print a view's output on ``screen``: text as it is, a rich renderable (table) drawn."""
    if isinstance(out, str):
        write(out, screen.env)
    else:
        print_renderable(out, screen)


def block_text(out: Any, fmt: Format) -> str:
    """A view's output as one ``--watch`` block when stdout is not a live terminal.

    plain blocks end with an empty line (they could not be told apart otherwise; csv rows carry
    ``refreshed_ms`` instead, under one header); a table is drawn without colour at full width.
    """
    if isinstance(out, str):
        return out + ("\n" if fmt is Format.plain else "")
    from rich.console import Console

    from .watch import block_stamp  # a table's block says when it was taken (a log of blocks)

    buf = io.StringIO()
    Console(file=buf, no_color=True, width=10_000, soft_wrap=True, highlight=False).print(out)
    return block_stamp() + buf.getvalue() + "\n"
