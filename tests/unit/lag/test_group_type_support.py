"""A group type the cluster cannot have (an older release, the feature disabled) is one line (no broker)."""

from __future__ import annotations

from typing import cast

import pytest

from kafka_offsets_cli.errors import NotFound
from kafka_offsets_cli.kafka.group_support import FEATURES, lacking
from kafka_offsets_cli.lag.run import LagRequest, LagRunSource, query
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from tests.unit.fake_cluster import FakeCluster, topic

KAFKA_4_0 = {"group.version", "kraft.version", "metadata.version", "transaction.version"}
KAFKA_4_3 = KAFKA_4_0 | set(FEATURES.values())


def test_a_finalized_feature_is_a_type_the_cluster_has() -> None:
    on = {"share.version": 1, "streams.version": 1}
    assert lacking("share", KAFKA_4_3, on) is None
    assert lacking("streams", KAFKA_4_3, on) is None


def test_a_feature_known_but_not_finalized_is_a_type_disabled() -> None:
    assert lacking("share", KAFKA_4_3, {"streams.version": 1}) == (
        "share groups are not enabled on this cluster (share.version)"
    )
    assert lacking("streams", KAFKA_4_3, {"streams.version": 0}) == (
        "streams groups are not enabled on this cluster (streams.version)"
    )


def test_a_feature_the_broker_does_not_know_is_a_type_it_predates() -> None:
    for t in ("share", "streams"):
        assert lacking(t, KAFKA_4_0, {"group.version": 1}) == (
            f"{t} groups are not supported by this cluster (it has no {t}.version feature)"
        )


def _cluster(lacks: set[str]) -> LagRunSource:
    tp = TopicPartition("orders", 0)
    md = ClusterMetadata({"orders": topic("orders", 1)})
    # the fake answers all these runs ask (no members, no share or streams group to describe)
    return cast(LagRunSource, FakeCluster(md, {tp: (0, 10)}, [GroupOffsets("g", {tp: 4})], lacking=lacks))


def _request(*types: str) -> LagRequest:
    return LagRequest(
        groups=(), regexes=(), selection=None, time_lag=False, marker_check=False, types=frozenset(types)
    )


def test_asking_only_for_a_type_the_cluster_cannot_have_says_so_instead_of_no_group() -> None:
    with pytest.raises(NotFound) as e:
        query(_cluster({"streams"}), _request("streams"))
    assert str(e.value) == "streams groups are not supported by this cluster"
    with pytest.raises(NotFound, match=r"^the cluster has no streams group$"):
        query(_cluster(set()), _request("streams"))  # it could have one: it has none


def test_a_type_the_cluster_cannot_have_beside_others_is_one_line_and_the_rest_is_read() -> None:
    report = query(_cluster({"share", "streams"}), _request("consumer", "share", "streams"))
    assert {r.group for r in report.rows} == {"g"}
    assert report.unavailable == (
        "share groups are not supported by this cluster",
        "streams groups are not supported by this cluster",
    )
    assert query(_cluster({"streams"}), _request("consumer")).unavailable == ()
