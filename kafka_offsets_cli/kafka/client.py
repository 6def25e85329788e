"""The tool's Kafka client: one object for the use cases, composed of one part per concern."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import confluent_kafka

from ..connection.settings import ClientSettings
from ..models.group_types import GroupListing, GroupTypeAnswer, ShareGroupOffsets
from ..models.groups import GroupDescription, GroupMembers, GroupOffsets
from ..models.offsets import Isolation, OffsetResult
from ..models.topics import TopicPartition
from ..plan.requests import OffsetRequest
from .admin import TopicReader
from .errors import require_group_ids
from .groups import GroupReader
from .list_offsets import OffsetLister
from .markers import MarkerAnswers, MarkerProbe
from .session import Session

if TYPE_CHECKING:
    from ..models.group_descriptions import ShareGroup, StreamsGroup
    from .list_offsets_kafka_python import WireLister


#: share and streams groups are asked through kafka-python only: settings it cannot take (a SASL
#: mechanism only librdkafka speaks) leave them unseen, said once, as consumer groups go on as before
_UNTYPED = (
    "{kind} groups cannot be asked with these client settings (kafka-python cannot take them; "
    "--debug says why): groups are read as consumer groups"
)


class _ListOffsets(Protocol):
    def __call__(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]: ...


class KafkaClient:
    """An admin client for one cluster, with the tool's timeout and error rules."""

    def __init__(self, settings: ClientSettings, *, debug: bool = False) -> None:
        self.settings = settings
        self._session = Session(settings, debug=debug)
        self._offsets = OffsetLister(self._session)
        self._topics = TopicReader(self._session)
        #: topic metadata for the whole cluster, one topic, or the topics named: the topic reader's
        #: own method (:meth:`.admin.TopicReader.metadata`), not a wrapper repeating its signature
        self.metadata = self._topics.metadata
        self._groups = GroupReader(self._session)
        self._markers = MarkerProbe(self._session)
        self._wire: WireLister | None = None  # made when ListOffsets first go through kafka-python

    # -- the --timeout budget and the client's life -------------------------------

    def remaining(self) -> float:
        """Seconds left before the overall ``--timeout``."""
        return self._session.deadline.remaining()

    @property
    def answered(self) -> bool:
        """Whether a broker has answered yet: until then the client is connecting to its bootstrap servers."""
        return self._session.answered

    def restart_clock(self) -> None:
        """Start a new ``--timeout`` budget (used by ``--watch`` between refreshes)."""
        self._session.deadline.restart()

    def close(self) -> None:
        """Release the client (librdkafka threads stop when it is collected)."""
        self._session.close()

    def __enter__(self) -> KafkaClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- topics (admin.py) -----------------------------------------------------------

    def cluster_id(self) -> str | None:
        """The Kafka cluster id (DescribeCluster); ``None`` when the cluster does not give it."""
        return self._topics.cluster_id()

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        """The values of ``keys`` for each topic; a topic whose configs cannot be described is left out."""
        return self._topics.topic_configs(topics, keys)

    def partition_sizes(
        self, leaders: Mapping[TopicPartition, int]
    ) -> tuple[dict[TopicPartition, int], dict[TopicPartition, str]]:
        """Each partition's size in bytes on its leader (``leaders``: partition -> leader id), and the
        error of each one without a size (DescribeLogDirs, :mod:`.log_dirs`)."""
        if not self._groups.kafka_python_fits():
            return {}, dict.fromkeys(leaders, "CLIENT_SETTINGS_UNSUPPORTED_BY_KAFKA_PYTHON")
        from .log_dirs import partition_sizes

        return partition_sizes(self._session.kafka_python(), self._session.deadline, leaders)

    # -- ListOffsets (list_offsets.py) ---------------------------------------------------

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        """Execute planned ListOffsets calls concurrently, retrying transient errors.

        Returns one result per (partition, spec) query, in no particular order. A
        partition whose last attempt failed carries the error and no offset.
        """
        if self._session.kafka_python_open and self._groups.kafka_python_fits():
            # a run that read groups has kafka-python's client open: one request per leader and spec
            # there costs less than librdkafka's calls of 500 (bench/list_offsets_routes.py)
            return self.offsets_route("kafka-python")(requests, isolation=isolation, progress=progress)
        tiered = [r for r in requests if r.queries and r.queries[0][1].tiered]
        if not tiered:
            return self._offsets.list_offsets(requests, isolation=isolation, progress=progress)
        # ListOffsets v8-v11 (-4, -5, -6): librdkafka cannot send them
        rest = [r for r in requests if not (r.queries and r.queries[0][1].tiered)]
        results = self._offsets.list_offsets(rest, isolation=isolation, progress=progress) if rest else []
        return results + self.offsets_route("kafka-python")(tiered, isolation=isolation, progress=progress)

    def offsets_route(self, name: str) -> _ListOffsets:
        """ListOffsets by one route, ``librdkafka`` or ``kafka-python`` (imported only then); the
        :meth:`list_offsets` rule picks one per call (``bench/list_offsets_routes.py`` times both)."""
        if name == "librdkafka":
            return self._offsets.list_offsets
        if self._wire is None:
            from .list_offsets_kafka_python import WireLister

            self._wire = WireLister(
                self._session.kafka_python(),
                self._session.deadline,
                self.settings.isolation,
                lambda topics: self._topics.metadata(names=topics),
            )
        return self._wire.list_offsets

    # -- consumer groups (groups.py) -----------------------------------------------------

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        """Committed offsets of each group, all groups queried concurrently (see :mod:`.groups`)."""
        return self._groups.committed_offsets(groups, partitions)

    def group_ids(self) -> list[str]:
        """The ids of the cluster's consumer groups, sorted (used by shell completion)."""
        return self._groups.group_ids()

    def group_types(self) -> GroupListing:
        """Every group of the cluster (share and streams groups too) with its type as the brokers say
        (``classic``, ``consumer``, ``share``, ``streams``: :mod:`.list_groups`). With settings
        kafka-python cannot take, or no broker answering it: librdkafka's listing (classic and
        consumer groups only). A broker that does not answer leaves its groups out, said in
        ``unanswered``."""
        if not self._groups.kafka_python_fits():
            return GroupListing(types=dict(sorted(self._groups.group_types_rdkafka().items())))
        from .list_groups import list_group_types

        found, error = list_group_types(self._session.kafka_python(), self._session.deadline)
        if error is not None and not found:  # librdkafka's, as before
            return GroupListing(types=dict(sorted(self._groups.group_types_rdkafka().items())))
        return GroupListing(types=dict(sorted(found.items())), unanswered=error)

    def group_type_support(self, group_types: Collection[str]) -> dict[str, str]:
        """Each of ``group_types`` the cluster lacks (an older release, the feature disabled), with the
        one line that says so (:mod:`.group_support`); empty when kafka-python cannot be used."""
        if not self._groups.kafka_python_fits():
            return {}
        from .group_support import group_type_support

        return group_type_support(self._session.kafka_python(), self._session.deadline, group_types)

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """State, member count and assigned partitions of each group (all described at once)."""
        return self._groups.describe_groups(groups)

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        """Each group's description with its members (client ids, hosts) and protocol."""
        return self._groups.group_members(groups)

    def group_session_timeouts(self, groups: Sequence[str]) -> dict[str, int]:
        """Each KIP-848 group's ``consumer.session.timeout.ms`` (groups not described are left out)."""
        return self._groups.group_session_timeouts(groups)

    def alter_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Commit ``offsets`` for ``group``: each partition's error name (``None``: committed)."""
        return self._groups.alter_group_offsets(group, offsets)

    def delete_group_offsets(
        self, group: str, partitions: Sequence[TopicPartition]
    ) -> dict[TopicPartition, str | None]:
        """Delete a consumer (or streams) group's committed offsets on ``partitions``: each
        partition's error name (``None``: deleted; ``GROUP_SUBSCRIBED_TO_TOPIC``: kept, the group's
        members are subscribed to its topic). Sent through kafka-python (OffsetDelete): librdkafka's
        Python admin client has no call for it."""
        from ..errors import ConfigError
        from .share_resets import delete_group_offsets

        require_group_ids([group])
        if not self._groups.kafka_python_fits():
            raise ConfigError(
                "deleting committed offsets needs kafka-python (OffsetDelete), which cannot take these "
                "client settings (--debug says why)"
            )
        return delete_group_offsets(self._session.kafka_python(), self._session.deadline, group, partitions)

    # -- transaction markers (markers.py) --------------------------------------------------

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]], *, max_wait: float = 10.0
    ) -> MarkerAnswers:
        """Whether the record at each (partition, offset) is a control record (transaction marker).

        True: a control record; False: data; an error name when neither could be seen
        within ``max_wait`` seconds (see :mod:`.markers`).
        """
        return self._markers.control_records(points, max_wait=max_wait)

    # -- share and streams groups for rewind (share_groups.py, share_resets.py, streams_groups.py) --

    def share_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[ShareGroup]:
        """Each group described as a share group (a group of another type: GROUP_ID_NOT_FOUND)."""
        from .share_groups import describe_share_groups

        require_group_ids(groups)  # refused (exit 2) before anything is asked, as every group request
        if not self._groups.kafka_python_fits():
            return GroupTypeAnswer(group_type="share", unavailable=_UNTYPED.format(kind="share"))
        return describe_share_groups(self._session.kafka_python(), self._session.deadline, groups)

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        """Each share group's share-partition start offsets (``partitions`` of them, or all)."""
        from .share_groups import describe_share_group_offsets

        require_group_ids(groups)  # refused (exit 2) before anything is asked, as every group request
        return describe_share_group_offsets(
            self._session.kafka_python(), self._session.deadline, groups, partitions
        )

    def alter_share_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Set a share group's start offsets: each partition's error name (``None``: set)."""
        from .share_resets import alter_share_group_offsets

        return alter_share_group_offsets(self._session.kafka_python(), self._session.deadline, group, offsets)

    def delete_share_group_offsets(self, group: str, topics: Sequence[str]) -> dict[str, str | None]:
        """Delete a share group's state on ``topics``: each topic's error name (``None``: deleted)."""
        from .share_resets import delete_share_group_offsets

        return delete_share_group_offsets(self._session.kafka_python(), self._session.deadline, group, topics)

    def streams_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[StreamsGroup]:
        """Each group described as a streams group (a group of another type: GROUP_ID_NOT_FOUND)."""
        from .streams_groups import describe_streams_groups

        require_group_ids(groups)  # refused (exit 2) before anything is asked, as every group request
        if not self._groups.kafka_python_fits():
            return GroupTypeAnswer(group_type="streams", unavailable=_UNTYPED.format(kind="streams"))
        return describe_streams_groups(self._session.kafka_python(), self._session.deadline, groups)


def library_versions() -> tuple[str, str]:
    """confluent-kafka's and librdkafka's versions."""
    ck = confluent_kafka.version()  # a (str, int) tuple in older releases, a str in newer ones
    rd = confluent_kafka.libversion()
    return str(ck[0] if isinstance(ck, tuple) else ck), str(rd[0] if isinstance(rd, tuple) else rd)
