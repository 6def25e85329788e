"""Unit tests of --watch: rates between refreshes, the refresh loop, and list's watch output."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timezone

import pytest

from kafka_offsets_cli.cli import list_view
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.cli.watch import Counters, Rates, parse_interval, rates_between, run_watch
from kafka_offsets_cli.errors import ClusterUnreachable, NotFound, UsageError
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable
from kafka_offsets_cli.models.topics import TopicPartition
from tests.unit.ctrl_c import wrapped_by_c_extension

L, E = OffsetSpec.latest(), OffsetSpec.earliest()
A0, A1 = TopicPartition("a", 0), TopicPartition("a", 1)


def test_rates_are_deltas_per_second_and_unknown_when_not_comparable() -> None:
    first = Counters(produced={A0: 100, A1: 50}, consumed={A0: 90})
    r = rates_between(None, first, None)
    assert r.records_in == {A0: None, A1: None} and r.seconds is None
    second = Counters(produced={A0: 300, A1: 40, TopicPartition("b", 0): 7}, consumed={A0: 190})
    r = rates_between(first, second, 2.0, refresh=2)
    assert r.in_rate(A0) == 100.0
    assert r.in_rate(A1) is None  # went backwards: recreated topic
    assert r.in_rate(TopicPartition("b", 0)) is None  # new row
    assert r.consumed_rate(A0) == 50.0
    assert r.seconds == 2.0 and r.refresh == 2


@pytest.mark.parametrize(("text", "seconds"), [("5s", 5.0), ("500ms", 0.5), ("1m", 60.0), ("2", 2.0)])
def test_parse_interval(text: str, seconds: float) -> None:
    assert parse_interval(text) == seconds


@pytest.mark.parametrize("text", ["0", "0s", "-1s", "soon"])
def test_parse_interval_rejects_non_positive_and_garbage(text: str) -> None:
    with pytest.raises(UsageError, match="--watch"):
        parse_interval(text)


class FakeClient:
    def __init__(self) -> None:
        self.restarts = 0

    def restart_clock(self) -> None:
        self.restarts += 1


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.now += s


def _loop(
    fetches: list[object], *, max_refreshes: int | None = None
) -> tuple[list[str], FakeClient, FakeClock, object]:
    client, clock = FakeClient(), FakeClock()
    blocks: list[str] = []
    queue = list(fetches)

    def fetch(_c: object) -> int:
        item = queue.pop(0)
        clock.now += 0.25  # the query takes a while
        if isinstance(item, BaseException):
            raise item
        assert isinstance(item, int)
        return item

    def block(snap: int, rates: Rates[str]) -> str:
        text = f"{snap} {rates.in_rate('p')}\n"
        blocks.append(text)
        return text

    last = run_watch(
        client,
        2.0,
        fetch,
        lambda snap: Counters(produced={"p": snap}),
        lambda snap, rates: str(snap),
        block,
        tty=False,
        max_refreshes=max_refreshes,
        clock=clock,
        sleep=clock.sleep,
    )
    return blocks, client, clock, last


def test_loop_prints_a_block_per_refresh_with_rates_and_keeps_the_cadence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    blocks, client, clock, last = _loop([10, 30, 70], max_refreshes=3)
    assert blocks == ["10 None\n", "30 10.0\n", "70 20.0\n"]
    assert capsys.readouterr().out == "".join(blocks)
    assert client.restarts == 3 and last == 70
    assert clock.sleeps == [1.75, 1.75]  # interval minus the time the refresh took


def test_ctrl_c_ends_the_loop_normally(capsys: pytest.CaptureFixture[str]) -> None:
    blocks, _client, _clock, last = _loop([10, 30, KeyboardInterrupt()])
    assert blocks == ["10 None\n", "30 10.0\n"] and last == 30


def test_ctrl_c_wrapped_by_a_c_extension_ends_the_loop_normally(capsys: pytest.CaptureFixture[str]) -> None:
    """CI saw `list --watch` die with this SystemError (a traceback, exit 1) instead of ending on Ctrl-C."""
    blocks, _client, _clock, last = _loop([10, 30, wrapped_by_c_extension()])
    assert blocks == ["10 None\n", "30 10.0\n"] and last == 30
    assert capsys.readouterr().err == ""


def test_a_bug_is_not_taken_for_ctrl_c() -> None:
    with pytest.raises(SystemError):
        _loop([10, SystemError("a real bug")])


def test_a_failed_later_refresh_is_reported_and_the_loop_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    blocks, _c, _k, _last = _loop([10, ClusterUnreachable("no answer"), 50], max_refreshes=3)
    # the rate after the gap spans both intervals
    assert blocks == ["10 None\n", "50 10.0\n"]
    assert "refresh 2 failed: no answer" in capsys.readouterr().err


@pytest.mark.parametrize("exc", [ClusterUnreachable("no answer"), NotFound("nothing")])
def test_a_failed_first_refresh_ends_the_command(exc: Exception) -> None:
    with pytest.raises(type(exc)):
        _loop([exc, 10])


def test_a_usage_error_always_ends_the_command() -> None:
    with pytest.raises(UsageError):
        _loop([10, UsageError("bad")])


# --------------------------------------------------------------------------- list --watch output


def table(latest: dict[TopicPartition, int | None], specs: tuple[OffsetSpec, ...] = (L,)) -> OffsetTable:
    res = []
    for tp, off in latest.items():
        for s in specs:
            res.append(OffsetResult(tp.topic, tp.partition, s, off if s == L else 0, None, 0))
    return OffsetTable(specs, tuple(latest), tuple(res))


def view(fmt: Format, **kw: object) -> list_view.ListView:
    return list_view.ListView(fmt=fmt, zone=timezone.utc, **kw)  # type: ignore[arg-type]


def _two_refreshes(v: list_view.ListView, specs: tuple[OffsetSpec, ...] = (L,)) -> list[str]:
    snaps = [table({A0: 1000, A1: 5}, specs), table({A0: 3000, A1: 5}, specs)]
    blocks: list[str] = []
    block: Callable[[OffsetTable, Rates[TopicPartition]], str] = list_view._block(v)
    prev = None
    for i, s in enumerate(snaps):
        cur = list_view.counters(s)
        blocks.append(block(s, rates_between(prev, cur, 2.0 if prev else None, i + 1)))
        prev = cur
    return blocks


def test_jsonl_records_carry_in_per_s() -> None:
    blocks = _two_refreshes(view(Format.jsonl))
    first = [json.loads(x) for x in blocks[0].splitlines()]
    second = [json.loads(x) for x in blocks[1].splitlines()]
    assert [r["in_per_s"] for r in first] == [None, None]
    assert [(r["partition"], r["offset"], r["in_per_s"]) for r in second] == [(0, 3000, 1000.0), (1, 5, 0.0)]


def test_rates_only_on_latest_records_and_csv_has_its_header_once() -> None:
    blocks = _two_refreshes(view(Format.csv, columns=("partition", "spec", "in_per_s")), (E, L))
    assert blocks[0] == "partition,spec,in_per_s\n0,earliest,\n0,latest,\n1,earliest,\n1,latest,\n"
    assert blocks[1] == "0,earliest,\n0,latest,1000.0\n1,earliest,\n1,latest,0.0\n"


def test_table_blocks_have_a_rate_column_without_a_latest_spec_none() -> None:
    with_latest = _two_refreshes(view(Format.table))
    assert "RECORDS/S" in with_latest[1]
    row = next(line for line in with_latest[1].splitlines() if line.startswith("a") and " 0 " in line)
    assert row.split() == ["a", "0", "3000", "1000.0"]
    without = _two_refreshes(view(Format.table), (E,))
    assert "RECORDS/S" not in without[1]
