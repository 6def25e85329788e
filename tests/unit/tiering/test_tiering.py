"""The tiering rule (pure): spans, the backlog and its first offset, states, roll-ups and the renderers."""

from __future__ import annotations

from datetime import timezone
from typing import Any

import pytest

from kafka_offsets_cli.errors import MonitoringStatus, UsageError
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.render import tiering as render
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from kafka_offsets_cli.tiering.collect import answers_of
from kafka_offsets_cli.tiering.report import TieringReport, build_report
from kafka_offsets_cli.tiering.rules import (
    COLUMNS,
    Answers,
    Thresholds,
    TierRow,
    TierState,
    first_pending,
    grade,
    thresholds_from,
    tier_row,
)

NOW = 1_800_000_000_000
TH = Thresholds(warn_records=100, crit_records=1000, warn_age_ms=60_000, crit_age_ms=600_000)


def answers(e: int | None, el: int | None, t: int | None, p: int | None, latest: int | None) -> Answers:
    return Answers(earliest=e, earliest_local=el, latest_tiered=t, earliest_pending_upload=p, latest=latest)


def row(a: Answers, *, tiered: bool = True, ts: int | None = None, err: str | None = None) -> TierRow:
    return tier_row(
        "t", 0, a, tiered=tiered, thresholds=TH, now_ms=NOW, backlog_timestamp=ts, timestamp_error=err
    )


def test_first_pending_is_after_latest_tiered_else_pending_upload_else_the_log_start() -> None:
    assert first_pending(answers(0, 150, 149, None, 200)) == 150
    assert first_pending(answers(0, 0, None, 0, 200)) == 0
    assert first_pending(answers(7, 7, None, None, 200)) == 7


def test_spans_and_backlog_after_some_uploads() -> None:
    r = row(answers(10, 150, 189, 190, 200), ts=NOW - 30_000)
    assert (r.local_records, r.remote_records, r.backlog_records, r.backlog_first_offset) == (
        50,
        180,
        10,
        190,
    )
    assert (r.backlog_age_ms, r.state, r.status) == (30_000, TierState.OK, MonitoringStatus.OK)


def test_nothing_tiered_yet_counts_every_record_from_earliest_pending_upload() -> None:
    r = row(answers(0, 0, None, 0, 200), ts=NOW - 120_000)
    assert (r.remote_records, r.backlog_records, r.backlog_first_offset) == (0, 200, 0)
    assert r.state is TierState.WARNING  # 200 > 100 records, 2 min > 1 min


def test_everything_tiered_has_no_backlog_and_no_age() -> None:
    r = row(answers(0, 200, 199, None, 200))
    assert (r.backlog_records, r.backlog_age_ms, r.state) == (0, None, TierState.OK)


@pytest.mark.parametrize(
    ("records", "age", "state"),
    [
        (100, 60_000, TierState.OK),  # at the thresholds: not above them
        (101, None, TierState.WARNING),
        (1, 60_001, TierState.WARNING),
        (1001, 0, TierState.CRITICAL),
        (5, 600_001, TierState.CRITICAL),
        (500, 600_001, TierState.CRITICAL),  # the worse verdict wins
    ],
)
def test_grade_takes_the_worse_of_records_and_age(records: int, age: int | None, state: TierState) -> None:
    assert grade(TH, records, age) is state


def test_without_thresholds_a_backlog_is_ok() -> None:
    assert grade(Thresholds(), 10**9, 10**9) is TierState.OK


def test_a_topic_without_tiered_storage_is_not_tiered_and_ok_without_invented_numbers() -> None:
    r = row(answers(0, 0, None, None, 200), tiered=False)
    assert (r.state, r.status, r.local_records) == (TierState.NOT_TIERED, MonitoringStatus.OK, 200)
    assert (r.remote_records, r.backlog_records, r.backlog_age_ms) == (None, None, None)


def test_errors_are_unknown() -> None:
    bad = Answers(
        earliest=0,
        earliest_local=None,
        latest_tiered=None,
        earliest_pending_upload=None,
        latest=None,
        error="latest: NOT_LEADER_OR_FOLLOWER",
    )
    assert row(bad).status is MonitoringStatus.UNKNOWN
    r = row(answers(0, 0, None, 0, 200), err="REQUEST_TIMED_OUT")
    assert (r.state, r.error, r.backlog_records) == (TierState.ERROR, "backlog age: REQUEST_TIMED_OUT", 200)


def test_answers_group_five_specs_and_keep_the_first_error() -> None:
    kinds = {
        "earliest": OffsetSpec.earliest(),
        "local": OffsetSpec(SpecKind.EARLIEST_LOCAL),
        "tiered": OffsetSpec(SpecKind.LATEST_TIERED),
        "pending": OffsetSpec(SpecKind.EARLIEST_PENDING_UPLOAD),
        "latest": OffsetSpec.latest(),
    }
    ok = [OffsetResult("t", 0, s, v) for s, v in zip(kinds.values(), (0, 5, 4, None, 9), strict=True)]
    part1 = [
        OffsetResult("t", 1, kinds["earliest"], 0),
        OffsetResult("t", 1, kinds["latest"], None, error="X"),
    ]
    got = answers_of(ok + part1)
    assert got[ok[0].tp] == answers(0, 5, 4, None, 9)
    assert got[part1[0].tp].error == "latest: X"
    assert answers_of(part1[:1])[part1[0].tp].error == "earliest_local: NO_ANSWER"


