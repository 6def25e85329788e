"""Unit tests of rewind planning: targets, clamping, notes, totals and the exported CSV."""

from __future__ import annotations

import csv
import io
from typing import Any, cast

import pytest

from kafka_offsets_cli.errors import PartialFailure, Refused
from kafka_offsets_cli.models.groups import GroupDescription, GroupMembers, GroupOffsets
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.rewind.execute import execute
from kafka_offsets_cli.rewind.plan import (
    Note,
    Plan,
    PlanRow,
    Target,
    TargetKind,
    left_out,
    make_plan,
    mismatches,
    plan_row,
    specs_for,
)
from kafka_offsets_cli.rewind.planfile import export_csv

TP = TopicPartition("orders", 2)
E, L = OffsetSpec.earliest(), OffsetSpec.latest()
T = 1_700_000_000_000


def e(o: int | None, err: str | None = None) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, E, o, error=err)


def lt(o: int | None, err: str | None = None) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, L, o, error=err)


def at(o: int | None, err: str | None = None) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, OffsetSpec.at(T), o, error=err)


def test_target_from_spec() -> None:
    assert Target.from_spec(E).kind is TargetKind.EARLIEST
    assert Target.from_spec(L).kind is TargetKind.LATEST
    t = Target.from_spec(OffsetSpec.at(T))
    assert (t.kind, t.time_ms, t.lookup) == (TargetKind.TIME, T, OffsetSpec.at(T))
    with pytest.raises(ValueError):
        Target.from_spec(OffsetSpec.max_timestamp())
    assert specs_for(Target.shift_by(-3)) == (E, L)
    assert specs_for(t) == (E, L, OffsetSpec.at(T))


def test_time_target_uses_the_lookup() -> None:
    r = plan_row("g", TP, 90, Target.from_spec(OffsetSpec.at(T)), e(10), lt(100), at(40))
    assert (r.target, r.delta, r.note) == (40, -50, None)


def test_time_without_a_record_resolves_to_the_end_with_a_note() -> None:
    r = plan_row("g", TP, 90, Target.from_spec(OffsetSpec.at(T)), e(10), lt(100), at(None))
    assert (r.target, r.delta, r.note) == (100, 10, Note.NO_RECORD_AT_TIME)


def test_earliest_latest() -> None:
    assert plan_row("g", TP, 50, Target(TargetKind.EARLIEST), e(10), lt(100)).target == 10
    assert plan_row("g", TP, 50, Target(TargetKind.LATEST), e(10), lt(100)).target == 100
    new = plan_row("g", TP, None, Target(TargetKind.EARLIEST), e(10), lt(100))
    assert (new.target, new.delta, new.planned) == (10, None, True)


@pytest.mark.parametrize(
    ("current", "shift", "target", "note"),
    [
        (50, -20, 30, None),
        (50, 20, 70, None),
        (50, -45, 10, Note.CLAMPED_TO_START),
        (50, 60, 100, Note.CLAMPED_TO_END),
        (5, 0, 10, Note.CLAMPED_TO_START),  # below the log start already
    ],
)
def test_shift_by_is_clamped_like_kafka(current: int, shift: int, target: int, note: Note | None) -> None:
    r = plan_row("g", TP, current, Target.shift_by(shift), e(10), lt(100))
    assert (r.target, r.note) == (target, note)


def test_shift_without_commit_is_not_planned() -> None:
    r = plan_row("g", TP, None, Target.shift_by(-1), e(10), lt(100))
    assert (r.target, r.planned, r.note) == (None, False, Note.NO_COMMIT)


def test_errors_are_not_planned() -> None:
    r = plan_row(
        "g", TP, 5, Target.from_spec(OffsetSpec.at(T)), e(0), lt(9), at(None, "NOT_LEADER_OR_FOLLOWER")
    )
    assert (r.target, r.error, r.planned) == (None, "NOT_LEADER_OR_FOLLOWER", False)
    r2 = plan_row("g", TP, 5, Target(TargetKind.LATEST), e(0), lt(None, "X"))
    assert (r2.target, r2.error) == (None, "X")


def plan() -> Plan:
    a, b, c = TopicPartition("a,b", 0), TopicPartition("z", 1), TopicPartition("z", 0)
    results = [
        OffsetResult(t.topic, t.partition, s, o)
        for t, s, o in [(a, E, 0), (a, L, 10), (b, E, 5), (b, L, 50), (c, E, 0), (c, L, 7)]
    ]
    return make_plan("g", Target.shift_by(-10), [b, a, c], {a: 10, b: 12}, results)


