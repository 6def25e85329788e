"""The table fitter (render/fit.py, render/fitted.py): pure layouts, and what rich draws from them."""

from __future__ import annotations

import io
from datetime import timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from kafka_offsets_cli.render.fit import Column, Forms, Kind, Time, fit, min_width, time_forms
from kafka_offsets_cli.render.fitted import FittedTable

NOW = 1_795_520_000_000  # 2026-11-24T11:33:20Z


def draw(t: FittedTable, width: int) -> list[str]:
    c = Console(width=width, record=True, no_color=True, file=io.StringIO())
    c.print(t, crop=False)  # as output.print_renderable: a line that cannot fit is not cropped
    return c.export_text().splitlines()


_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=40)
_NUMBER = st.integers(min_value=-(10**12), max_value=10**15).map(lambda n: f"{n:,}")
_TEXT = st.text(alphabet="abcdefgh ():,", min_size=0, max_size=60)
_TIME = st.integers(min_value=NOW - 400 * 86_400_000, max_value=NOW + 3_600_000)


@st.composite
def tables(draw_: Any) -> tuple[FittedTable, list[Kind]]:
    kinds = draw_(st.lists(st.sampled_from(list(Kind)), min_size=1, max_size=9))
    t = FittedTable(header=draw_(st.booleans()), tz=timezone.utc, now_ms=NOW)
    for i, k in enumerate(kinds):
        head = draw_(st.text(alphabet="ABCDEFGHIJ-/ ", min_size=1, max_size=20)).strip() or "H"
        heads = (head, head[:4]) if draw_(st.booleans()) else (head,)
        t.add_column(
            Column(
                key=f"k{i}",
                headers=heads,
                kind=k,
                priority=draw_(st.integers(min_value=0, max_value=4)),
                min_width=draw_(st.integers(min_value=1, max_value=12)),
                justify=draw_(st.sampled_from(["left", "right"])),
            )
        )
    strategies = {Kind.NAME: _NAME, Kind.NUMBER: _NUMBER, Kind.TEXT: _TEXT, Kind.TIME: _TIME.map(Time)}
    for _ in range(draw_(st.integers(min_value=0, max_value=6))):
        t.add_row(*(draw_(strategies[k]) for k in kinds))
    return t, kinds


@settings(max_examples=150, deadline=None)
@given(tables(), st.integers(min_value=0, max_value=120))
def test_every_width_from_the_minimal_fit_up_fits_and_never_cuts_a_name_or_number(
    case: tuple[FittedTable, list[Kind]], extra: int
) -> None:
    t, kinds = case
    rows = t.cells()
    width = min_width(t.columns, rows, header=t.header) + extra
    lay = fit(t.columns, rows, width, header=t.header)
    assert lay.width <= width
    assert all(t.columns[i].priority > 0 for i in lay.hidden)  # priority 0 is never dropped
    lines = draw(t, max(width, 1))
    body = lines[1:] if t.header else lines
    if not lay.shown:
        return
    for n, row in enumerate(rows):
        line = body[n]
        assert len(line) <= max(width, 1)
        for i in lay.shown:
            if kinds[i] in (Kind.NAME, Kind.NUMBER):
                assert f" {row[i]} " in f" {line} ", (row[i], line)  # intact, between spaces
            if kinds[i] is Kind.TIME:
                assert isinstance(row[i], Forms)
                assert row[i].forms[lay.level(i)] in line
    assert "…" not in "".join(body[: len(rows)]) or any(
        kinds[i] is Kind.TEXT for i in lay.shown
    )  # only free text is ever cut


def _wide_table() -> FittedTable:
    t = FittedTable(tz=timezone.utc, now_ms=NOW)
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="partition", headers=("PARTITION", "PART"), kind=Kind.NUMBER, justify="right"))
    t.add_column(Column(key="offset", headers=("CURRENT-OFFSET", "CURRENT"), kind=Kind.NUMBER, priority=1))
    t.add_column(Column(key="timestamp", headers=("RECORD TIME", "TIME"), kind=Kind.TIME, priority=2))
    t.add_column(Column(key="start", headers=("LOG-START-OFFSET",), kind=Kind.NUMBER, priority=3))
    t.add_row("shipping-events-eu-west", "12", "1,234,567", Time(NOW - 180_000), "1,000")
    t.add_row("orders", "0", "7", Time(NOW - 7_200_000), "0")
    return t


def test_shorter_forms_first_then_the_lowest_priority_columns_go() -> None:
    t = _wide_table()
    rows = t.cells()
    full = fit(t.columns, rows, None)
    assert full.hidden == () and set(full.levels) == {0} and full.width == 94
    assert fit(t.columns, rows, 200) == full
    # shorter forms before any column goes: headers, then the time of day, then relative
    lay = fit(t.columns, rows, 80)
    assert lay.hidden == () and lay.width <= 80
    heads = [t.columns[i].headers[min(lay.level(i), len(t.columns[i].headers) - 1)] for i in lay.shown]
    assert heads[:2] == ["TOPIC", "PARTITION"]
    for width, when in ((60, ["11-24", "11:30:20"]), (50, ["11:30:20"]), (48, ["3m", "ago"])):
        lines = draw(t, width)
        assert max(map(len, lines)) <= width
        assert lines[0].split() == ["TOPIC", "PART", "CURRENT", "TIME"]
        assert lines[1].split() == ["shipping-events-eu-west", "12", "1,234,567", *when]
        caption = f"1 column(s) hidden at {width} columns: LOG-START-OFFSET (-o wide or --columns)"
        assert caption in " ".join(" ".join(lines).split())
    # the priority-0 columns never go, even when nothing fits
    narrow = fit(t.columns, rows, 10)
    assert [t.columns[i].key for i in narrow.shown] == ["topic", "partition"]


