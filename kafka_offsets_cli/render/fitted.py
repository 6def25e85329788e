"""Drawing a fitted table: :class:`FittedTable`, built like a rich ``Table``, fits itself
to the console's width when printed (:func:`.fit.fit`), with a caption naming the columns it hid."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timezone, tzinfo
from typing import TYPE_CHECKING, Any

from .fit import Column, Forms, Kind, Layout, Time, at, fit, time_forms

if TYPE_CHECKING:  # rich is imported only when a table is drawn
    from rich.console import Console, ConsoleOptions, RenderResult

__all__ = ["FittedTable", "grouped"]

#: number columns that name rather than count (Kafka's tools never group them)
_NUMBERED = frozenset({"partition", "leader_epoch"})
#: a whole number long enough to group
_WHOLE = re.compile(r"-?[0-9]{4,}")


@dataclass(kw_only=True)
class FittedTable:
    """A table that fits the console's width when drawn (see :func:`fit`).

    Built like a rich ``Table``; ``keep`` is ``--columns``; a console of unlimited
    width (``-o wide``, a pipe) shows every column in full. Cells are ``str``, rich
    ``Text``, :class:`Forms` or :class:`Time` (formatted in ``tz``, relative to ``now_ms``).
    """

    title: str | None = None
    header: bool = True
    keep: Sequence[str] | None = None
    tz: tzinfo = timezone.utc
    now_ms: int | None = None
    columns: list[Column] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    sections: set[int] = field(default_factory=set)  # rows that end a section

    def add_column(
        self, column: Column | str, *, justify: str = "left", style: str | None = None, **_: Any
    ) -> None:
        """Append a column; a bare header (rich's way) is a name column dropped first (priority 9)."""
        if isinstance(column, str):
            key = column.lower().replace("-", "_").replace(" ", "_")
            column = Column(key=key, headers=(column,), priority=9, justify=justify, style=style)
        self.columns.append(column)

    def add_row(self, *cells: Any) -> None:
        """Append a row (one cell per column; missing cells are empty)."""
        self.rows.append(list(cells) + [""] * (len(self.columns) - len(cells)))

    def add_section(self) -> None:
        """End a section after the last row."""
        if self.rows:
            self.sections.add(len(self.rows) - 1)

    def cells(self, *, group_digits: bool = False) -> list[list[Any]]:
        """The rows with every :class:`Time` replaced by its column's :class:`Forms`; with
        ``group_digits`` (a terminal) the whole numbers of number columns with thousands separators."""
        rows = [list(r) for r in self.rows]
        for i, c in enumerate(self.columns):
            if group_digits and c.kind is Kind.NUMBER and c.key not in _NUMBERED:
                for r in rows:
                    r[i] = grouped(r[i])
            at = [n for n, r in enumerate(rows) if isinstance(r[i], Time)]
            if at:
                forms = time_forms([rows[n][i].ms for n in at], self.tz, self.now_ms, relative=c.relative)
                for n, f in zip(at, forms, strict=True):
                    rows[n][i] = f
        return rows

    def layout(self, width: int | None) -> Layout:
        """The layout at ``width`` (``None``: everything)."""
        return fit(self.columns, self.cells(), width, header=self.header, keep=self.keep)

    def table(self, width: int | None, *, group_digits: bool = False) -> tuple[Any, Layout]:
        """The rich ``Table`` drawn at ``width`` (a caption names hidden columns) and its layout."""
        from rich.table import Table
        from rich.text import Text

        rows = self.cells(group_digits=group_digits)
        lay = fit(self.columns, rows, width, header=self.header, keep=self.keep)
        caption = None
        if lay.hidden and self.header and not self.keep and width is not None:
            names = ", ".join(self.columns[i].header for i in lay.hidden)
            caption = f"{len(lay.hidden)} column(s) hidden at {width} columns: {names} (-o wide or --columns)"
        t = Table(
            title=self.title,
            title_justify="left",
            caption=caption,
            caption_justify="left",
            caption_style="dim",
            show_header=self.header,
            header_style="bold",
            box=None,
            pad_edge=False,
        )
        for i, w in zip(lay.shown, lay.widths, strict=True):
            c = self.columns[i]
            t.add_column(
                at(c.headers, lay.level(i)),
                justify=c.justify,  # type: ignore[arg-type]
                style=c.style,
                no_wrap=True,
                overflow="ellipsis" if c.kind is Kind.TEXT else "crop",
                width=w,
            )
        for n, r in enumerate(rows):
            cells = []
            for i in lay.shown:
                cell = r[i]
                if isinstance(cell, Forms):
                    cell = Text(at(cell.forms, lay.level(i)), style=cell.style)
                cells.append(cell)
            t.add_row(*cells, end_section=n in self.sections)
        return t, lay

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        wide = width >= 10_000  # a console without a width (-o wide, a pipe): every column, in full
        # thousands separators where colour goes: on a terminal only (machine formats never have them)
        t, lay = self.table(None if wide else width, group_digits=console.is_terminal)
        # wider than the console only when it cannot fit (--columns chose too much): the terminal
        # wraps the line then, rather than rich cutting or folding a name or a number
        yield from console.render(t, options.update_width(max(width, lay.width)))


def grouped(cell: Any) -> Any:
    """A whole number's cell (``str`` or rich ``Text``, e.g. ``12221``) as ``12,221``; any other unchanged."""
    text = cell if isinstance(cell, str) else getattr(cell, "plain", None)
    if not isinstance(text, str) or not _WHOLE.fullmatch(text):
        return cell
    out = f"{int(text):,}"
    if isinstance(cell, str):
        return out
    from rich.text import Text

    return Text(out, style=cell.style, justify=cell.justify)
