"""Parse and format times and time zones (pure, no I/O except the local zone; durations: :mod:`.durations`).

Every parser raises :class:`~kafka_offsets_cli.errors.UsageError` for bad input and
nothing else; every returned time is epoch milliseconds (``int``). The grammar is
written out here rather than left to :meth:`datetime.fromisoformat`, which in
Python 3.10 accepts far fewer ISO-8601 forms than in 3.11.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone, tzinfo

from ..errors import UsageError
from .durations import BARE_NUMBER, DURATION, ISO_DURATION, MAX_MS, duration_or_reason
from .time_words import did_you_mean, word_time_or_reason

__all__ = [
    "TIME_FORMS",
    "format_time",
    "local_tz",
    "now_ms",
    "parse_time",
    "parse_tz",
]

#: Accepted forms of a time, for error messages.
TIME_FORMS = (
    "epoch ms (1763704800000), epoch seconds (1763704800s, @1763704800), ISO-8601 (2026-11-21T06:00:00Z, "
    "2026-11-21 06:00+01:00, 2026-11-21 06:00, 2026-11-21), today, yesterday, a clock time (03:30, "
    "yesterday 03:30), or relative (now, now-6h, 6h ago, 6 hours ago, -30m, 2d)"
)

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

# The patterns are compiled on first use: most runs (lag, --timeout) parse no time at all.


@functools.cache
def _iso_pattern() -> re.Pattern[str]:
    """ISO-8601 as people type it: date, optional time (T or spaces), optional offset."""
    return re.compile(
        r"(?P<y>[0-9]{4})-(?P<mo>[0-9]{2})-(?P<d>[0-9]{2})"
        r"(?:(?:t|\s+)(?P<h>[0-9]{2}):(?P<mi>[0-9]{2})(?::(?P<s>[0-9]{2})(?:\.(?P<f>[0-9]{1,9}))?)?"
        r"\s*(?P<off>z|[+-][0-9]{2}(?::?[0-9]{2}(?::?[0-9]{2})?)?)?)?"
    )


@functools.cache
def _offset_pattern() -> re.Pattern[str]:
    """A UTC offset as a zone name: ``+02``, ``utc-5:30``, ``gmt+01:00:00``."""
    return re.compile(r"(?:utc|gmt)?\s*([+-])([0-9]{1,2})(?::?([0-9]{2})(?::?([0-9]{2}))?)?")


_UTC_NAMES = frozenset({"", "utc", "z", "gmt", "etc/utc", "zulu"})


def _offset_tz(sign: str, hours: str, minutes: str | None, seconds: str | None) -> tzinfo | str:
    """A fixed-offset zone, or why the offset is invalid (internal)."""
    h, m, s = int(hours), int(minutes or 0), int(seconds or 0)
    if m > 59 or s > 59:
        return "offset minutes and seconds must be below 60"
    delta = timedelta(hours=h, minutes=m, seconds=s)
    if delta >= timedelta(hours=24):
        return "offset must be less than 24 hours"
    if not delta:
        return timezone.utc
    return timezone(-delta if sign == "-" else delta)


def _fixed_local() -> tzinfo:
    """The local zone as a fixed offset (fallback when no tz database entry is found)."""
    tz = datetime.now().astimezone().tzinfo
    return tz if tz is not None else timezone.utc


def local_tz() -> tzinfo:
    """The system's local time zone: ``$TZ``, else ``/etc/localtime``, DST-aware when possible.

    Falls back to the current fixed UTC offset when no tz database entry can be found.
    """
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # deferred: only zone names need the tz database

    env = os.environ.get("TZ")
    if env:
        key = env[1:] if env.startswith(":") else env
        try:
            if key.startswith("/"):
                with open(key, "rb") as fh:
                    return ZoneInfo.from_file(fh, key=key)
            return ZoneInfo(key)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            return _fixed_local()  # a POSIX TZ rule string the C library understands
    try:
        target = os.path.realpath("/etc/localtime")
        marker = "/zoneinfo/"
        if marker in target:
            return ZoneInfo(target.split(marker, 1)[1])
        with open("/etc/localtime", "rb") as fh:
            return ZoneInfo.from_file(fh, key="localtime")
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return _fixed_local()


@functools.lru_cache(maxsize=1)
def _zone_keys_by_lower() -> dict[str, str]:
    from zoneinfo import available_timezones  # deferred: only zone names need the tz database

    return {key.lower(): key for key in available_timezones()}


def _zone(name: str) -> tzinfo | None:
    """An IANA zone by name, case-insensitively; ``None`` if there is none (internal)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # deferred: only zone names need the tz database

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        pass
    key = _zone_keys_by_lower().get(name.lower())
    if key is None:
        return None
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # pragma: no cover - database changed under us
        return None