def test_plan_totals_and_problems() -> None:
    p = plan()
    assert [(r.topic, r.partition, r.target) for r in p.rows] == [("a,b", 0, 0), ("z", 0, None), ("z", 1, 5)]
    assert p.reread() == 10 + 7
    assert p.skipped() == 0
    assert [r.partition for r in p.problems] == [0]
    assert set(p.offsets()) == {TopicPartition("a,b", 0), TopicPartition("z", 1)}


def test_export_is_headerless_topic_partition_offset_csv() -> None:
    text = export_csv([plan()])
    assert text == '"a,b",0,0\nz,1,5\n'  # planned rows only; topic quoted when it has a comma
    assert list(csv.reader(io.StringIO(text))) == [["a,b", "0", "0"], ["z", "1", "5"]]


def test_left_out_names_every_partition_and_topic_the_export_omits() -> None:
    p = plan()
    assert left_out(p) == ["z:0 (no-commit)"]  # z:0 has no committed offset to shift
    gone = PlanRow(
        group="g",
        topic="y",
        partition=7,
        current=None,
        target=None,
        log_start=None,
        end=None,
        error="UNKNOWN_TOPIC_OR_PARTITION",
    )
    worse = Plan("g", p.target, (*p.rows, gone), (("nope", "UNKNOWN_TOPIC_OR_PARTITION"),))
    assert left_out(worse) == [
        "topic nope (UNKNOWN_TOPIC_OR_PARTITION)",
        "z:0 (no-commit)",
        "y:7 (UNKNOWN_TOPIC_OR_PARTITION)",
    ]
    assert left_out(make_plan("g", Target(TargetKind.EARLIEST), [], {}, [])) == []


def test_mismatches() -> None:
    p = plan()
    ok = {TopicPartition("a,b", 0): 0, TopicPartition("z", 1): 5}
    assert mismatches(p, ok) == []
    assert mismatches(p, {TopicPartition("a,b", 0): 0}) == [(TopicPartition("z", 1), 5, None)]


def test_record_keys() -> None:
    rec = PlanRow(group="g", topic="t", partition=0, current=5, target=3, log_start=0, end=9).to_record()
    assert list(rec) == [
        "group",
        "topic",
        "partition",
        "current",
        "target",
        "log_start",
        "end",
        "delta",
        "note",
        "error",
    ]
    assert rec["delta"] == -2


class CommitAnswers:
    """A group source whose group looks empty and whose commit gets the given per-partition answers."""

    def __init__(self, answers: dict[TopicPartition, str | None]) -> None:
        self.answers = answers

    def group_members(self, groups: list[str]) -> dict[str, GroupMembers]:
        return {g: GroupMembers(GroupDescription(g, "empty", 0)) for g in groups}

    def alter_group_offsets(
        self, group: str, offsets: dict[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        return {tp: self.answers.get(tp) for tp in offsets}

    def committed_offsets(self, groups: list[str], partitions: list[TopicPartition]) -> list[GroupOffsets]:
        return [GroupOffsets(groups[0], {tp: 0 for tp in partitions})]


A0, A1 = TopicPartition("a", 0), TopicPartition("a", 1)


def two_partition_plan() -> Plan:
    results = [OffsetResult(t.topic, t.partition, s, 0) for t in (A0, A1) for s in (E, L)]
    return make_plan("g", Target(TargetKind.EARLIEST), [A0, A1], {A0: 0, A1: 0}, results)


@pytest.mark.parametrize("name", ["UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION", "REBALANCE_IN_PROGRESS"])
def test_a_commit_rejected_because_the_group_became_active_is_refused(name: str) -> None:
    with pytest.raises(Refused, match=rf"group 'g' became active before the commit \(Kafka answered {name}"):
        execute(cast(Any, CommitAnswers({A0: name, A1: name})), two_partition_plan())


@pytest.mark.parametrize(
    "answers",
    [
        {A0: "UNKNOWN_MEMBER_ID", A1: None},  # one offset committed: something changed
        {A0: "UNKNOWN_MEMBER_ID", A1: "GROUP_AUTHORIZATION_FAILED"},
        {A0: "OFFSET_METADATA_TOO_LARGE", A1: "OFFSET_METADATA_TOO_LARGE"},
    ],
)
def test_other_commit_failures_stay_partial_and_named(answers: dict[TopicPartition, str | None]) -> None:
    with pytest.raises(PartialFailure) as info:
        execute(cast(Any, CommitAnswers(answers)), two_partition_plan())
    assert info.value.exit_code == 1
    assert all(f"{tp}: {e}" in str(info.value) for tp, e in answers.items() if e is not None)
    execute(cast(Any, CommitAnswers({})), two_partition_plan())  # all accepted: verified
