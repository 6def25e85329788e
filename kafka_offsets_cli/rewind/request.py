"""What ``rewind`` is asked (:class:`RewindRequest`, one frozen record of its options) and what it
makes of it before any cluster is asked: the options checked together, the one reset target (a
time never after now unless allowed, an offset, a shift, the committed offsets, a plan file or a
DR cutover), and the instant a relative time was resolved to, said once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..models.offsets import Isolation, SpecKind
from ..parse.durations import parse_iso_duration
from ..parse.specs import parse_spec
from ..parse.time_words import future_note, is_future, time_notes
from ..parse.times import depends_on_now, format_time, parse_tz
from .dr import Cutover, cutover_from
from .plan import Target, TargetKind

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..connection.resolver import ConnectionOptions
    from ..parse.selection import Selection
    from .io import RewindIO


@dataclass(frozen=True, kw_only=True)
class RewindRequest:
    """Everything one ``rewind`` was told (the command's options, parsed but not yet checked together)."""

    connection: ConnectionOptions
    #: ``-g`` names (duplicates dropped, in order), ``--group-regex`` patterns, ``--all-groups``
    names: tuple[str, ...] = ()
    regexes: tuple[str, ...] = ()
    all_groups: bool = False
    #: the target options: exactly one of them (or a cutover) is given
    to: str | None = None
    to_offset: int | None = None
    to_current: bool = False
    shift_by: int | None = None
    from_file: str | None = None
    from_cluster: str | None = None
    from_lag_file: str | None = None
    remote_topic_prefix: str = ""
    #: ``--delete-offsets``: delete the committed offsets (the selection's, or ``from_file``'s)
    delete_offsets: bool = False
    #: ``--to-group SOURCE``: the target is another group's committed offsets (kafkactl's clone)
    to_group: str | None = None
    #: the selection options as given (none: each group's committed partitions)
    topics: tuple[str, ...] = ()
    partitions: str | None = None
    topic_partitions: str | None = None
    exclude_internal: bool = False
    isolation: Isolation = Isolation.READ_UNCOMMITTED
    execute: bool = False
    allow_future: bool = False
    allow_other_cluster: bool = False
    force: bool = False
    export: str | None = None
    undo_file: str | None = None
    tz: str | None = None
    debug: bool = False
    #: the one "now" of the run (ms): every relative time is resolved against it
    now: int


@dataclass(frozen=True, kw_only=True)
class Checked:
    """A request whose options were found consistent: its zone, target, cutover (if any) and the
    partitions (``None``: each group's committed ones)."""

    zone: tzinfo
    target: Target
    cutover: Cutover | None
    selection: Selection | None


def checked(req: RewindRequest, io: RewindIO) -> Checked:
    """The options checked together (a :class:`UsageError` for the first that does not fit), the
    front end's own (``io.ready()``: its output options) after the target's, as the command has
    always reported them."""
    if not req.names and not req.regexes and not req.all_groups and req.from_file is None:
        raise UsageError("name the consumer groups: --group, --group-regex or --all-groups")
    if req.all_groups and (req.names or req.regexes):
        raise UsageError("--all-groups selects every group: leave out --group and --group-regex")
    if req.force and req.from_file is None:
        raise UsageError(
            "--force only applies to --from-file (it skips the check that the group has not moved)"
        )
    if req.allow_future and req.to is None:
        raise UsageError("--allow-future only applies to --to TIME")
    if req.allow_other_cluster and req.from_file is None:
        raise UsageError("--allow-other-cluster only applies to --from-file")
    zone = parse_tz(req.tz)
    if req.to_group is not None:
        return _checked_clone(req, io, zone)
    if req.delete_offsets:
        return _checked_delete(req, io, zone)
    others = (
        req.to or req.to_offset is not None or req.to_current or req.shift_by is not None or req.from_file
    )
    if (req.from_cluster or req.from_lag_file) and others:
        flag = "--from-cluster" if req.from_cluster else "--from-lag-file"
        raise UsageError(f"{flag} is the target: leave out --to, --to-offset, --to-current, ...")
    timeout = req.connection.timeout
    cut = cutover_from(
        req.from_cluster, req.remote_topic_prefix, timeout, req.isolation, req.from_lag_file, warn=io.warn
    )
    target = (
        cut.target
        if cut
        else parse_target(
            to=req.to,
            to_offset=req.to_offset,
            to_current=req.to_current,
            shift_by=req.shift_by,
            from_file=req.from_file,
            now=req.now,
            zone=zone,
            allow_future=req.allow_future,
        )
    )
    io.ready()
    selection = _selection(req)
    if req.from_file is not None and selection is not None:
        raise UsageError("--from-file takes its partitions from the file: leave out the selection options")
    return Checked(zone=zone, target=target, cutover=cut, selection=selection)


def _targets_given(req: RewindRequest) -> list[str]:
    """The target options given (flags as typed), ``--to-group`` left out."""
    given = {
        "--to": req.to is not None,
        "--to-offset": req.to_offset is not None,
        "--to-current": req.to_current,
        "--shift-by": req.shift_by is not None,
        "--from-file": req.from_file is not None,
        "--from-cluster": req.from_cluster is not None,
        "--from-lag-file": req.from_lag_file is not None,
        "--delete-offsets": req.delete_offsets,
    }
    return [flag for flag, on in given.items() if on]


def _checked_delete(req: RewindRequest, io: RewindIO, zone: tzinfo) -> Checked:
    """``--delete-offsets``: no other target; the partitions named (a selection or a plan file), as
    ``kafka-consumer-groups --delete-offsets`` needs ``--topic``."""
    other = [f for f in _targets_given(req) if f not in ("--from-file", "--delete-offsets")]
    if other:
        raise UsageError(f"--delete-offsets deletes the committed offsets: leave out {other[0]}")
    io.ready()
    selection = _selection(req)
    if req.from_file is not None and selection is not None:
        raise UsageError("--from-file takes its partitions from the file: leave out the selection options")
    if req.from_file is None and selection is None:
        raise UsageError(
            "--delete-offsets needs the topics whose offsets to delete: --topic T (T:0,1 for some "
            "partitions), --topic-partitions, or an exported plan with --from-file"
        )
    return Checked(zone=zone, target=Target.delete(req.from_file), cutover=None, selection=selection)


def _checked_clone(req: RewindRequest, io: RewindIO, zone: tzinfo) -> Checked:
    """``--to-group SOURCE``: no other target; one target group named by ``--group``, not SOURCE."""
    source = req.to_group or ""
    other = _targets_given(req)
    if other:
        raise UsageError(f"--to-group is the target (the source group's offsets): leave out {other[0]}")
    if not source.strip():
        raise UsageError("--to-group needs the id of the group whose offsets to copy")
    if len(req.names) != 1 or req.regexes or req.all_groups:
        raise UsageError("--to-group copies into one group: name it with one --group (no patterns)")
    if req.names[0] == source:
        raise UsageError(f"--to-group {source!r} is the group being reset: name another group to copy from")
    io.ready()
    return Checked(zone=zone, target=Target.group(source), cutover=None, selection=_selection(req))


def _selection(req: RewindRequest) -> Selection | None:
    """The selection options as a :class:`Selection`; ``None`` when none is given (as lag's)."""
    from ..parse.command_selection import optional_selection

    return optional_selection(req.topics, req.partitions, req.topic_partitions, req.exclude_internal)


def announce(target: Target, now: int, zone: tzinfo, io: RewindIO) -> None:
    """Said once every option is valid (a usage error comes alone), for a time read against now."""
    if target.kind is not TargetKind.TIME or target.text is None:
        return
    if depends_on_now(target.text, now_ms=now, tz=zone):
        io.say(f"--to {target.text!r} = {format_time(target.time_ms, zone)} (resolved once, now)")
    for note in time_notes(target.text, now, zone):
        io.warn(note)  # as list does: a clock time still to come today is yesterday's
    ahead = future_note(target.text, target.time_ms or 0, now, zone)  # --allow-future: said
    if ahead is not None:
        io.warn(ahead)


_BARE_NUMBER = re.compile(r"[-+]?[0-9]+")


def parse_target(
    *,
    to: str | None,
    to_offset: int | None,
    to_current: bool,
    shift_by: int | None,
    from_file: str | None,
    now: int,
    zone: tzinfo,
    allow_future: bool = False,
) -> Target:
    """The one reset target the options name (a :class:`UsageError` for none, several, or a bad one).

    A time after ``now`` is refused unless ``allow_future``: no record is at or after it, so
    every partition would go to its end, skipping all that is not yet consumed, without a word.
    """
    given = [to is not None, to_offset is not None, to_current, shift_by is not None, from_file is not None]
    if sum(given) != 1:
        raise UsageError(
            "give one target: --to TIME|earliest|latest|PT…, --to-offset N, --to-current, --shift-by N, "
            "--from-file FILE, --from-cluster PROFILE or --from-lag-file FILE"
        )
    if to_offset is not None:
        if to_offset < 0:
            raise UsageError(f"--to-offset {to_offset}: an offset is 0 or more")
        return Target.to_offset(to_offset)
    if to_current:
        return Target.current()
    if shift_by is not None:
        return Target.shift_by(shift_by)
    if from_file is not None:
        return Target.from_file(from_file)
    assert to is not None
    text = to.strip()
    if _BARE_NUMBER.fullmatch(text):
        raise UsageError(
            f"--to {to!r} is a bare number: for offset {text.lstrip('+')} use --to-offset; for a time write "
            "ISO-8601 (2026-11-21T06:00:00Z), a relative time ('30m ago') or a duration back (PT30M)"
        )
    if text[:1] in "pP" or text[:2] in ("-P", "-p", "+P", "+p"):
        target = Target(TargetKind.TIME, time_ms=now - parse_iso_duration(text), text=to)
    else:
        spec = parse_spec(text, now_ms=now, tz=zone)
        if spec.kind is SpecKind.MAX_TIMESTAMP or spec.tiered:
            raise UsageError(f"--to {spec.name} is not a reset target; use a time, earliest or latest")
        target = Target.from_spec(spec, text=to)
    if target.time_ms is not None and is_future(target.time_ms, now) and not allow_future:
        raise UsageError(
            f"--to {to!r} is {format_time(target.time_ms, zone)}, after now ({format_time(now, zone)}): "
            "with no record at or after it every partition would go to its end, skipping all not yet "
            "consumed; --to latest says so plainly, --allow-future plans it all the same"
        )
    return target
