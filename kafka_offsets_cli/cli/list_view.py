"""How ``list`` shows an offset table: once, or refreshed with ``--watch``.

Row order (``--sort``/``--reverse``), thousands separators (terminal tables
only) and, under ``--watch``, a records/s rate for each partition computed from
the ``latest`` offsets of consecutive refreshes: a RECORDS/S table column, and
an ``in_per_s`` field (``null`` on the first refresh and on rows of other
specs) in json, jsonl and csv records. With ``--tiering`` the tiering view
(:mod:`kafka_offsets_cli.render.list_tiering`) comes beside it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..listing.run import ListRequest
from ..listing.spark_offsets import Missing, boundaries, specs_to_list
from ..models.offsets import OffsetSpec, OffsetTable, SpecKind
from ..models.topics import TopicPartition
from ..render import list_tiering
from ..render import offsets as render_offsets
from ..render.order import SortKey, partition_order
from .emit import Refresh, block_text, records_text
from .emit import show as show_output
from .options import Format
from .output import Screen
from .watch import Counters, Rates, run_watch

if TYPE_CHECKING:
    from ..tiering.report import TieringReport

#: The extra record field of ``list --watch``.
RATE_FIELD = "in_per_s"


@dataclass(frozen=True, kw_only=True)
class ListView:
    """The output options of one ``list`` run."""

    fmt: Format
    zone: tzinfo
    no_headers: bool = False
    columns: tuple[str, ...] | None = None
    sort: SortKey = SortKey.TOPIC
    reverse: bool = False
    group_digits: bool = False
    #: ``-o spark-offsets``: what a partition without an offset at the spec gets
    missing: Missing = Missing.error

    def order(self, table: OffsetTable) -> list[TopicPartition]:
        """Rows in ``--sort`` order; ``-o plain`` starts from GetOffsetShell's line order."""
        return partition_order(table, self.sort, reverse=self.reverse, kafka=self.fmt is Format.plain)


def fitted(request: ListRequest, fmt: Format, *, tiering: bool, watch: bool, missing: Missing) -> ListRequest:
    """``request`` as ``fmt`` can show it (``-o spark-offsets``: its spec and the ``--spark-missing``
    one listed in the same round); a usage error for what the format has no place for."""
    if fmt is Format.plain and len(request.specs) > 1:
        raise UsageError(
            "--output plain takes one spec (as kafka-get-offsets.sh); use json or csv for several"
        )
    if tiering and fmt in (Format.plain, Format.spark_offsets):
        why = (
            "kafka-get-offsets.sh prints topic:partition:offset only"
            if fmt is Format.plain
            else "offsets only"
        )
        raise UsageError(
            f"--tiering has no place in --output {fmt.value} ({why}); use table, wide, json, jsonl or csv"
        )
    if tiering and watch:
        raise UsageError("--tiering cannot be refreshed with --watch; run `kafka-offsets tiering` in a loop")
    if fmt is not Format.spark_offsets:
        if missing is not Missing.error:
            raise UsageError("--spark-missing goes with --output spark-offsets")
        return request
    if watch:
        raise UsageError("--output spark-offsets is one boundary, not refreshed: drop --watch")
    return replace(request, specs=specs_to_list(request.specs, missing))


def render(
    table: OffsetTable,
    view: ListView,
    rates: Mapping[TopicPartition, float | None] | None = None,
    tiering: TieringReport | None = None,
    refresh: Refresh | None = None,
) -> Any:
    """The output of ``list`` as text, or (table format) a rich renderable.

    ``rates`` and ``refresh`` are given under ``--watch`` only, ``tiering`` with ``--tiering``.
    """
    order = view.order(table)
    if view.fmt is Format.table:
        return render_offsets.rich_table(
            table,
            view.zone,
            header=not view.no_headers,
            order=order,
            group_digits=view.group_digits,
            rates=rates,
            columns=view.columns,
            tiering=tiering,
        )
    if view.fmt is Format.plain:
        return render_offsets.render_plain(table, order)
    if view.fmt is Format.spark_offsets:
        return json.dumps(boundaries(table, table.specs[0], view.missing), separators=(",", ":")) + "\n"
    recs = render_offsets.records(table, order)
    default_cols: tuple[str, ...] = render_offsets.COLUMNS
    if rates is not None:
        latest = OffsetSpec.latest().name
        for rec in recs:
            tp = TopicPartition(str(rec["topic"]), rec["partition"]) if rec["partition"] is not None else None
            value = rates.get(tp) if tp is not None and rec["spec"] == latest else None
            rec[RATE_FIELD] = None if value is None else round(value, 3)
        default_cols = (*render_offsets.COLUMNS, RATE_FIELD)
    if tiering is not None:
        recs = list_tiering.with_tiering(recs, tiering, render_offsets.COLUMNS)
        default_cols = (*default_cols, *list_tiering.FIELDS)
    return records_text(
        recs, view.fmt, default_cols, view.columns, header=not view.no_headers, refresh=refresh
    )


def show(table: OffsetTable, view: ListView, screen: Screen, tiering: TieringReport | None = None) -> None:
    """Print the output of one ``list`` run on stdout (with ``--tiering``: its report beside)."""
    show_output(render(table, view, tiering=tiering), screen)


def counters(table: OffsetTable) -> Counters[TopicPartition]:
    """The ``latest`` offsets of a table, for records/s in."""
    produced = {
        res.tp: res.offset
        for res in table.results
        if res.spec.kind is SpecKind.LATEST and res.error is None and res.offset is not None
    }
    return Counters(produced=produced)


def _block(view: ListView) -> Callable[[OffsetTable, Rates[TopicPartition]], str]:
    def block(table: OffsetTable, rates: Rates[TopicPartition]) -> str:
        out = render(
            table, view, _rates_or_none(table, rates), refresh=Refresh(rates.refresh, rates.taken_ms)
        )
        return block_text(out, view.fmt)

    return block


def _rates_or_none(
    table: OffsetTable, rates: Rates[TopicPartition]
) -> dict[TopicPartition, float | None] | None:
    """Rates only when the table has a ``latest`` column to take them from."""
    if not any(s.kind is SpecKind.LATEST for s in table.specs):
        return None
    return dict(rates.records_in)


def watch(
    client: Any, interval: float, fetch: Callable[[Any], OffsetTable], view: ListView, screen: Screen
) -> None:
    """``list --watch``: refresh ``fetch(client)`` every ``interval`` seconds until Ctrl-C.

    A live table on a terminal (with ``-o table``, the default there); one block
    per refresh in the chosen format otherwise.
    """
    live_view = replace(view, group_digits=True)

    def live(table: OffsetTable, rates: Rates[TopicPartition]) -> Any:
        return render(table, live_view, _rates_or_none(table, rates))

    tty = screen.tty and view.fmt is Format.table
    run_watch(client, interval, fetch, counters, live, _block(view), screen=screen, tty=tty)
