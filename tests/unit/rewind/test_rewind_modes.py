"""Unit tests of the reset modes, plan files (Kafka's --from-file reading), the moved check, undo
plans, ISO-8601 durations, the --to parsing and the active-member explanations."""

from __future__ import annotations

from datetime import timezone
from pathlib import Path

import pytest

from kafka_offsets_cli.errors import NotFound, UsageError
from kafka_offsets_cli.models.groups import GroupDescription, GroupMembers, Member
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.parse.durations import parse_iso_duration
from kafka_offsets_cli.rewind.files import default_undo_path
from kafka_offsets_cli.rewind.identity import ClusterIdentity, read_identity, same_cluster
from kafka_offsets_cli.rewind.members import describe_members, until_dropped
from kafka_offsets_cli.rewind.plan import Note, Plan, Target, TargetKind, make_plan, plan_row
from kafka_offsets_cli.rewind.planfile import (
    export_csv,
    groups_to_apply,
    moved,
    parse_plan_file,
    parse_seen,
    seen_csv,
    undo_csv,
)
from kafka_offsets_cli.rewind.request import parse_target

TP = TopicPartition("orders", 0)
E, L = OffsetSpec.earliest(), OffsetSpec.latest()


def e(o: int) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, E, o)


def lt(o: int) -> OffsetResult:
    return OffsetResult(TP.topic, TP.partition, L, o)


@pytest.mark.parametrize(
    ("wanted", "target", "note"),
    [(50, 50, None), (5, 10, Note.CLAMPED_TO_START), (500, 100, Note.CLAMPED_TO_END), (100, 100, None)],
)
def test_to_offset_and_from_file_clamp_like_kafka(wanted: int, target: int, note: Note | None) -> None:
    r = plan_row("g", TP, None, Target.to_offset(wanted), e(10), lt(100))
    assert (r.target, r.note) == (target, note)
    f = plan_row("g", TP, 70, Target.from_file("p.csv"), e(10), lt(100), requested=wanted)
    assert (f.target, f.note) == (target, note)


def test_from_file_without_the_partition_is_an_error_row() -> None:
    r = plan_row("g", TP, 70, Target.from_file("p.csv"), e(10), lt(100))
    assert (r.target, r.error) == (None, "NOT_IN_PLAN_FILE")


def test_to_current_keeps_the_commit_and_gives_the_end_without_one() -> None:
    assert plan_row("g", TP, 5, Target.current(), e(10), lt(100)).target == 5  # not clamped, as Kafka
    r = plan_row("g", TP, None, Target.current(), e(10), lt(100))
    assert (r.target, r.note, r.planned) == (100, Note.NO_COMMIT_END, True)


def plan(group: str, rows: dict[TopicPartition, tuple[int | None, int]]) -> Plan:
    results = [OffsetResult(tp.topic, tp.partition, s, o) for tp in rows for s, o in ((E, 0), (L, 100))]
    requested = {tp: t for tp, (_, t) in rows.items()}
    current = {tp: c for tp, (c, _) in rows.items()}
    return make_plan(group, Target.from_file("x"), list(rows), current, results, requested)


A0, A1, B0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b,c", 0)


def test_export_formats_are_kafkas() -> None:
    g1 = plan("g1", {A1: (9, 4), A0: (7, 3)})
    g2 = plan("g2", {B0: (None, 5)})
    assert export_csv([g1]) == "a,0,3\na,1,4\n"  # one group: topic,partition,offset
    assert export_csv([g2, g1]) == 'g1,a,0,3\ng1,a,1,4\ng2,"b,c",0,5\n'  # several: group first
    assert export_csv([g1], with_group=True) == "g1,a,0,3\ng1,a,1,4\n"


def test_undo_holds_the_previous_offsets_and_names_what_it_cannot_restore() -> None:
    text, none = undo_csv([plan("g1", {A0: (7, 3), B0: (None, 5)})])
    assert text == "g1,a,0,7\n"
    assert none == ["g1 b,c:0"]


