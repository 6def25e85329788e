"""Unit tests of ``lag --watch`` and ``liveness --watch``: fake snapshots through the real refresh loop."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Sequence
from datetime import timezone
from typing import Any, TypeVar

import pytest
from rich.console import Console

from kafka_offsets_cli.cli import lag_view, liveness_view
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.cli.output import Screen
from kafka_offsets_cli.cli.watch import Counters, Rates, run_watch
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.liveness.report import LivenessReport, build_report
from kafka_offsets_cli.liveness.run import LivenessSnapshot
from kafka_offsets_cli.measures.lag.collect import LagReport
from kafka_offsets_cli.measures.lag.rows import GroupProblem, LagRow, LagState
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from tests.mock_environment import MockEnvironment, Refreshes

S = TypeVar("S")
K = TypeVar("K")


class FakeClient:
    def restart_clock(self) -> None:
        pass


class FakeClock:
    """Time moves only when the loop sleeps, so every refresh is exactly ``interval`` apart."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.now += s


def two_refreshes(
    snaps: Sequence[S],
    counters: Callable[[S], Counters[Any]],
    live: Callable[[S, Rates[Any]], Any],
    block: Callable[[S, Rates[Any]], str],
    *,
    tty: bool = False,
) -> list[Any]:
    """Run the loop once per snapshot, 2 s apart; return what each refresh drew (renderables or blocks)."""
    queue = list(snaps)
    drawn: list[Any] = []
    clock = FakeClock()

    def draw_live(s: S, r: Rates[Any]) -> Any:
        out = live(s, r)
        drawn.append(out)
        return out

    def draw_block(s: S, r: Rates[Any]) -> str:
        out = block(s, r)
        drawn.append(out)
        return out

    run_watch(
        FakeClient(),
        2.0,
        lambda _c: queue.pop(0),
        counters,
        draw_live,
        draw_block,
        tty=tty,
        max_refreshes=len(snaps),
        clock=clock,
        sleep=clock.sleep,
        now_ms=lambda: int(clock.now * 1000),  # records' refreshed_ms: 500000, 502000, ...
    )
    return drawn


def text_of(renderable: Any) -> str:
    buf = io.StringIO()
    Console(file=buf, no_color=True, width=300, highlight=False).print(renderable)
    return buf.getvalue()


# --------------------------------------------------------------------------- lag


def row(group: str, topic: str, p: int, committed: int | None, end: int | None, **kw: Any) -> LagRow:
    lag = end - committed if end is not None and committed is not None else None
    state = LagState.OK if committed is not None else LagState.NO_COMMIT
    return LagRow(
        group=group,
        topic=topic,
        partition=p,
        committed=committed,
        log_start=0,
        end=end,
        lag=lag,
        time_lag_ms=None,
        state=kw.pop("state", state),
        **kw,
    )


def lag_report(rows: Sequence[LagRow], problems: Sequence[GroupProblem] = ()) -> LagReport:
    return LagReport(rows=tuple(rows), groups={}, problems=tuple(problems))


LAG_1 = lag_report(
    [row("g", "a", 0, 100, 500), row("g", "a", 1, None, 50), row("h", "a", 0, 10, 500)],
    [GroupProblem("idle", None)],
)
LAG_2 = lag_report(
    [row("g", "a", 0, 300, 900), row("g", "a", 1, None, 50), row("h", "a", 0, 10, 900)],
    [GroupProblem("idle", None)],
)
#: Refreshes 1-5, 2 s apart: 400 records in and g commits 400 more per refresh; h never commits.
LAGS = [
    lag_report(
        [
            row("g", "a", 0, 100 + 400 * i, 500 + 400 * i),
            row("g", "a", 1, None, 50),
            row("h", "a", 0, 10, 500),
        ],
        [GroupProblem("idle", None)],
    )
    for i in range(5)
]


def lag_blocks(view: lag_view.LagView) -> list[str]:
    return two_refreshes(
        LAGS, lag_view.counters, lambda s, r: lag_view.render(s, view, r), lag_view._block(view)
    )


def test_lag_counters_are_end_offsets_in_and_committed_offsets_consumed() -> None:
    c = lag_view.counters(
        lag_report([*LAG_1.rows, row("g", "b", 0, 5, None, state=LagState.ERROR, error="E")])
    )
    assert c.produced == {("g", "a", 0): 500, ("g", "a", 1): 50, ("h", "a", 0): 500}
    assert c.consumed == {("g", "a", 0): 100, ("h", "a", 0): 10}


