"""Committed offsets (OffsetFetch), through kafka-python: never librdkafka's ListConsumerGroupOffsets.

librdkafka's admin ListConsumerGroupOffsets aborts the whole process
(``rd_kafka_enq_once_del_source_return: Assertion 'eonce->refcnt > 0' failed``, SIGABRT)
when a group's coordinator freezes, moves or restarts while the request is in flight
(librdkafka #3663, #5040); describing the group first does not help, because the
coordinator can freeze after the description. A GC pause of one broker is an ordinary
event, so the requests are built here from kafka-python's protocol classes and sent
through the adapter :mod:`.kafka_python`:

* one FindCoordinator v4+ for all the groups (KIP-699, batched), asked anew each round;
* one OffsetFetch v8+ per coordinator carrying all its groups (KIP-709), all in flight at
  once (librdkafka's admin client sends one per group);
* each group keeps its own answer or error (Kafka's names); a retriable one
  (``NOT_COORDINATOR``, ``COORDINATOR_LOAD_IN_PROGRESS``, ``COORDINATOR_NOT_AVAILABLE``,
  a timeout or a dropped connection) is asked again, with fresh coordinators, while the
  ``--timeout`` budget (:mod:`.deadline`) lasts, each attempt a share of it: a frozen
  coordinator ends as its groups' error (``REQUEST_TIMED_OUT``) within ``--timeout``.

Brokers older than Kafka 3.0 (no FindCoordinator v4 or OffsetFetch v8) answer every group
``UNSUPPORTED_VERSION``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from kafka.protocol.consumer.group import OffsetFetchRequest  # type: ignore[import-untyped]

from ..models.groups import GroupOffsets
from ..models.topics import TopicPartition
from .coordinated import each_node, find_coordinators, in_rounds
from .deadline import Deadline
from .errors import COORDINATOR_NOT_READY, RETRIABLE
from .kafka_python import KafkaPython, Route, code_name, group_error

_code, _index, _committed = (
    attrgetter("error_code"),
    attrgetter("partition_index"),
    attrgetter("committed_offset"),
)

#: Group errors asked again with a fresh coordinator.
ASK_AGAIN = RETRIABLE | COORDINATOR_NOT_READY

_Group = OffsetFetchRequest.OffsetFetchRequestGroup
_GroupTopic = _Group.OffsetFetchRequestTopics


def fetch_committed(
    kafka_python: KafkaPython,
    deadline: Deadline,
    groups: Sequence[str],
    partitions: Sequence[TopicPartition] | None = None,
) -> list[GroupOffsets]:
    """Committed offsets of each of ``groups`` (in their order, once each), errors kept per group.

    ``partitions``: only those (each answers ``None`` when nothing is committed); else every
    partition the group committed.
    """

    async def round_(
        route: Route, pending: Sequence[str], timeout_ms: int
    ) -> tuple[dict[str, GroupOffsets], bool]:
        return await _round(route, pending, partitions, timeout_ms), False  # lookup errors are per group

    answers = in_rounds(kafka_python, deadline, groups, round_, lambda r: r.error, again=ASK_AGAIN)
    return list(answers.values())


async def _round(
    route: Route, groups: Sequence[str], partitions: Sequence[TopicPartition] | None, timeout_ms: int
) -> dict[str, GroupOffsets]:
    """One attempt: the groups' coordinators, then one OffsetFetch per coordinator, all at once.

    Each step may take all of ``timeout_ms``: a lookup failure is the groups' error, asked again
    like any other (:data:`ASK_AGAIN`)."""
    by_node, errors, lookup = await find_coordinators(route, groups, timeout_ms)
    if lookup is not None:
        return {g: GroupOffsets(g, {}, lookup) for g in groups}
    out = {g: GroupOffsets(g, {}, e) for g, e in errors.items()}
    request = functools.partial(_request, partitions=partitions)
    for _, node_groups, answer in await each_node(route, by_node, request, timeout_ms):
        if isinstance(answer, str):
            out.update({g: GroupOffsets(g, {}, answer) for g in node_groups})
            continue
        answered = {g.group_id: g for g in answer.groups}
        out.update({g: _offsets(g, answered.get(g), partitions) for g in node_groups})
    # a group the coordinator lookup did not mention
    return {g: out.get(g) or GroupOffsets(g, {}, "COORDINATOR_NOT_AVAILABLE") for g in groups}


def _request(groups: Sequence[str], partitions: Sequence[TopicPartition] | None) -> Any:
    topics = None
    if partitions is not None:
        by_topic: dict[str, list[int]] = {}
        for tp in partitions:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        topics = [_GroupTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()]
    return OffsetFetchRequest(
        groups=[_Group(group_id=g, topics=topics) for g in groups],
        require_stable=False,
        min_version=8,
        max_version=9,  # v10 names topics by id only
    )


def _offsets(group: str, answer: Any, partitions: Sequence[TopicPartition] | None) -> GroupOffsets:
    """A group's answer: its committed offsets (-1: nothing committed), or its error.

    A partition with an error makes it the group's: an offset is never guessed.
    """
    error = group_error(answer)
    if error is not None:
        return GroupOffsets(group, {}, error)
    offsets: dict[TopicPartition, int | None] = {}
    for t in answer.topics:
        parts = t.partitions
        code = next(filter(None, map(_code, parts)), 0)  # the first partition's error, if any
        if code:
            return GroupOffsets(group, {}, code_name(code))
        # read in C (a group of 500 partitions, 100 groups a run); -1: nothing committed
        keys = TopicPartition.of_topic(t.name, map(_index, parts))
        offsets.update(zip(keys, [o if o >= 0 else None for o in map(_committed, parts)], strict=True))
    for tp in partitions or ():
        offsets.setdefault(tp, None)
    return GroupOffsets(group, offsets)
