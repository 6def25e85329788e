"""Kafka's own system topics, by name: the one rule by which ``liveness``, ``lag``, ``tiering``
and ``check`` leave them out.

These are the topics a Kafka 4.x broker creates for itself (checked against Apache Kafka 4.3.1's
jars): the three it flags internal (``org.apache.kafka.common.internals.Topic.INTERNAL_TOPICS``:
group offsets, transactions, share-group state) and ``__remote_log_metadata``, which tiered storage's
``TopicBasedRemoteLogMetadataManager`` creates as an ordinary topic, so the broker's ``is_internal``
flag does not mark it. On a tiered cluster it counted as a user topic: a bare ``liveness`` on a
healthy cluster said WARNING and ``tiering`` listed it.

Deliberately not here: ``__cluster_metadata`` (the KRaft log: never listed as a topic, and Kafka
refuses to create one by that name), any other name starting with ``__`` (a user's ``__my_topic``
is the user's), and the topics of MirrorMaker 2, Connect and Streams (``heartbeats``,
``*.checkpoints.internal``, ``mm2-offset-syncs.*``, ``connect-offsets``, ``app-…-changelog``): the
user names and owns those, and a stalled MirrorMaker is worth an alarm.

``list --exclude-internal-topics`` does not use this rule: it keeps GetOffsetShell's behaviour
byte for byte, the broker's ``is_internal`` flag (:func:`kafka_offsets_cli.plan.queries.with_internal_flags`).
Pure: no I/O.
"""

from __future__ import annotations

__all__ = ["KAFKA_SYSTEM_TOPICS", "SYSTEM_HINT", "is_system_topic"]

#: The topics Kafka creates for itself (Kafka 4.x).
KAFKA_SYSTEM_TOPICS: frozenset[str] = frozenset(
    {
        "__consumer_offsets",  # group coordinator: committed offsets and group metadata
        "__transaction_state",  # transaction coordinator
        "__share_group_state",  # share groups (KIP-932)
        "__remote_log_metadata",  # tiered storage's segment metadata (KIP-405), not flagged internal
    }
)

#: The hint's words when a selection matched nothing because its topics are Kafka's system topics.
SYSTEM_HINT = "Kafka's system topics (__consumer_offsets, __remote_log_metadata…) are excluded"


def is_system_topic(name: str) -> bool:
    """True when ``name`` is one of Kafka's own system topics (:data:`KAFKA_SYSTEM_TOPICS`), by name only."""
    return name in KAFKA_SYSTEM_TOPICS
