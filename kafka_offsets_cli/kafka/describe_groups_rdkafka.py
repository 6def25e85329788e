"""Group descriptions through librdkafka's DescribeConsumerGroups: the fallback for client settings
that kafka-python cannot take (a PKCS12 key store, inline PEM, GSSAPI, certificate verification off…).

The main route is :mod:`.describe_groups` (kafka-python), because librdkafka's describe aborts the
process when a group's coordinator freezes or moves while it waits (confluentinc/librdkafka#3663,
#5040). With settings only librdkafka can use, refusing every group command would take away what
worked before (as :mod:`.offset_fetch_rdkafka` reasons); the window stays open on this route only,
and ``--debug`` says when it is taken.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from confluent_kafka import KafkaException

from ..models.groups import GroupDescription, GroupMembers, Member
from ..models.topics import TopicPartition
from .errors import COORDINATOR_NOT_READY
from .session import Session
from .settings import log


def describe_groups_rdkafka(session: Session, groups: Sequence[str]) -> dict[str, GroupMembers]:
    """Each group described, with its members; a group whose coordinator is not ready is asked
    again, with a growing pause, while ``--timeout`` allows (its last answer stands)."""
    out: dict[str, GroupMembers] = {}
    pending = list(dict.fromkeys(groups))
    backoff = 0.05
    while pending:
        out.update(session.asked_again(functools.partial(_describe_once, session, pending)))
        pending = [g for g in pending if out[g].description.error in COORDINATOR_NOT_READY]
        if not pending or session.deadline.remaining() <= backoff:
            break
        log.debug("coordinator not ready for %d group(s); asking again", len(pending))
        time.sleep(backoff)
        backoff = min(backoff * 2, 1.0)
    return out


def _describe_once(session: Session, groups: Sequence[str], timeout: float) -> dict[str, GroupMembers]:
    """One DescribeConsumerGroups round for ``groups``."""
    if not groups:
        return {}
    with session.failing_as("describe consumer groups"):
        futs = session.admin.describe_consumer_groups(list(groups), request_timeout=timeout)
    out: dict[str, GroupMembers] = {}
    for g, f in futs.items():
        try:
            d = session.wait(f, timeout)
        except (KafkaException, FutureTimeout) as e:
            error = session.item_error(e, "describe consumer groups")
            out[g] = GroupMembers(GroupDescription(g, None, 0, (), error))
            continue
        members = tuple(
            Member(
                member_id=str(m.member_id),
                client_id=str(m.client_id),
                host=str(m.host),
                instance_id=m.group_instance_id or None,
                assigned=tuple(
                    TopicPartition(tp.topic, tp.partition)
                    for tp in (m.assignment.topic_partitions or [] if m.assignment is not None else [])
                ),
            )
            for m in d.members or []
        )
        assigned = tuple(sorted({tp for m in members for tp in m.assigned}))
        description = GroupDescription(g, _group_state(d.state), len(members), assigned)
        out[g] = GroupMembers(description, members, _group_state(getattr(d, "type", None)))
    return out


def _group_state(state: Any) -> str | None:
    """librdkafka's enum (ConsumerGroupState, ConsumerGroupType) as the tool names it: lower case."""
    if state is None:
        return None
    name = getattr(state, "name", None) or str(state)
    return str(name).lower()
