"""Consumer groups: listing, describing, committed offsets, and committing new ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition

from ..errors import ConfigError
from ..models.groups import GroupDescription, GroupMembers, GroupOffsets
from ..models.topics import TopicPartition
from .errors import error_name, require_group_ids
from .session import Session
from .settings import log
from .tiered_config import kafka_python_config


class GroupReader:
    """Consumer-group requests through a session's admin client."""

    def __init__(self, session: Session) -> None:
        self._s = session
        #: groups whose coordinator did not answer the last OffsetFetch, with that error
        self._coordinator_down: dict[str, str] = {}
        #: whether kafka-python can take the settings (decided on the first group request)
        self._fits: bool | None = None

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        """Committed offsets of each group: one OffsetFetch per coordinator, all at once.

        Sent through kafka-python (:mod:`.offset_fetch`), never librdkafka's admin
        ListConsumerGroupOffsets, which aborts the process when a group's coordinator
        freezes or moves while it waits (confluentinc/librdkafka#3663, #5040). A group
        whose coordinator did not answer within ``--timeout`` carries that error.
        """
        require_group_ids(groups)
        if not self.kafka_python_fits():
            from .offset_fetch_rdkafka import fetch_committed_rdkafka

            return fetch_committed_rdkafka(self._s, self.describe_groups, groups, partitions)
        from .offset_fetch import ASK_AGAIN, fetch_committed  # kafka-python: only runs that read groups

        out = fetch_committed(self._s.kafka_python(), self._s.deadline, groups, partitions)
        for o in out:
            if o.error in ASK_AGAIN:
                self._coordinator_down[o.group] = o.error
            else:
                self._coordinator_down.pop(o.group, None)
        return out

    def kafka_python_fits(self) -> bool:
        """Whether kafka-python can take the client settings (else librdkafka's route, said with --debug)."""
        if self._fits is None:
            try:
                kafka_python_config(self._s.settings)
                self._fits = True
            except ConfigError as e:
                why = f"kafka-python cannot take: {e}"
                log.debug("committed offsets and group descriptions through librdkafka (%s)", why)
                self._fits = False
        return self._fits

    def group_ids(self) -> list[str]:
        """The ids of the cluster's consumer groups, sorted (used by shell completion)."""
        return sorted(self.group_types_rdkafka())

    def group_types_rdkafka(self) -> dict[str, str]:
        """librdkafka's listing of the consumer groups with their type (``classic``, ``consumer``; one
        it cannot tell is ``consumer``). Share and streams groups are not in it (:mod:`.list_groups`)."""

        def once(timeout: float) -> dict[str, str]:
            with self._s.failing_as("group listing"):
                res = self._s.wait(self._s.admin.list_consumer_groups(request_timeout=timeout), timeout)
            return {str(g.group_id): _listed_type(getattr(g, "type", None)) for g in res.valid}

        return self._s.asked_again(once)

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """State, member count and assigned partitions of each group (all described at once).

        Sent through kafka-python (:mod:`.describe_groups`: ConsumerGroupDescribe, then
        DescribeGroups), never librdkafka's DescribeConsumerGroups, which aborts the process when
        a group's coordinator freezes or moves while it waits (confluentinc/librdkafka#3663, #5040);
        librdkafka's only with settings kafka-python cannot take (:mod:`.describe_groups_rdkafka`).
        A group whose coordinator is not ready is asked again while ``--timeout`` allows. A group
        whose coordinator did not answer :meth:`committed_offsets` just before is not asked: it
        carries that error (asking would spend the rest of ``--timeout`` on the same silence).
        """
        return {g: m.description for g, m in self.group_members(groups).items()}

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        """Describe the groups (as :meth:`describe_groups`), with each one's members and protocol."""
        require_group_ids(groups)
        wanted = list(dict.fromkeys(groups))
        down = {
            g: GroupMembers(GroupDescription(g, None, 0, (), self._coordinator_down[g]))
            for g in wanted
            if g in self._coordinator_down
        }
        pending = [g for g in wanted if g not in down]
        if not pending:
            return down
        if self.kafka_python_fits():
            from .describe_groups import describe_groups  # kafka-python: only runs that read groups

            found = describe_groups(self._s.kafka_python(), self._s.deadline, pending)
        else:
            from .describe_groups_rdkafka import describe_groups_rdkafka

            found = describe_groups_rdkafka(self._s, pending)
        return {g: down.get(g) or found[g] for g in wanted}

    def group_session_timeouts(self, groups: Sequence[str]) -> dict[str, int]:
        """Each group's ``consumer.session.timeout.ms`` (KIP-848 group config; brokers since 4.0).

        A group whose configs cannot be described (an older broker, no DESCRIBE_CONFIGS
        permission) is left out: the timeout only explains a refusal, it never decides one.
        """
        from confluent_kafka.admin import ConfigResource, ResourceType  # type: ignore[attr-defined]

        if not groups:
            return {}
        timeout = self._s.deadline.request_timeout()
        resources = [ConfigResource(ResourceType.GROUP, g) for g in dict.fromkeys(groups)]
        out: dict[str, int] = {}
        try:
            futs = self._s.admin.describe_configs(resources, request_timeout=timeout)
        except (KafkaException, ValueError) as e:
            log.debug("describe group configs: %s", e)
            return out
        for res, f in futs.items():
            try:
                entry = self._s.wait(f, timeout).get("consumer.session.timeout.ms")
            except (KafkaException, FutureTimeout) as e:
                log.debug("describe configs of group %s: %s", res.name, e)
                continue
            if entry is not None and entry.value is not None and str(entry.value).isdigit():
                out[res.name] = int(entry.value)
        return out

    def alter_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Commit ``offsets`` for ``group`` (AdminClient alter consumer group offsets).

        Returns each partition's error name (``None``: committed). A request-level
        failure (e.g. ``UNKNOWN_MEMBER_ID`` because the group became active) is
        reported for every partition.
        """
        timeout = self._s.deadline.request_timeout()
        require_group_ids([group])
        req = ConsumerGroupTopicPartitions(group, _ctps(offsets))
        try:
            futs = self._s.admin.alter_consumer_group_offsets([req], request_timeout=timeout)
            res = self._s.wait(futs[group], timeout)
        except (KafkaException, FutureTimeout) as e:
            name = self._s.item_error(e, "alter consumer group offsets")
            return {tp: name for tp in offsets}
        out: dict[TopicPartition, str | None] = {tp: None for tp in offsets}
        for ctp in res.topic_partitions or []:
            err = getattr(ctp, "error", None)
            out[TopicPartition(ctp.topic, ctp.partition)] = error_name(err) if err is not None else None
        return out


def _ctps(offsets: Mapping[TopicPartition, int]) -> list[Any]:
    return [CTopicPartition(tp.topic, tp.partition, off) for tp, off in sorted(offsets.items())]


def _listed_type(kind: object) -> str:
    """librdkafka's ConsumerGroupType as the tool names it (UNKNOWN: ``consumer``, as before types)."""
    name = str(getattr(kind, "name", "") or "").lower()
    return name if name in ("classic", "consumer") else "consumer"
