"""Which rows a group gets, and the rows assembled from ListOffsets answers (pure: no I/O).

The one place both lag paths decide a group's rows and problems: ``kafka-offsets
lag`` (:func:`kafka_offsets_cli.measures.lag.collect.collect`) plans each group with
:func:`plan_group`, as the Spark planner does for each lag check
(:mod:`kafka_offsets_cli.check.plan`); a Spark task re-plans its chunk of those
rows with :func:`planned_rows` (the partitions gone known from planning). Every
path turns the plans and the partitions' log start and end into rows with
:func:`assemble_rows`.

Planning is linear: the selection is resolved against the cluster's metadata once
(:func:`partition_index`), and each group's plan then costs in proportion to its
own topics' partitions, not to the cluster's (groups x partitions before).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import cast

from ...models.groups import GroupDescription, GroupOffsets
from ...models.offset_results import index_of
from ...models.offsets import OffsetResult, OffsetSpec
from ...models.topics import ClusterMetadata, TopicPartition
from ...parse.selection import Selection
from ...system_topics import is_system_topic
from .index import PartitionIndex as PartitionIndex  # re-exported: the planners import it from here
from .index import partition_index as partition_index
from .rows import NO_ANSWER, UNKNOWN_TOPIC, GroupProblem, LagRow, error_row, lag_rows_of

#: Kafka's error for a consumer group that does not exist (kafka-consumer-groups: GroupIdNotFoundException).
GROUP_ID_NOT_FOUND = "GROUP_ID_NOT_FOUND"


@dataclass(frozen=True, kw_only=True)
class GroupPlan:
    """The rows of one consumer group, before any offset is listed.

    ``partitions`` exist and get a row each from their log start and end; ``gone``
    are partitions the group committed to (or is assigned) that no longer exist,
    each an ``error`` row. ``error``: the group's offsets could not be read; each
    of its ``partitions`` (if any are known) is an ``error`` row with it.
    ``named``: a group asked for by name, which reports having no rows.
    """

    group: str
    committed: Mapping[TopicPartition, int | None] = field(default_factory=dict)
    partitions: tuple[TopicPartition, ...] = ()
    gone: tuple[TopicPartition, ...] = ()
    error: str | None = None
    named: bool = True
    #: ``classic``, ``consumer``, ``share`` or ``streams`` (each row's and problem's ``group_type``)
    group_type: str | None = None

    @property
    def empty(self) -> bool:
        """True when the group was read and has no row in the selection."""
        return self.error is None and not self.partitions and not self.gone

    @property
    def problem(self) -> GroupProblem | None:
        """What ``lag`` shows instead of rows: the group's error, or that a named group has none."""
        if self.error is not None:
            return GroupProblem(self.group, self.error, self.group_type)
        if self.empty and self.named:
            return GroupProblem(self.group, None, self.group_type)
        return None


def _offsets_error(offsets: GroupOffsets | None) -> str | None:
    if offsets is None:
        return NO_ANSWER
    return offsets.error


def group_missing(description: GroupDescription | None, offsets: GroupOffsets | None) -> bool:
    """True when the coordinator says the group does not exist, as kafka-consumer-groups decides.

    Kafka's tool describes the group and stops at ``GROUP_ID_NOT_FOUND`` (the
    consumer-protocol answer; "Consumer group 'x' does not exist." for a ``Dead``
    group in earlier versions). The tool describes it through DescribeGroups v5 (after
    ConsumerGroupDescribe said it is not a ``consumer`` group), whose answer for an unknown
    id is state ``dead`` with no members, as librdkafka's describe was. A group with committed
    offsets exists (it is ``empty`` at least), whatever a racing describe said.
    """
    if description is None or (offsets is not None and offsets.offsets):
        return False
    return description.error == GROUP_ID_NOT_FOUND or (
        description.error is None and description.state == "dead" and description.members == 0
    )


