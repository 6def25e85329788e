"""Share groups (KIP-932) and streams groups (KIP-1071) as their coordinator describes them (frozen).

Their listing, answers and share-partition offsets are :mod:`.group_types`'s; these descriptions are
apart because only a run that reads a share or streams group makes them: their classes cost ~3 ms
of import that ``lag`` over consumer and classic groups does not pay. States are Kafka's names in
lower case (``stable``, ``empty``, ``not_ready``, ``assigning``, ``reconciling``); an error is
Kafka's name for it (``GROUP_ID_NOT_FOUND``…).
"""

from __future__ import annotations

from dataclasses import dataclass

from .topics import TopicPartition


@dataclass(frozen=True, kw_only=True)
class ShareMember:
    """One member of a share group: the partitions it is assigned to share."""

    member_id: str
    client_id: str
    host: str
    member_epoch: int
    rack_id: str | None = None
    subscribed: tuple[str, ...] = ()
    assigned: tuple[TopicPartition, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ShareGroup:
    """A share group's description (ShareGroupDescribe); ``state`` ``None`` with an ``error``."""

    group: str
    state: str | None
    group_epoch: int = -1
    assignment_epoch: int = -1
    assignor: str = ""
    members: tuple[ShareMember, ...] = ()
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class StreamsTasks:
    """The tasks of one subtopology a streams member holds: the subtopology's input partitions."""

    subtopology: str
    partitions: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class StreamsMember:
    """One member of a streams group (one Kafka Streams client) and its current assignment."""

    member_id: str
    client_id: str
    host: str
    member_epoch: int
    process_id: str = ""
    instance_id: str | None = None
    topology_epoch: int = -1
    active: tuple[StreamsTasks, ...] = ()
    standby: tuple[StreamsTasks, ...] = ()
    warmup: tuple[StreamsTasks, ...] = ()
    classic: bool = False


@dataclass(frozen=True, kw_only=True)
class Subtopology:
    """One subtopology of a streams application's topology.

    ``source_topics`` are all the topics it reads, the input topics and the repartition topics
    (``repartition_source_topics``: internal ones the group creates) alike.
    """

    subtopology: str
    source_topics: tuple[str, ...] = ()
    repartition_source_topics: tuple[str, ...] = ()
    repartition_sink_topics: tuple[str, ...] = ()
    changelog_topics: tuple[str, ...] = ()

    @property
    def input_topics(self) -> tuple[str, ...]:
        """The user's topics it reads: its source topics that are not repartition topics."""
        return tuple(t for t in self.source_topics if t not in self.repartition_source_topics)


@dataclass(frozen=True, kw_only=True)
class StreamsGroup:
    """A streams group's description (StreamsGroupDescribe).

    ``subtopologies`` is ``None`` while the topology is not initialized (no member yet, or its
    source topics missing); ``topology_epoch`` -1 then.
    """

    group: str
    state: str | None
    group_epoch: int = -1
    assignment_epoch: int = -1
    topology_epoch: int = -1
    subtopologies: tuple[Subtopology, ...] | None = None
    members: tuple[StreamsMember, ...] = ()
    error: str | None = None

    @property
    def input_topics(self) -> tuple[str, ...]:
        """The topology's input topics (not repartition topics), each once, in order."""
        return tuple(dict.fromkeys(t for s in self.subtopologies or () for t in s.input_topics))

    @property
    def repartition_topics(self) -> tuple[str, ...]:
        """The topology's repartition topics it reads, each once, in order."""
        return tuple(dict.fromkeys(t for s in self.subtopologies or () for t in s.repartition_source_topics))
