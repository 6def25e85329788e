"""The ``rewind`` use case: check the request, pick the groups, plan, show, export; with
``--execute`` check again, write the undo plan, commit and verify. Any front end calls
:func:`run` with a :class:`~.request.RewindRequest` and its own :class:`~.io.RewindIO`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ..errors import NotFound, PartialFailure, Refused
from ..sources import RewindSource
from .build import build_plans
from .clone import clone_plans
from .cutover import requested as cutover_requested
from .cutover import with_step_errors
from .deletes import delete_all, delete_notes, preflight_deletes, share_whole_topics
from .dr import Where, cutover_steps
from .execute import active_groups, execute, preflight
from .files import check_cluster, read_plan, write_undo
from .files import export as write_export
from .group_types import TypedGroups, detect, refuse_options, refuse_streams_topics
from .identity import ClusterIdentity
from .members import describe_members, until_dropped
from .notes import export_gaps, plan_warnings
from .plan import Plan, Target, TargetKind
from .planfile import SEEN_SUFFIX, groups_to_apply, moved
from .request import RewindRequest, announce, checked

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..connection.settings import ClientSettings
    from ..kafka import KafkaClient
    from ..models.topics import TopicPartition
    from .io import RewindIO

    Seen = dict[str, dict[TopicPartition, int | None]]
    Requested = dict[str, dict[TopicPartition, int]]
    #: opens a client on the settings (``KafkaClient``; a test's fake)
    Opener = Callable[[ClientSettings], AbstractContextManager[KafkaClient]]


def _groups(source: RewindSource, req: RewindRequest) -> list[str]:
    """The groups the options name (``-g`` names need not exist: a new group starts from the plan)."""
    if req.all_groups:
        found = source.group_ids()
        if not found:
            raise NotFound("the cluster has no consumer groups")
        return found
    from ..measures.lag.collect import resolve_groups  # the same rules as lag's (Java regexes)

    return resolve_groups(source, list(req.names), list(req.regexes))


def run(req: RewindRequest, io: RewindIO, *, open_client: Opener | None = None) -> None:
    """Plan (and with ``--execute`` commit) the reset; raise for a refusal or an incomplete plan.

    ``open_client`` opens a client on settings (default: :class:`~kafka_offsets_cli.kafka.KafkaClient`).
    """
    from ..connection.resolver import resolve_connection

    ok = checked(req, io)
    target, zone = ok.target, ok.zone
    conn = resolve_connection(req.connection, None, warn=io.warn)
    settings = conn.settings
    if req.export is not None:  # refused before the cluster is asked and the plan shown, not after
        io.check_writable(req.export)
        if req.export != "-":
            io.check_writable(req.export + SEEN_SUFFIX)
    if open_client is None:
        from ..kafka import KafkaClient

        def open_client(s: ClientSettings) -> AbstractContextManager[KafkaClient]:
            return KafkaClient(s, debug=req.debug)

    seen = None
    requested = None
    deleting = target.kind is TargetKind.DELETE
    steps = None
    with open_client(settings) as client:
        made_on = None
        if ok.cutover is not None:
            where = Where(
                names=req.names,
                patterns=bool(req.regexes) or req.all_groups,
                selection=ok.selection,
                isolation=req.isolation,
                now=req.now,
                zone=zone,
            )
            steps = cutover_steps(
                client, ok.cutover, where, io, open_client=open_client, find=lambda s: _groups(s, req)
            )
            requested = cutover_requested(steps)
            names = sorted({s.resume.group for s in steps})
        elif target.file is not None:
            single = req.names[0] if len(req.names) == 1 and not req.regexes else None
            requested, seen, made_on = read_plan(target.file, single)
            names = groups_to_apply(
                list(requested), list(req.names), list(req.regexes), req.all_groups, target.file
            )
            requested = {g: requested[g] for g in names}
        else:
            with io.progress("Finding the groups…"):
                names = _groups(client, req)
        with io.progress(f"Finding the type of {_who(names)}…"):
            copied_from = [target.text] if target.kind is TargetKind.GROUP and target.text else []
            types = detect(client, [*names, *copied_from])  # --to-group: the source is read as its type
        refuse_options(types, _consumer_only(req))
        source: RewindSource = TypedGroups(client, types) if types.share or types.streams else client
        with io.progress(f"Planning the reset of {_who(names)}…"):
            if target.kind is TargetKind.GROUP:
                plans = clone_plans(source, names[0], target, types, ok.selection, isolation=req.isolation)
            else:
                plans = build_plans(
                    source, names, target, None if steps else ok.selection, requested, isolation=req.isolation
                )
        refuse_streams_topics(types, plans, None if steps else ok.selection, deleting=deleting)
        if deleting:
            share_whole_topics(source, list(types.share), plans)
        if steps is not None:
            plans = with_step_errors(plans, steps)
        # after planning: group ids and patterns are refused (exit 2) before anything is asked
        profile = conn.profile.name if conn.profile else None
        here = ClusterIdentity(client.cluster_id(), profile, settings.bootstrap_servers)
        if target.file is not None and ok.cutover is None:
            check_cluster(
                target.file, made_on, here, io, execute=req.execute, allowed=req.allow_other_cluster
            )
        announce(target, req.now, zone, io)
        one_group = len(req.names) == 1 and not req.regexes
        if req.export and req.export != "-":  # first: a plan on stdout means a plan in the file
            write_export(req.export, plans, io, single=one_group, now_ms=req.now, cluster=here)
        if req.export != "-":  # --export - (Kafka's bare --export): stdout is the CSV alone, as Kafka's
            io.show_plans(plans)
        plan_warnings(plans, zone, io)
        drift = _drift(plans, seen, target, requested, io) if ok.cutover is None else []
        if req.export:
            if req.export == "-":
                write_export(req.export, plans, io, single=one_group, now_ms=req.now, cluster=here)
            export_gaps(plans, req.export, io)
        if not req.execute:
            _dry_run_notes(source, plans, drift, io, deleting=deleting)
        else:
            if drift and not req.force:
                raise Refused(
                    f"the committed offsets moved since {target.text} was planned: {'; '.join(drift[:5])}"
                    + (f" and {len(drift) - 5} more" if len(drift) > 5 else "")
                    + "; nothing changed",
                    hint="plan again, or add --force to apply this plan on top of what was consumed since",
                )
            _commit(source, plans, req, here, io)
    _outcome(plans, req, here, zone, io)


def _outcome(
    plans: Sequence[Plan], req: RewindRequest, here: ClusterIdentity, zone: tzinfo, io: RewindIO
) -> None:
    """Each plan's summary; the verification said, or an incomplete plan raised (exit 1)."""
    for plan in plans:
        io.summary(plan, zone=zone, executed=req.execute, cluster=here.describe(), exported=req.export)
    if req.execute:
        deleting = plans[0].target.kind is TargetKind.DELETE if plans else False
        io.say(
            "Verified: the deleted offsets are gone."
            if deleting
            else "Verified: the groups' committed offsets equal the plan."
        )
        return
    incomplete = [p for p in plans if not p.complete]
    if incomplete:
        what = [
            f"{len(p.problems)} partition(s) of group {p.group!r} could not be planned"
            for p in incomplete
            if p.problems
        ]
        what += sorted({f"topic {t}: {e}" for p in incomplete for t, e in p.missing_topics})
        if req.export:
            what.append(f"{req.export} holds only the {sum(len(p.planned) for p in plans)} planned offset(s)")
        raise PartialFailure("; ".join(what))


