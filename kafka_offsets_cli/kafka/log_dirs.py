"""Partition sizes on disk: DescribeLogDirs to each leader, through kafka-python.

``retention.bytes`` deletes a partition's oldest segments while its size (the sum of its local
segments, which the broker compares with the limit) exceeds the limit, so the data-loss ETA
(:mod:`kafka_offsets_cli.measures.lag.loss`) needs each partition's size. Only DescribeLogDirs
(API key 35) gives it, and librdkafka has no call for it: one request goes to each leader, naming
the partitions it leads, and the size is the leader's replica's (the log that retention deletes
from and that ListOffsets answered for). A replica being moved between log dirs
(``IsFutureKey``) is not the log in use and is skipped. The message classes are kafka-python's own.

DescribeLogDirs needs DESCRIBE on the CLUSTER resource: without it a broker answers
``CLUSTER_AUTHORIZATION_FAILED``, and those partitions have no size (their errors say why).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..models.topics import TopicPartition
from .coordinated import each_node
from .deadline import FIRST_ATTEMPT_S, Deadline
from .group_messages import kafka_python_class
from .kafka_python import KafkaPython, code_name

__all__ = ["PartitionSizes", "partition_sizes"]

#: DescribeLogDirs, kafka-python's own class (in every kafka-python release of 3.0 and after)
DescribeLogDirsRequest: Any = kafka_python_class("DescribeLogDirsRequest", ("kafka.protocol.admin",))

#: Each partition's size in bytes on its leader; and, for the partitions without one, the error
#: that kept it (by partition).
PartitionSizes = tuple[dict[TopicPartition, int], dict[TopicPartition, str]]


def partition_sizes(
    kafka_python: KafkaPython, deadline: Deadline, leaders: Mapping[TopicPartition, int]
) -> PartitionSizes:
    """The size of each partition of ``leaders`` (partition -> leader id) on its leader, and the error
    of each one whose size did not come (never a guess: a partition left out of an answer is
    ``UNKNOWN_TOPIC_OR_PARTITION``). One request per leader, all at once, each bounded by the
    first-attempt timeout within ``--timeout``."""
    if not leaders:
        return {}, {}
    if DescribeLogDirsRequest is None:
        return {}, dict.fromkeys(leaders, "UNSUPPORTED_VERSION")
    by_node: dict[int, list[TopicPartition]] = {}
    for tp, node in leaders.items():
        by_node.setdefault(node, []).append(tp)
    timeout_s = deadline.request_timeout(FIRST_ATTEMPT_S)
    route = kafka_python.route()
    answers: list[tuple[int, list[TopicPartition], Any]] = route.run(
        each_node, route, by_node, _request, int(timeout_s * 1000), timeout_s=timeout_s
    )
    sizes: dict[TopicPartition, int] = {}
    errors: dict[TopicPartition, str] = {}
    for _, asked, answer in answers:
        if isinstance(answer, str):
            errors.update(dict.fromkeys(asked, answer))
            continue
        got, failed = sizes_in(answer)
        for tp in asked:
            if tp in got:
                sizes[tp] = got[tp]
            else:
                errors[tp] = failed or "UNKNOWN_TOPIC_OR_PARTITION"
    return sizes, errors


def sizes_in(answer: Any) -> tuple[dict[TopicPartition, int], str | None]:
    """The current (not future) replicas' sizes in one DescribeLogDirs answer, and its first error
    (the answer's own, v3+, or a log dir's, e.g. ``KAFKA_STORAGE_ERROR`` for an offline dir)."""
    error = code_name(answer.error_code) if getattr(answer, "error_code", 0) else None
    sizes: dict[TopicPartition, int] = {}
    for result in answer.results or ():
        if result.error_code:
            error = error or code_name(result.error_code)
            continue
        for topic in result.topics or ():
            for p in topic.partitions or ():
                if not p.is_future_key:
                    sizes[TopicPartition(str(topic.name), int(p.partition_index))] = int(p.partition_size)
    return sizes, error


def _request(partitions: list[TopicPartition]) -> Any:
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    item = DescribeLogDirsRequest.DescribableLogDirTopic
    return DescribeLogDirsRequest(topics=[item(topic=t, partitions=sorted(ps)) for t, ps in by_topic.items()])
