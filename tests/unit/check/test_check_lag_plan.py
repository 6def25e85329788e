"""`check`'s lag path without a broker or Spark: the driver's plan and a task's rows, on a fake cluster.

Both go through the lag core (:mod:`kafka_offsets_cli.measures.lag.plan`), so a check's
rows are the rows ``kafka-offsets lag`` shows for the same groups and topics.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest

from kafka_offsets_cli.check.collect import LagSample, unit_samples
from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.check.plan import plan_checks
from kafka_offsets_cli.errors import ClusterUnreachable
from kafka_offsets_cli.models.group_types import ShareGroupOffsets, SharePartition
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from tests.unit.fake_cluster import FakeCluster, topic

SPEC = parse_spec_text(
    """
clusters: {c: {bootstrap_servers: 'h:1'}}
checks:
  - {name: lag, type: lag, groups: [g, idle, lost], topics: [orders, audit, gone]}
  - {name: pay, type: lag, groups: [g], topics: ['pay.*']}
""",
    environ={},
)


def tp(topic: str, partition: int) -> TopicPartition:
    return TopicPartition(topic, partition)


def cluster() -> FakeCluster:
    md = ClusterMetadata(
        {"orders": topic("orders", 2), "audit": topic("audit", 1), "payments": topic("payments", 1)}
    )
    return FakeCluster(
        md,
        {
            tp("orders", 0): (0, 10),
            tp("orders", 1): (0, 10),
            tp("audit", 0): (3, 3),
            tp("payments", 0): (0, 1),
        },
        [
            GroupOffsets("g", {tp("orders", 0): 4, tp("orders", 1): 9, tp("gone", 0): 2}),
            GroupOffsets("idle", {}),
        ],
        markers=[(tp("orders", 1), 9)],
    )


def test_the_plan_has_each_groups_rows_and_problems_as_lag_decides_them() -> None:
    plan = plan_checks(SPEC, lambda _name: cluster())
    [unit] = plan.units
    assert unit.groups == (
        ("g", (tp("audit", 0), tp("gone", 0), tp("orders", 0), tp("orders", 1))),
        ("idle", (tp("audit", 0), tp("orders", 0), tp("orders", 1))),
    )
    assert sorted((r.check, r.group, r.topic, r.state, r.error, r.group_type) for r in plan.records) == [
        # a named topic that does not exist; each record with its group's listed type
        ("lag", "g", "gone", "error", "UNKNOWN_TOPIC_OR_PARTITION", "consumer"),
        ("lag", "idle", "gone", "error", "UNKNOWN_TOPIC_OR_PARTITION", "consumer"),
        ("lag", "lost", "", "error", "NO_ANSWER", None),  # offsets not read: one record; not listed
        (
            "pay",
            "g",
            "",
            "no-commit",
            None,
            "consumer",
        ),  # as lag records a named group with nothing committed
    ]
    assert plan.lag_routes[("c", "g", "orders")] == ("lag",)


def test_a_task_makes_the_planned_rows_with_the_lag_shell() -> None:
    source = cluster()
    [unit] = plan_checks(SPEC, lambda _name: source).units
    rows = [s.row for s in unit_samples(source, unit) if isinstance(s, LagSample)]
    assert [(r.group, r.topic, r.partition, r.committed, r.lag, r.state.value, r.error) for r in rows] == [
        ("g", "audit", 0, None, None, "no-commit", None),  # a literal topic the group never touched
        ("g", "orders", 0, 4, 6, "ok", None),
        ("g", "orders", 1, 9, 1, "marker", None),
        ("g", "gone", 0, 2, None, "error", "UNKNOWN_TOPIC_OR_PARTITION"),
        ("idle", "audit", 0, None, None, "no-commit", None),
        ("idle", "orders", 0, None, None, "no-commit", None),
        ("idle", "orders", 1, None, None, "no-commit", None),
    ]
    assert source.marker_points == [(tp("orders", 1), 9)]
    assert {r.group_type for r in rows} == {"consumer"}  # the type planning listed, on every row


def test_a_task_that_cannot_read_its_groups_keeps_each_groups_type_on_its_error_rows() -> None:
    source = share_cluster()
    [unit] = plan_checks(SHARE, lambda _name: source).units

    def unreachable(
        groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        raise ClusterUnreachable("c: no broker answered")

    source.committed_offsets = unreachable  # type: ignore[method-assign]
    rows = [s.row for s in unit_samples(source, unit) if isinstance(s, LagSample)]
    assert {(r.group, r.group_type, r.error) for r in rows} == {
        ("g", "consumer", "CLUSTER_UNREACHABLE"),
        ("q1", "share", "CLUSTER_UNREACHABLE"),
    }


def test_a_task_whose_group_cannot_be_read_any_more_has_its_error_on_every_planned_row() -> None:
    source = cluster()
    [unit] = plan_checks(SPEC, lambda _name: source).units
    del source.groups["idle"]  # the coordinator stopped answering for it after planning
    rows = [s.row for s in unit_samples(source, unit) if isinstance(s, LagSample) and s.row.group == "idle"]
    assert [(r.topic, r.partition, r.state.value, r.error) for r in rows] == [
        ("audit", 0, "error", "NO_ANSWER"),
        ("orders", 0, "error", "NO_ANSWER"),
        ("orders", 1, "error", "NO_ANSWER"),
    ]


THREE = parse_spec_text(
    """
