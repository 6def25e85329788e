"""Admin reads about topics: cluster metadata, described topics, topic configs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from operator import attrgetter
from typing import Any

from confluent_kafka import KafkaException, TopicCollection
from confluent_kafka.admin import ConfigResource, ResourceType  # type: ignore[attr-defined]

from ..models.topics import ClusterMetadata, PartitionInfo, TopicInfo
from ..parse.text import require_utf8
from .errors import error_name
from .session import Session
from .settings import log


class TopicReader:
    """Topic metadata and configs through a session's admin client."""

    def __init__(self, session: Session) -> None:
        self._s = session

    def metadata(
        self,
        topic: str | None = None,
        *,
        only: Callable[[str], bool] | None = None,
        names: Sequence[str] | None = None,
    ) -> ClusterMetadata:
        """Topic metadata for the whole cluster (or one topic, or the topics ``names``).

        ``only``: keep just the topics whose name it accepts. Kafka answers with every
        topic of the cluster; turning tens of thousands of partitions into models costs
        more than the request when a selection needs a few of them.

        ``names``: describe just these topics (one request however large the cluster);
        each name is in the answer, with its partitions or its error
        (``UNKNOWN_TOPIC_OR_PARTITION``, ``TOPIC_AUTHORIZATION_FAILED``…), and with
        the broker's ``is_internal`` flag. A listing (no ``names``) leaves every
        topic's ``internal`` False: confluent-kafka's metadata does not carry it.
        """
        require_utf8("topic", [*(names or ()), *([topic] if topic else [])])
        if names is not None:
            wanted = list(dict.fromkeys(names))
            return self._s.asked_again(lambda timeout: self._describe_topics(wanted, timeout))
        return self._s.asked_again(lambda timeout: self._list_topics(topic, only, timeout))

    def _list_topics(
        self, topic: str | None, only: Callable[[str], bool] | None, timeout: float
    ) -> ClusterMetadata:
        """One metadata request (the whole cluster, or one topic)."""
        with self._s.failing_as("metadata request"):
            md = self._s.call(self._s.admin.list_topics, timeout, topic=topic)
        topics: dict[str, TopicInfo] = {}
        # Replica and ISR lists repeat (a few brokers, a few orders): one tuple each, shared.
        shared: dict[tuple[int, ...], tuple[int, ...]] = {}
        answer = md.topics
        new = tuple.__new__
        for name in list(answer):
            # each topic's answer objects are let go once converted: the listing and the models
            # of a large cluster are never all held at once
            t = answer.pop(name)
            if only is not None and not only(name):
                continue
            terr = error_name(t.error) if t.error is not None else None
            parts = tuple(
                # PartitionInfo(name, id, leader, replicas, isr, error), built as its tuple: 50,000 a run
                new(
                    PartitionInfo,
                    (
                        name,
                        p.id,
                        p.leader,
                        _shared(shared, p.replicas),
                        _shared(shared, p.isrs),
                        error_name(p.error) if p.error is not None else None,
                    ),
                )
                for p in sorted(t.partitions.values(), key=_ID)
            )
            # confluent-kafka's listing does not carry the broker's is_internal flag; callers that
            # need it ask by name (plan.queries.with_internal_flags), never judge by the name
            topics[name] = TopicInfo(name, parts, error=terr)
        brokers = {b.id: f"{b.host}:{b.port}" for b in md.brokers.values()}
        return ClusterMetadata(topics, brokers, md.cluster_id, md.controller_id)

    def _describe_topics(self, wanted: list[str], timeout: float) -> ClusterMetadata:
        """DescribeTopics for ``wanted``: the topics found, and each other name with its error."""
        if not wanted:
            return ClusterMetadata({})
        with self._s.failing_as("describe topics"):
            futs = self._s.admin.describe_topics(TopicCollection(wanted), request_timeout=timeout)
        topics: dict[str, TopicInfo] = {}
        shared: dict[tuple[int, ...], tuple[int, ...]] = {}
        for name, f in futs.items():
            try:
                d = self._s.wait(f, timeout)
            except (KafkaException, FutureTimeout) as e:
                err = self._s.item_error(e, "describe topics")
                topics[name] = TopicInfo(name, (), error=err)
                continue
            parts = tuple(
                PartitionInfo(
                    name,
                    p.id,
                    p.leader.id if p.leader is not None else -1,
                    _shared(shared, [r.id for r in p.replicas]),
                    _shared(shared, [r.id for r in p.isr]),
                )
                for p in sorted(d.partitions, key=lambda p: p.id)
            )
            topics[name] = TopicInfo(name, parts, internal=bool(d.is_internal))  # the broker's flag
        return ClusterMetadata(topics)

    def cluster_id(self) -> str | None:
        """The Kafka cluster id (DescribeCluster): what tells two clusters apart whatever their
        addresses. ``None`` when the cluster does not give it (an error answer, not a silence)."""
        return self._s.asked_again(self._cluster_id)

    def _cluster_id(self, timeout: float) -> str | None:
        with self._s.failing_as("describe cluster"):
            f = self._s.admin.describe_cluster(request_timeout=timeout)
        try:
            d = self._s.wait(f, timeout)
        except (KafkaException, FutureTimeout) as e:
            self._s.item_error(e, "describe cluster")  # raises when the cluster did not answer
            log.debug("describe cluster: %s", error_name(e))
            return None
        return str(d.cluster_id) if d.cluster_id else None

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        """The values of ``keys`` for each topic (DescribeConfigs, one call).

        A topic whose configs cannot be described (no DESCRIBE_CONFIGS permission,
        deleted meanwhile) is left out; callers show its values as unknown.
        """
        if not topics:
            return {}
        resources = [ConfigResource(ResourceType.TOPIC, t) for t in dict.fromkeys(topics)]
        return self._s.asked_again(lambda timeout: self._configs(resources, keys, timeout))

    def _configs(
        self, resources: list[Any], keys: Sequence[str], timeout: float
    ) -> dict[str, dict[str, str]]:
        """One DescribeConfigs request."""
        with self._s.failing_as("describe topic configs"):
            futs = self._s.admin.describe_configs(resources, request_timeout=timeout)
        out: dict[str, dict[str, str]] = {}
        for res, f in futs.items():
            try:
                entries = self._s.wait(f, timeout)
            except KafkaException as e:
                log.debug("describe configs of %s: %s", res.name, error_name(e))
                continue
            out[res.name] = {
                k: str(entries[k].value) for k in keys if k in entries and entries[k].value is not None
            }
        return out


#: a partition's id in confluent-kafka's metadata, read in C (the sort key of every partition)
_ID = attrgetter("id")


def _shared(seen: dict[tuple[int, ...], tuple[int, ...]], ids: Sequence[int]) -> tuple[int, ...]:
    """``ids`` as a tuple, the one already made for an equal list when there is one."""
    t = tuple(ids)
    return seen.setdefault(t, t)
