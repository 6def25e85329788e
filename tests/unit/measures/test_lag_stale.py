"""Commit staleness (measures.lag.stale): the rule, its thresholds and its outputs, without a broker."""

from __future__ import annotations

import json

import pytest

from kafka_offsets_cli.cli.lag_view import LagView, render
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.errors import MonitoringStatus, UsageError
from kafka_offsets_cli.lag.monitor import lag_statuses, parse_thresholds
from kafka_offsets_cli.lag.summary import SortKey, sort_rows
from kafka_offsets_cli.measures.lag.collect import LagReport
from kafka_offsets_cli.measures.lag.rows import LagRow, lag_row
from kafka_offsets_cli.measures.lag.stale import KEEP_MS, Seen, observe, pruned, stalest
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render import lag_metrics
from kafka_offsets_cli.render.monitoring import parse_prometheus_text

T0 = 1_800_000_000_000
MIN = 60_000


def row(
    committed: int | None, end: int = 100, *, group: str = "g", partition: int = 0, start: int = 0
) -> LagRow:
    tp = TopicPartition("t", partition)
    return lag_row(
        group,
        tp,
        committed,
        OffsetResult("t", partition, OffsetSpec.earliest(), start),
        OffsetResult("t", partition, OffsetSpec.latest(), end),
    )


K = ("g", "t", 0)


def test_first_sight_of_a_lagging_partition_is_unknown_then_grows_with_the_wall_clock() -> None:
    first = observe({}, [row(10)], T0)
    assert first.stale_ms == {} and first.first_sight == 1  # null, not 0: nothing says it moved
    assert first.seen[K] == Seen(10, T0, T0)
    second = observe(first.seen, [row(10, end=150)], T0 + 5 * MIN)
    assert second.stale_ms == {K: 5 * MIN} and second.first_sight == 0
    third = observe(second.seen, [row(10, end=200)], T0 + 12 * MIN)
    assert third.stale_ms == {K: 12 * MIN}  # counted from the first sight, not the last


def test_a_moved_offset_resets_it_to_zero() -> None:
    before = {K: Seen(10, T0, T0 + MIN)}
    moved = observe(before, [row(11)], T0 + 10 * MIN)
    assert moved.stale_ms == {K: 0}
    assert moved.seen[K] == Seen(11, T0 + 10 * MIN, T0 + 10 * MIN)
    # and from there it counts again
    assert observe(moved.seen, [row(11)], T0 + 13 * MIN).stale_ms == {K: 3 * MIN}


def test_nothing_to_read_is_never_stale_and_clears_the_clock() -> None:
    # an idle topic, fully consumed for an hour: 0 on every run, whatever the first sight
    idle = observe({}, [row(100)], T0)
    assert idle.stale_ms == {K: 0} and idle.first_sight == 0
    assert observe(idle.seen, [row(100)], T0 + 60 * MIN).stale_ms == {K: 0}
    # an old clock is cleared by a sight with nothing left to read
    cleared = observe({K: Seen(100, T0 - 60 * MIN, T0)}, [row(100)], T0 + MIN)
    assert cleared.seen[K].since_ms is None
    # records arrive at the same committed offset: the clock starts now (a lower bound), not at the
    # last sight, when nothing was waiting
    arrived = observe(cleared.seen, [row(100, end=120)], T0 + 30 * MIN)
    assert arrived.stale_ms == {K: 0}
    assert observe(arrived.seen, [row(100, end=130)], T0 + 32 * MIN).stale_ms == {K: 2 * MIN}


def test_ahead_marker_below_start_and_unreadable_rows() -> None:
    ahead = row(120)
    assert observe({}, [ahead], T0).stale_ms == {K: 0}  # beyond the end: nothing to read
    below = row(5, start=50)  # below the log start: records were left (and lost)
    st = observe({K: Seen(5, T0, T0)}, [below], T0 + MIN)
    assert st.stale_ms == {K: MIN}
    # no commit: nothing judged, the earlier sight kept as it was (not overwritten)
    none = observe({K: Seen(5, T0, T0)}, [row(None)], T0 + MIN)
    assert none.stale_ms == {} and none.seen == {} and none.first_sight == 0


