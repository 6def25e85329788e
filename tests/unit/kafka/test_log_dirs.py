"""DescribeLogDirs answers read into partition sizes (kafka/log_dirs.py), with kafka-python's own
message classes: the current replica's size, never a future one's, and every missing size named."""

from __future__ import annotations

from typing import Any

from kafka.protocol.admin import DescribeLogDirsRequest, DescribeLogDirsResponse  # type: ignore[import-untyped]

from kafka_offsets_cli.kafka.log_dirs import _request, sizes_in
from kafka_offsets_cli.models.topics import TopicPartition

Result = DescribeLogDirsResponse.DescribeLogDirsResult
Topic = Result.DescribeLogDirsTopic
Partition = Topic.DescribeLogDirsPartition


def _answer(*results: Any, error_code: int = 0) -> Any:
    """An answer as the broker sends it: encoded at v4 and decoded by kafka-python."""
    answer = DescribeLogDirsResponse(throttle_time_ms=0, error_code=error_code, results=list(results))
    return DescribeLogDirsResponse.decode(answer.encode(version=4), version=4)


def _dir(path: str, *parts: tuple[str, int, int, bool], error_code: int = 0) -> Any:
    topics: dict[str, list[Any]] = {}
    for name, index, size, future in parts:
        topics.setdefault(name, []).append(
            Partition(partition_index=index, partition_size=size, offset_lag=0, is_future_key=future)
        )
    return Result(
        error_code=error_code,
        log_dir=path,
        topics=[Topic(name=n, partitions=ps) for n, ps in topics.items()],
        total_bytes=-1,
        usable_bytes=-1,
    )


def test_the_current_replicas_size_and_never_a_future_ones() -> None:
    answer = _answer(
        _dir("/d1", ("orders", 0, 1000, False), ("orders", 1, 5, True)),
        _dir("/d2", ("orders", 1, 2000, False)),  # being moved from /d2 to /d1: /d2 is the log in use
    )
    assert sizes_in(answer) == ({TopicPartition("orders", 0): 1000, TopicPartition("orders", 1): 2000}, None)


def test_errors_are_named() -> None:
    offline = _answer(_dir("/d1", error_code=56), _dir("/d2", ("t", 0, 7, False)))  # KAFKA_STORAGE_ERROR
    assert sizes_in(offline) == ({TopicPartition("t", 0): 7}, "KAFKA_STORAGE_ERROR")
    refused = _answer(error_code=31)
    assert sizes_in(refused) == ({}, "CLUSTER_AUTHORIZATION_FAILED")


def test_the_request_names_each_topics_partitions_once() -> None:
    req = _request([TopicPartition("a", 2), TopicPartition("b", 0), TopicPartition("a", 0)])
    decoded = DescribeLogDirsRequest.decode(req.encode(version=4), version=4)
    assert [(t.topic, list(t.partitions)) for t in decoded.topics] == [("a", [0, 2]), ("b", [0])]