def report() -> TieringReport:
    rows = [
        tier_row(
            "a",
            0,
            answers(0, 0, None, 0, 200),
            tiered=True,
            thresholds=TH,
            now_ms=NOW,
            backlog_timestamp=NOW - 700_000,
        ),
        tier_row("a", 1, answers(0, 200, 199, None, 200), tiered=True, thresholds=TH, now_ms=NOW),
        tier_row('we"ird', 0, answers(0, 0, None, None, 3), tiered=False, thresholds=TH, now_ms=NOW),
    ]
    return build_report(rows, NOW, TH, tiered_topics={"a"}, missing=(("gone", "UNKNOWN_TOPIC_OR_PARTITION"),))


def test_rollup_sums_partitions_and_the_worst_status_decides() -> None:
    rep = report()
    a, gone, weird = rep.topics
    assert (a.status, a.local_records, a.remote_records, a.backlog_records, a.backlog_age_ms) == (
        MonitoringStatus.CRITICAL,
        200,
        200,
        200,
        700_000,
    )
    assert (gone.status, weird.status, weird.tiered) == (MonitoringStatus.UNKNOWN, MonitoringStatus.OK, False)
    assert rep.status is MonitoringStatus.CRITICAL
    assert [r.partition for r in rep.shown(True).rows] == [0]


def test_renderers() -> None:
    rep = report()
    assert list(render.records(rep)[0]) == list(COLUMNS)
    line = render.nagios(rep)
    assert line.startswith("KAFKA TIERING CRITICAL - a CRITICAL (")
    assert "a backlog'=200;100;1000;0" in line and "'a backlog age'=700s;60;600;0" in line
    text = render.prometheus(rep, {"cluster": "c1"})
    fams = parse_prometheus_text(text)
    assert ({"cluster": "c1", "topic": "a", "partition": "0"}, 200.0) in fams[
        "kafka_offsets_tiering_backlog_records"
    ]
    assert fams["kafka_offsets_tiering_status"] == [({"cluster": "c1"}, 2.0)]
    assert fams["kafka_offsets_tiering_backlog_crit_age_seconds"] == [({"cluster": "c1"}, 600.0)]
    assert {lab["topic"]: v for lab, v in fams["kafka_offsets_tiering_topic_tiered"]} == {
        "a": 1.0,
        'we"ird': 0.0,
    }
    cells = render.rich_table(rep, timezone.utc).cells()
    assert cells[0][:5] == ["a", "0", "0..199", "-", "200"]
    assert cells[1][2:4] == ["-", "0..199"]  # everything remote, nothing local


def test_thresholds_are_checked_before_anything_is_contacted() -> None:
    assert thresholds_from(1, 2, "1m", "1h") == Thresholds(
        warn_records=1, crit_records=2, warn_age_ms=60_000, crit_age_ms=3_600_000
    )
    with pytest.raises(UsageError, match="--warn-records"):
        thresholds_from(5, 2, None, None)
    with pytest.raises(UsageError, match="--warn-age"):
        thresholds_from(None, None, "2h", "1h")


def test_list_tiering_reads_the_metadata_once_and_asks_each_spec_once() -> None:
    """``list --tiering``: one metadata read and one ListOffsets round for the table and the view,
    each (partition, spec) asked once (``latest``, wanted by both, too); both as if asked apart."""
    from dataclasses import replace

    from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
    from kafka_offsets_cli.parse.selection import Selection, TopicRule
    from kafka_offsets_cli.plan.queries import list_table
    from kafka_offsets_cli.tiering.collect import collect, list_and_collect
    from tests.unit.fake_cluster import FakeCluster, topic

    class Counting(FakeCluster):
        def __init__(self) -> None:
            md = ClusterMetadata({"a": topic("a", 3), "b": topic("b", 2)})
            logs = {TopicPartition(t, p): (p, 10 + p) for t, n in (("a", 3), ("b", 2)) for p in range(n)}
            super().__init__(md, logs, [])
            self.reads = 0
            self.rounds: list[list[tuple[TopicPartition, OffsetSpec]]] = []

        def metadata(self, *args: Any, **kwargs: Any) -> ClusterMetadata:
            self.reads += 1
            return super().metadata(*args, **kwargs)

        def list_offsets(self, requests: Any, **kwargs: Any) -> list[OffsetResult]:
            self.rounds.append([q for r in requests for q in r.queries])
            return super().list_offsets(requests, **kwargs)

    selection = Selection(rules=(TopicRule("a|b|nosuch"),))
    specs = [OffsetSpec.latest(), OffsetSpec.earliest()]  # both also wanted by the view
    both = Counting()
    table, report = list_and_collect(both, selection, specs)
    # one read for the table and the view; the second lists the topics for a "did you mean" for
    # nosuch, which the first (its names only, described by name) could not give
    assert both.reads == 2 and len(both.rounds) == 1
    asked = both.rounds[0]
    assert (
        len(asked) == len(set(asked)) == 5 * 5
    )  # 5 partitions x the view's 5 specs (the table's among them)

    apart = Counting()
    alone = list_table(apart, selection, specs)
    assert sorted(table.results, key=repr) == sorted(alone.results, key=repr)
    assert (table.specs, table.partitions, table.missing_topics) == (
        alone.specs,
        alone.partitions,
        alone.missing_topics,
    )
    view = collect(apart, selection, Thresholds(), clock=lambda: report.now_ms)
    assert report == replace(view, now_ms=report.now_ms)
