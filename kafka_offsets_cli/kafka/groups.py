"""Consumer groups: listing, describing, committed offsets, and committing new ones."""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition

from ..errors import ConfigError
from ..models.groups import GroupDescription, GroupMembers, GroupOffsets, Member
from ..models.topics import TopicPartition
from .errors import COORDINATOR_NOT_READY, error_name, require_group_ids
from .session import Session
from .settings import log
from .tiered_config import kafka_python_config


class GroupReader:
    """Consumer-group requests through a session's admin client."""

    def __init__(self, session: Session) -> None:
        self._s = session
        #: each described group's members and protocol, from its last description
        self._members: dict[str, tuple[tuple[Member, ...], str | None]] = {}
        #: groups whose coordinator did not answer the last OffsetFetch, with that error
        self._coordinator_down: dict[str, str] = {}
        #: whether kafka-python can take the settings (decided on the first committed_offsets)
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
        if not self._kafka_python_fits():
            from .offset_fetch_rdkafka import fetch_committed_rdkafka

            return fetch_committed_rdkafka(self._s, self.describe_groups, groups, partitions)
        from .offset_fetch import ASK_AGAIN, fetch_committed  # kafka-python: only runs that read groups

        self._s.check_reachable()  # authentication failures in librdkafka's words (exit 4)
        out = fetch_committed(self._s.kafka_python(), self._s.deadline, groups, partitions)
        for o in out:
            if o.error in ASK_AGAIN:
                self._coordinator_down[o.group] = o.error
            else:
                self._coordinator_down.pop(o.group, None)
        return out

    def _kafka_python_fits(self) -> bool:
        """Whether kafka-python can take the client settings (else librdkafka's route, said with --debug)."""
        if self._fits is None:
            try:
                kafka_python_config(self._s.settings)
                self._fits = True
            except ConfigError as e:
                log.debug("committed offsets through librdkafka (kafka-python cannot take: %s)", e)
                self._fits = False
        return self._fits

    def group_ids(self) -> list[str]:
        """The ids of the cluster's consumer groups, sorted (used by shell completion)."""

        def once(timeout: float) -> list[str]:
            with self._s.failing_as("group listing"):
                res = self._s.wait(self._s.admin.list_consumer_groups(request_timeout=timeout), timeout)
            return sorted(str(g.group_id) for g in res.valid)

        return self._s.asked_again(once)

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """State, member count and assigned partitions of each group (all described at once).

        A group whose coordinator is not ready (:data:`~.errors.COORDINATOR_NOT_READY`) is asked
        again, with a growing pause, while ``--timeout`` allows; its last answer stands. A group
        whose coordinator did not answer :meth:`committed_offsets` just before is not asked: it
        carries that error. librdkafka's coordinator requests (this one too) abort the process
        when the coordinator freezes under them (confluentinc/librdkafka#3663, #5040).
        """
        require_group_ids(groups)
        out: dict[str, GroupDescription] = {
            g: GroupDescription(g, None, 0, (), self._coordinator_down[g])
            for g in dict.fromkeys(groups)
            if g in self._coordinator_down
        }
        pending = [g for g in dict.fromkeys(groups) if g not in out]
        backoff = 0.05
        while pending:
            out.update(self._s.asked_again(functools.partial(self._describe_groups_once, pending)))
            ready = {g for g in pending if out[g].error not in COORDINATOR_NOT_READY}
            pending = [g for g in pending if g not in ready]
            if not pending or self._s.deadline.remaining() <= backoff:
                break
            log.debug("coordinator not ready for %d group(s); asking again", len(pending))
            time.sleep(backoff)
            backoff = min(backoff * 2, 1.0)
        return out

    def _describe_groups_once(self, groups: Sequence[str], timeout: float) -> dict[str, GroupDescription]:
        """One DescribeConsumerGroups round for ``groups``."""
        if not groups:
            return {}
        with self._s.failing_as("describe consumer groups"):
            futs = self._s.admin.describe_consumer_groups(list(groups), request_timeout=timeout)
        out: dict[str, GroupDescription] = {}
        for g, f in futs.items():
            try:
                d = self._s.wait(f, timeout)
            except (KafkaException, FutureTimeout) as e:
                out[g] = GroupDescription(g, None, 0, (), self._s.item_error(e, "describe consumer groups"))
                continue
            assigned = sorted(
                {
                    TopicPartition(tp.topic, tp.partition)
                    for m in d.members or []
                    if m.assignment is not None
                    for tp in m.assignment.topic_partitions or []
                }
            )
            members = tuple(
                Member(
                    str(m.member_id),
                    str(m.client_id),
                    str(m.host),
                    m.group_instance_id or None,
                    tuple(
                        TopicPartition(tp.topic, tp.partition)
                        for tp in (m.assignment.topic_partitions or [] if m.assignment is not None else [])
                    ),
                )
                for m in d.members or []
            )
            self._members[g] = (members, _group_state(getattr(d, "type", None)))
            out[g] = GroupDescription(g, _group_state(d.state), len(members), tuple(assigned))
        return out

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        """Describe the groups (as :meth:`describe_groups`), with each one's members and protocol."""
        descs = self.describe_groups(groups)
        return {g: GroupMembers(d, *self._members.get(g, ((), None))) for g, d in descs.items()}

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


def _group_state(state: Any) -> str | None:
    if state is None:
        return None
    name = getattr(state, "name", None) or str(state)
    return str(name).lower()


def _ctps(offsets: Mapping[TopicPartition, int]) -> list[Any]:
    return [CTopicPartition(tp.topic, tp.partition, off) for tp, off in sorted(offsets.items())]
