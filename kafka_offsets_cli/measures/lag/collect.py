"""Reading lag from a cluster: the I/O shell around the pure steps of :mod:`kafka_offsets_cli.measures.lag`.

:func:`collect` is the whole ``kafka-offsets lag``: read the groups and the
metadata, plan each group's rows (:func:`~kafka_offsets_cli.measures.lag.plan.plan_group`),
then :func:`lag_rows`, which a Spark ``check`` task also runs on the rows planned
for it: one ListOffsets round for log start and end, the rows
(:func:`~kafka_offsets_cli.measures.lag.plan.assemble_rows`), the transaction-marker check
and the time-lag bisection.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from operator import attrgetter
from typing import Any

from ...ahead import Ahead
from ...errors import ClusterError, NotFound
from ...models.group_types import ShareGroupOffsets
from ...models.groups import GroupDescription, GroupMembers, GroupOffsets, Member
from ...models.offsets import Isolation, OffsetSpec
from ...models.topics import ClusterMetadata, TopicPartition
from ...parse.java_regex import compile_java_regex
from ...parse.selection import Selection
from ...parse.times import now_ms as wall_clock_ms
from ...plan.queries import fetch_offsets, selection_metadata, with_close_names
from ...plan.requests import DEFAULT_CHUNK
from ...plan.resolve import Missing
from ...sources import GroupLister, LagSource
from .loss import LOSS_KEYS, LossTopics, RowKey
from .loss_read import read_loss_etas
from .markers import MarkerCount, count_markers, marker_candidates, with_markers
from .plan import GROUP_ID_NOT_FOUND as GROUP_ID_NOT_FOUND  # re-exported: lag's notes import it from here
from .plan import GroupPlan, assemble_rows, offsets_needed, partition_index, plan_group
from .plan import group_missing as group_missing
from .remote import RemoteConfigs, read_remote_configs, tiered_topics, with_remote_reads
from .rows import COLUMNS, GroupProblem, LagRow, LagState
from .share import broker_lags, share_committed, with_broker_lags
from .timelag import time_lags_and_resume_times, with_resume_times, with_time_lag_errors, with_time_lags

_STATE = attrgetter("state")


@dataclass(frozen=True, kw_only=True)
class LagReport:
    """The result of :func:`collect`: rows, group descriptions, problems and how time lag went."""

    rows: tuple[LagRow, ...]
    groups: Mapping[str, GroupDescription]
    problems: tuple[GroupProblem, ...] = ()
    time_lag: bool = False
    time_lag_rounds: int = 0
    time_lag_searched: int = 0
    time_lag_failed: int = 0
    marker_checked: int = 0
    marker_unchecked: Mapping[str, int] = field(default_factory=dict)  # check failures by error name
    #: selected topics or partitions that do not exist or cannot be described
    missing: tuple[Missing, ...] = ()
    #: each group's members and protocol, when asked for (``lag --members``, the summary's TYPE)
    members: Mapping[str, GroupMembers] = field(default_factory=dict)
    #: partitions whose remote read is unknown, by reason (``remote_reads``: :mod:`.remote`)
    remote_unchecked: Mapping[str, int] = field(default_factory=dict)
    #: one line per group type the cluster cannot answer for (share groups not enabled…)
    unavailable: tuple[str, ...] = ()
    #: ``--loss-eta`` (:mod:`.loss`): each row's ``loss_eta_ms`` by (group, topic, partition), rows
    #: without one left out, and the topics the ETA misses something on
    loss_eta: bool = False
    loss_etas: Mapping[RowKey, int] = field(default_factory=dict)
    loss_topics: LossTopics = field(default_factory=LossTopics)
    #: ``--staleness`` (:mod:`.stale`): each row's ``commit_stale_ms`` by (group, topic, partition), rows
    #: without one left out; lagging partitions seen for the first time; the state's warnings
    staleness: bool = False
    stale_ms: Mapping[RowKey, int] = field(default_factory=dict)
    stale_first_sight: int = 0
    stale_notes: tuple[str, ...] = ()

    def group_types(self) -> dict[str, str | None]:
        """Each group's type: the one the brokers listed, else the one its description says."""
        types: dict[str, str | None] = {g: m.protocol for g, m in self.members.items()}
        types.update({r.group: r.group_type for r in self.rows if r.group_type})
        types.update({p.group: p.group_type for p in self.problems if p.group_type})
        return types

    def owners(self) -> dict[tuple[str, str, int], Member]:
        """Each (group, topic, partition) assigned to a member: that member (from ``members``)."""
        return {
            (g, tp.topic, tp.partition): m
            for g, gm in self.members.items()
            for m in gm.members
            for tp in m.assigned
        }

    @property
    def failed(self) -> bool:
        """True when a group, partition or selected topic carries an error, or a time-lag search failed."""
        return (
            bool(self.missing)
            or any(p.error for p in self.problems)
            or LagState.ERROR in map(_STATE, self.rows)  # in C: no generator step per row
            or self.time_lag_failed > 0
        )

    def missing_records(self) -> list[dict[str, Any]]:
        """Records (group null, state error) for the selection's missing topics and partitions."""
        out = []
        for m in self.missing:
            rec: dict[str, Any] = {c: None for c in COLUMNS}
            rec.update(topic=m.topic, partition=m.partition, state=LagState.ERROR.value, error=m.error)
            out.append(rec)
        return out


