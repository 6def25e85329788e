"""Parse and format durations (``250ms``, ``1h30m``, ``2d``...; pure, no I/O).

Every parser raises :class:`~kafka_offsets_cli.errors.UsageError` for bad input and
nothing else; every returned duration is whole milliseconds (``int``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "BARE_NUMBER",
    "DURATION",
    "DURATION_FORMS",
    "ISO_DURATION",
    "MAX_MS",
    "duration_or_reason",
    "format_duration",
    "parse_duration",
    "parse_iso_duration",
]

#: Largest value a Kafka timestamp (a Java ``long``) can carry.
MAX_MS = 2**63 - 1

#: Accepted forms of a duration, for error messages.
DURATION_FORMS = "250ms, 30s, 5m, 1h30m, 2d, 1w, 1.5h, or a bare number of seconds"

_MS_PER_UNIT = {
    "ms": 1,
    "s": 1000,
    "m": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
    "w": 604_800_000,
}

# Unit spellings, longest first so that "ms" is not read as "m" followed by "s".
_UNIT_ALIASES = {
    "milliseconds": "ms",
    "millisecond": "ms",
    "millis": "ms",
    "msecs": "ms",
    "msec": "ms",
    "ms": "ms",
    "minutes": "m",
    "minute": "m",
    "mins": "m",
    "min": "m",
    "m": "m",
    "seconds": "s",
    "second": "s",
    "secs": "s",
    "sec": "s",
    "s": "s",
    "hours": "h",
    "hour": "h",
    "hrs": "h",
    "hr": "h",
    "h": "h",
    "days": "d",
    "day": "d",
    "d": "d",
    "weeks": "w",
    "week": "w",
    "wks": "w",
    "wk": "w",
    "w": "w",
}
_UNIT_RE = "|".join(sorted(_UNIT_ALIASES, key=len, reverse=True))
_NUMBER_RE = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_COMPONENT = re.compile(rf"({_NUMBER_RE})\s*({_UNIT_RE})(?![a-z])")
DURATION = re.compile(rf"(?:{_NUMBER_RE}\s*(?:{_UNIT_RE})(?![a-z])\s*)+")
BARE_NUMBER = re.compile(_NUMBER_RE)
_MAX_NUMBER_CHARS = 40  # longer numerals are typos, and int() limits digit strings anyway


def duration_or_reason(text: str) -> int | str:
    """The duration in ms, or why ``text`` is not one (internal)."""
    s = text.strip().lower()
    if not s:
        return "empty duration"
    if s[0] == "-":
        return "durations cannot be negative"
    if s[0] == "+":
        s = s[1:].lstrip()
    if len(s) > 200:
        return "too long"
    if BARE_NUMBER.fullmatch(s):
        if len(s) > _MAX_NUMBER_CHARS:
            return "too large"
        total = _exact(s) * 1000
    elif DURATION.fullmatch(s):
        total = 0
        for number, unit in _COMPONENT.findall(s):
            if len(number) > _MAX_NUMBER_CHARS:
                return "too large"
            total += _exact(number) * _MS_PER_UNIT[_UNIT_ALIASES[unit]]
    else:
        return "not a duration"
    ms = round(total)
    if ms > MAX_MS:
        return "too large"
    return ms


def parse_duration(text: str) -> int:
    """Parse a duration such as ``250ms``, ``30s``, ``5m``, ``1h30m``, ``2d``, ``1w`` or ``1.5h``.

    Returns whole milliseconds (fractions are rounded to the nearest ms). A bare
    number means seconds. Units may be spelled out (``6 hours``, ``90 sec``),
    combined in any order (``1h 30m``), and are case-insensitive; whitespace is
    ignored. Zero is fine; a negative or unparsable duration raises
    :class:`UsageError`.
    """
    result = duration_or_reason(text)
    if isinstance(result, str):
        raise UsageError(f"invalid duration {text!r}: {result}; expected {DURATION_FORMS}")
    return result


def format_duration(ms: int | None) -> str:
    """Render a duration compactly: ``850ms``, ``41s``, ``5m 03s``, ``2h 05m``, ``3d 4h``.

    Two units at most, the smaller truncated (never rounded up); ``''`` for
    ``None``; negative durations get a leading ``-``. ``0`` is ``0s``.
    """
    if ms is None:
        return ""
    sign = "-" if ms < 0 else ""
    ms = abs(ms)
    if ms == 0:
        return "0s"
    if ms < 1000:
        return f"{sign}{ms}ms"
    secs = ms // 1000
    if secs < 60:
        return f"{sign}{secs}s"
    mins, secs = divmod(secs, 60)
    if mins < 60:
        return f"{sign}{mins}m {secs:02d}s"
    hours, mins = divmod(mins, 60)
    if hours < 24:
        return f"{sign}{hours}h {mins:02d}m"
    days, hours = divmod(hours, 24)
    return f"{sign}{days}d {hours}h"


# --------------------------------------------------------------------------- ISO-8601 (Java)

#: Java's ``Duration.parse`` grammar (what ``kafka-consumer-groups --by-duration`` takes):
#: ``PnDTnHnMn.nS``, each part optional and signed, letters in either case.
ISO_DURATION = re.compile(
    r"([-+]?)P(?:([-+]?[0-9]+)D)?"
    r"(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?",
    re.IGNORECASE,
)
_ISO_UNIT_MS = (86_400_000, 3_600_000, 60_000)


def parse_iso_duration(text: str) -> int:
    """Parse an ISO-8601 duration as Java's ``Duration.parse`` does, to whole milliseconds.

    ``PT30M``, ``P1D``, ``PT1H30M``, ``PT0.5S``, ``-PT6H`` (negative: a time ahead),
    ``P1DT-1H``; case-insensitive. Years, months and weeks are not durations in Java
    (``P1M`` is an error, ``PT1M`` a minute). Fractions below a millisecond are dropped.
    Raises :class:`UsageError` otherwise.
    """
    s = text.strip()
    m = ISO_DURATION.fullmatch(s)
    if m is None or (m.group(3) is not None and m.group(3).upper() == "T") or not any(m.groups()[1:]):
        raise UsageError(
            f"invalid ISO-8601 duration {text!r}; expected PnDTnHnMn.nS such as PT30M, PT6H, P1D or P1DT12H"
        )
    sign, days, _, hours, minutes, seconds, frac = m.groups()
    total = 0
    for part, unit in zip((days, hours, minutes), _ISO_UNIT_MS, strict=True):
        total += int(part) * unit if part else 0
    if seconds:
        sec_ms = int(seconds) * 1000
        fraction = int((frac or "").ljust(3, "0")[:3])
        total += sec_ms - fraction if seconds.startswith("-") else sec_ms + fraction
    total = -total if sign == "-" else total
    if abs(total) > MAX_MS:
        raise UsageError(f"invalid ISO-8601 duration {text!r}: too large")
    return total


# --------------------------------------------------------------------------- time zones


def _exact(number: str) -> int | Fraction:
    """A decimal number without rounding: an int, or a Fraction when it has a fractional part.

    (``fractions`` pulls in ``decimal``, slow to import: most durations are whole numbers.)
    """
    if number.isdigit():
        return int(number)
    from fractions import Fraction

    return Fraction(number)