def test_seen_record_round_trips_and_moved_names_each_partition() -> None:
    p = plan("g1", {A0: (7, 3), A1: (None, 4)})
    text = seen_csv([p], planned_at="2026-11-24T07:00:00Z")
    assert text.startswith("# kafka-offsets:")
    seen = parse_seen(text, "x.seen")
    assert seen == {"g1": {A0: 7, A1: None}}
    requested = {"g1": {A0: 3, A1: 4}}
    assert moved(seen, requested, {"g1": {A0: 7}}) == []
    assert moved(seen, requested, {"g1": {A0: 3, A1: 4}}) == []  # already applied: not a move
    assert moved(seen, requested, {"g1": {A0: 8}}) == ["g1 a:0: 7 when planned, now 8"]
    assert moved(seen, requested, {"g1": {A0: 7, A1: 2}}) == ["g1 a:1: none when planned, now 2"]
    assert moved({}, requested, {"g1": {A0: 7}})[0].endswith("not in the record of the planning")
    after = parse_seen(seen_csv([p], planned_at="t", offsets="target"), "u.seen")
    assert after == {"g1": {A0: 3, A1: 4}}


def test_seen_record_names_its_cluster_and_the_cluster_id_decides() -> None:
    p = plan("g1", {A0: (7, 3)})
    made = ClusterIdentity("q1Sh-9_ISia_zwGINzRvyQ", "prod", "k1:9093,k2:9093")
    text = seen_csv([p], planned_at="t", cluster=made)
    lines = text.splitlines()
    assert lines[1:4] == [
        "# cluster-id: q1Sh-9_ISia_zwGINzRvyQ",
        "# cluster-profile: prod",
        "# bootstrap-servers: k1:9093,k2:9093",
    ]
    assert parse_seen(text, "x.seen") == {"g1": {A0: 7}}  # the offsets read as before
    assert read_identity(text) == made
    assert read_identity(seen_csv([p], planned_at="t")) is None  # a record from before: names none
    assert made.describe() == "cluster 'prod' [k1:9093,k2:9093, id q1Sh-9_ISia_zwGINzRvyQ]"
    assert ClusterIdentity(None, None, "h:1").describe() == "cluster [h:1, id unknown]"
    # another address or profile name is the same cluster; another id is another cluster
    assert same_cluster(made, ClusterIdentity(made.cluster_id, None, "10.0.0.1:9092")) is True
    assert same_cluster(made, ClusterIdentity("other-id", "prod", made.bootstrap)) is False
    assert same_cluster(made, ClusterIdentity(None, "prod", made.bootstrap)) is None


def test_plan_file_is_read_as_kafka_reads_it() -> None:
    three = "orders,0,5\norders,1,7\n"
    assert parse_plan_file(three, "p", "g") == {"g": {TP: 5, TopicPartition("orders", 1): 7}}
    with pytest.raises(UsageError, match="name its group with one --group"):
        parse_plan_file(three, "p", None)
    four = 'g1,orders,0,5\r\ng2,"a,b",3,1\n\ng1,orders,0,6\n'  # CRLF, a blank line, a later duplicate
    assert parse_plan_file(four, "p", "g1") == {"g1": {TP: 6}, "g2": {TopicPartition("a,b", 3): 1}}
    assert parse_plan_file(four, "p", None) == parse_plan_file(four, "p", "g1")
    for bad, why in [
        ("", "empty"),
        ("orders,0,5\ng,orders,1,5\n", "p:2: expected topic,partition,offset"),
        ("g,orders,0,5\norders,1,5\n", "p:2: expected group,topic,partition,offset"),
        ("orders,x,5\n", "invalid partition"),
        ("orders,0,-1\n", "invalid offset"),
        ("# planned at noon\n", "found 1 field"),  # Kafka's reader has no comments either
    ]:
        with pytest.raises(UsageError, match=why):
            parse_plan_file(bad, "p", "g")


def test_groups_to_apply() -> None:
    groups = ["b", "a", "c-1"]
    assert groups_to_apply(groups, [], [], False, "p") == ["a", "b", "c-1"]
    assert groups_to_apply(groups, ["b"], ["c-.*"], False, "p") == ["b", "c-1"]
    assert groups_to_apply(groups, [], ["c"], True, "p") == ["a", "b", "c-1"]
    with pytest.raises(NotFound, match="p has no offsets for group"):
        groups_to_apply(groups, ["z"], [], False, "p")
    with pytest.raises(NotFound):
        groups_to_apply(groups, [], ["zz.*"], False, "p")
    with pytest.raises(UsageError):
        groups_to_apply(groups, [], ["("], False, "p")


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("PT30M", 1_800_000),
        ("pt30m", 1_800_000),
        ("P1D", 86_400_000),
        ("P1DT2H", 93_600_000),
        ("PT0.5S", 500),
        ("-PT6H", -21_600_000),
        ("PT-0.5S", -500),
        ("P1DT-1H", 82_800_000),
    ],
)
def test_iso_durations_as_java_parses_them(text: str, ms: int) -> None:
    assert parse_iso_duration(text) == ms


