"""The lag use case without a broker: row planning, row assembly, markers, and the I/O shell on a fake."""

from __future__ import annotations

from collections.abc import Mapping

from kafka_offsets_cli.measures.lag.collect import collect
from kafka_offsets_cli.measures.lag.markers import count_markers, with_markers
from kafka_offsets_cli.measures.lag.plan import (
    GroupPlan,
    assemble_rows,
    offsets_needed,
    plan_group,
    planned_group,
)
from kafka_offsets_cli.measures.lag.rows import GroupProblem, LagRow, LagState
from kafka_offsets_cli.measures.lag.timelag import with_time_lag_errors
from kafka_offsets_cli.measures.timestamps import TimeLag
from kafka_offsets_cli.models.groups import GroupDescription, GroupOffsets
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from kafka_offsets_cli.parse.selection import Selection, TopicRule
from tests.unit.fake_cluster import FakeCluster, topic

E, L = OffsetSpec.earliest(), OffsetSpec.latest()


def tp(topic: str, partition: int) -> TopicPartition:
    return TopicPartition(topic, partition)


MD = ClusterMetadata(
    {
        "orders": topic("orders", 3),
        "payments": topic("payments", 2),
        "audit": topic("audit", 1),
        "__consumer_offsets": topic("__consumer_offsets", 2, internal=True),
        "__remote_log_metadata": topic("__remote_log_metadata", 1),  # not flagged internal by the broker
        "__app": topic("__app", 1),  # a user's topic, whatever its prefix
        "secret": topic("secret", 0, error="TOPIC_AUTHORIZATION_FAILED"),
    }
)


def offsets(group: str, committed: Mapping[TopicPartition, int | None]) -> GroupOffsets:
    return GroupOffsets(group, dict(committed))


def selection(*patterns: str) -> Selection:
    return Selection(rules=tuple(TopicRule(p) for p in patterns))


# ----------------------------------------------------------------------------- plan_group


def test_a_group_gets_every_partition_of_the_topics_it_touched() -> None:
    desc = GroupDescription("g", "stable", 1, (tp("payments", 1),))
    plan = plan_group("g", offsets("g", {tp("orders", 0): 5}), desc, MD, None)
    assert plan.partitions == (
        tp("orders", 0),
        tp("orders", 1),
        tp("orders", 2),
        tp("payments", 0),
        tp("payments", 1),
    )
    assert (plan.gone, plan.error, plan.empty, plan.problem) == ((), None, False, None)
    assert plan.committed == {tp("orders", 0): 5}


def test_a_named_group_also_gets_the_selections_literal_topics() -> None:
    offs = offsets("g", {tp("orders", 0): 5})
    named = plan_group("g", offs, None, MD, selection("orders", "audit"))
    matched = plan_group("g", offs, None, MD, selection("orders", "audit"), named=False)
    assert named.partitions == (tp("audit", 0), tp("orders", 0), tp("orders", 1), tp("orders", 2))
    assert matched.partitions == (tp("orders", 0), tp("orders", 1), tp("orders", 2))


def test_the_selection_restricts_the_rows_and_the_gone_partitions() -> None:
    offs = offsets("g", {tp("orders", 0): 5, tp("orders", 7): 1, tp("deleted", 0): 3, tp("payments", 0): 2})
    plan = plan_group("g", offs, None, MD, Selection(rules=(TopicRule("orders|deleted"),)))
    assert plan.partitions == (tp("orders", 0), tp("orders", 1), tp("orders", 2))
    assert plan.gone == (tp("deleted", 0), tp("orders", 7))


def test_committed_partitions_of_topics_that_are_gone_or_unreadable_are_gone() -> None:
    offs = offsets("g", {tp("deleted", 0): 3, tp("secret", 1): 4, tp("orders", 5): 9})
    plan = plan_group("g", offs, None, MD, None)
    assert plan.gone == (tp("deleted", 0), tp("orders", 5), tp("secret", 1))
    assert plan.partitions == (tp("orders", 0), tp("orders", 1), tp("orders", 2))


def test_a_group_whose_offsets_failed_or_got_no_answer_is_a_problem_without_rows() -> None:
    failed = plan_group("g", GroupOffsets("g", {}, error="GROUP_AUTHORIZATION_FAILED"), None, MD, None)
    silent = plan_group("h", None, None, MD, None)
    assert failed.problem == GroupProblem("g", "GROUP_AUTHORIZATION_FAILED")
    assert silent.problem == GroupProblem("h", "NO_ANSWER")
    assert failed.partitions == failed.gone == () and not failed.empty


