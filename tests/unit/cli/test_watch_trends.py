"""``--watch`` trends on a terminal: LAG-TREND and CATCH-UP of ``lag`` (table and ``--summary``),
AGE-TREND of ``liveness``; fake snapshots through the real refresh loop, drawn on a mocked terminal."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Sequence
from datetime import timezone

from rich.console import Console

from kafka_offsets_cli.cli import lag_view, liveness_view
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.cli.output import Screen
from kafka_offsets_cli.lag.summary import TrendKey
from kafka_offsets_cli.liveness.run import LivenessSnapshot
from kafka_offsets_cli.measures.lag.collect import LagReport
from kafka_offsets_cli.render.lag import rich_table
from kafka_offsets_cli.render.sparkline import SPARK_CHARS, sparkline
from tests.mock_environment import MockEnvironment, Refreshes
from tests.unit.cli.test_lag_liveness_watch import (
    A0,
    FakeClient,
    lag_blocks,
    lag_report,
    row,
    snaps,
)

#: g gains: 200 records in and 400 committed a refresh (2 s apart: 100/s in, 200/s consumed);
#: h commits nothing while 200 come in a refresh
GAINING = [
    lag_report([row("g", "a", 0, 1000 + 400 * i, 3000 + 200 * i), row("h", "a", 0, 0, 500 + 200 * i)])
    for i in range(5)
]
G_LAGS = [2000 - 200 * i for i in range(5)]
H_LAGS = [500 + 200 * i for i in range(5)]


def frames(watch: Callable[[Screen], None], refreshes: int, width: int = 200) -> list[str]:
    """Run a view's watch() on a ``width``-column "terminal" for ``refreshes`` refreshes (then Ctrl-C);
    the text of each frame."""
    buf, loop = io.StringIO(), Refreshes(refreshes)
    terminal = MockEnvironment(
        stdout=buf,
        stdout_isatty=True,
        width=width,
        environ={"NO_COLOR": "1"},
        clock=loop.clock,
        sleep=loop.sleep,
    )
    watch(Screen(terminal))
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", buf.getvalue())  # the live display's cursor moves
    return re.split(r"refresh \d+ at", drawn)[1:]


def watch_lag(view: lag_view.LagView, reports: Sequence[LagReport]) -> Callable[[Screen], None]:
    queue = list(reports)
    return lambda screen: lag_view.watch(FakeClient(), 2.0, lambda _c: queue.pop(0), view, screen)


def cells(frame: str, first: list[str]) -> list[str]:
    """The words of the frame's line that starts with ``first``."""
    return next(ln.split() for ln in frame.splitlines() if ln.split()[: len(first)] == first)


def test_lag_table_draws_each_rows_and_groups_lag_over_the_refreshes() -> None:
    view = lag_view.LagView(fmt=Format.table)
    drawn = frames(watch_lag(view, GAINING), 5)
    head = drawn[-1].splitlines()[1].split()
    assert head[head.index("CONSUMED/S") + 1 : head.index("STATE")] == ["LAG-TREND"]
    for n, frame in enumerate(drawn, 1):
        g0, h0 = cells(frame, ["g", "a", "0"]), cells(frame, ["h", "a", "0"])
        assert g0[-2] == sparkline(G_LAGS[:n]) and h0[-2] == sparkline(H_LAGS[:n]), frame
    total = cells(drawn[-1], ["g", "(all", "topics)"])  # the group's total: its one partition's lag
    assert sparkline(G_LAGS) in total
    falls, grows = ([SPARK_CHARS.index(c) for c in sparkline(lags)] for lags in (G_LAGS, H_LAGS))
    assert falls == sorted(falls, reverse=True) and falls[-1] < falls[0] and grows == sorted(grows)