@pytest.mark.parametrize("text", ["P", "PT", "P1M", "P1Y", "P1W", "30m", "PT1.1234567890S", "PT1H30"])
def test_not_iso_durations(text: str) -> None:
    with pytest.raises(UsageError, match="ISO-8601 duration"):
        parse_iso_duration(text)


NOW = 1_790_000_000_000


def target(**kw: object) -> Target:
    args: dict[str, object] = dict(to=None, to_offset=None, to_current=False, shift_by=None, from_file=None)
    args.update(kw)
    return parse_target(now=NOW, zone=timezone.utc, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize("to", ["2027-01-01", "now+1m", "-PT1H", "2026-09-21T14:13:20.001Z", "@1800000000"])
def test_a_time_after_now_is_refused_unless_allowed(to: str) -> None:
    with pytest.raises(UsageError, match=r"after now .*--allow-future"):
        target(to=to)
    allowed = target(to=to, allow_future=True)
    assert allowed.kind is TargetKind.TIME and allowed.time_ms is not None and allowed.time_ms > NOW


def test_now_and_before_are_not_the_future() -> None:
    assert target(to="now").time_ms == NOW
    assert target(to="2026-09-21T14:13:20Z").time_ms == NOW
    assert target(to="today").time_ms is not None


def test_to_forms() -> None:
    assert target(to="PT30M") == Target(TargetKind.TIME, time_ms=NOW - 1_800_000, text="PT30M")
    assert target(to="30m ago").time_ms == NOW - 1_800_000
    assert target(to="earliest").kind is TargetKind.EARLIEST
    assert target(to_offset=5) == Target.to_offset(5)
    assert target(to_current=True) == Target.current()
    assert target(from_file="p.csv") == Target.from_file("p.csv")
    for bare in ("5", "1790000000000", "-1", "+3"):
        with pytest.raises(UsageError, match=r"bare number.*--to-offset"):
            target(to=bare)
    with pytest.raises(UsageError, match="give one target"):
        target(to="earliest", to_current=True)
    with pytest.raises(UsageError, match="give one target"):
        target()
    with pytest.raises(UsageError):
        target(to_offset=-1)


def test_members_are_named_and_the_wait_explained() -> None:
    d = GroupDescription("g", "stable", 2)
    members = (
        Member(member_id="m1", client_id="worker-1", host="/10.0.0.1"),
        Member(member_id="m2", client_id="worker-2", host="/10.0.0.2", instance_id="static-2"),
    )
    classic = GroupMembers(d, members, "classic")
    text = describe_members(classic)
    assert text == (
        "2 active member(s) (state stable, classic protocol): client id 'worker-1' on /10.0.0.1, "
        "client id 'worker-2' on /10.0.0.2 (static member 'static-2')"
    )
    assert "session.timeout.ms (45s by default)" in until_dropped(classic, None)
    kip848 = GroupMembers(d, members, "consumer")
    assert "dropped by the broker 1m 00s (the group's consumer.session.timeout.ms)" in until_dropped(
        kip848, 60_000
    )
    many = GroupMembers(
        GroupDescription("g", "stable", 7),
        tuple(Member(member_id=f"m{i}", client_id=f"c{i}", host="h") for i in range(7)),
    )
    assert describe_members(many).endswith("and 2 more")


def test_default_undo_path_is_in_the_xdg_state_dir(tmp_path: Path) -> None:
    p = default_undo_path(["bill/ing"], 1_790_000_000_123, {"XDG_STATE_HOME": str(tmp_path)})
    assert p == tmp_path / "kafka-offsets" / "rewind-undo-20260921T141320.123Z-bill_ing.csv"
    home = default_undo_path(["a", "b"], 0, {"HOME": "/home/u", "XDG_STATE_HOME": "relative"})
    assert home == Path("/home/u/.local/state/kafka-offsets/rewind-undo-19700101T000000.000Z-2-groups.csv")
