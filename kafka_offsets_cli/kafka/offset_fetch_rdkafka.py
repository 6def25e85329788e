"""Committed offsets through librdkafka's ListConsumerGroupOffsets: the fallback for client settings
that kafka-python cannot take (a PKCS12 key store, inline PEM, GSSAPI, certificate verification off…).

The main route is :mod:`.offset_fetch` (kafka-python), because librdkafka's admin OffsetFetch aborts
the process when a group's coordinator freezes or moves while it waits (confluentinc/librdkafka#3663,
#5040). With settings only librdkafka can use, refusing every group command would take away what
worked before; this route keeps the old guard instead (each group is described first, and a group whose
coordinator is not ready is reported with that error, not asked), which narrows the window but cannot
close it. ``--debug`` says when this route is taken.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition

from ..models.groups import GroupDescription, GroupOffsets
from ..models.topics import TopicPartition
from .errors import COORDINATOR_NOT_READY, error_name
from .session import Session


def fetch_committed_rdkafka(
    session: Session,
    describe: Callable[[Sequence[str]], Mapping[str, GroupDescription]],
    groups: Sequence[str],
    partitions: Sequence[TopicPartition] | None,
) -> list[GroupOffsets]:
    """Each group's committed offsets, one ListConsumerGroupOffsets per group, described first."""
    not_ready = {
        g: d.error or "COORDINATOR_NOT_AVAILABLE"
        for g, d in describe(list(dict.fromkeys(groups))).items()
        if d.error in COORDINATOR_NOT_READY
    }
    return session.asked_again(lambda t: _fetch_once(session, groups, partitions, not_ready, t))


def _fetch_once(
    session: Session,
    groups: Sequence[str],
    partitions: Sequence[TopicPartition] | None,
    not_ready: Mapping[str, str],
    timeout: float,
) -> list[GroupOffsets]:
    tps = [CTopicPartition(tp.topic, tp.partition) for tp in partitions] if partitions else None
    futures: list[tuple[str, Any]] = []
    for g in groups:
        if g in not_ready:
            futures.append((g, not_ready[g]))
            continue
        req = ConsumerGroupTopicPartitions(g, tps) if tps else ConsumerGroupTopicPartitions(g)
        try:
            fmap = session.admin.list_consumer_group_offsets([req], request_timeout=timeout)
        except KafkaException as e:
            futures.append((g, e))
            continue
        futures.append((g, fmap[g]))
    out: list[GroupOffsets] = []
    for g, f in futures:
        if isinstance(f, str):
            out.append(GroupOffsets(g, {}, f))
            continue
        if isinstance(f, BaseException):
            out.append(GroupOffsets(g, {}, error_name(f)))
            continue
        try:
            res = session.wait(f, timeout)
        except (KafkaException, FutureTimeout) as e:
            out.append(GroupOffsets(g, {}, session.item_error(e, "offset fetch")))
            continue
        offsets: dict[TopicPartition, int | None] = {}
        for ctp in res.topic_partitions or []:
            off = ctp.offset if ctp.offset is not None and ctp.offset >= 0 else None
            offsets[TopicPartition(ctp.topic, ctp.partition)] = off
        out.append(GroupOffsets(g, offsets))
    return out