def parse_tz(text: str | None) -> tzinfo:
    """Parse a time zone option.

    ``None``, ``''``, ``UTC``, ``Z`` (and ``GMT``) -> UTC; ``local`` -> the system
    zone (:func:`local_tz`); fixed offsets ``+01:00``, ``-0530``, ``+01``, also
    prefixed ``UTC+01:00``; IANA names such as ``Europe/Paris`` (case-insensitive).
    Anything else raises :class:`UsageError`.
    """
    if text is None:
        return timezone.utc
    s = text.strip()
    low = s.lower()
    if low in _UTC_NAMES:
        return timezone.utc
    if low == "local":
        return local_tz()
    m = _offset_pattern().fullmatch(low)
    if m:
        tz = _offset_tz(*m.groups())
        if isinstance(tz, str):
            raise UsageError(f"invalid time zone {text!r}: {tz}")
        return tz
    zone = _zone(s) if s and len(s) <= 255 else None
    if zone is None:
        raise UsageError(
            f"unknown time zone {text!r}; expected UTC, local, an offset like +01:00 or -0530, "
            "or an IANA name like Europe/Paris"
        )
    return zone


# --------------------------------------------------------------------------- times


def now_ms() -> int:
    """The current time in epoch milliseconds."""
    return time.time_ns() // 1_000_000


def _to_ms(dt: datetime) -> int:
    """Exact epoch ms of an aware datetime (floor of sub-millisecond parts)."""
    delta = dt - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def _iso_or_reason(m: re.Match[str], tz: tzinfo) -> int | str:
    """Epoch ms of a matched ISO-8601 text, or why it is not a valid time (internal)."""
    g = m.groupdict()
    frac = g["f"] or ""
    micros = int((frac + "000000")[:6])
    zone: tzinfo = tz
    off = g["off"]
    if off == "z":
        zone = timezone.utc
    elif off:
        parts = re.fullmatch(r"([+-])([0-9]{2}):?(?:([0-9]{2}):?([0-9]{2})?)?", off)
        if parts is None:  # pragma: no cover - guarded by _iso_pattern()
            return "bad offset"
        zoned = _offset_tz(*parts.groups())
        if isinstance(zoned, str):
            return zoned
        zone = zoned
    try:
        dt = datetime(
            int(g["y"]),
            int(g["mo"]),
            int(g["d"]),
            int(g["h"] or 0),
            int(g["mi"] or 0),
            int(g["s"] or 0),
            micros,
            tzinfo=zone,
        )
        return _to_ms(dt)
    except (ValueError, OverflowError) as exc:
        return str(exc)


def _relative(now: int, ago_ms: int | str, sign: int = -1) -> int | str:
    if isinstance(ago_ms, str):
        return ago_ms
    return now + sign * ago_ms


def _time_or_reason(text: str, now: int, tz: tzinfo, words: Sequence[str] = ()) -> int | str:
    """Epoch ms for ``text``, or why it is not a time (internal; see :func:`parse_time`)."""
    s = text.strip().lower()
    if not s:
        return "empty"
    if len(s) > 200:
        return "too long"
    result: int | str
    if s.isascii() and s.lstrip("+").isdigit() and s.count("+") <= 1:  # Java's Long.parseLong takes "+N"
        result = int(s) if len(s.lstrip("+")) <= 19 else "too large"
    elif s.startswith("now"):
        rest = s[3:].strip()
        if not rest:
            result = now
        elif rest[0] in "+-":
            result = _relative(now, duration_or_reason(rest[1:]), -1 if rest[0] == "-" else 1)
        else:
            return "expected now, now-DURATION or now+DURATION"
    elif s.endswith("ago"):
        result = _relative(now, duration_or_reason(s[:-3]))
    elif s[0] == "-":
        rest = s[1:].strip()
        if BARE_NUMBER.fullmatch(rest):
            return "negative numbers are not times (Kafka codes -1, -2, -3 are offset specs)"
        result = _relative(now, duration_or_reason(rest) if rest[:1] != "+" else "not a duration")
    elif m := _iso_pattern().fullmatch(s):
        result = _iso_or_reason(m, tz)
    elif (word := word_time_or_reason(s, now, tz)) is not None:
        result = word
    elif DURATION.fullmatch(s):
        result = _relative(now, duration_or_reason(s))
    else:
        return "not recognised" + did_you_mean(s, words)
    if isinstance(result, str):
        return result
    if result < 0:
        return "before 1970-01-01T00:00:00Z (epoch ms must not be negative)"
    if result > MAX_MS:
        return "too large"
    return result