def test_columns_choose_and_order_and_are_never_dropped() -> None:
    t = _wide_table()
    rows = t.cells()
    lay = fit(t.columns, rows, 30, keep=["start", "topic"])
    assert [t.columns[i].key for i in lay.shown] == ["start", "topic"] and lay.hidden == (1, 2, 3)
    t.keep = ["start", "topic"]
    lines = draw(t, 30)
    assert lines[0].split() == ["LOG-START-OFFSET", "TOPIC"] and "hidden" not in " ".join(lines)
    # a field the table has no column for: the usual columns
    assert fit(t.columns, rows, 200, keep=["spec"]).hidden == ()
    # too wide to fit even so: wider lines, nothing cut (the terminal wraps them)
    t.keep = ["topic", "timestamp", "start"]
    lines = draw(t, 20)
    assert "shipping-events-eu-west" in lines[1] and "…" not in "".join(lines)


def test_an_unlimited_console_draws_every_column_in_full() -> None:
    lines = draw(_wide_table(), 10_000)
    assert lines[0].split() == ["TOPIC", "PARTITION", "CURRENT-OFFSET", "RECORD", "TIME", "LOG-START-OFFSET"]
    assert "2026-11-24T11:30:20.000Z" in lines[1]


def test_free_text_is_cut_last_and_never_below_its_minimum() -> None:
    t = FittedTable()
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="error", headers=("ERROR",), kind=Kind.TEXT, min_width=12))
    t.add_row("orders", "NOT_LEADER_OR_FOLLOWER: the broker is not the leader")
    lines = draw(t, 30)
    assert lines[1] == "orders  NOT_LEADER_OR_FOLLOWE…" and max(map(len, lines)) <= 30


def test_time_forms() -> None:
    utc = timezone.utc
    same_day = time_forms([NOW - 180_000, NOW - 7_200_000], utc, NOW)
    assert same_day[0].forms == ("2026-11-24T11:30:20.000Z", "11-24 11:30:20", "11:30:20", "3m ago")
    assert same_day[1].forms[-1] == "2h ago"
    # times of several days (or not today) never lose their date
    days = time_forms([NOW - 2 * 86_400_000], utc, NOW)
    assert days[0].forms == ("2026-11-22T11:33:20.000Z", "11-22 11:33:20", "2d ago")
    assert time_forms([NOW + 90_000], utc, NOW)[0].forms[-1] == "in 1m"
    assert time_forms([NOW], utc, None, relative=False)[0].forms == (
        "2026-11-24T11:33:20.000Z",
        "11-24 11:33:20",
        "11:33:20",
    )
    assert time_forms([2**62], utc, NOW)[0].forms == (str(2**62),)  # outside the calendar: the number


def test_short_time_forms_keep_a_zone_that_is_not_utc() -> None:
    """--tz +01:00 (or a named zone): 12:30:20 alone would read as UTC, the default."""
    plus_one = timezone(timedelta(hours=1))
    assert time_forms([NOW - 180_000], plus_one, NOW, relative=False)[0].forms == (
        "2026-11-24T12:30:20.000+01:00",
        "11-24 12:30:20+01:00",
        "12:30:20+01:00",
    )
    paris = ZoneInfo("Europe/Paris")  # each time its own offset: summer +02:00, winter +01:00
    summer, winter = time_forms([NOW - 150 * 86_400_000, NOW], paris, None)
    assert summer.forms[1].endswith("+02:00") and winter.forms[1].endswith("+01:00")
    assert time_forms([NOW], timezone(timedelta(0)), NOW)[0].forms[1:3] == ("11-24 11:33:20", "11:33:20")


def test_check_tables_fit_80_columns_without_cutting_a_status_or_name() -> None:
    from dataclasses import replace

    from kafka_offsets_cli.render import check as render
    from tests.unit.check.test_check_pure import _report

    rep = _report()
    long = "shipping-service-consumer-eu-west-1"
    g = replace(rep.checks[1].groups[0], history="warn", trend=(10, 30, 50), group=long)
    rep = replace(rep, checks=(rep.checks[0], replace(rep.checks[1], groups=(g,))), history_runs=3)
    for width in (80, 200):
        c = Console(width=width, record=True, color_system=None, file=io.StringIO())
        c.print(render.rich_summary(rep, timezone.utc), crop=False)
        lines = c.export_text().splitlines()
        assert max(map(len, lines)) <= width
        text = "\n".join(lines)
        assert "…" not in text and f" {long} " in text and text.count("WARNING ") >= 6
        assert ("hidden at 80 columns" in text) == (width == 80)
    assert "0/1 groups ok (+1 more)" in text.replace("\n", " ") or "0/1 groups ok; c/g" in text


def test_wide_is_the_table_on_a_console_without_a_width() -> None:
    from kafka_offsets_cli.cli import output
    from kafka_offsets_cli.cli.options import OUTPUTS, Format
    from tests.mock_environment import MockEnvironment

    terminal = MockEnvironment(stdout_isatty=True)
    for command in ("list", "lag", "liveness", "rewind", "check"):
        assert Format.wide in OUTPUTS[command].formats
        fmt, screen = OUTPUTS[command].select("wide", terminal)
        assert fmt is Format.table
        assert output.data_console(screen).width == 10_000  # every column, in full
        fmt, screen = OUTPUTS[command].select("table", terminal)
        assert fmt is Format.table
        assert output.data_console(screen).width < 10_000  # fitted to the terminal
    OUTPUTS["list"].select("wide", terminal)  # a choice is a value: it leaves nothing behind
    fmt, screen = OUTPUTS["list"].select(None, terminal)
    assert fmt is Format.table and output.data_console(screen).width < 10_000