class ListedGroups:
    """Listed groups of every type as a :class:`GroupLister` (a group regex matches them all)."""

    def __init__(self, types: Mapping[str, str]) -> None:
        self.types = types

    def group_ids(self) -> list[str]:
        """The listed group ids, sorted."""
        return sorted(self.types)


def resolve_groups(source: GroupLister, names: Sequence[str], regexes: Sequence[str]) -> list[str]:
    """Explicit group ids plus every listed group a regex matches as a whole (sorted, no duplicates).

    Raises :class:`UsageError` for an invalid regex and :class:`NotFound` when a
    regex was given and nothing at all was selected.
    """
    compiled = [compile_java_regex(rx, "--group-regex") for rx in regexes]  # Java regexes, as Kafka's
    groups = dict.fromkeys(names)
    if compiled:
        for g in source.group_ids():
            if any(c.matches(g) for c in compiled):
                groups[g] = None
    if not groups:
        raise NotFound(
            "no consumer group matched " + ", ".join(repr(r) for r in regexes),
            hint="--group-regex must match the whole group id; see `kafka-consumer-groups --list`",
        )
    return sorted(groups)


@dataclass(frozen=True, kw_only=True)
class LagRows:
    """The rows of some group plans, and how the marker check and the time-lag searches went."""

    rows: tuple[LagRow, ...]
    markers: MarkerCount = field(default_factory=MarkerCount)
    time_lag_rounds: int = 0
    time_lag_searched: int = 0
    time_lag_failed: int = 0
    #: every row's ``remote_read`` was set when it was made, from the configs read ahead (the marker
    #: check and the time lag keep what that rule reads: a state in the log, committed, end)
    remote_flagged: bool = False


