"""Tables that fit the terminal: which columns to show, in which form (pure).

Every table declares its columns (:class:`Column`): the record field each shows
(``--columns`` selects by it), its kind, a **priority** and shorter forms of its
header and cells. :func:`fit` is a pure function of (columns, rows, width) that
chooses, for a width, the columns to show and the form of each:

1. shorter forms, one level at a time over all columns (every column's first
   shortening before any second one; lowest priority first): headers
   (``CURRENT-OFFSET`` → ``CURRENT``) and times (``2026-11-24T07:30:12.345Z`` →
   ``11-24 07:30:12`` → ``07:30:12`` when the column's times share a day → ``3m ago``);
2. then, when that is not enough, drop columns, the highest priority number first
   (priority 0 is never dropped), starting the shortening again from full forms;
3. last, free text (errors, notes) is cut with ``…`` down to its column's minimum width.

Names (topics, groups), numbers and times are never cut nor wrapped: a line is
never wider than the width when the width is at least :func:`min_width`. A column
the user chose with ``--columns`` is never dropped, and ``width=None`` (``-o wide``)
keeps every column in full form.

:class:`.fitted.FittedTable` is the drawing side.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from enum import Enum
from typing import Any

from ..parse.times import format_offset, format_time

__all__ = ["Column", "Forms", "Kind", "Layout", "Time", "at", "fit", "min_width", "time_forms"]

#: Spaces between two columns (rich's default padding of one on each side).
GAP = 2


class Kind(Enum):
    """What a column holds, which says whether it may be cut."""

    NAME = "name"  # topic, group, cluster, check names: never cut nor wrapped
    NUMBER = "number"  # offsets, lags, partitions, rates: never cut
    TIME = "time"  # shorter forms only, never cut
    TEXT = "text"  # free text (state, errors, notes): cut with … down to min_width as the last resort


@dataclass(frozen=True, kw_only=True)
class Column:
    """One column: its record field, header forms (full first), kind, priority and drawing."""

    key: str
    headers: tuple[str, ...]
    kind: Kind = Kind.NAME
    #: 0: never dropped; otherwise dropped when needed, the highest number first
    priority: int = 0
    justify: str = "left"
    style: str | None = None
    #: TEXT only: the narrowest it may be cut to
    min_width: int = 10
    #: TIME only: offer the relative form (``3m ago``) as the last one
    relative: bool = True

    @property
    def header(self) -> str:
        """The full header."""
        return self.headers[0]


@dataclass(frozen=True)
class Forms:
    """A cell with shorter forms (full first), drawn in ``style``."""

    forms: tuple[str, ...]
    style: str = ""


@dataclass(frozen=True)
class Time:
    """A time cell (epoch ms): its forms are made per column by :func:`time_forms`."""

    ms: int


@dataclass(frozen=True, kw_only=True)
class Layout:
    """What :func:`fit` chose: shown columns (indices, in order), each one's form level and width."""

    shown: tuple[int, ...]
    levels: tuple[int, ...]  # per column (all of them)
    widths: tuple[int, ...]  # per shown column
    hidden: tuple[int, ...]  # dropped columns, in table order
    width: int  # the widest line

    def level(self, column: int) -> int:
        """The form level of a column."""
        return self.levels[column]


def _plain(cell: Any) -> tuple[str, ...]:
    """The forms of a cell as plain text: a str, :class:`Forms`, or a rich Text (its plain text)."""
    if isinstance(cell, str):
        return (cell,)
    if isinstance(cell, Forms):
        return cell.forms
    if isinstance(cell, Time):
        return (str(cell.ms),)
    return (str(getattr(cell, "plain", cell)),)


def at(forms: Sequence[str], level: int) -> str:
    """The form at ``level`` (the shortest when there are fewer)."""
    return forms[min(level, len(forms) - 1)]


def _cell_len(text: str) -> int:
    from rich.cells import cell_len  # what rich draws with (wide characters take two cells)

    return cell_len(text)


@dataclass(frozen=True)
class _Measure:
    """Each column's width at each of its levels (the widest cell and the header)."""

    widths: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, columns: Sequence[Column], rows: Sequence[Sequence[Any]], header: bool) -> _Measure:
        out = []
        for i, c in enumerate(columns):
            cells = [_plain(r[i]) for r in rows if i < len(r)]
            levels = max([len(c.headers), *(len(f) for f in cells)])
            out.append(
                tuple(
                    max(
                        [
                            _cell_len(at(c.headers, lv)) if header else 0,
                            *(_cell_len(at(f, lv)) for f in cells),
                        ]
                    )
                    for lv in range(levels)
                )
            )
        return cls(tuple(out))


def _total(widths: Iterable[int]) -> int:
    ws = list(widths)
    return sum(ws) + GAP * max(len(ws) - 1, 0)


def _compact(columns: Sequence[Column], m: _Measure, shown: Sequence[int], width: int) -> list[int]:
    """The least shortening (levels per column) that fits ``width``, or the shortest of all."""
    levels = [0] * len(columns)
    steps = sorted(
        (lv, -columns[i].priority, -i, i) for i in shown for lv in range(1, len(m.widths[i]))
    )  # every column's first shortening before any second one, lowest priority (rightmost) first
    for lv, _p, _i, i in steps:
        if _total(m.widths[j][levels[j]] for j in shown) <= width:
            break
        levels[i] = lv
    return levels


