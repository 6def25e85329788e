"""The ``rewind`` run: pick the groups, plan, show, export; with ``--execute`` check, write the
undo plan, commit and verify (see :mod:`.rewind_cmd` for the options)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import ClusterError, NotFound, PartialFailure, Refused, UsageError
from ..render import rewind as r
from ..rewind.build import build_plans
from ..rewind.cutover import (
    Resume,
    Step,
    dr_steps,
    primary_resumes,
    report_lines,
    summary_line,
    with_step_errors,
)
from ..rewind.cutover import requested as cutover_requested
from ..rewind.execute import active_groups, execute, preflight
from ..rewind.identity import ClusterIdentity
from ..rewind.members import describe_members, until_dropped
from ..rewind.plan import Plan, Target, TargetKind
from ..rewind.planfile import SEEN_SUFFIX, groups_to_apply, moved
from .options import Format
from .output import err_console, progress, warn
from .rewind_files import check_cluster, read_plan, write_undo
from .rewind_files import export as write_export
from .rewind_notes import export_gaps, plan_warnings, show_plans

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..connection.settings import ClientSettings
    from ..models.offsets import Isolation
    from ..models.topics import TopicPartition
    from ..parse.selection import Selection
    from ..sources import RewindSource

    Seen = dict[str, dict[TopicPartition, int | None]]


@dataclass(frozen=True, kw_only=True)
class Groups:
    """The group options: ``-g`` names, ``--group-regex`` patterns, ``--all-groups``."""

    names: list[str]
    regexes: list[str]
    all_groups: bool


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """Everything else ``rewind`` was told."""

    selection: Selection | None
    isolation: Isolation
    execute: bool
    force: bool
    export: str | None
    undo_file: str | None
    fmt: Format
    zone: tzinfo
    cols: list[str] | None
    no_headers: bool
    debug: bool
    now: int
    #: the cluster profile the connection came from (``None``: none), to name the cluster
    profile: str | None = None
    allow_other_cluster: bool = False


def _groups(source: RewindSource, groups: Groups) -> list[str]:
    """The groups the options name (``-g`` names need not exist: a new group starts from the plan)."""
    if groups.all_groups:
        found = source.group_ids()
        if not found:
            raise NotFound("the cluster has no consumer groups")
        return found
    from ..measures.lag.collect import resolve_groups  # the same rules as lag's (Java regexes)

    return resolve_groups(source, groups.names, groups.regexes)


@dataclass(frozen=True, kw_only=True)
class Cutover:
    """``--from-cluster``: the primary's profile and client settings, and the DR topic prefix (or
    ``--from-lag-file``: a saved ``lag -o json --time-lag`` of the primary instead of its settings)."""

    profile: str
    settings: ClientSettings | None
    prefix: str
    target: Target
    lag_file: str | None = None


def cutover_from(
    profile: str | None, prefix: str, timeout: str, isolation: Isolation, lag_file: str | None = None
) -> Cutover | None:
    """The primary cluster of a DR cutover, from its profile alone (``-b``, ``-X``, ``--command-config``
    and ``KAFKA_BOOTSTRAP_SERVERS`` are the DR cluster's) or a saved lag file; ``None`` without
    ``--from-cluster`` or ``--from-lag-file``."""
    if profile is not None and lag_file is not None:
        raise UsageError("give --from-cluster PROFILE or --from-lag-file FILE, not both")
    if lag_file is not None:
        what = f"the cutover from {lag_file}"
        return Cutover(
            profile=lag_file, settings=None, prefix=prefix, target=Target.from_file(what), lag_file=lag_file
        )
    if profile is None:
        if prefix:
            raise UsageError("--remote-topic-prefix only applies with --from-cluster or --from-lag-file")
        return None
    from ..connection.profiles import CLUSTER_ENV
    from ..connection.resolver import ConnectionOptions
    from ..connection.settings import BOOTSTRAP_ENV
    from .connection import settings_from

    env = {k: v for k, v in os.environ.items() if k not in (BOOTSTRAP_ENV, CLUSTER_ENV)}
    primary = settings_from(ConnectionOptions(cluster=profile, timeout=timeout, isolation=isolation), env)
    return Cutover(
        profile=profile,
        settings=primary,
        prefix=prefix,
        target=Target.from_file(f"the cutover from {profile!r}"),
    )


def _cutover(client: RewindSource, groups: Groups, cut: Cutover, opts: RunOptions) -> list[Step]:
    """Each partition's resume point on the primary, looked up on DR (``client``); reported on stderr."""
    from ..kafka import KafkaClient

    if cut.lag_file is not None:
        from .rewind_lagfile import file_resumes

        names = groups.names
        patterns = bool(groups.regexes) or groups.all_groups
        resumes = file_resumes(cut.lag_file, names, patterns, opts.selection, now=opts.now, zone=opts.zone)
        return _dr(client, resumes, names, cut, opts)
    assert cut.settings is not None
    try:
        with (
            KafkaClient(cut.settings, debug=opts.debug) as primary,
            progress(f"Reading where the groups stopped on {cut.profile!r}…"),
        ):
            names = _groups(primary, groups)
            resumes, active = primary_resumes(primary, names, opts.selection, isolation=opts.isolation)
    except ClusterError as e:  # the primary is down: say so, and what to do instead
        e.message = f"primary cluster {cut.profile!r}: {e.message}"
        e.hint = (
            "with the primary down: --from-lag-file FILE (a saved `lag -o json --time-lag` of it), "
            "or a cutover plan exported earlier: --from-file PLAN --execute"
        )
        raise
    for g in active:
        warn(f"group {g!r} still has members on {cut.profile!r}: what they read from now on is re-read on DR")
    return _dr(client, resumes, names, cut, opts)


def _dr(
    client: RewindSource, resumes: list[Resume], names: list[str], cut: Cutover, opts: RunOptions
) -> list[Step]:
    """The resume points looked up on DR (``client``); reported on stderr."""
    with progress("Looking the resume times up on this (DR) cluster…"):
        steps = dr_steps(client, resumes, cut.prefix, isolation=opts.isolation)
    for line in [*report_lines(steps, opts.zone, several=len(names) > 1), summary_line(steps, cut.profile)]:
        err_console().print(line, highlight=False, soft_wrap=True)
    if not cutover_requested(steps) and not any(s.error for s in steps):
        raise NotFound(f"nothing to plan: no committed offset on {cut.profile!r} in the selection")
    return steps


def run(
    settings: ClientSettings,
    groups: Groups,
    target: Target,
    opts: RunOptions,
    cutover: Cutover | None = None,
    *,
    announce: Callable[[], None] | None = None,
) -> None:
    """Plan (and with ``--execute`` commit) the reset; raise for a refusal or an incomplete plan.
    ``announce()`` once planned: the settings, group ids and patterns were found valid then."""
    from ..kafka import KafkaClient

    seen = None
    requested = None
    steps = None
    with KafkaClient(settings, debug=opts.debug) as client:
        made_on = None
        if cutover is not None:
            steps = _cutover(client, groups, cutover, opts)
            requested = cutover_requested(steps)
            names = sorted({s.resume.group for s in steps})
        elif target.kind is TargetKind.FILE:
            assert target.text is not None
            single = groups.names[0] if len(groups.names) == 1 and not groups.regexes else None
            requested, seen, made_on = read_plan(target.text, single)
            names = groups_to_apply(
                list(requested), groups.names, groups.regexes, groups.all_groups, target.text
            )
            requested = {g: requested[g] for g in names}
        else:
            with progress("Finding the groups…"):
                names = _groups(client, groups)
        with progress(f"Planning the reset of {_who(names)}…"):
            plans = build_plans(
                client, names, target, None if steps else opts.selection, requested, isolation=opts.isolation
            )
        if steps is not None:
            plans = with_step_errors(plans, steps)
        # after planning: group ids and patterns are refused (exit 2) before anything is asked
        here = ClusterIdentity(client.cluster_id(), opts.profile, settings.bootstrap_servers)
        if target.kind is TargetKind.FILE and cutover is None:
            assert target.text is not None
            check_cluster(target.text, made_on, here, execute=opts.execute, allowed=opts.allow_other_cluster)
        if announce is not None:
            announce()
        one_group = len(groups.names) == 1 and not groups.regexes
        if opts.export and opts.export != "-":  # first: a plan on stdout means a plan in the file
            write_export(opts.export, plans, single=one_group, now_ms=opts.now, cluster=here)
        show_plans(plans, opts.fmt, opts.cols, header=not opts.no_headers)
        plan_warnings(plans, opts.zone)
        drift = _drift(plans, seen, target) if cutover is None else []
        if opts.export:
            if opts.export == "-":
                write_export(opts.export, plans, single=one_group, now_ms=opts.now, cluster=here)
            export_gaps(plans, opts.export)
        if not opts.execute:
            _dry_run_notes(client, plans, drift)
        else:
            if drift and not opts.force:
                raise Refused(
                    f"the committed offsets moved since {target.text} was planned: {'; '.join(drift[:5])}"
                    + (f" and {len(drift) - 5} more" if len(drift) > 5 else "")
                    + "; nothing changed",
                    hint="plan again, or add --force to apply this plan on top of what was consumed since",
                )
            _commit(client, plans, opts, here)
    for plan in plans:
        line = r.summary(plan, opts.zone, executed=opts.execute, cluster=here.describe())
        err_console().print(line, highlight=False, soft_wrap=True)
    if opts.execute:
        err_console().print("Verified: the groups' committed offsets equal the plan.", highlight=False)
        return
    incomplete = [p for p in plans if not p.complete]
    if incomplete:
        what = [
            f"{len(p.problems)} partition(s) of group {p.group!r} could not be planned"
            for p in incomplete
            if p.problems
        ]
        what += sorted({f"topic {t}: {e}" for p in incomplete for t, e in p.missing_topics})
        if opts.export:
            what.append(
                f"{opts.export} holds only the {sum(len(p.planned) for p in plans)} planned offset(s)"
            )
        raise PartialFailure("; ".join(what))


def _who(names: Sequence[str]) -> str:
    return f"group {names[0]}" if len(names) == 1 else f"{len(names)} groups"


def _drift(plans: Sequence[Plan], seen: Seen | None, target: Target) -> list[str]:
    """With ``--from-file``: each partition whose committed offset moved since the plan was made."""
    if target.kind is not TargetKind.FILE:
        return []
    if seen is None:
        warn(
            f"{target.text}{SEEN_SUFFIX} not found: cannot check that the groups' offsets have not moved "
            "since the plan was made, nor the cluster it was made on "
            "(kafka-offsets --export writes it beside the plan)"
        )
        return []
    committed = {p.group: {row.tp: row.current for row in p.rows} for p in plans}
    planned = {p.group: p.offsets() for p in plans}
    return moved(seen, planned, committed)


def _dry_run_notes(client: RewindSource, plans: Sequence[Plan], drift: list[str]) -> None:
    """What --execute would meet: moved offsets and active members (who, and until when)."""
    if drift:
        moves = "; ".join(drift[:5])
        warn(f"the committed offsets moved since the plan was made: {moves}; --execute would be refused")
    active = active_groups(client, [p.group for p in plans if p.offsets()])
    kip848 = [g for g, d in active.items() if d.protocol == "consumer" and d.description.error is None]
    timeouts = client.group_session_timeouts(kip848) if kip848 else {}
    for g, d in sorted(active.items()):
        if d.description.error is not None:
            warn(f"group {g!r} cannot be described ({d.description.error}): --execute would be refused")
        else:
            why = until_dropped(d, timeouts.get(g))
            warn(f"group {g!r} has {describe_members(d)}; --execute would be refused: {why}")


def _commit(client: RewindSource, plans: Sequence[Plan], opts: RunOptions, here: ClusterIdentity) -> None:
    """Preflight every group, write the undo plan (naming the cluster ``here``), then commit each group."""
    with progress("Checking the groups…"):
        preflight(client, plans)
    undo = write_undo(plans, opts.undo_file, opts.now, here)
    if undo is not None:
        err_console().print(
            f"Undo plan written to {undo}; to roll back: "
            f"kafka-offsets rewind [connection] --from-file {undo} --execute",
            highlight=False,
            soft_wrap=True,
        )
    done: list[str] = []
    for plan in plans:
        if not plan.offsets():
            continue
        with progress(f"Committing {len(plan.planned)} offset(s) for group {plan.group}…"):
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