def test_lag_jsonl_blocks_carry_both_rates_per_group_partition(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = lag_blocks(lag_view.LagView(fmt=Format.jsonl))
    assert capsys.readouterr().out == "".join(blocks)
    recs = [[json.loads(x) for x in b.splitlines()] for b in blocks]
    assert all(r["in_per_s"] is None and r["consumed_per_s"] is None for r in recs[0])

    def rates(i: int) -> dict[tuple[str, int | None], tuple[float | None, ...]]:
        return {
            (r["group"], r.get("partition")): (r["in_per_s"], r["consumed_per_s"], r["consumed_window_s"])
            for r in recs[i]
        }

    # refreshes 2-4: records in since the previous refresh; consumed needs 4 commit steps first
    assert rates(1)[("g", 0)] == rates(3)[("g", 0)] == (200.0, None, None)
    assert rates(4) == {
        ("idle", None): (None, None, None),  # a group problem record: no partition, no rates
        ("g", 0): (200.0, 200.0, 6.0),  # committed 500 -> 1700 over the 4 steps, 6 s apart
        ("g", 1): (0.0, None, None),  # no committed offset: nothing consumed to measure
        ("h", 0): (0.0, None, None),  # no commit seen yet: not known (0 after two windows without one)
    }


def test_lag_csv_columns_may_name_the_rates() -> None:
    view = lag_view.LagView(fmt=Format.csv, columns=("group", "partition", "in_per_s", "consumed_per_s"))
    blocks = lag_blocks(view)
    assert blocks[0].startswith("group,partition,in_per_s,consumed_per_s\n")
    # one CSV stream: the header on the first refresh only, no blank line between refreshes
    assert blocks[4] == "idle,,,\ng,0,200.0,200.0\ng,1,0.0,\nh,0,0.0,\n"
    assert all(not b.startswith("group,") and not b.endswith("\n\n") for b in blocks[1:])


def test_watch_records_carry_when_their_refresh_was_taken() -> None:
    """JSON lines and CSV rows of each refresh carry ``refreshed_ms`` (epoch ms), as a log needs."""
    jsonl = [[json.loads(x) for x in b.splitlines()] for b in lag_blocks(lag_view.LagView(fmt=Format.jsonl))]
    assert [{r["refreshed_ms"] for r in recs} for recs in jsonl] == [{500_000 + 2_000 * i} for i in range(5)]
    csv_blocks = lag_blocks(lag_view.LagView(fmt=Format.csv, columns=("group", "partition", "refreshed_ms")))
    assert csv_blocks[0].splitlines()[:2] == ["group,partition,refreshed_ms", "idle,,500000"]
    assert csv_blocks[1].splitlines()[0] == "idle,,502000"


def test_lag_without_watch_has_no_rate_fields_or_columns() -> None:
    recs = json.loads(lag_view.render(LAG_1, lag_view.LagView(fmt=Format.json)))
    assert all("in_per_s" not in r and "consumed_per_s" not in r for r in recs)
    assert "IN/S" not in text_of(lag_view.render(LAG_1, lag_view.LagView(fmt=Format.table)))


def test_lag_live_table_has_in_and_consumed_columns_and_summed_totals() -> None:
    view = lag_view.LagView(fmt=Format.table)
    drawn = two_refreshes(
        LAGS,
        lag_view.counters,
        lambda s, r: lag_view.render(s, view, r),
        lag_view._block(view),
        tty=True,
    )
    text = text_of(drawn[4])
    assert "IN/S" in text and "CONSUMED/S" in text
    lines = text.splitlines()
    g0 = next(x for x in lines if x.split()[:3] == ["g", "a", "0"])
    assert g0.split()[7:9] == ["200.0", "200.0"]
    g1 = next(x for x in lines if x.split()[:3] == ["g", "a", "1"])
    assert g1.split()[7:9] == ["0.0", "-"]  # no committed offset: no consumed rate
    total_g = next(x for x in lines if x.startswith("g ") and "total:" in x)
    assert total_g.split().count("200.0") == 2  # summed over the group's partitions
    assert "-" in text_of(drawn[0]).splitlines()[1].split()  # first refresh: no rates yet


# --------------------------------------------------------------------------- liveness

MT, LATEST = OffsetSpec.max_timestamp(), OffsetSpec.latest()
NOW = 1_790_000_000_000
A0, A1 = TopicPartition("a", 0), TopicPartition("a", 1)


def live_report() -> LivenessReport:
    results = [OffsetResult("a", 0, MT, 7, NOW - 1000), OffsetResult("a", 1, MT, None, None)]
    return build_report(
        results,
        NOW,
        60_000,
        120_000,
        timestamp_types={"a": "CreateTime"},
        missing_topics=[("gone", "UNKNOWN_TOPIC_OR_PARTITION")],
        empty=MonitoringStatus.CRITICAL,  # as --empty-status critical
    )


def snaps() -> list[LivenessSnapshot]:
    rep = live_report()
    return [
        LivenessSnapshot(rep, {A0: 1000, A1: 0}),
        LivenessSnapshot(rep, {A0: 1600, A1: 0}),
    ]


def liveness_drawn(view: liveness_view.LivenessView, tty: bool = False) -> list[Any]:
    return two_refreshes(
        snaps(),
        liveness_view.counters,
        lambda s, r: liveness_view.render(s.report, view, dict(r.records_in)),
        liveness_view._block(view),
        tty=tty,
    )


def test_liveness_jsonl_blocks_carry_in_per_s_from_latest_offsets() -> None:
    blocks = liveness_drawn(liveness_view.LivenessView(fmt=Format.jsonl, zone=timezone.utc))
    first = [json.loads(x) for x in blocks[0].splitlines()]
    second = [json.loads(x) for x in blocks[1].splitlines()]
    assert [r["in_per_s"] for r in first] == [None, None, None]
    got = {(r["topic"], r["partition"]): r["in_per_s"] for r in second}
    assert got == {("a", 0): 300.0, ("a", 1): 0.0, ("gone", None): None}
    assert second[0]["offset"] == 7  # the max-timestamp offset is still the record's offset


def test_liveness_table_blocks_have_a_records_per_second_column(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = liveness_drawn(liveness_view.LivenessView(fmt=Format.table, zone=timezone.utc))
    assert "RECORDS/S" in blocks[1]
    a0 = next(x for x in blocks[1].splitlines() if x.split()[:2] == ["a", "0"])
    assert "300.0" in a0.split()
    assert "a: CRITICAL" in capsys.readouterr().err  # topic lines still go to stderr, once per refresh


def test_liveness_nagios_blocks_are_unchanged_lines() -> None:
    view = liveness_view.LivenessView(fmt=Format.nagios, zone=timezone.utc)
    blocks = liveness_drawn(view)
    assert blocks[0] == blocks[1] == liveness_view.render(live_report(), view)
    assert blocks[0].startswith("KAFKA LIVENESS CRITICAL")


def last_frame(watch: Callable[[Screen], None]) -> str:
    """Run a view's watch() on a "terminal" for two refreshes (then Ctrl-C); the text of the last frame."""
    buf, loop = io.StringIO(), Refreshes(2)
    terminal = MockEnvironment(
        stdout=buf,
        stdout_isatty=True,
        width=300,
        environ={"NO_COLOR": "1"},
        clock=loop.clock,
        sleep=loop.sleep,
    )
    watch(Screen(terminal))
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", buf.getvalue())  # the live display's cursor moves
    return drawn.rsplit("refresh 2 at", 1)[1]


def test_liveness_watch_live_view_is_the_table_with_rates_and_the_topic_lines() -> None:
    queue = snaps()
    view = liveness_view.LivenessView(fmt=Format.table, zone=timezone.utc)
    text = last_frame(
        lambda screen: liveness_view.watch(FakeClient(), 2.0, lambda _c: queue.pop(0), view, screen)
    )
    a0 = next(x for x in text.splitlines() if x.split()[:2] == ["a", "0"])
    assert "RECORDS/S" in text and "300.0" in a0.split()
    assert "a: CRITICAL (1/2 partitions ok" in text and "gone: UNKNOWN" in text


def test_lag_watch_live_view_has_both_rates() -> None:
    queue = [LAG_1, LAG_2]
    view = lag_view.LagView(fmt=Format.table)
    text = last_frame(lambda screen: lag_view.watch(FakeClient(), 2.0, lambda _c: queue.pop(0), view, screen))
    h0 = next(x for x in text.splitlines() if x.split()[:3] == ["h", "a", "0"])
    assert h0.split()[7:9] == ["200.0", "-"]  # no commit step seen yet: no consumed rate
    # the line under the table says what the rates are based on
    note = "IN/S since the last refresh; CONSUMED/S over 30s of commits ('-' until 4 steps)"
    assert note in text.splitlines()  # one line, whole at 80 columns


def test_liveness_without_watch_has_no_rate() -> None:
    view = liveness_view.LivenessView(fmt=Format.json, zone=timezone.utc)
    assert all("in_per_s" not in r for r in json.loads(liveness_view.render(live_report(), view)))
    table = liveness_view.LivenessView(fmt=Format.table, zone=timezone.utc)
    assert "RECORDS/S" not in text_of(liveness_view.render(live_report(), table))