def test_an_empty_group_is_a_problem_only_when_named() -> None:
    offs = offsets("g", {tp("orders", 0): 1})
    named = plan_group("g", offs, None, MD, selection("payments.*"))
    matched = plan_group("g", offs, None, MD, selection("payments.*"), named=False)
    assert named.empty and named.problem == GroupProblem("g", None)
    assert matched.empty and matched.problem is None


def test_exclude_system_without_a_selection_drops_kafkas_system_topics_by_name() -> None:
    committed = ("__consumer_offsets", "__remote_log_metadata", "__app", "orders")
    offs = offsets("g", {tp(t, 0): 1 for t in committed})
    with_system = plan_group("g", offs, None, MD, None)
    without = plan_group("g", offs, None, MD, None, exclude_system=True)
    assert {p.topic for p in with_system.partitions} == set(committed)
    assert {p.topic for p in without.partitions} == {"__app", "orders"}


def test_a_group_that_does_not_exist_is_planned_as_group_id_not_found() -> None:
    none = offsets("typo", {})
    dead = GroupDescription("typo", "dead", 0)
    plan = plan_group("typo", none, dead, MD, selection("orders"))
    assert (plan.error, plan.partitions, plan.gone) == ("GROUP_ID_NOT_FOUND", (), ())
    assert plan.problem == GroupProblem("typo", "GROUP_ID_NOT_FOUND")
    # the same group existing without commits (empty) is no-commit on the literal topic, not an error
    empty = plan_group("typo", none, GroupDescription("typo", "empty", 0), MD, selection("orders"))
    assert empty.error is None and empty.partitions == (tp("orders", 0), tp("orders", 1), tp("orders", 2))


# ----------------------------------------------------------------------------- planned_group


def test_planned_partitions_that_are_gone_since_planning_are_gone() -> None:
    offs = offsets("g", {tp("orders", 0): 5})
    plan = planned_group("g", offs, [tp("orders", 1), tp("orders", 9), tp("deleted", 0), tp("orders", 0)], MD)
    assert plan.partitions == (tp("orders", 0), tp("orders", 1))
    assert plan.gone == (tp("deleted", 0), tp("orders", 9))
    assert plan.committed == {tp("orders", 0): 5}


def test_a_planned_group_whose_offsets_failed_keeps_its_partitions_for_the_error() -> None:
    plan = planned_group("g", None, [tp("orders", 1), tp("orders", 0)], MD)
    assert (plan.error, plan.partitions) == ("NO_ANSWER", (tp("orders", 0), tp("orders", 1)))
    rows = assemble_rows([plan], [])
    assert [(r.partition, r.state, r.error, r.committed, r.end) for r in rows] == [
        (0, LagState.ERROR, "NO_ANSWER", None, None),
        (1, LagState.ERROR, "NO_ANSWER", None, None),
    ]


# ----------------------------------------------------------------------------- assemble_rows


def answers(*items: tuple[TopicPartition, int, int]) -> list[OffsetResult]:
    out = []
    for p, start, end in items:
        out += [OffsetResult(p.topic, p.partition, E, start), OffsetResult(p.topic, p.partition, L, end)]
    return out


def test_rows_in_plan_order_with_lag_no_commit_gone_and_no_answer() -> None:
    plans = [
        GroupPlan(
            group="g",
            committed={tp("orders", 0): 7, tp("orders", 9): 3},
            partitions=(tp("orders", 0), tp("orders", 1), tp("orders", 2)),
            gone=(tp("orders", 9),),
        ),
        GroupPlan(group="h", committed={tp("orders", 0): 10}, partitions=(tp("orders", 0),)),
    ]
    rows = assemble_rows(plans, answers((tp("orders", 0), 0, 10), (tp("orders", 1), 0, 4)))
    assert [(r.group, r.partition, r.committed, r.lag, r.state, r.error) for r in rows] == [
        ("g", 0, 7, 3, LagState.OK, None),
        ("g", 1, None, None, LagState.NO_COMMIT, None),
        ("g", 2, None, None, LagState.ERROR, "NO_ANSWER"),
        ("g", 9, 3, None, LagState.ERROR, "UNKNOWN_TOPIC_OR_PARTITION"),
        ("h", 0, 10, 0, LagState.OK, None),
    ]


