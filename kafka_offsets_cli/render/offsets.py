"""Renderers for ``kafka-offsets list``.

Record schema (json, jsonl, csv), one record per partition and spec::

    {"topic": str, "partition": int, "spec": str, "offset": int|null,
     "timestamp": int|null, "leader_epoch": int|null, "error": str|null}

``spec`` is ``earliest``, ``latest``, ``max-timestamp``, a tiered spec or the target
time in epoch milliseconds. ``plain`` is GetOffsetShell's ``topic:partition:offset``.
``--tiering`` adds the tiering view's fields and columns (:mod:`.list_tiering`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich is imported only where a table is drawn (fast machine output)
    from rich.text import Text

    from ..tiering.report import TieringReport
    from .fitted import FittedTable

from ..models.offsets import OffsetResult, OffsetSpec, OffsetTable, SpecKind
from ..models.topics import TopicPartition
from ..parse.times import format_time
from .order import kafka_order

#: Columns of the list record, in order.
COLUMNS = ("topic", "partition", "spec", "offset", "timestamp", "leader_epoch", "error")


def records(table: OffsetTable, order: Sequence[TopicPartition] | None = None) -> list[dict[str, Any]]:
    """Records sorted by topic, partition (or by ``order``), then the order specs were given."""
    return table.missing_records() + [r.to_record() for r in ordered_results(table, order)]


def ordered_results(table: OffsetTable, order: Sequence[TopicPartition] | None = None) -> list[OffsetResult]:
    """The results in row order: partitions as ``order`` lists them (partitions it lacks
    follow by topic and number; default: all by topic and number), each partition's
    results in the order the specs were given.

    Linear in the number of results: tens of thousands of them are grouped, not sorted.
    """
    spec_pos = {s: i for i, s in enumerate(table.specs)}
    by_tp: dict[tuple[str, int], list[OffsetResult]] = {}
    for r in table.results:
        group = by_tp.get((r[0], r[1]))
        if group is None:
            by_tp[(r[0], r[1])] = [r]
        else:
            group.append(r)
    if order is None:
        keys: list[tuple[str, int]] = sorted(by_tp)
    else:
        keys = [tp for tp in order if tp in by_tp]
        if len(keys) < len(by_tp):
            listed = set(keys)
            keys += sorted(k for k in by_tp if k not in listed)
    out: list[OffsetResult] = []
    for k in keys:
        group = by_tp[k]
        if len(group) > 1:
            group.sort(key=lambda r: spec_pos.get(r.spec, len(spec_pos)))
        out += group
    return out


def render_plain(table: OffsetTable, order: Sequence[TopicPartition] | None = None) -> str:
    """Exactly what ``kafka-get-offsets.sh`` prints: ``topic:partition:offset`` lines.

    One spec only (the first); partitions without an offset (errors, no record at
    or after a time, an empty partition's max-timestamp) are omitted, as there.
    Lines in ``order``, by default GetOffsetShell's (:func:`~.order.kafka_order`).
    """
    spec = table.specs[0]
    if order is None:
        order = kafka_order({r.tp for r in table.results})
    return "".join(
        f"{r.topic}:{r.partition}:{r.offset}\n"
        for r in ordered_results(table, order)
        if r.spec == spec and r.offset is not None and r.error is None
    )


def spec_heading(spec: OffsetSpec, tz: tzinfo) -> str:
    """Column heading for a spec: its name in capitals, or ``>= TIME`` in ``tz`` for a time."""
    if spec.kind is SpecKind.TIMESTAMP:
        assert spec.timestamp_ms is not None
        return f">= {format_time(spec.timestamp_ms, tz)}"
    return spec.name.upper()


#: the shorter headings of the specs whose names are long (a table at 80 columns shows them all)
_SHORT_HEADINGS = {
    SpecKind.MAX_TIMESTAMP: ("MAX-TS",),
    SpecKind.EARLIEST_LOCAL: ("E-LOCAL",),
    SpecKind.LATEST_TIERED: ("L-TIERED",),
    SpecKind.EARLIEST_PENDING_UPLOAD: ("PENDING",),
}


def _has_time(spec: OffsetSpec) -> bool:
    return spec.kind in (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP)


def number(n: int, group_digits: bool = False) -> str:
    """An offset as text, with thousands separators when ``group_digits`` (terminals only)."""
    return f"{n:,}" if group_digits else str(n)


def rate(value: float | None, group_digits: bool = False) -> str:
    """A records/s rate with one decimal, ``-`` when unknown."""
    if value is None:
        return "-"
    return f"{value:,.1f}" if group_digits else f"{value:.1f}"


def rich_table(
    table: OffsetTable,
    tz: tzinfo,
    *,
    header: bool = True,
    title: str | None = None,
    order: Sequence[TopicPartition] | None = None,
    group_digits: bool = False,
    rates: Mapping[TopicPartition, float | None] | None = None,
    columns: Sequence[str] | None = None,
    now_ms: int | None = None,
    tiering: TieringReport | None = None,
) -> FittedTable:
    """A table that fits the terminal: one row per partition, an offset (and time) column per spec.

    ``order`` sets the row order (default: topic, partition); ``group_digits``
    adds thousands separators; ``rates`` (``--watch``) adds a RECORDS/S column;
    ``columns`` (``--columns``) keeps the columns of these record fields; times
    shorten down to relative to ``now_ms`` (default: now); ``tiering`` (``--tiering``) adds
    LOCAL, REMOTE, BACKLOG, BACKLOG-AGE and a total row per topic (:mod:`.list_tiering`).
    Column priorities (:mod:`.fit`): TOPIC, PARTITION, ERROR 0; the specs' offsets, BACKLOG,
    BACKLOG-AGE 1 (the specs' last: of equal priorities the rightmost goes first); times, LOCAL,
    REMOTE 2; RECORDS/S 3. Long spec names have short headings (``PENDING``, ``L-TIERED``…).
    """
    import time

    from rich.text import Text

    from .fit import Column, Kind, Time, time_forms  # here: tables only (~5 ms of import)
    from .fitted import FittedTable

    # here: lag renders through this module (rate) and never needs tiering's rules
    from .list_tiering import add_columns, by_partition, cells, failed, total_cells

    now = int(time.time() * 1000) if now_ms is None else now_ms
    t = FittedTable(title=title, header=header, keep=columns, tz=tz, now_ms=now)
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="partition", headers=("PARTITION", "PART"), kind=Kind.NUMBER, justify="right"))
    for spec in table.specs:
        heads: tuple[str, ...] = (spec_heading(spec, tz), *_SHORT_HEADINGS.get(spec.kind, ()))
        if spec.kind is SpecKind.TIMESTAMP and spec.timestamp_ms is not None:
            heads = tuple(f">= {f}" for f in time_forms([spec.timestamp_ms], tz, now)[0].forms)  # ">= 1h ago"
        # each spec's offsets are what its -s asked for: hidden last (after the times, the rates and
        # the columns right of them), and named with the hidden ones when the terminal is too narrow
        t.add_column(Column(key="offset", headers=heads, kind=Kind.NUMBER, priority=1, justify="right"))
        if _has_time(spec):
            mt = spec.kind is SpecKind.MAX_TIMESTAMP
            heads = ("MAX-TIMESTAMP TIME", "MAX-TS TIME", "TIME") if mt else ("RECORD TIME", "TIME")
            t.add_column(Column(key="timestamp", headers=heads, kind=Kind.TIME, priority=2))
    if rates is not None:
        t.add_column(
            Column(
                key="in_per_s", headers=("RECORDS/S", "REC/S"), kind=Kind.NUMBER, priority=3, justify="right"
            )
        )
    before = len(t.columns)
    tiers = by_partition(tiering) if tiering is not None else None
    if tiering is not None:
        add_columns(t)
    any_error = table.failed or (tiering is not None and bool(failed(tiering)))
    if any_error:
        t.add_column(Column(key="error", headers=("ERROR",), kind=Kind.TEXT, style="red", min_width=12))
    ncols = len(t.columns)
    for topic, err in table.missing_topics:
        t.add_row(topic, Text("-", style="dim"), *([Text("error", style="red")] * (ncols - 3)), err)
    by_tp = table.by_partition()
    pos = {tp: i for i, tp in enumerate(order or ())}
    for tp in sorted(by_tp, key=lambda tp: (pos.get(tp, len(pos)), tp)):
        by_spec = by_tp[tp]
        row: list[Any] = [tp.topic, str(tp.partition)]
        errors: list[str] = []
        for spec in table.specs:
            r: OffsetResult | None = by_spec.get(spec)
            if r is None or r.error is not None:
                cell: Text | str = Text("error", style="red")
                if r is not None and r.error and r.error not in errors:
                    errors.append(r.error)
            elif r.offset is None:
                cell = Text("-", style="dim")
            else:
                cell = number(r.offset, group_digits)
            row.append(cell)
            if _has_time(spec):
                ts = r.timestamp if r is not None and r.error is None else None
                row.append(Time(ts) if ts is not None else Text("-", style="dim"))
        if rates is not None:
            row.append(rate(rates.get(tp), group_digits))
        if tiers is not None:
            tier = tiers.get(tp)
            row += cells(tier)
            if tier is not None and tier.error and (e := f"tiering: {tier.error}") not in errors:
                errors.append(e)
        if any_error:
            row.append(", ".join(errors))
        t.add_row(*row)
    if tiering is not None and tiering.topics:
        t.add_section()
        for tt in tiering.topics:
            total = [tt.topic, Text("total", style="dim"), *[""] * (before - 2), *total_cells(tt)]
            t.add_row(*total, *([tt.error or ""] if any_error else []))
    return t