def lag_rows(
    source: LagSource,
    plans: Sequence[GroupPlan],
    *,
    leaders: Mapping[TopicPartition, int] | None = None,
    isolation: Isolation | None = None,
    time_lag: bool = False,
    marker_check: bool = True,
    chunk_size: int = DEFAULT_CHUNK,
    clock: Callable[[], int] = wall_clock_ms,
    remote_configs: Callable[[], RemoteConfigs | None] | None = None,
) -> LagRows:
    """The rows of ``plans``: one ListOffsets round for every log start and end, then the
    marker check for rows with lag 1 (unless ``marker_check`` is off) and the time-lag
    bisection (if ``time_lag``), its "now" read from ``clock`` (epoch ms). ``leaders`` (from
    the metadata the plans were made with) sends each request straight to its broker.
    ``remote_configs``: the topics' ``remote.storage.enable`` if read by the time the rows are made
    (else ``None``): each row's first ``remote_read`` (:func:`.rows.lag_rows_of`), which
    :func:`.remote.with_remote_reads` then finishes.
    """
    results = fetch_offsets(
        source,
        offsets_needed(plans),
        [OffsetSpec.earliest(), OffsetSpec.latest()],
        isolation=isolation,
        chunk_size=chunk_size,
        leaders=leaders,
    )
    configs = remote_configs() if remote_configs is not None else None
    if configs is None:
        rows = assemble_rows(plans, results)
    else:
        rows = assemble_rows(plans, results, tiered=tiered_topics(configs))
    markers = MarkerCount()
    if marker_check:
        points = marker_candidates(rows)
        if points:
            found = source.control_records(points)
            markers = count_markers(found)
            rows = with_markers(rows, found)
    flagged = configs is not None
    if not time_lag:
        return LagRows(rows=tuple(rows), markers=markers, remote_flagged=flagged)

    lags, resumes = time_lags_and_resume_times(
        source, rows, isolation=isolation, chunk_size=chunk_size, leaders=leaders
    )
    now = clock()
    rows = with_resume_times(with_time_lag_errors(with_time_lags(rows, lags, now), lags), resumes, now)
    return LagRows(
        rows=tuple(rows),
        markers=markers,
        time_lag_rounds=max((t.rounds for t in lags.values()), default=0),
        time_lag_searched=len(lags),
        time_lag_failed=sum(1 for t in lags.values() if t.error is not None),
        remote_flagged=flagged,
    )


