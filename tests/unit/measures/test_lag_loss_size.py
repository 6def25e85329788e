"""The size bound of the data-loss ETA (``retention.bytes``, measures.lag.loss): the rule, which
partitions it sizes, what it says when a size does not come, and lag's one DescribeLogDirs."""

from __future__ import annotations

from kafka_offsets_cli.measures.lag.collect import collect
from kafka_offsets_cli.measures.lag.loss import (
    Retention,
    loss_eta_ms,
    loss_etas,
    size_eta_ms,
    sized_partitions,
)
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from tests.unit.fake_cluster import topic
from tests.unit.measures.test_lag_loss import DAY, NOW, TimedCluster, row

SIZED = Retention(retention_ms=DAY, deletes=True, retention_bytes=1800)
SIZE_ONLY = Retention(retention_ms=None, deletes=True, retention_bytes=1800)


def _configs(**extra: str) -> dict[str, str]:
    return {"retention.ms": str(DAY), "cleanup.policy": "delete", "retention.bytes": "1800", **extra}


def test_the_bytes_after_the_commit_reach_the_limit_at_the_rate_they_came() -> None:
    # 1000 bytes over offsets 0..100: 900 after the committed offset 10, which took 10 s to arrive;
    # 900 more bytes to the limit of 1800 take 10 s more at that rate
    r = row(10, m=NOW - 10_000)
    assert size_eta_ms(r, 1800, 1000) == 10_000
    assert size_eta_ms(r, 1350, 1000) == 5_000
    assert size_eta_ms(r, 900, 1000) == 0  # already as many bytes as the limit: due
    assert size_eta_ms(r, 100, 1000) == 0
    assert size_eta_ms(row(10, m=NOW + 5_000), 1800, 1000) is None  # no elapsed time: no rate
    assert size_eta_ms(row(100), 1800, 1000) is None  # nothing left to read
    below = row(10, start=50, end=100, m=NOW - 10_000)  # already lost: the rule's 0, not a size's
    assert (size_eta_ms(below, 1800, 1000), loss_eta_ms(below, SIZED, 1000)) == (None, 0)
    # the ETA is the sooner bound: size here, time when the size is far
    assert loss_eta_ms(r, SIZED, 1000) == 10_000
    assert loss_eta_ms(r, SIZED, None) == DAY - 10_000  # no size: the time bound alone
    assert (
        loss_eta_ms(r, Retention(retention_ms=DAY, deletes=True, retention_bytes=10**12), 1000)
        == DAY - 10_000
    )
    assert loss_eta_ms(r, SIZE_ONLY, 1000) == 10_000  # retention.ms -1: size alone
    assert loss_eta_ms(r, SIZE_ONLY, None) is None
    # a tiered topic's retention.bytes counts its remote data too: no size bound from a local size
    tiered = Retention(retention_ms=DAY, deletes=True, retention_bytes=1800, tiered=True)
    assert loss_eta_ms(r, tiered, 1000) == DAY - 10_000
    # compaction only: nothing is deleted by size either
    assert loss_eta_ms(r, Retention(retention_ms=None, deletes=False, retention_bytes=1800), 1000) is None


def test_only_lagging_partitions_of_size_limited_untiered_topics_are_sized() -> None:
    configs = {
        "sized": _configs(),
        "tiered": _configs(**{"remote.storage.enable": "true"}),
        "free": _configs(**{"retention.bytes": "-1"}),
        "compact": _configs(**{"cleanup.policy": "compact"}),
    }
    rows = [row(10, topic=t) for t in configs] + [row(100, topic="sized").evolve(partition=1)]
    assert sized_partitions(rows, configs) == [TopicPartition("sized", 0)]


def test_topics_whose_size_bound_is_missing_are_named_with_the_reason() -> None:
    configs = {"sized": _configs(), "tiered": _configs(**{"remote.storage.enable": "true"}), "ok": _configs()}
    rows = [row(10, m=NOW - 10_000, topic=t) for t in configs]
    sized, tiered, ok = (TopicPartition(t, 0) for t in configs)
    # a tiered topic's local size is no bound (its retention.bytes counts remote data too)
    etas, lost = loss_etas(rows, configs, {ok: 1000, tiered: 1000}, {sized: "CLUSTER_AUTHORIZATION_FAILED"})
    assert etas == {("g", "sized", 0): DAY - 10_000, ("g", "tiered", 0): DAY - 10_000, ("g", "ok", 0): 10_000}
    assert (lost.sized, lost.tiered, lost.size_error) == (
        ("sized", "tiered"),
        ("tiered",),
        "CLUSTER_AUTHORIZATION_FAILED",
    )
    _, clean = loss_etas(rows[2:], configs, {ok: 1000})
    assert (clean.sized, clean.size_error) == ((), None)


def test_lag_asks_the_sizes_once_and_only_where_retention_bytes_is_set() -> None:
    tp, free = TopicPartition("orders", 0), TopicPartition("free", 0)
    configs = {"orders": _configs(**{"retention.ms": "-1"}), "free": _configs(**{"retention.bytes": "-1"})}
    base = NOW - 1_000_000  # offset o written at base + 1000 * o: the commit at 400 is 600 s old

    def cluster(sizes: dict[TopicPartition, int]) -> TimedCluster:
        return TimedCluster(
            ClusterMetadata({"orders": topic("orders", 1), "free": topic("free", 1)}),
            {tp: (0, 1000), free: (0, 1000)},
            [GroupOffsets("g", {tp: 400, free: 400})],
            configs=configs,
            base=base,
            sizes=sizes,
        )

    # 600 records after the commit, 600 bytes of the 1000: 1200 more bytes to the 1800 take 1200 s
    sized = cluster({tp: 1000})
    report = collect(sized, ["g"], None, time_lag=True, loss_eta=True, clock=lambda: NOW)
    assert sized.sizes_asked == [{tp: 1}]  # one DescribeLogDirs, to the leader, for the sized topic only
    assert report.loss_etas == {("g", "orders", 0): 1_200_000, ("g", "free", 0): DAY - 600_000}
    unsized = cluster({})
    report = collect(unsized, ["g"], None, time_lag=True, loss_eta=True, clock=lambda: NOW)
    assert report.loss_etas == {("g", "free", 0): DAY - 600_000}  # orders: size only, and no size
    assert (report.loss_topics.sized, report.loss_topics.size_error) == (("orders",), "KAFKA_STORAGE_ERROR")
    plain = cluster({tp: 1000})
    collect(plain, ["g"], None, time_lag=True, clock=lambda: NOW)
    assert plain.sizes_asked == []  # no --loss-eta: no DescribeLogDirs
