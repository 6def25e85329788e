"""Sparklines (kafka_offsets_cli.render.sparkline): check's TREND and the --watch trend columns."""

from __future__ import annotations

from rich.text import Text

from kafka_offsets_cli.measures.trend import TREND_SIZE
from kafka_offsets_cli.render.fit import Forms
from kafka_offsets_cli.render.sparkline import sparkline, trend_cell


def test_sparkline_scales_from_zero() -> None:
    assert sparkline([0, 4, 8]) == "▁▅█"
    assert sparkline([5, 5]) == "██"
    assert sparkline([0, 0]) == "▁▁"
    assert sparkline([None, 8]) == " █"
    assert sparkline([-3, 6]) == "▁█"  # below 0 (an age in the future) draws as 0
    assert sparkline([]) == ""


def test_trend_cell_has_a_shorter_form_scaled_on_its_own() -> None:
    values = [100] * (TREND_SIZE // 2) + list(range(TREND_SIZE // 2))
    cell = trend_cell(values)
    assert isinstance(cell, Forms)
    full, short = cell.forms
    assert full == sparkline(values) and len(full) == TREND_SIZE
    assert short == sparkline(values[TREND_SIZE // 2 :]) and short.endswith("█")
    assert trend_cell([1, 2, 3]).forms == ("▃▆█", "▃▆█")  # type: ignore[union-attr]
    dash = trend_cell([None, None])
    assert isinstance(dash, Text) and dash.plain == "-"
