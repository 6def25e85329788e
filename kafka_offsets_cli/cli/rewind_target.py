"""``rewind``'s one reset target, from its options: a time (never after now, unless allowed), an
offset, a shift, the committed offsets, or a plan file."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..models.offsets import SpecKind
from ..parse.durations import parse_iso_duration
from ..parse.specs import parse_spec
from ..parse.time_words import is_future
from ..parse.times import format_time
from ..rewind.plan import Target, TargetKind

if TYPE_CHECKING:
    from datetime import tzinfo

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
