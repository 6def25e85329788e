"""The times people type besides ISO-8601 and durations: epoch seconds, today, yesterday, a clock time.

Also what :mod:`.times` tells about a time without refusing it (:func:`time_notes`: a bare number
that looks like epoch seconds, a clock time read as yesterday's; :func:`future_note`: a time after
now) and the word a misspelling was
meant to be (:func:`did_you_mean`). Pure: every function is given ``now`` and the zone.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable
from datetime import datetime, time, timedelta, timezone, tzinfo

__all__ = ["TIME_WORDS", "did_you_mean", "future_note", "is_future", "time_notes", "word_time_or_reason"]

#: The words that are times by themselves.
TIME_WORDS = ("now", "today", "yesterday")

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

# The patterns are compiled on first use: most runs parse no time at all.


@functools.cache
def _epoch_seconds_pattern() -> re.Pattern[str]:
    """Epoch seconds: ``@1795490000`` (GNU date's form, a fraction allowed) or ``1795490000s`` (ten
    digits or more: a shorter ``30s`` stays "30 seconds ago")."""
    return re.compile(r"@\s*([0-9]{1,12})(?:\.([0-9]{1,9}))?|([0-9]{10,12})s")


@functools.cache
def _clock_pattern() -> re.Pattern[str]:
    """``03:30``, ``03:30:15`` (``.123``), alone or after ``today``/``yesterday``."""
    return re.compile(
        r"(?:(?P<day>today|yesterday)\s+)?(?P<h>[0-9]{1,2}):(?P<mi>[0-9]{2})(?::(?P<s>[0-9]{2})(?:\.(?P<f>[0-9]{1,9}))?)?"
    )


#: A bare number read as milliseconds before this (2001-01-01T00:00:00Z) but as seconds within
#: :data:`_NEAR_MS` of now was almost certainly typed in seconds (``date +%s``).
_SECONDS_LOOK_BEFORE_MS = 978_307_200_000
_NEAR_MS = 5 * 366 * 86_400_000


def _ms(dt: datetime) -> int:
    return (dt - _EPOCH) // timedelta(milliseconds=1)


def _midnight(now_ms: int, tz: tzinfo, days_back: int) -> datetime:
    """Midnight ``days_back`` days before today in ``tz`` (an aware datetime)."""
    today = (_EPOCH + timedelta(milliseconds=now_ms)).astimezone(tz).date()
    return datetime.combine(today - timedelta(days=days_back), time(0), tzinfo=tz)


def _clock(m: re.Match[str], now_ms: int, tz: tzinfo) -> tuple[int, bool] | str:
    """A clock time's epoch ms and whether it was moved back a day, or why it is not a time."""
    h, mi, s = int(m["h"]), int(m["mi"]), int(m["s"] or 0)
    if h > 23 or mi > 59 or s > 59:
        return "hours must be below 24, minutes and seconds below 60"
    micros = int(((m["f"] or "") + "000000")[:6])
    day = _midnight(now_ms, tz, 1 if m["day"] == "yesterday" else 0)
    at = _ms(day.replace(hour=h, minute=mi, second=s, microsecond=micros))
    if m["day"] is None and at > now_ms:  # still to come today: the last one that happened
        return _ms((day - timedelta(days=1)).replace(hour=h, minute=mi, second=s, microsecond=micros)), True
    return at, False


def word_time_or_reason(s: str, now_ms: int, tz: tzinfo) -> int | str | None:
    """Epoch ms of ``s`` (lower case, stripped) in one of this module's forms; why not; ``None``: not one.

    ``today``/``yesterday``: midnight in ``tz``; ``03:30``/``03:30:15``: that time today in ``tz``, or
    yesterday when today's is still to come (a time to look back to, never an empty future);
    ``today 03:30``/``yesterday 03:30``: exactly that; ``@1795490000``, ``1795490000s``: epoch seconds.
    """
    if s in ("today", "yesterday"):
        return _ms(_midnight(now_ms, tz, 0 if s == "today" else 1))
    if m := _clock_pattern().fullmatch(s):
        clock = _clock(m, now_ms, tz)
        return clock if isinstance(clock, str) else clock[0]
    if m := _epoch_seconds_pattern().fullmatch(s):
        whole, frac = (m[1], m[2]) if m[1] is not None else (m[3], None)
        return int(whole) * 1000 + int(((frac or "") + "000")[:3])
    return None


def time_notes(text: str, now_ms: int, tz: tzinfo) -> list[str]:
    """What to tell about the time ``text`` besides its value (for stderr); ``[]`` mostly.

    * a bare number that as epoch ms is before 2001 but as epoch seconds is within five years of
      now: read as milliseconds (Kafka's unit), with the exact way to write seconds;
    * a clock time still to come today, read as yesterday's.
    """
    s = text.strip().lower()
    if s.isascii() and s.isdigit() and len(s) <= 13:
        n = int(s)
        if n < _SECONDS_LOOK_BEFORE_MS and abs(n * 1000 - now_ms) <= _NEAR_MS:
            return [
                f"{text.strip()} is read as epoch milliseconds ({_iso(n, timezone.utc)}), as Kafka's tools "
                f"read it; for epoch seconds ({_iso(n * 1000, timezone.utc)}) write {s}s or @{s}"
            ]
    if (m := _clock_pattern().fullmatch(s)) and m["day"] is None:
        clock = _clock(m, now_ms, tz)
        if not isinstance(clock, str) and clock[1]:
            return [f"{text.strip()} is still to come today: read as yesterday's, {_iso(clock[0], tz)}"]
    return []


def is_future(ms: int, now_ms: int) -> bool:
    """Whether the time ``ms`` is after ``now_ms``: no record can be at or after it but one
    timestamped ahead of the clock (by its producer, or clock skew). The one rule: ``list`` warns,
    ``rewind --to`` refuses."""
    return ms > now_ms


def future_note(text: str, ms: int, now_ms: int, tz: tzinfo) -> str | None:
    """The line to say about a time after now, ``None`` for any other."""
    if not is_future(ms, now_ms):
        return None
    return (
        f"{text.strip()} is {_iso(ms, tz)}, after now ({_iso(now_ms, tz)}): only records timestamped "
        "ahead of the clock (by their producers, or clock skew) can be at or after it"
    )


def _iso(ms: int, tz: tzinfo) -> str:
    """``ms`` to the second in ISO-8601; beyond the years 1-9999 (a Kafka time is any long) the
    number itself, as :func:`~.times.format_time` gives it."""
    try:
        dt = (_EPOCH + timedelta(milliseconds=ms)).astimezone(tz)
    except (OverflowError, ValueError):
        return f"epoch ms {ms}"
    out = dt.isoformat(timespec="seconds")
    return out[:-6] + "Z" if out.endswith("+00:00") else out


def did_you_mean(s: str, words: Iterable[str] = ()) -> str:
    """`` (did you mean 'latest'?)`` when the word ``s`` is close to a time word or to one of ``words``."""
    if not re.fullmatch(r"[a-z][a-z_-]*", s):
        return ""
    close = difflib.get_close_matches(s, [*TIME_WORDS, *words], n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""