def fit(
    columns: Sequence[Column],
    rows: Sequence[Sequence[Any]],
    width: int | None,
    *,
    header: bool = True,
    keep: Sequence[str] | None = None,
) -> Layout:
    """Choose the columns and forms that fit ``width`` (``None``: all, full forms).

    ``keep`` (``--columns``): only the columns showing these record fields, in this
    order, never dropped (all columns when the table has none of them). Pure: the same
    arguments give the same layout.
    """
    m = _Measure.of(columns, rows, header)
    if keep and not any(c.key in keep for c in columns):
        keep = None  # fields this table has no column for (list's spec): the usual columns
    if keep:
        rank = {k: n for n, k in enumerate(keep)}
        base = sorted(
            (i for i, c in enumerate(columns) if c.key in rank), key=lambda i: (rank[columns[i].key], i)
        )
        droppable: list[int] = []
    else:
        base = list(range(len(columns)))
        droppable = sorted(
            (i for i in base if columns[i].priority > 0), key=lambda i: (-columns[i].priority, -i)
        )
    if width is None:
        return _layout(columns, m, base, [0] * len(columns), None)
    for n in range(len(droppable) + 1):
        gone = set(droppable[:n])
        shown = [i for i in base if i not in gone]
        levels = _compact(columns, m, shown, width)
        if _total(m.widths[i][levels[i]] for i in shown) <= width or n == len(droppable):
            return _layout(columns, m, shown, levels, width)
    raise AssertionError("unreachable")


def _layout(
    columns: Sequence[Column], m: _Measure, shown: list[int], levels: list[int], width: int | None
) -> Layout:
    widths = [m.widths[i][levels[i]] for i in shown]
    if width is not None:
        # the last resort: cut free text (the widest first) down to its minimum width
        texts = [n for n, i in enumerate(shown) if columns[i].kind is Kind.TEXT]
        while _total(widths) > width:
            cuttable = [n for n in texts if widths[n] > columns[shown[n]].min_width]
            if not cuttable:
                break
            n = max(cuttable, key=lambda n: widths[n])
            widths[n] = max(columns[shown[n]].min_width, widths[n] - (_total(widths) - width))
    hidden = tuple(i for i in range(len(columns)) if i not in shown)
    return Layout(
        shown=tuple(shown), levels=tuple(levels), widths=tuple(widths), hidden=hidden, width=_total(widths)
    )


def min_width(columns: Sequence[Column], rows: Sequence[Sequence[Any]], *, header: bool = True) -> int:
    """The narrowest width :func:`fit` can meet: every droppable column dropped, every form shortest."""
    return fit(columns, rows, 0, header=header).width


# ----------------------------------------------------------------------------- times


def _ago(ms: int, now_ms: int) -> str:
    """``now``, ``12s ago``, ``3m ago``, ``2h ago``, ``4d ago`` (one unit, truncated); ``in 3m`` ahead."""
    d = (now_ms - ms) // 1000
    ahead, d = d < 0, abs(d)
    if d < 1:
        return "now"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if d >= size:
            n = f"{d // size}{unit}"
            break
    return f"in {n}" if ahead else f"{n} ago"


def time_forms(
    values: Sequence[int], tz: tzinfo, now_ms: int | None, *, relative: bool = True
) -> list[Forms]:
    """The forms of one column's times: full ISO-8601, ``MM-DD HH:MM:SS``, ``HH:MM:SS`` (only
    when all the column's times share a day in ``tz``, today's when ``now_ms`` is given), then
    ``3m ago`` (when ``relative`` and ``now_ms``). The short forms end with the UTC offset
    (``+01:00``) in a zone that is not UTC at that time."""
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    dts: list[datetime | None] = []
    for ms in values:
        try:
            dts.append((epoch + timedelta(milliseconds=ms)).astimezone(tz))
        except (OverflowError, ValueError):
            dts.append(None)
    days = {d.date() for d in dts if d is not None}
    if now_ms is not None:  # a bare time of day reads as today's
        days.add((epoch + timedelta(milliseconds=now_ms)).astimezone(tz).date())
    one_day = len(days) <= 1
    out = []
    for ms, d in zip(values, dts, strict=True):
        if d is None:  # outside the calendar: the number, in every form
            out.append(Forms((format_time(ms, tz),)))
            continue
        # a short form keeps its zone unless it is UTC (the default): 14:03:07+01:00 is not 14:03:07
        offset = d.utcoffset()
        zone = format_offset(offset) if offset else ""
        forms = [format_time(ms, tz), f"{d:%m-%d %H:%M:%S}{zone}"]
        if one_day:
            forms.append(f"{d:%H:%M:%S}{zone}")
        if relative and now_ms is not None:
            forms.append(_ago(ms, now_ms))
        out.append(Forms(tuple(forms)))
    return out
