"""``lag --members`` (pure): each partition's consumer, and its member epoch where the group type has one."""

from __future__ import annotations

import json

from kafka_offsets_cli.cli.lag_view import MEMBER_FIELDS, LagView, render
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.measures.lag.collect import LagReport
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.models.groups import GroupDescription, GroupMembers, Member
from kafka_offsets_cli.models.topics import TopicPartition


def row(group: str, partition: int) -> LagRow:
    return LagRow(
        group=group,
        topic="t",
        partition=partition,
        committed=1,
        log_start=0,
        end=3,
        lag=2,
        time_lag_ms=None,
        state=LagState.OK,
    )


def report(epoch: int | None) -> LagReport:
    member = Member(
        member_id="m-1",
        client_id="app",
        host="/10.0.0.1",
        assigned=(TopicPartition("t", 0),),
        member_epoch=epoch,
    )
    members = GroupMembers(GroupDescription("g", "stable", 1), (member,), "consumer" if epoch else "classic")
    return LagReport(
        rows=(row("g", 0), row("g", 1)), groups={"g": members.description}, members={"g": members}
    )


def test_records_carry_the_member_epoch_null_where_no_member_or_no_epoch() -> None:
    view = LagView(fmt=Format.json, members=True)
    got = json.loads(render(report(7), view))
    assert [tuple(r[f] for f in MEMBER_FIELDS) for r in got] == [
        ("m-1", "/10.0.0.1", "app", 7),
        (None, None, None, None),  # partition 1: no member assigned
    ]
    classic = json.loads(render(report(None), view))
    assert classic[0]["member_epoch"] is None and classic[0]["consumer_id"] == "m-1"


def test_the_table_has_member_epoch_only_when_a_member_has_one() -> None:
    def header(epoch: int | None) -> list[str]:
        table = render(report(epoch), LagView(fmt=Format.table, members=True, named=True))
        return [c.headers[0] for c in table.columns]

    assert header(7)[-4:] == ["CONSUMER-ID", "HOST", "CLIENT-ID", "MEMBER-EPOCH"]
    assert header(None)[-3:] == ["CONSUMER-ID", "HOST", "CLIENT-ID"]