def test_only_readable_existing_partitions_need_offsets() -> None:
    plans = [
        GroupPlan(group="g", partitions=(tp("b", 0), tp("a", 0)), gone=(tp("c", 0),)),
        GroupPlan(group="h", partitions=(tp("a", 0), tp("a", 1))),
        GroupPlan(group="x", partitions=(tp("z", 0),), error="NO_ANSWER"),
    ]
    assert offsets_needed(plans) == [tp("a", 0), tp("a", 1), tp("b", 0)]


# ----------------------------------------------------------------------------- markers and time-lag errors


def row(group: str, partition: int, committed: int, end: int) -> LagRow:
    lag = end - committed
    return LagRow(
        group=group,
        topic="t",
        partition=partition,
        committed=committed,
        log_start=0,
        end=end,
        lag=lag,
        time_lag_ms=None,
        state=LagState.OK,
    )


def test_markers_turn_lag_one_rows_into_marker_rows_and_are_counted() -> None:
    rows = [row("g", 0, 9, 10), row("h", 0, 9, 10), row("g", 1, 9, 10), row("g", 2, 5, 10)]
    found: dict[tuple[TopicPartition, int], bool | str] = {
        (tp("t", 0), 9): True,
        (tp("t", 1), 9): "TIMED_OUT",
        (tp("t", 2), 5): True,  # not lag 1: stays ok
    }
    marked = with_markers(rows, found)
    assert [(r.group, r.partition, r.state, r.time_lag_ms) for r in marked] == [
        ("g", 0, LagState.MARKER, 0),
        ("h", 0, LagState.MARKER, 0),
        ("g", 1, LagState.OK, None),
        ("g", 2, LagState.OK, None),
    ]
    count = count_markers(found)
    assert (count.checked, dict(count.unchecked)) == (2, {"TIMED_OUT": 1})


def test_a_failed_time_lag_search_is_the_rows_error_unless_it_has_one() -> None:
    rows = [row("g", 0, 5, 10), row("h", 0, 5, 10), row("g", 1, 5, 10)]
    rows[1] = LagRow(
        group="h",
        topic="t",
        partition=0,
        committed=5,
        log_start=0,
        end=10,
        lag=5,
        time_lag_ms=None,
        state=LagState.OK,
        error="EARLIER",
    )
    lags = {(tp("t", 0), 5): TimeLag(None, 3, "NOT_LEADER_OR_FOLLOWER"), (tp("t", 1), 5): TimeLag(1, 3)}
    assert [r.error for r in with_time_lag_errors(rows, lags)] == [
        "time lag: NOT_LEADER_OR_FOLLOWER",
        "EARLIER",
        None,
    ]


# ----------------------------------------------------------------------------- the I/O shell on a fake


def test_collect_plans_assembles_and_checks_markers_around_the_io() -> None:
    logs = {tp("orders", p): (0, 10) for p in range(3)} | {tp("audit", 0): (2, 2)}
    cluster = FakeCluster(
        MD,
        logs,
        [
            offsets("g", {tp("orders", 0): 4, tp("orders", 1): 9, tp("gone", 0): 1}),
            offsets("idle", {tp("payments", 0): 1}),
        ],
        markers=[(tp("orders", 1), 9)],
    )
    report = collect(cluster, ["g", "idle", "lost"], selection("orders|gone", "audit"), named={"g", "lost"})
    assert [(r.group, r.topic, r.partition, r.lag, r.state.value, r.error) for r in report.rows] == [
        ("g", "audit", 0, None, "no-commit", None),
        ("g", "orders", 0, 6, "ok", None),
        ("g", "orders", 1, 1, "marker", None),
        ("g", "orders", 2, None, "no-commit", None),
        ("g", "gone", 0, None, "error", "UNKNOWN_TOPIC_OR_PARTITION"),
    ]  # "idle", matched by a regex, has nothing in the selection: left out quietly
    assert report.problems == (GroupProblem("lost", "NO_ANSWER"),)
    assert [(m.topic, m.error) for m in report.missing] == [("gone", "UNKNOWN_TOPIC_OR_PARTITION")]
    assert cluster.marker_points == [(tp("orders", 1), 9)]
    assert (report.marker_checked, report.failed) == (1, True)
