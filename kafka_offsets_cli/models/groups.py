"""Consumer groups: committed offsets and the coordinator's description (frozen models)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .topics import TopicPartition


@dataclass(frozen=True)
class GroupOffsets:
    """Committed offsets of one consumer group (``None`` offset: nothing committed)."""

    group: str
    offsets: Mapping[TopicPartition, int | None]
    error: str | None = None


@dataclass(frozen=True)
class GroupDescription:
    """A consumer group's state as the coordinator describes it.

    ``state`` is Kafka's state name in lower case (``stable``, ``empty``, ``dead``,
    ``preparing_rebalance``…; ``dead`` also for a group that does not exist);
    ``members`` the number of active members; ``assigned`` the partitions assigned
    to them.
    """

    group: str
    state: str | None
    members: int
    assigned: tuple[TopicPartition, ...] = ()
    error: str | None = None

    @property
    def active(self) -> bool:
        """True when the group has members (a reset would be rejected or overwritten)."""
        return self.members > 0


@dataclass(frozen=True, kw_only=True)
class Member:
    """One member of a group, as the coordinator describes it."""

    member_id: str
    client_id: str
    host: str
    instance_id: str | None = None
    #: the partitions assigned to the member (``lag`` shows each partition's consumer)
    assigned: tuple[TopicPartition, ...] = ()
    #: the member's epoch where the group type has one (consumer, share, streams; not classic)
    member_epoch: int | None = None


@dataclass(frozen=True)
class GroupMembers:
    """A group's description with its members (client ids, hosts) and protocol.

    ``protocol`` is ``classic``, ``consumer`` (KIP-848) or ``None`` when the coordinator
    does not say. What a refused ``rewind --execute`` names.
    """

    description: GroupDescription
    members: tuple[Member, ...] = ()
    protocol: str | None = None
