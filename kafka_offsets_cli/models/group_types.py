"""Groups by type: the brokers' listing, the answer for one type, share groups' offsets (frozen).

Consumer and classic groups are :mod:`.groups`'s; share and streams groups' descriptions are
:mod:`.group_descriptions`'s. States are Kafka's names in lower case
(``stable``, ``empty``, ``dead``, ``not_ready``, ``assigning``, ``reconciling``); an error is
Kafka's name for it (``GROUP_ID_NOT_FOUND``…), kept per group (and per partition for offsets).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .topics import TopicPartition

T = TypeVar("T")

#: the group types Kafka 4.x has, as the brokers name them (ListGroups v5 ``group_type``)
GROUP_TYPES = ("classic", "consumer", "share", "streams")


@dataclass(frozen=True, kw_only=True)
class SharePartition:
    """One share-partition of a group (DescribeShareGroupOffsets).

    ``start_offset``: the share-partition start offset (``None``: the group has none there yet, and
    then no ``leader_epoch`` either, as Kafka's admin client reports it);
    ``lag``: the lag as the broker computes it (KIP-1226), ``None`` from a broker before it (v0) or
    when the broker cannot tell (``-1`` on the wire); ``error`` the partition's own.
    """

    partition: TopicPartition
    start_offset: int | None
    leader_epoch: int | None = None
    lag: int | None = None
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class ShareGroupOffsets:
    """A share group's share-partitions; ``error`` the group's own (then no partitions)."""

    group: str
    partitions: tuple[SharePartition, ...] = ()
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class GroupTypeAnswer(Generic[T]):
    """The answer for one group type: each group's, and ``unavailable`` when the cluster cannot
    answer for the type at all (the line to show once, e.g. ``share groups are not enabled on this
    cluster (share.version)``); the groups then carry the broker's error each."""

    group_type: str
    groups: Mapping[str, T] = field(default_factory=dict)
    unavailable: str | None = None


@dataclass(frozen=True, kw_only=True)
class GroupListing:
    """Every group the brokers listed, with its type; ``unanswered``: the error of a broker that did
    not answer (its groups are missing), ``None`` when every broker answered."""

    types: Mapping[str, str]
    unanswered: str | None = None