def plan_group(
    group: str,
    offsets: GroupOffsets | None,
    description: GroupDescription | None,
    metadata: ClusterMetadata,
    selection: Selection | None,
    *,
    named: bool = True,
    exclude_system: bool = False,
    index: PartitionIndex | None = None,
    group_type: str | None = None,
) -> GroupPlan:
    """The rows ``lag`` shows for ``group`` (the one place that decides them).

    Every partition of each topic the group has committed offsets for or is
    assigned (``description``), within ``selection``, so partitions without a
    commit show as ``no-commit``; for a ``named`` group also every partition of
    the selection's literal topics. Committed or assigned partitions (within the
    selection) that no longer exist are ``gone``. ``exclude_system`` leaves out
    Kafka's system topics (by name, :mod:`kafka_offsets_cli.system_topics`) when there is
    no selection to do so. ``offsets`` ``None``: the cluster gave no answer for the group.
    A group that does not exist (:func:`group_missing`) has no rows and the error
    ``GROUP_ID_NOT_FOUND``: a typo must not look like a group with nothing committed
    (``no-commit``). ``index``: :func:`partition_index` of ``metadata`` and ``selection``,
    built once for many groups (else built here). ``lag`` and ``check`` both plan here.
    ``group_type``: the group's type as the brokers list it (each row's and problem's).
    """
    error = _offsets_error(offsets)
    if offsets is None or error is not None:
        return GroupPlan(group=group, error=error, named=named, group_type=group_type)
    # a streams group is described by the consumer-group calls as one they do not know (dead, or
    # GROUP_ID_NOT_FOUND): once its offsets are deleted that is no proof; ListGroups listed it
    if group_type != "streams" and group_missing(description, offsets):
        return GroupPlan(group=group, error=GROUP_ID_NOT_FOUND, named=named, group_type=group_type)
    touched = set(offsets.offsets) | set(description.assigned if description is not None else ())
    if index is None:
        index = partition_index(metadata, selection)
    if selection is None and exclude_system:  # by name, not the broker's flag; asked once per topic
        system = {t for t in {tp[0] for tp in touched} if is_system_topic(t)}
        if system:
            touched = {tp for tp in touched if tp[0] not in system}
    parts, gone = index_partitions(index, touched, include_literal=named)
    return GroupPlan(
        group=group,
        committed=offsets.offsets,
        partitions=tuple(parts),
        gone=tuple(gone),
        named=named,
        group_type=group_type,
    )


def planned_group(
    group: str,
    offsets: GroupOffsets | None,
    partitions: Iterable[TopicPartition],
    metadata: ClusterMetadata,
) -> GroupPlan:
    """A plan for exactly ``partitions`` (rows planned earlier): those missing from ``metadata`` are gone.

    A group whose offsets cannot be read keeps its partitions, each to show the error. (A Spark
    task knows the gone partitions from planning and calls :func:`planned_rows` directly.)
    """
    parts = sorted(set(partitions))
    existing = _existing(metadata, {tp.topic for tp in parts})
    return planned_rows(group, offsets, parts, [tp for tp in parts if tp not in existing])


def planned_rows(
    group: str,
    offsets: GroupOffsets | None,
    partitions: Iterable[TopicPartition],
    gone: Collection[TopicPartition],
    group_type: str | None = None,
) -> GroupPlan:
    """A plan for exactly ``partitions``, of which ``gone`` no longer exist (known when planning).

    A group whose offsets cannot be read keeps its partitions, each to show the error.
    ``group_type``: the group's type as the brokers list it (each row's).
    """
    parts = sorted(set(partitions))
    error = _offsets_error(offsets)
    if offsets is None or error is not None:
        return GroupPlan(group=group, partitions=tuple(parts), error=error, group_type=group_type)
    gone_set = set(gone)
    exist = [tp for tp in parts if tp not in gone_set]
    lost = [tp for tp in parts if tp in gone_set]
    return GroupPlan(
        group=group,
        committed=offsets.offsets,
        partitions=tuple(exist),
        gone=tuple(lost),
        group_type=group_type,
    )


def group_partitions(
    metadata: ClusterMetadata,
    selection: Selection | None,
    touched: Iterable[TopicPartition],
    *,
    include_literal: bool = True,
) -> tuple[list[TopicPartition], list[TopicPartition]]:
    """A group's rows: every partition of each topic it committed to or is assigned (within the
    selection) plus the selection's literal topics; and touched partitions that do not exist.

    Resolves ``selection`` against the whole ``metadata``: for many groups, build a
    :func:`partition_index` once and call :func:`index_partitions`.
    """
    return index_partitions(partition_index(metadata, selection), touched, include_literal=include_literal)