clusters: {a: {bootstrap_servers: 'h:1'}, b: {bootstrap_servers: 'h:2'}, down: {bootstrap_servers: 'h:3'}}
checks:
  - {name: lag, type: lag, clusters: [a, b, down], groups: [g], topics: [orders]}
  - {name: live, type: liveness, clusters: [b, a], topics: [orders], warn: 1h, crit: 1d}
""",
    environ={},
)


def test_clusters_are_discovered_at_once_and_merged_in_the_specs_order() -> None:
    # every connect waits until all three clusters are being connected: one cluster after
    # another would break the barrier (BrokenBarrierError) instead of planning
    barrier = threading.Barrier(3, timeout=10)

    def connect(name: str) -> FakeCluster:
        barrier.wait()
        if name == "down":
            raise ClusterUnreachable("down: no broker answered")
        return cluster()

    plan = plan_checks(THREE, connect)
    assert [(u.cluster, u.index) for u in plan.units] == [("a", 0), ("b", 1)]
    assert plan.down == ("down",)
    assert plan.problems == {"lag": ("down: down: no broker answered",)}
    assert plan.live_routes == {("a", "orders"): ("live",), ("b", "orders"): ("live",)}
    assert plan.groups == {("lag", "a"): ("g",), ("lag", "b"): ("g",)}
    assert [u.groups for u in plan.units] == [(("g", (tp("orders", 0), tp("orders", 1))),)] * 2


def test_each_at_once_keeps_the_order_bounds_the_threads_and_raises_a_threads_error() -> None:
    from kafka_offsets_cli.check.plan_model import each_at_once

    lock = threading.Lock()
    running, most = [0], [0]
    gate = threading.Barrier(2, timeout=10)  # two threads meet: they do run at once

    def work(name: str) -> str:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        if name in ("a", "b"):
            gate.wait()
        with lock:
            running[0] -= 1
        return name.upper()

    assert each_at_once(["a", "b", "c", "d", "e"], work, 2) == ["A", "B", "C", "D", "E"]
    assert most[0] == 2

    def fail(name: str) -> str:
        if name == "y":
            raise ClusterUnreachable("y: no broker answered")
        return name

    with pytest.raises(ClusterUnreachable, match="y: no broker answered"):
        each_at_once(["x", "y", "z"], fail, 3)


SHARE = parse_spec_text(
    """
clusters: {c: {bootstrap_servers: 'h:1'}}
checks:
  - {name: queue, type: lag, groups: ['g|q.*'], topics: [orders]}
""",
    environ={},
)


def share_cluster(*, disabled: bool = False) -> FakeCluster:
    """``cluster()`` with the share group ``q1`` on orders: start offsets 5 and 10, broker lag 3 on p0."""
    source = cluster()
    parts = (
        SharePartition(partition=tp("orders", 0), start_offset=5, lag=3),
        SharePartition(partition=tp("orders", 1), start_offset=10, lag=0),
    )
    return FakeCluster(
        source.md,
        source.logs,
        list(source.groups.values()),
        share=[ShareGroupOffsets(group="q1", partitions=parts)],
        share_disabled=disabled,
    )


def test_a_share_group_is_checked_by_its_start_offsets_and_the_brokers_lag_as_lag_reads_it() -> None:
    source = share_cluster()
    plan = plan_checks(SHARE, lambda _name: source)
    assert plan.groups == {("queue", "c"): ("g", "q1")}  # the regex matched the share group too
    assert plan.group_types == {("c", "g"): "consumer", ("c", "q1"): "share"}
    [unit] = plan.units
    assert unit.types == {"g": "consumer", "q1": "share"}
    rows = [s.row for s in unit_samples(source, unit) if isinstance(s, LagSample)]
    got = [(r.group, r.group_type, r.partition, r.committed, r.lag) for r in rows if r.group == "q1"]
    # the start offset in the committed offset's place; the lag the broker's (3, not 10 - 5)
    assert got == [("q1", "share", 0, 5, 3), ("q1", "share", 1, 10, 0)]
    assert source.share_asked == [("q1",), ("q1",)]  # planning, then the task; never the consumer group


def test_share_groups_on_a_cluster_that_cannot_describe_them_are_one_problem_line() -> None:
    plan = plan_checks(SHARE, lambda _name: share_cluster(disabled=True))
    assert plan.problems == {"queue": ("c: share groups are not enabled on this cluster (share.version)",)}
    assert plan.groups == {("queue", "c"): ("g",)}  # the consumer group is still checked
    assert [g for u in plan.units for g, _ in u.groups] == ["g"]
