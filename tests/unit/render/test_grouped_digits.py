"""Every table groups its counts on a terminal, and only there (render/fitted.py; issue 32.5)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from kafka_offsets_cli.render.fit import Column, Kind
from kafka_offsets_cli.render.fitted import FittedTable, grouped


def _table() -> FittedTable:
    t = FittedTable()
    t.add_column(Column(key="group", headers=("GROUP",)))
    t.add_column(Column(key="partition", headers=("PARTITION",), kind=Kind.NUMBER, justify="right"))
    t.add_column(Column(key="lag", headers=("LAG",), kind=Kind.NUMBER, justify="right"))
    t.add_column(Column(key="state", headers=("STATE",), kind=Kind.TEXT))
    t.add_row("g1234", "1234", "12221", "ok 5000")
    t.add_row("g", "7", Text("11906", style="red"), "-")
    return t


def _drawn(terminal: bool) -> str:
    buf = io.StringIO()
    Console(file=buf, force_terminal=terminal, no_color=True, width=80).print(_table())
    return buf.getvalue()


def test_counts_are_grouped_on_a_terminal_names_and_partitions_never() -> None:
    out = _drawn(terminal=True)
    assert "12,221" in out and "11,906" in out
    assert "1234" in out and "1,234" not in out  # a partition number names a partition
    assert "g1234" in out and "ok 5000" in out  # names and text stay as they are


def test_no_separator_off_a_terminal() -> None:
    out = _drawn(terminal=False)
    assert "12221" in out and "11906" in out and "," not in out


def test_only_whole_numbers_are_grouped() -> None:
    assert grouped("-12345") == "-12,345"
    assert grouped("999") == "999"
    for cell in ("12.5", "3/1200", "1200/s", "", "-", "10,000"):
        assert grouped(cell) == cell
    styled = grouped(Text("25000", style="red"))
    assert isinstance(styled, Text) and styled.plain == "25,000" and str(styled.style) == "red"