def parse_time(
    text: str,
    *,
    now_ms: int,
    tz: tzinfo,
    what: str = "time",
    accepted: str = TIME_FORMS,
    words: Sequence[str] = (),
) -> int:
    """Parse a point in time to epoch milliseconds.

    Accepted (case-insensitive, surrounding whitespace ignored):

    * a non-negative integer: epoch milliseconds (Kafka's unit; a number that looks like epoch
      seconds is still milliseconds, :func:`~.time_words.time_notes` says so);
    * epoch seconds: ``1795490000s`` (ten digits or more), ``@1795490000``;
    * ``today``, ``yesterday`` (midnight in ``tz``); a clock time ``03:30``, ``03:30:15``
      (today in ``tz``, or yesterday when today's is still to come); ``yesterday 03:30``;
    * ISO-8601: ``2026-11-21T06:00:00Z``, ``2026-11-21T06:00:00.123+01:00``,
      ``2026-11-21 06:00+01:00``, ``2026-11-21 06:00``, ``2026-11-21`` (midnight);
      offsets ``Z``, ``±HH``, ``±HHMM``, ``±HH:MM`` (``±HH:MM:SS`` too); a time
      without an offset is in ``tz``; fractions beyond milliseconds are truncated;
    * relative to ``now_ms``: ``now``, ``now-6h``, ``now+1h``, ``6h ago``,
      ``6 hours ago``, ``1h30m ago``, ``-30m``, ``2d`` (= 2 days ago), any
      :func:`parse_duration` form with a unit.

    A result before the epoch or beyond a Java ``long`` is rejected: negative
    values are Kafka's codes (see :mod:`kafka_offsets_cli.parse.specs`), never times.
    Anything else raises :class:`UsageError` naming the value and, via
    ``what``/``accepted`` (for callers that accept more than times), the forms; a misspelled
    word is told the one it is close to, among the time words and the caller's ``words``.
    """
    result = _time_or_reason(text, now_ms, tz, words)
    if isinstance(result, str):
        raise UsageError(f"invalid {what} {text!r}: {result}; expected {accepted}")
    return result


def depends_on_now(text: str, *, now_ms: int, tz: tzinfo) -> bool:
    """Whether the time ``text`` is read against now (``30m ago``, ``today``, ``03:30``, an ISO-8601
    duration back such as ``PT30M``), not absolute.

    Told by reading it at two instants a day apart: an absolute time (or an invalid one) reads the same.
    """
    if ISO_DURATION.fullmatch(text.strip()):
        return True
    return _time_or_reason(text, now_ms, tz) != _time_or_reason(text, now_ms + 86_400_000, tz)


def format_offset(offset: timedelta) -> str:
    """A UTC offset as times are written: ``Z`` for none, else ``+01:00`` (``+00:19:32`` with seconds)."""
    if not offset:
        return "Z"
    sign = "-" if offset < timedelta(0) else "+"
    secs = int(abs(offset).total_seconds())
    hours, rest = divmod(secs, 3600)
    mins, secs = divmod(rest, 60)
    out = f"{sign}{hours:02d}:{mins:02d}"
    return f"{out}:{secs:02d}" if secs else out


def format_time(ms: int | None, tz: tzinfo) -> str:
    """ISO-8601 with milliseconds and offset, e.g. ``2026-11-21T06:00:00.000Z``.

    ``''`` for ``None``. A zero UTC offset is written ``Z``, others ``+01:00``
    (``+00:19:32`` for historical offsets with seconds). A value outside the
    years 1-9999 (Kafka timestamps are arbitrary longs) is returned as the number.
    """
    if ms is None:
        return ""
    try:
        dt = (_EPOCH + timedelta(milliseconds=ms)).astimezone(tz)
        offset = dt.utcoffset() or timedelta(0)
    except (OverflowError, ValueError):
        return str(ms)
    return (
        f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}T{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}"
        f".{dt.microsecond // 1000:03d}{format_offset(offset)}"
    )
