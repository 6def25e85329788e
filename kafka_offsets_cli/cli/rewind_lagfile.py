"""``rewind --from-lag-file``: read a saved ``lag -o json --time-lag`` of the primary and say how old
it is (the rules are in :mod:`kafka_offsets_cli.rewind.lagfile`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import UsageError
from .output import warn

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..parse.selection import Selection
    from ..rewind.cutover import Resume


def file_resumes(
    path: str, names: Sequence[str], patterns: bool, selection: Selection | None, *, now: int, zone: tzinfo
) -> list[Resume]:
    """The resume points the file recorded for the ``-g`` groups (the selection's partitions); how
    old the file is at ``now`` (ms) is said on stderr, its time shown in ``zone``."""
    from ..connection.files import read_regular_file
    from ..parse.times import format_time
    from ..rewind.lagfile import file_resumes as resumes_of
    from ..rewind.lagfile import parse_records

    if patterns or not names:
        raise UsageError("--from-lag-file takes the groups by name: -g GROUP (repeatable)")
    try:
        text = read_regular_file(path, limit=256 << 20).decode("utf-8")
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    resumes, taken = resumes_of(parse_records(text, path), path, names, selection)
    age = max(0, now - taken) // 1000
    warn(
        f"{path} was taken at {format_time(taken, zone)} ({age}s ago): what the groups read on the "
        "primary after that is re-read on DR (nothing is skipped)"
    )
    return resumes