def index_partitions(
    index: PartitionIndex, touched: Iterable[TopicPartition], *, include_literal: bool = True
) -> tuple[list[TopicPartition], list[TopicPartition]]:
    """:func:`group_partitions` from an index: work in proportion to the group's own topics."""
    selection = index.selection
    by_topic: dict[str, list[TopicPartition]] = {}
    for tp in set(touched):
        by_topic.setdefault(tp[0], []).append(tp)  # tp[0]: the topic, without the property's call
    topics = set(by_topic)
    if selection is not None and include_literal:
        topics |= set(selection.literal_topics() or ())
    rows: list[TopicPartition] = []
    gone: list[TopicPartition] = []
    allows = selection.allows if selection is not None else None
    for name in sorted(topics):
        existing = index.existing.get(name)
        mine = by_topic.get(name, ())
        if existing is None:  # gone, or its metadata carries an error
            gone += [tp for tp in mine if allows is None or allows(tp[0], tp[1])]
            continue
        rows += index.rows(name)
        gone += [  # tp[0], tp[1]: topic and partition, without the properties' calls (500 a group)
            tp for tp in mine if tp[1] not in existing and (allows is None or allows(tp[0], tp[1]))
        ]
    return rows, sorted(gone)


def _existing(metadata: ClusterMetadata, topics: Iterable[str]) -> set[TopicPartition]:
    """The partitions of ``topics`` that exist (and could be described)."""
    out: set[TopicPartition] = set()
    for name in topics:
        info = metadata.topics.get(name)
        if info is not None and info.error is None:
            out |= {TopicPartition(name, p.partition) for p in info.partitions}
    return out


def offsets_needed(plans: Iterable[GroupPlan]) -> list[TopicPartition]:
    """The partitions whose log start and end the plans' rows need (sorted, once each)."""
    # in plan order (each plan's partitions sorted): the sort merges the runs instead of sorting a
    # set's order from scratch
    return sorted(dict.fromkeys(chain.from_iterable(p.partitions for p in plans if p.error is None)))


def assemble_rows(
    plans: Sequence[GroupPlan],
    results: Iterable[OffsetResult],
    *,
    tiered: Mapping[str, bool | None] | None = None,
) -> list[LagRow]:
    """The plans' rows, from the partitions' earliest and latest ListOffsets ``results``.

    In plan order, each group's existing partitions before its gone ones. A
    partition without both answers is an ``error`` row (NO_ANSWER). ``tiered``: each topic's
    ``remote.storage.enable``, for each row's first ``remote_read`` (:func:`.rows.lag_rows_of`).
    """
    early_of, late_of = _by_partition(results)
    rows: list[LagRow] = []
    for plan in plans:
        group, kind = plan.group, plan.group_type
        if plan.error is not None:
            rows += [error_row(group, tp, plan.error, kind) for tp in (*plan.partitions, *plan.gone)]
            continue
        committed = plan.committed
        rows += lag_rows_of(group, kind, plan.partitions, committed, early_of, late_of, tiered=tiered)
        if plan.gone:
            gone = lag_rows_of(group, kind, plan.gone, committed, {}, {}, error=UNKNOWN_TOPIC, tiered=tiered)
            rows += gone
    return rows


def _by_partition(
    results: Iterable[OffsetResult],
) -> tuple[Mapping[tuple[str, int], OffsetResult], Mapping[tuple[str, int], OffsetResult]]:
    """The ``earliest`` and ``latest`` answers among ``results``, each by (topic, partition) (the last
    answer of a partition and spec wins)."""
    earliest, latest = OffsetSpec.earliest(), OffsetSpec.latest()
    index = index_of(results)
    if index is not None:  # the answers' own index (specs equal by value are one key): nothing to build
        by_tp = Mapping[tuple[str, int], OffsetResult]  # a TopicPartition is its (topic, partition)
        return cast(by_tp, index.get(earliest, {})), cast(by_tp, index.get(latest, {}))
    answers = results if isinstance(results, (list, tuple)) else list(results)
    # the usual answers carry the shared spec instances: two C-speed comprehensions keyed by the
    # result's (topic, partition) slice, which equals and hashes as a TopicPartition (50,000 rows)
    early_of = {r[:2]: r for r in answers if r[2] is earliest}
    late_of = {r[:2]: r for r in answers if r[2] is latest}
    if len(early_of) + len(late_of) == len(answers):
        return early_of, late_of
    # equal copies (a Spark task's unpickled specs), other specs or repeated answers: each distinct spec
    # object compared once (== is a dataclass __eq__, a Python call), the answers then sorted by identity
    distinct = {id(r[2]): r[2] for r in answers}
    early_ids = {i for i, spec in distinct.items() if spec == earliest}
    late_ids = {i for i, spec in distinct.items() if spec == latest}
    early_of = {r[:2]: r for r in answers if id(r[2]) in early_ids}
    late_of = {r[:2]: r for r in answers if id(r[2]) in late_ids}
    return early_of, late_of
