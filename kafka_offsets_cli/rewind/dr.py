"""A DR cutover in a ``rewind`` run (``--from-cluster``, ``--from-lag-file``): where each group
stopped on the primary, looked up on this (DR) cluster and reported on stderr."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import ClusterError, NotFound, UsageError
from .cutover import Resume, Step, dr_steps, primary_resumes, report_lines, summary_line
from .cutover import requested as cutover_requested
from .plan import Target

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..connection.settings import ClientSettings
    from ..kafka import KafkaClient
    from ..models.offsets import Isolation
    from ..parse.selection import Selection
    from ..sources import RewindSource
    from .io import RewindIO

    #: opens a client on the settings (``KafkaClient``; a test's fake)
    Opener = Callable[[ClientSettings], AbstractContextManager[KafkaClient]]
    #: the groups a client holds that the group options name
    Finder = Callable[[KafkaClient], list[str]]


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
    profile: str | None,
    prefix: str,
    timeout: str,
    isolation: Isolation,
    lag_file: str | None = None,
    *,
    warn: Callable[[str], None],
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
    from ..connection.resolver import ConnectionOptions, resolve_connection
    from ..connection.settings import BOOTSTRAP_ENV

    env = {k: v for k, v in os.environ.items() if k not in (BOOTSTRAP_ENV, CLUSTER_ENV)}
    options = ConnectionOptions(cluster=profile, timeout=timeout, isolation=isolation)
    primary = resolve_connection(options, env, warn=warn).settings
    return Cutover(
        profile=profile,
        settings=primary,
        prefix=prefix,
        target=Target.from_file(f"the cutover from {profile!r}"),
    )


@dataclass(frozen=True, kw_only=True)
class Where:
    """What the cutover reads besides the primary: the groups named, the selection, when and how."""

    names: Sequence[str]
    patterns: bool  # --group-regex or --all-groups: refused with a lag file
    selection: Selection | None
    isolation: Isolation
    now: int
    zone: tzinfo


def cutover_steps(
    client: RewindSource, cut: Cutover, where: Where, io: RewindIO, *, open_client: Opener, find: Finder
) -> list[Step]:
    """Each partition's resume point on the primary, looked up on DR (``client``); reported on stderr."""
    if cut.lag_file is not None:
        resumes = _file_resumes(cut.lag_file, where, io)
        return _dr(client, resumes, where.names, cut, where, io)
    assert cut.settings is not None
    try:
        with (
            open_client(cut.settings) as primary,
            io.progress(f"Reading where the groups stopped on {cut.profile!r}…"),
        ):
            names = find(primary)
            resumes, active = primary_resumes(primary, names, where.selection, isolation=where.isolation)
    except ClusterError as e:  # the primary is down: say so, and what to do instead
        e.message = f"primary cluster {cut.profile!r}: {e.message}"
        e.hint = (
            "with the primary down: --from-lag-file FILE (a saved `lag -o json --time-lag` of it), "
            "or a cutover plan exported earlier: --from-file PLAN --execute"
        )
        raise
    for g in active:
        io.warn(
            f"group {g!r} still has members on {cut.profile!r}: what they read from now on is re-read on DR"
        )
    return _dr(client, resumes, names, cut, where, io)


def _dr(
    client: RewindSource,
    resumes: list[Resume],
    names: Sequence[str],
    cut: Cutover,
    where: Where,
    io: RewindIO,
) -> list[Step]:
    """The resume points looked up on DR (``client``); reported on stderr."""
    with io.progress("Looking the resume times up on this (DR) cluster…"):
        steps = dr_steps(client, resumes, cut.prefix, isolation=where.isolation)
    for line in [*report_lines(steps, where.zone, several=len(names) > 1), summary_line(steps, cut.profile)]:
        io.say(line)
    if not cutover_requested(steps) and not any(s.error for s in steps):
        raise NotFound(f"nothing to plan: no committed offset on {cut.profile!r} in the selection")
    return steps


def _file_resumes(path: str, where: Where, io: RewindIO) -> list[Resume]:
    """The resume points the lag file recorded for the ``-g`` groups (the selection's partitions); how
    old the file is at ``now`` (ms) is said on stderr, its time shown in ``zone``."""
    from ..connection.files import read_regular_file
    from ..parse.times import format_time
    from .lagfile import file_resumes, parse_records

    if where.patterns or not where.names:
        raise UsageError("--from-lag-file takes the groups by name: -g GROUP (repeatable)")
    try:
        text = read_regular_file(path, limit=256 << 20).decode("utf-8")
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    resumes, taken = file_resumes(parse_records(text, path), path, where.names, where.selection)
    age = max(0, where.now - taken) // 1000
    io.warn(
        f"{path} was taken at {format_time(taken, where.zone)} ({age}s ago): what the groups read on the "
        "primary after that is re-read on DR (nothing is skipped)"
    )
    return resumes
