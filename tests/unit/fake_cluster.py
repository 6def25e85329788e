"""A Kafka cluster in memory: just enough of the client for the lag and check use cases.

Fixed metadata, log start and end per partition, committed offsets per group, share groups'
start offsets (or share groups disabled), and the transaction markers at given (partition, offset)
points. Satisfies
:class:`kafka_offsets_cli.sources.LagSource` and :class:`~kafka_offsets_cli.sources.PlanSource`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from kafka_offsets_cli.models.group_types import GroupListing, GroupTypeAnswer, ShareGroupOffsets
from kafka_offsets_cli.models.groups import GroupDescription, GroupOffsets
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest

#: Specs whose answer is an existing record's offset (none on an empty log).
_RECORDS = (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP, SpecKind.LATEST_TIERED)


def topic(name: str, partitions: int, *, internal: bool = False, error: str | None = None) -> TopicInfo:
    """A topic with ``partitions`` partitions, each led by broker 1."""
    return TopicInfo(name, tuple(PartitionInfo(name, p, 1) for p in range(partitions)), internal, error)


class FakeCluster:
    """The cluster's answers; ``marker_points`` records what the marker check was asked."""

    def __init__(
        self,
        metadata: ClusterMetadata,
        logs: Mapping[TopicPartition, tuple[int, int]],
        groups: Sequence[GroupOffsets],
        *,
        markers: Collection[tuple[TopicPartition, int]] = (),
        share: Sequence[ShareGroupOffsets] = (),
        share_disabled: bool = False,
        lacking: Collection[str] = (),
        sizes: Mapping[TopicPartition, int] | None = None,
    ) -> None:
        self.md = metadata
        self.logs = logs
        self.groups = {g.group: g for g in groups}
        self.share = {o.group: o for o in share}
        self.share_disabled = share_disabled
        #: the group types this cluster is too old for (group_type_support)
        self.lacking = frozenset(lacking)
        self.share_asked: list[tuple[str, ...]] = []
        self.markers = set(markers)
        self.marker_points: list[tuple[TopicPartition, int]] = []
        #: each partition's size on disk (DescribeLogDirs); one left out has no answer
        self.sizes = dict(sizes or {})
        self.sizes_asked: list[dict[TopicPartition, int]] = []

    def metadata(
        self,
        topic: str | None = None,
        *,
        only: Callable[[str], bool] | None = None,
        names: Sequence[str] | None = None,
    ) -> ClusterMetadata:
        if names is not None:
            return ClusterMetadata({n: self.md.topics[n] for n in names if n in self.md.topics})
        return ClusterMetadata({n: t for n, t in self.md.topics.items() if only is None or only(n)})

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        out = []
        for req in requests:
            for tp, spec in req.queries:
                start, end = self.logs[tp]
                offset: int | None = start if spec == OffsetSpec.earliest() else end
                if spec.kind in _RECORDS:  # the offset of a record, as a broker answers: below the end
                    offset = end - 1 if end > start else None
                out.append(OffsetResult(tp.topic, tp.partition, spec, offset))
        return out

    def group_ids(self) -> list[str]:
        return sorted(self.groups)

    def group_types(self) -> GroupListing:
        return GroupListing(
            types={**dict.fromkeys(self.groups, "consumer"), **dict.fromkeys(self.share, "share")}
        )

    def group_type_support(self, group_types: Collection[str]) -> dict[str, str]:
        return {
            t: f"{t} groups are not supported by this cluster"
            for t in sorted(group_types)
            if t in self.lacking
        }

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        self.share_asked.append(tuple(groups))
        if self.share_disabled:
            off = {g: ShareGroupOffsets(group=g, error="UNSUPPORTED_VERSION") for g in groups}
            return GroupTypeAnswer(
                group_type="share",
                groups=off,
                unavailable="share groups are not enabled on this cluster (share.version)",
            )
        answer = {g: self.share.get(g, ShareGroupOffsets(group=g)) for g in groups}
        return GroupTypeAnswer(group_type="share", groups=answer)

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        return {g: GroupDescription(g, "empty", 0) for g in groups}

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        return [self.groups[g] for g in groups if g in self.groups]

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]]
    ) -> dict[tuple[TopicPartition, int], bool | str]:
        self.marker_points += points
        return {pt: pt in self.markers for pt in points}

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        return {t: {} for t in topics}

    def partition_sizes(
        self, leaders: Mapping[TopicPartition, int]
    ) -> tuple[dict[TopicPartition, int], dict[TopicPartition, str]]:
        self.sizes_asked.append(dict(leaders))
        got = {tp: self.sizes[tp] for tp in leaders if tp in self.sizes}
        return got, {tp: "KAFKA_STORAGE_ERROR" for tp in leaders if tp not in got}
