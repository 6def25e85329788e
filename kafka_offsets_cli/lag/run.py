"""The ``lag`` use case as one call: the request a front end builds from its options, and its run.

A front end hands the options' values to :func:`request_of` (the selection built, time lag turned
on by what needs it) and the request and a client to :func:`query`, once or on every ``--watch``
refresh; :func:`require_rows` is the rule that a run with nothing to show is "not found". The
client's isolation level is its own setting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from ..ahead import Ahead
from ..errors import NotFound, UsageError
from ..measures.lag.collect import GROUP_ID_NOT_FOUND, LagReport, ListedGroups, collect, resolve_groups
from ..measures.lag.group_types import share_members, streams_members
from ..models.groups import GroupMembers
from ..models.topics import ClusterMetadata
from ..parse.command_selection import optional_selection
from ..parse.selection import Selection
from ..parse.times import now_ms
from ..plan.queries import close_names, selection_metadata
from ..sources import (
    GroupLister,
    GroupMemberSource,
    GroupTypeLister,
    GroupTypeSupport,
    LagSource,
    TypedGroupReader,
)
from .monitor import LagThresholds
from .summary import SortKey, sort_measures

if TYPE_CHECKING:
    from ..parse.spark_checkpoint import Opener
    from .stale_state import StaleStore


class LagRunSource(
    LagSource, GroupLister, GroupMemberSource, GroupTypeLister, GroupTypeSupport, TypedGroupReader, Protocol
):
    """What a lag run needs of a client: offsets, groups (listed with their types, read, their
    members; share groups' start offsets), the types the cluster cannot have, configs, the cluster
    id (commit staleness's key)."""

    def cluster_id(self) -> str | None:
        """The Kafka cluster id; ``None`` when the cluster does not give it."""


@dataclass(frozen=True, kw_only=True)
class LagRequest:
    """What to ask the cluster on each run (or refresh)."""

    groups: tuple[str, ...]
    regexes: tuple[str, ...]
    selection: Selection | None
    time_lag: bool
    marker_check: bool
    #: each shown group's members and protocol (the summary's TYPE, ``--members``)
    members: bool = False
    #: wall-clock epoch milliseconds, "now" of time lag (the front end's clock)
    clock: Callable[[], int] = now_ms
    #: ``--type``: the group types to show (``None``: every type)
    types: frozenset[str] | None = None
    #: each lagging row's data-loss ETA (``--loss-eta`` or a loss-ETA threshold; implies ``time_lag``)
    loss_eta: bool = False
    #: ``--staleness``: where the sights of earlier runs are kept (``None``: not measured), and the
    #: bootstrap servers that key them when the cluster has no id
    staleness: StaleStore | None = None
    bootstrap: str = ""
    #: ``--spark-checkpoint``: the Structured Streaming checkpoints read in place of groups
    checkpoints: tuple[str, ...] = ()
    #: the front end's reader of checkpoint URIs (``None``: local paths only)
    checkpoint_opener: Opener | None = None


def request_of(
    *,
    groups: Sequence[str] | None,
    regexes: Sequence[str] | None,
    topics: Sequence[str] | None,
    partitions: str | None,
    topic_partitions: str | None,
    exclude_internal_topics: bool,
    time_lag: bool,
    marker_check: bool,
    thresholds: LagThresholds,
    min_time_lag_ms: int | None,
    members: bool,
    clock: Callable[[], int] = now_ms,
    types: Sequence[str] | None = None,
    loss_eta: bool = False,
    sort: SortKey = SortKey.name,
    staleness: bool = False,
    checkpoints: Sequence[str] | None = None,
    checkpoint_opener: Opener | None = None,
) -> LagRequest:
    """The request of the options' values. Without selection options: ``None``, the groups' own
    partitions; with no topic named Kafka's system topics stay out (as without any selection).
    Time lag is read when asked, or when a time threshold, ``--min-time-lag`` or ``--sort time-lag``
    needs it; the data-loss ETA when asked or when a loss-ETA threshold or ``--sort loss-eta`` needs it
    (it is measured from the time lag's search, so it turns the time lag on too); commit staleness when
    asked or when a staleness threshold or ``--sort staleness`` needs it, its sights in the state
    file (:class:`~.stale_state.FileStore`; a front end may hand another store). ``checkpoints``
    (Spark checkpoints, :mod:`.checkpoint`) take the place of groups: not with groups, regexes or types."""
    if checkpoints and (groups or regexes or types):
        raise UsageError(
            "--spark-checkpoint reads queries, not groups: not with --group, --group-regex or --type"
        )
    selection = optional_selection(
        topics or (),
        partitions,
        topic_partitions,
        exclude_internal_topics,
        exclude_system=not topics and topic_partitions is None,
    )
    by_time, by_loss, by_stale = sort_measures(sort)
    loss = loss_eta or thresholds.on_loss or by_loss
    stale = staleness or thresholds.on_stale or by_stale
    if stale:
        from .stale_state import FileStore  # here: only --staleness keeps a state file (hashlib, json)
    return LagRequest(
        groups=tuple(groups or ()),
        regexes=tuple(regexes or ()),
        selection=selection,
        time_lag=time_lag or thresholds.on_time or min_time_lag_ms is not None or loss or by_time,
        marker_check=marker_check,
        members=members,
        clock=clock,
        types=frozenset(types) if types else None,
        loss_eta=loss,
        staleness=FileStore() if stale else None,
        checkpoints=tuple(checkpoints or ()),
        checkpoint_opener=checkpoint_opener,
    )


def query(
    client: LagRunSource, request: LagRequest, update: Callable[[str], None] | None = None
) -> LagReport:
    """Resolve the groups (regexes, or every group, again on every call) and collect their lag.

    Without groups and regexes every group of the cluster is read (ListGroups, one DescribeGroups,
    one OffsetFetch per coordinator, all at once); those with nothing committed or assigned in the
    selection are left out quietly, so ``-t X`` alone lists the groups on X. ``update`` hears progress.
    Every group type is read, each typed as the brokers list it (``--type`` keeps some): share groups
    by their share-partition start offsets (:mod:`..measures.lag.share`), the others by OffsetFetch.
    """
    # the selection's metadata (librdkafka) is asked while the groups are listed (kafka-python)
    with Ahead(lambda: selection_metadata(client, request.selection), "metadata") as metadata:
        return _query(client, request, update, metadata)


def _query(
    client: LagRunSource,
    request: LagRequest,
    update: Callable[[str], None] | None,
    metadata: Ahead[ClusterMetadata],
) -> LagReport:
    if request.checkpoints:
        from .checkpoint import checkpoint_report  # here: only --spark-checkpoint reads checkpoints

        report = checkpoint_report(
            client, request.checkpoints, request.selection, time_lag=request.time_lag,
            marker_check=request.marker_check, clock=request.clock, loss_eta=request.loss_eta,
            metadata=metadata.result(), opener=request.checkpoint_opener,
        )  # fmt: skip
        if request.staleness is None:
            return report
        return with_staleness(client, report, request.staleness, request.bootstrap, request.clock())
    listing = client.group_types()
    types = dict(listing.types)
    if request.groups or request.regexes:
        names = resolve_groups(ListedGroups(types), request.groups, request.regexes)
    else:
        names = sorted(types)
    lacking: tuple[str, ...] = ()
    if request.types is not None:
        names = [g for g in names if types.get(g, "consumer") in request.types]
        # a type asked for and never listed: is it that the cluster cannot have it (older, disabled)?
        unseen = request.types - set(types.values())
        lacking = tuple(client.group_type_support(unseen).values()) if unseen else ()
    if not names:
        if lacking:
            raise NotFound("; ".join(lacking))
        kinds = ", ".join(sorted(request.types)) if request.types is not None else "consumer"
        raise NotFound(f"the cluster has no {kinds} group" + (" of those selected" if request.groups else ""))
    shared = [g for g in names if types.get(g) == "share"]
    share = client.share_start_offsets(shared) if shared else None
    unavailable: tuple[str, ...] = lacking
    if listing.unanswered is not None and (request.regexes or not request.groups):
        # a broker that did not answer ListGroups: the groups it coordinates are not in this run
        unavailable += (f"a broker did not list its groups ({listing.unanswered}): its groups are missing",)
    if share is not None and share.unavailable is not None:
        # share groups listed on a cluster that cannot describe them (share.version disabled): one
        # line for the type, not an error per group and a failed run
        unavailable, share = (*unavailable, share.unavailable), None
        names = [g for g in names if g not in set(shared)]
    if update is not None:
        update(f"Reading {len(names)} group(s)…")
    # a streams group's assignment is its members' active tasks over each subtopology's source
    # topics (input and repartition topics), as kafka-streams-groups --describe --offsets lists them
    # (described once: --members reuses it)
    streams = [g for g in names if types.get(g) == "streams"]
    answered = client.streams_group_descriptions(streams).groups if streams else {}
    streams_read = {g: streams_members(d) for g, d in answered.items()}
    report = collect(
        client,
        names,
        request.selection,
        time_lag=request.time_lag,
        marker_check=request.marker_check,
        named=set(request.groups),
        remote_reads=True,  # tiered topics only: one DescribeConfigs, ListOffsets -4 if any is tiered
        clock=request.clock,
        types=types,
        share=share.groups if share is not None else None,
        loss_eta=request.loss_eta,
        metadata=metadata.result(),
        described={g: m.description for g, m in streams_read.items()},
    )
    # a group named that does not exist: the listed groups close to its name (did you mean)
    problems = tuple(
        replace(p, close=close_names(p.group, list(types))) if p.error == GROUP_ID_NOT_FOUND else p
        for p in report.problems
    )
    report = replace(report, unavailable=unavailable, problems=problems)
    if request.staleness is not None:
        report = with_staleness(client, report, request.staleness, request.bootstrap, request.clock())
    if not request.members:
        return report
    shown = sorted({r.group for r in report.rows})
    typed = _typed_members(client, shown, types, streams_read)
    members = client.group_members([g for g in shown if g not in typed]) if shown else {}
    members.update(typed)
    groups = {**report.groups, **{g: m.description for g, m in typed.items()}}
    return replace(report, members=members, groups=groups)


def with_staleness(
    client: LagRunSource, report: LagReport, store: StaleStore, bootstrap: str, now: int
) -> LagReport:
    """``report`` with each row's commit staleness at ``now`` (:mod:`..measures.lag.stale`), the
    sights kept in ``store`` under the cluster's id (else its ``bootstrap`` servers)."""
    from .stale_state import cluster_key  # here: only --staleness keys a state file (hashlib)

    seen = store.observe(cluster_key(client.cluster_id(), bootstrap), report.rows, now)
    return replace(
        report,
        staleness=True,
        stale_ms=seen.stale_ms,
        stale_first_sight=seen.first_sight,
        stale_notes=tuple(store.notes()),
    )


def _typed_members(
    client: LagRunSource, shown: Sequence[str], types: dict[str, str], streams: Mapping[str, GroupMembers]
) -> dict[str, GroupMembers]:
    """The shown share and streams groups' states and members: share groups through their describe,
    streams groups from the run's StreamsGroupDescribe (``streams``)."""
    out: dict[str, GroupMembers] = {}
    shared = [g for g in shown if types.get(g) == "share"]
    if shared:
        out.update({g: share_members(d) for g, d in client.share_group_descriptions(shared).groups.items()})
    out.update({g: streams[g] for g in shown if types.get(g) == "streams" and g in streams})
    return out


def require_rows(report: LagReport) -> LagReport:
    """``report``, unless it has no row and no failure: then nothing matched (:class:`NotFound`)."""
    if not report.rows and not report.failed and not report.unavailable:  # the line says why
        names = ", ".join(p.group for p in report.problems) or "the matched groups"
        raise NotFound(f"no committed offsets for {names} in the selection")
    return report


def checked_query(client: LagRunSource, request: LagRequest) -> LagReport:
    """:func:`query` then :func:`require_rows`: one run, or one ``--watch`` refresh."""
    return require_rows(query(client, request))
