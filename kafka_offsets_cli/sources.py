"""What the use cases need from a Kafka client: each client method declared once, here.

The use cases take a *source*, not the client, so they run against any object with
the right methods (in the product :class:`~kafka_offsets_cli.kafka.KafkaClient`;
in unit tests a few lines of fake). Each small Protocol below declares one job of
the client; a use case's source is the composition of the jobs it needs, so a fake
implements just those.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from .models.group_types import GroupListing, GroupTypeAnswer, ShareGroupOffsets
from .models.groups import GroupDescription, GroupMembers, GroupOffsets
from .models.offsets import Isolation, OffsetResult
from .models.topics import ClusterMetadata, TopicPartition

if TYPE_CHECKING:
    from .models.group_descriptions import ShareGroup, StreamsGroup
    from .plan.requests import OffsetRequest

__all__ = [
    "CheckLagSource",
    "ConfigSource",
    "GroupLister",
    "GroupMemberSource",
    "GroupReader",
    "GroupWriter",
    "LagSource",
    "LivenessSource",
    "MarkerSource",
    "OffsetSource",
    "PlanSource",
    "RewindSource",
    "ShareGroupSource",
    "ShareOffsetReader",
    "StreamsGroupSource",
    "TypedGroupReader",
    "TypedRewindSource",
]

# ----------------------------------------------------------------------------- one job each


class OffsetSource(Protocol):
    """Topic metadata and ListOffsets: what every offset use case needs."""

    def metadata(
        self,
        topic: str | None = None,
        *,
        only: Callable[[str], bool] | None = None,
        names: Sequence[str] | None = None,
    ) -> ClusterMetadata:
        """Cluster metadata (``only``: just the topics whose name it accepts; ``names``: just these)."""
        ...

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        """Execute ListOffsets calls."""
        ...


class GroupLister(Protocol):
    """The cluster's consumer group ids (to match ``--group-regex``)."""

    def group_ids(self) -> list[str]:
        """All consumer group ids."""
        ...


class GroupTypeLister(Protocol):
    """Every group of the cluster with its type (``lag`` over every group type)."""

    def group_types(self) -> GroupListing:
        """Each group id with ``classic``, ``consumer``, ``share`` or ``streams``, as the brokers say."""
        ...


class GroupTypeSupport(Protocol):
    """Which group types the cluster cannot have (``lag --type`` asking for one)."""

    def group_type_support(self, group_types: Collection[str]) -> dict[str, str]:
        """Each of ``group_types`` the cluster cannot have, with the line that says why."""
        ...


class GroupReader(Protocol):
    """What consumer groups have committed and who is consuming."""

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """State, members and assignments of each group."""
        ...

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        """Committed offsets of each group."""
        ...


class GroupWriter(Protocol):
    """Committing offsets for a group (``rewind --execute``)."""

    def alter_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Commit offsets for a group; error name per partition."""
        ...

    def delete_group_offsets(
        self, group: str, partitions: Sequence[TopicPartition]
    ) -> dict[TopicPartition, str | None]:
        """Delete a group's committed offsets (``rewind --delete-offsets``); error name per partition."""
        ...


class GroupMemberSource(Protocol):
    """A group's members and session timeout: who blocks a reset, and for how long."""

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        """Each group's description with its members and protocol."""
        ...

    def group_session_timeouts(self, groups: Sequence[str]) -> dict[str, int]:
        """Each group's ``consumer.session.timeout.ms``; groups not described are left out."""
        ...


class ConfigSource(Protocol):
    """Topic configuration values."""

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        """Config values per topic."""
        ...


class SizeSource(Protocol):
    """Partition sizes on disk (DescribeLogDirs)."""

    def partition_sizes(
        self, leaders: Mapping[TopicPartition, int]
    ) -> tuple[dict[TopicPartition, int], dict[TopicPartition, str]]:
        """Each partition's size on its leader, and the error of each one without a size."""
        ...


class MarkerSource(Protocol):
    """The transaction-marker check (a one-record fetch per offset)."""

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]]
    ) -> dict[tuple[TopicPartition, int], bool | str]:
        """Whether each (partition, offset) holds a control record (an error name when unknown)."""
        ...


class TypedGroupReader(Protocol):
    """Share and streams groups as ``lag`` reads them: descriptions, share-partition start offsets."""

    def share_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[ShareGroup]:
        """Each group as a share group (another type's group: ``GROUP_ID_NOT_FOUND``)."""
        ...

    def streams_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[StreamsGroup]:
        """Each group as a streams group (another type's group: ``GROUP_ID_NOT_FOUND``)."""
        ...

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        """Each share group's share-partition start offsets."""
        ...


class ShareOffsetReader(Protocol):
    """Share groups' start offsets, read in the committed offsets' place (``lag``, ``check``)."""

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        """Each share group's share-partition start offsets."""
        ...


class ShareGroupSource(Protocol):
    """Share groups (KIP-932): their description, start offsets, and writing them (``rewind``)."""

    def share_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[ShareGroup]:
        """Each group as a share group (another type's group: ``GROUP_ID_NOT_FOUND``)."""
        ...

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        """Each share group's share-partition start offsets."""
        ...

    def alter_share_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Set a share group's start offsets; error name per partition."""
        ...

    def delete_share_group_offsets(self, group: str, topics: Sequence[str]) -> dict[str, str | None]:
        """Delete a share group's state on topics; error name per topic."""
        ...


class StreamsGroupSource(Protocol):
    """Streams groups (KIP-1071): their description (topology, members)."""

    def streams_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[StreamsGroup]:
        """Each group as a streams group (another type's group: ``GROUP_ID_NOT_FOUND``)."""
        ...


# ----------------------------------------------------------------------------- per use case


class LagSource(OffsetSource, GroupReader, MarkerSource, ConfigSource, SizeSource, Protocol):
    """What the lag use case needs (:func:`kafka_offsets_cli.measures.lag.collect.collect`)."""


class RewindSource(OffsetSource, GroupLister, GroupReader, GroupWriter, GroupMemberSource, Protocol):
    """What rewinds need (:mod:`kafka_offsets_cli.rewind.execute`)."""


class TypedRewindSource(RewindSource, ShareGroupSource, StreamsGroupSource, Protocol):
    """What rewinds of every group type need (:mod:`kafka_offsets_cli.rewind.group_types`)."""


class LivenessSource(OffsetSource, ConfigSource, Protocol):
    """What the liveness use case needs (:mod:`kafka_offsets_cli.liveness.collect`)."""


class PlanSource(OffsetSource, GroupTypeLister, GroupReader, ShareOffsetReader, ConfigSource, Protocol):
    """What planning a Spark ``check`` needs from each cluster (:mod:`kafka_offsets_cli.check.plan`):
    groups of every type are listed with their types, share groups read by their start offsets."""


class CheckLagSource(LagSource, ShareOffsetReader, Protocol):
    """What a ``check`` task's lag rows need (:mod:`kafka_offsets_cli.check.collect`)."""