def test_summary_draws_the_trend_and_the_time_to_catch_up_while_gaining() -> None:
    view = lag_view.LagView(fmt=Format.table, summary=True)
    drawn = frames(watch_lag(view, GAINING), 5)
    head = drawn[-1].splitlines()[1].split()
    assert head[head.index("TREND") + 1 : head.index("STATUS")] == ["CATCH-UP", "LAG-TREND"]
    g, h = cells(drawn[-1], ["g"]), cells(drawn[-1], ["h"])
    # the consumed rate needs 4 commit steps (refresh 5): 1,200 left at a net 200/s - 100/s
    assert g[g.index("catching-up") + 1 :] == ["12s", sparkline(G_LAGS), "lagging"]
    assert h[h.index(sparkline(H_LAGS)) - 1] == "-"  # not gaining: no time to catch up
    first = cells(drawn[0], ["g"])
    assert first[first.index(sparkline(G_LAGS[:1])) - 1] == "-"  # no rates yet


def test_machine_formats_and_blocks_off_a_terminal_have_no_trend() -> None:
    for block in lag_blocks(lag_view.LagView(fmt=Format.jsonl)):
        assert all("trend" not in k for rec in map(json.loads, block.splitlines()) for k in rec)
    assert all("LAG-TREND" not in b for b in lag_blocks(lag_view.LagView(fmt=Format.table)))
    summary = lag_view.LagView(fmt=Format.json, summary=True)
    fields = set(json.loads(lag_blocks(summary)[-1])[0])
    assert {"trend", "in_per_s"} <= fields and not {"lag_trend", "catch_up_ms"} & fields


def test_at_80_columns_the_trend_is_shortened_then_hidden_and_named() -> None:
    lags: list[int | None] = list(range(40, 0, -1))
    trends: dict[TrendKey, Sequence[int | None]] = {("grp", "topic", 0): lags, ("grp", "topic", None): lags}
    rates = {("grp", "topic", 0): (1.0, 2.0)}

    def drawn(group: str, width: int) -> list[str]:
        rows = [row(group, "topic", 0, 0, 40)]
        by_key: dict[TrendKey, Sequence[int | None]] = {(group, k[1], k[2]): v for k, v in trends.items()}
        rated = {(group, "topic", 0): rates[("grp", "topic", 0)]}
        buf = io.StringIO()
        console = Console(file=buf, width=width, no_color=True, highlight=False)
        console.print(rich_table(rows, rates=rated, trends=by_key, time_lag=True))
        return buf.getvalue().splitlines()

    wide = drawn("grp", 200)
    assert "LAG-TREND" in wide[0].split() and sparkline(lags[-16:]) in wide[1].split()
    short = drawn("grp", 80)  # the trend's last 8 refreshes, scaled on their own
    assert max(map(len, short)) <= 80 and sparkline(lags[-8:]) in short[1].split(), short
    gone = drawn("grp-" + "x" * 10, 80)  # no room for 8 more: hidden first of what --watch asked for
    assert max(map(len, gone)) <= 80 and not any("▁" in ln for ln in gone), gone
    assert "CONS/S" in gone[0].split()
    assert "LAG-TREND" in gone[-1] and "hidden at 80 columns" in " ".join(gone)


def test_liveness_draws_each_partitions_and_topics_age_over_the_refreshes() -> None:
    queue = snaps()
    view = liveness_view.LivenessView(fmt=Format.table, zone=timezone.utc)
    drawn = frames(
        lambda screen: liveness_view.watch(FakeClient(), 2.0, lambda _c: queue.pop(0), view, screen), 2
    )
    head = drawn[-1].splitlines()[1].split()
    assert head[head.index("RECORDS/S") + 1] == "AGE-TREND"
    a0, a1 = cells(drawn[-1], ["a", "0"]), cells(drawn[-1], ["a", "1"])
    assert a0[a0.index("300.0") + 1] == "██"  # the same age twice (the fake's snapshots)
    assert a1[a1.index("0.0") + 1] == "-"  # empty: no age to draw
    assert "a: CRITICAL (1/2 partitions ok, age 1s ██;" in drawn[-1]  # the topic's deciding age


def test_liveness_trend_levels_are_ages_by_partition_and_topic() -> None:
    snap: LivenessSnapshot = snaps()[0]
    c = liveness_view.aged(snap)
    assert c.levels[A0] == 1000 and c.levels["a"] == 1000 and "gone" not in c.levels
    assert liveness_view.counters(snap).levels == {}  # off a terminal: nothing kept