def _consumer_only(req: RewindRequest) -> list[str]:
    """The options given that only consumer groups have (refused for a share or streams group)."""
    given = {"--shift-by": req.shift_by is not None, "--from-cluster": req.from_cluster is not None}
    given["--from-lag-file"] = req.from_lag_file is not None
    return [flag for flag, on in given.items() if on]


def _who(names: Sequence[str]) -> str:
    return f"group {names[0]}" if len(names) == 1 else f"{len(names)} groups"


def _drift(
    plans: Sequence[Plan], seen: Seen | None, target: Target, requested: Requested | None, io: RewindIO
) -> list[str]:
    """With ``--from-file``: each partition whose committed offset moved since the plan was made
    (a ``--delete-offsets`` plan's offsets are those it deletes, the file's)."""
    if target.file is None:
        return []
    if seen is None:
        io.warn(
            f"{target.text}{SEEN_SUFFIX} not found: cannot check that the groups' offsets have not moved "
            "since the plan was made, nor the cluster it was made on "
            "(kafka-offsets --export writes it beside the plan)"
        )
        return []
    committed = {p.group: {row.tp: row.current for row in p.rows} for p in plans}
    if target.kind is TargetKind.DELETE:
        asked = requested or {}
        planned = {p.group: {tp: asked[p.group][tp] for tp in p.deletions()} for p in plans}
    else:
        planned = {p.group: p.offsets() for p in plans}
    return moved(seen, planned, committed)


def _dry_run_notes(
    client: RewindSource, plans: Sequence[Plan], drift: list[str], io: RewindIO, *, deleting: bool = False
) -> None:
    """What --execute would meet: moved offsets and active members (who, and until when)."""
    if drift:
        moves = "; ".join(drift[:5])
        io.warn(f"the committed offsets moved since the plan was made: {moves}; --execute would be refused")
    if deleting:
        delete_notes(client, plans, io)  # Kafka decides per topic: what it would keep
        return
    active = active_groups(client, [p.group for p in plans if p.offsets()])
    kip848 = [g for g, d in active.items() if d.protocol == "consumer" and d.description.error is None]
    timeouts = client.group_session_timeouts(kip848) if kip848 else {}
    for g, d in sorted(active.items()):
        if d.description.error is not None:
            io.warn(f"group {g!r} cannot be described ({d.description.error}): --execute would be refused")
        else:
            why = until_dropped(d, timeouts.get(g))
            io.warn(f"group {g!r} has {describe_members(d)}; --execute would be refused: {why}")


def _commit(
    client: RewindSource, plans: Sequence[Plan], req: RewindRequest, here: ClusterIdentity, io: RewindIO
) -> None:
    """Preflight every group, write the undo plan (naming the cluster ``here``), then commit (or with
    ``--delete-offsets`` delete) each group's offsets."""
    deleting = bool(plans) and plans[0].target.kind is TargetKind.DELETE
    with io.progress("Checking the groups…"):
        if deleting:
            preflight_deletes(plans)
        else:
            preflight(client, plans)
    undo = write_undo(plans, req.undo_file, req.now, here, io)
    if undo is not None:
        io.say(
            f"Undo plan written to {undo}; to roll back: "
            f"kafka-offsets rewind [connection] --from-file {undo} --execute"
        )
    if deleting:
        delete_all(client, plans, io)
        return
    done: list[str] = []
    for plan in plans:
        if not plan.offsets():
            continue
        with io.progress(f"Committing {len(plan.planned)} offset(s) for group {plan.group}…"):
            try:
                execute(client, plan, checked=True)
            except (Refused, PartialFailure) as e:
                if not done:
                    raise
                committed = ", ".join(done)
                raise PartialFailure(
                    f"{e.message} (already committed: group(s) {committed}; the undo plan puts them back)"
                ) from None
        done.append(plan.group)