def test_a_clock_set_back_never_gives_a_negative_value() -> None:
    assert observe({K: Seen(10, T0, T0)}, [row(10)], T0 - MIN).stale_ms == {K: 0}


def test_pruned_keeps_unseen_entries_until_they_expire() -> None:
    other = ("h", "t", 1)
    before = {K: Seen(1, T0, T0), other: Seen(2, None, T0 - KEEP_MS - 1)}
    out = pruned(before, {K: Seen(1, T0, T0 + MIN)}, T0)
    assert out == {K: Seen(1, T0, T0 + MIN)}
    kept = pruned({other: Seen(2, None, T0)}, {}, T0 + KEEP_MS)
    assert kept == {other: Seen(2, None, T0)}


def test_stalest_is_each_groups_largest() -> None:
    assert stalest({("g", "t", 0): 5, ("g", "t", 1): 9, ("h", "t", 0): 0}) == {"g": 9, "h": 0}


# ------------------------------------------------------------------ thresholds and outputs


def test_thresholds_alert_above_and_unknown_is_not_compared() -> None:
    t = parse_thresholds(None, None, None, None, warn_stale="5m", crit_stale="15m")
    assert t.on_stale and (t.warn_stale_ms, t.crit_stale_ms) == (5 * MIN, 15 * MIN)
    rows = [row(10, partition=0), row(10, partition=1), row(10, partition=2), row(10, partition=3)]
    stale = {("g", "t", 0): 5 * MIN, ("g", "t", 1): 5 * MIN + 1, ("g", "t", 2): 16 * MIN}
    st = lag_statuses(rows, (), t, stale_ms=stale)
    got = [st.of(r) for r in rows]
    ok, warn, crit = MonitoringStatus.OK, MonitoringStatus.WARNING, MonitoringStatus.CRITICAL
    assert got == [ok, warn, crit, ok]  # at the threshold is not above; partition 3 unknown
    assert st.status is crit
    with pytest.raises(UsageError, match="--warn-stale 20m is longer than --crit-stale 15m"):
        parse_thresholds(None, None, None, None, warn_stale="20m", crit_stale="15m")


def report(stale: dict[tuple[str, str, int], int]) -> LagReport:
    rows = (row(10, partition=0), row(50, partition=1), row(100, partition=2))
    return LagReport(rows=rows, groups={}, staleness=True, stale_ms=stale)


STALE = {("g", "t", 0): 90_000, ("g", "t", 2): 0}


def test_records_summary_and_sort() -> None:
    recs = json.loads(render(report(STALE), LagView(fmt=Format.json, staleness=True, summary=False)))
    assert [r["commit_stale_ms"] for r in recs] == [90_000, None, 0]
    plain = json.loads(render(report(STALE), LagView(fmt=Format.json, summary=False)))
    assert "commit_stale_ms" not in plain[0]  # only when asked
    summary = json.loads(render(report(STALE), LagView(fmt=Format.json, staleness=True, summary=True)))
    assert summary[0]["max_commit_stale_ms"] == 90_000
    order = sort_rows(report(STALE).rows, SortKey.staleness, stale_ms=STALE)
    assert [r.partition for r in order] == [0, 2, 1]  # stalest first, unknown last


def test_prometheus_series_and_nagios_perfdata() -> None:
    t = parse_thresholds(None, None, None, None, warn_stale="1m", crit_stale="1h")
    rep = report(STALE)
    status = lag_statuses(rep.rows, (), t, stale_ms=STALE)
    text = lag_metrics.prometheus(rep.rows, status, t, T0, {"cluster": "c"}, stale_ms=STALE)
    fams = parse_prometheus_text(text)
    parts = {ls["partition"]: v for ls, v in fams["kafka_offsets_lag_partition_commit_stale_seconds"]}
    assert parts == {"0": 90.0, "2": 0.0}
    assert [v for _, v in fams["kafka_offsets_lag_group_max_commit_stale_seconds"]] == [90.0]
    assert [v for _, v in fams["kafka_offsets_lag_warn_commit_stale_seconds"]] == [60.0]
    line = lag_metrics.nagios(rep.rows, status, t, stale_ms=STALE)
    assert line.startswith("KAFKA LAG WARNING")
    assert "commit stale 1m 30s" in line and "'g commit_stale'=90s;60;3600;0" in line