def collect(
    source: LagSource,
    groups: Sequence[str],
    selection: Selection | None,
    *,
    isolation: Isolation | None = None,
    time_lag: bool = False,
    marker_check: bool = True,
    chunk_size: int = DEFAULT_CHUNK,
    named: Collection[str] | None = None,
    remote_reads: bool = False,
    exclude_system: bool = True,
    clock: Callable[[], int] = wall_clock_ms,
    types: Mapping[str, str] | None = None,
    share: Mapping[str, ShareGroupOffsets] | None = None,
    loss_eta: bool = False,
    metadata: ClusterMetadata | None = None,
    given: Mapping[str, GroupOffsets] | None = None,
    described: Mapping[str, GroupDescription] | None = None,
) -> LagReport:
    """The whole ``lag`` use case for already resolved ``groups``.

    Each group's rows are planned by :func:`~kafka_offsets_cli.measures.lag.plan.plan_group`
    (restricted to ``selection``). For ``named`` groups (default: all of
    ``groups``; the CLI passes those given with ``--group``, not those a regex
    matched) the selection's literal topics are shown even if the group never
    touched them, and a group with nothing to show is reported as a
    :class:`~kafka_offsets_cli.measures.lag.rows.GroupProblem`; other groups without
    anything in the selection are left out quietly; without a selection Kafka's system
    topics are left out (``exclude_system``). Then :func:`lag_rows`, and with
    ``remote_reads`` each row's ``remote_read`` (:mod:`.remote`); time lag is measured at ``clock()``.
    ``types``: each group's type as the brokers list it; ``share``: the share groups' start offsets
    (DescribeShareGroupOffsets), planned in the committed offsets' place (:mod:`.share`).
    ``loss_eta`` (needs ``time_lag``): each row's data-loss ETA (:mod:`.loss`), its topics' retention
    and ``remote.storage.enable`` read in one DescribeConfigs. ``metadata``: the selection's, when the
    caller asked for it already (:func:`~kafka_offsets_cli.plan.queries.selection_metadata`).
    ``given``: committed offsets read elsewhere (a Spark checkpoint's), by group: not asked, not described.
    ``described``: groups described elsewhere (a streams group by StreamsGroupDescribe: its assignment
    is its active tasks' input and repartition partitions), not described again.
    """
    described = described or {}
    share, given = share or {}, given or {}
    types = types or {}
    others = [g for g in groups if g not in share and g not in given]
    # committed offsets first: a group whose coordinator did not answer is then not described
    # (asking it again would spend the rest of --timeout on the same silence)
    committed = {g.group: g for g in source.committed_offsets(others)} if others else {}
    committed.update({g: share_committed(o) for g, o in share.items()})
    committed.update(given)
    plain = [g for g in others if g not in described]
    descriptions = {**(source.describe_groups(plain) if plain else {}), **described}
    metadata = metadata if metadata is not None else selection_metadata(source, selection)
    index = partition_index(metadata, selection)  # the selection resolved once, for every group
    missing: tuple[Missing, ...] = ()
    if index.resolution is not None:
        missing = with_close_names(source, metadata, index.resolution.require_any()).missing
    plans = [
        plan_group(
            g,
            committed.get(g),
            descriptions.get(g),
            metadata,
            selection,
            named=named is None or g in named,
            exclude_system=exclude_system,
            index=index,
            group_type=types.get(g),
        )
        for g in groups
    ]
    leaders = index.leaders(chain.from_iterable(p.partitions for p in plans))
    read = [p for p in plans if p.error is None]
    # remote.storage.enable asked while the ListOffsets are answered (remote.py), unless --loss-eta reads it
    ahead = remote_reads and not loss_eta
    topics = {tp[0] for p in read for tp in p.partitions} if ahead else ()
    with Ahead(partial(read_remote_configs, source, topics), "configs") if ahead else nullcontext() as remote:
        out = lag_rows(
            source, read, leaders=leaders, isolation=isolation, time_lag=time_lag,
            marker_check=marker_check, chunk_size=chunk_size, clock=clock,
            remote_configs=remote.ready if remote is not None else None,
        )  # fmt: skip
        rows, unchecked = out.rows, dict[str, int]()
        if share:
            rows = tuple(with_broker_lags(rows, broker_lags(share)))
        configs: RemoteConfigs | None = remote.result() if remote is not None else None
        etas, lost = dict[RowKey, int](), LossTopics()
        if loss_eta:
            configs = _retention_configs(source, rows)
            etas, lost = read_loss_etas(source, rows, configs or {}, leaders)
        if remote_reads:
            rows, unchecked = with_remote_reads(
                source, rows, leaders=leaders, isolation=isolation, chunk_size=chunk_size, configs=configs,
                flagged=out.remote_flagged and not loss_eta,  # --loss-eta read the configs again
            )  # fmt: skip
    return LagReport(
        rows=rows,
        groups=descriptions,
        problems=tuple(problem for p in plans if (problem := p.problem) is not None),
        time_lag=time_lag,
        time_lag_rounds=out.time_lag_rounds,
        time_lag_searched=out.time_lag_searched,
        time_lag_failed=out.time_lag_failed,
        marker_checked=out.markers.checked,
        marker_unchecked=out.markers.unchecked,
        missing=missing,
        remote_unchecked=unchecked,
        loss_eta=loss_eta,
        loss_etas=etas,
        loss_topics=lost,
    )


def _retention_configs(source: LagSource, rows: Sequence[LagRow]) -> dict[str, dict[str, str]] | None:
    """The retention configs (and ``remote.storage.enable``) of the rows' topics with an offset in the
    log, in one DescribeConfigs; ``None`` when the request failed as a whole (every ETA unknown)."""
    topics = sorted(
        {r.topic for r in rows if r.state in (LagState.OK, LagState.MARKER, LagState.BELOW_START)}
    )
    try:
        return source.topic_configs(topics, LOSS_KEYS) if topics else {}
    except ClusterError:
        return None
