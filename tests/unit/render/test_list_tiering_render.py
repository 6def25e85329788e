"""``list --tiering`` records and table (render/list_tiering.py): the tiering report laid out for list."""

from __future__ import annotations

from datetime import UTC

from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render import offsets as render_offsets
from kafka_offsets_cli.render.list_tiering import FIELDS, failed, with_tiering
from kafka_offsets_cli.tiering.report import TieringReport, build_report
from kafka_offsets_cli.tiering.rules import Answers, Thresholds, tier_row


def _table(*rows: tuple[str, int, int]) -> OffsetTable:
    latest = OffsetSpec.latest()
    return OffsetTable(
        specs=(latest,),
        partitions=tuple(TopicPartition(t, p) for t, p, _ in rows),
        results=tuple(OffsetResult(t, p, latest, o) for t, p, o in rows),
    )


def _report() -> TieringReport:
    th = Thresholds()
    rows = [
        tier_row("held", 0, Answers(earliest=0, earliest_local=0, latest_tiered=None,
                                    earliest_pending_upload=0, latest=200), tiered=True, thresholds=th,
                 now_ms=10_000, backlog_timestamp=4_000),
        tier_row("moved", 0, Answers(earliest=0, earliest_local=200, latest_tiered=199,
                                     earliest_pending_upload=None, latest=200), tiered=True, thresholds=th,
                 now_ms=10_000),
        tier_row("plain", 0, Answers(earliest=0, earliest_local=0, latest_tiered=None,
                                     earliest_pending_upload=None, latest=50), tiered=False, thresholds=th,
                 now_ms=10_000),
        tier_row("plain", 1, Answers(earliest=None, earliest_local=None, latest_tiered=None,
                                     earliest_pending_upload=None, latest=None, error="earliest: X"),
                 tiered=False, thresholds=th, now_ms=10_000),
    ]  # fmt: skip
    return build_report(rows, 10_000, th, tiered_topics={"held", "moved"})


def test_every_record_gets_its_partitions_view_and_each_topic_a_total() -> None:
    report = _report()
    table = _table(("held", 0, 200), ("moved", 0, 200), ("plain", 0, 50))
    recs = with_tiering(render_offsets.records(table), report, render_offsets.COLUMNS)
    assert all(list(r) == [*render_offsets.COLUMNS, *FIELDS] for r in recs)
    held, moved, plain = recs[:3]
    assert (held["backlog_records"], held["backlog_age_ms"], held["tiering_state"]) == (200, 6_000, "ok")
    assert (moved["local_records"], moved["remote_records"], moved["offset"]) == (0, 200, 200)
    assert (plain["tiering_state"], plain["remote_records"], plain["local_records"]) == (
        "not-tiered",
        None,
        50,
    )
    totals = {r["topic"]: r for r in recs[3:]}
    assert all(r["partition"] is None and r["spec"] is None for r in totals.values())
    assert (totals["held"]["backlog_records"], totals["moved"]["remote_records"]) == (200, 200)
    assert (totals["plain"]["tiering_state"], totals["plain"]["backlog_records"]) == ("error", None)
    assert failed(report) == ["tiering: earliest: X"]


def test_table_has_the_four_columns_and_a_total_row_per_topic() -> None:
    report = _report()
    t = render_offsets.rich_table(_table(("held", 0, 200), ("moved", 0, 200)), UTC, tiering=report)
    heads = [c.headers[0] for c in t.columns]
    assert heads == ["TOPIC", "PARTITION", "LATEST", "LOCAL", "REMOTE", "BACKLOG", "BACKLOG-AGE", "ERROR"]
    text = [[str(c) for c in row] for row in t.cells()]
    assert text[0][:7] == ["held", "0", "200", "0..199", "-", "200", "6s"]
    assert text[1][:7] == ["moved", "0", "200", "-", "0..199", "0", "-"]
    assert [r[:7] for r in text[-3:]] == [
        ["held", "total", "", "200", "0", "200", "6s"],
        ["moved", "total", "", "0", "200", "0", "-"],
        ["plain", "total", "", "50", "-", "-", "-"],
    ]
