"""Times that were silently wrong: epoch seconds, today/yesterday, clock times, misspelled words (pure)."""

from __future__ import annotations

import calendar
from datetime import timezone
from zoneinfo import ZoneInfo

import pytest

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.parse.specs import parse_spec
from kafka_offsets_cli.parse.time_words import future_note, time_notes
from kafka_offsets_cli.parse.times import parse_time

S = 1000
NOW = 1_800_000_000_000  # 2027-01-15T08:00:00Z (09:00 in Paris)
UTC = timezone.utc
PARIS = ZoneInfo("Europe/Paris")


def utc_ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)) * 1000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1795490000s", 1_795_490_000 * S),
        ("@1795490000", 1_795_490_000 * S),
        ("@ 1795490000", 1_795_490_000 * S),
        ("@1795490000.25", 1_795_490_000 * S + 250),
        ("@0", 0),
        ("30s", NOW - 30 * S),  # a short Ns stays "N seconds ago"
        ("999999999s", NOW - 999_999_999 * S),  # nine digits: still a duration
        ("today", utc_ms(2027, 1, 15)),
        ("yesterday", utc_ms(2027, 1, 14)),
        ("03:30", utc_ms(2027, 1, 15, 3, 30)),
        ("3:30", utc_ms(2027, 1, 15, 3, 30)),
        ("07:59:59", utc_ms(2027, 1, 15, 7, 59, 59)),
        ("08:00", NOW),  # now is not in the future
        ("08:00:01", utc_ms(2027, 1, 14, 8, 0, 1)),  # still to come today: yesterday's
        ("23:30", utc_ms(2027, 1, 14, 23, 30)),
        ("yesterday 03:30", utc_ms(2027, 1, 14, 3, 30)),
        ("today 03:30:15.5", utc_ms(2027, 1, 15, 3, 30, 15) + 500),
        ("Today 23:30", utc_ms(2027, 1, 15, 23, 30)),  # said so: today's, even in the future
    ],
)
def test_new_forms(text: str, expected: int) -> None:
    assert parse_time(text, now_ms=NOW, tz=UTC) == expected


def test_days_and_clock_times_are_in_the_zone() -> None:
    assert parse_time("today", now_ms=NOW, tz=PARIS) == utc_ms(2027, 1, 14, 23)  # midnight in Paris
    assert parse_time("yesterday", now_ms=NOW, tz=PARIS) == utc_ms(2027, 1, 13, 23)
    assert parse_time("03:30", now_ms=NOW, tz=PARIS) == utc_ms(2027, 1, 15, 2, 30)
    # 08:30 UTC is 09:30 in Paris, still to come at 09:00 there: yesterday's
    assert parse_time("09:30", now_ms=NOW, tz=PARIS) == utc_ms(2027, 1, 14, 8, 30)
    # epoch seconds do not depend on the zone
    assert parse_time("@1795490000", now_ms=NOW, tz=PARIS) == 1_795_490_000 * S


@pytest.mark.parametrize(("text", "reason"), [("24:00", "below 24"), ("03:60", "below 60"), ("@-5", "not")])
def test_bad_clock_times(text: str, reason: str) -> None:
    with pytest.raises(UsageError, match=reason):
        parse_time(text, now_ms=NOW, tz=UTC)


def test_a_number_that_looks_like_epoch_seconds_is_milliseconds_with_a_warning() -> None:
    assert parse_time("1795490000", now_ms=NOW, tz=UTC) == 1_795_490_000  # Kafka's unit, unchanged
    assert time_notes("1795490000", NOW, UTC) == [
        "1795490000 is read as epoch milliseconds (1970-01-21T18:44:50Z), as Kafka's tools read it; "
        "for epoch seconds (2026-11-24T03:13:20Z) write 1795490000s or @1795490000"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "1763704800000",  # epoch ms of 2025: fine
        "12345",  # ms after the epoch, nowhere near now as seconds either
        "0",
        "1600000000",  # as seconds 2020-09: more than five years before now (2027-01)
        "1795490000s",
        "latest",
        "03:30",  # already past today
    ],
)
def test_no_note(text: str) -> None:
    assert time_notes(text, NOW, UTC) == []


def test_a_clock_time_still_to_come_is_noted_as_yesterdays() -> None:
    assert time_notes("23:30", NOW, PARIS) == [
        "23:30 is still to come today: read as yesterday's, 2027-01-14T23:30:00+01:00"
    ]
    assert time_notes("today 23:30", NOW, UTC) == []  # said so


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("latests", "latest"),
        ("earlist", "earliest"),
        ("max-timestmp", "max-timestamp"),
        ("yesterdya", "yesterday"),
        ("tody", "today"),
    ],
)
def test_misspelled_words_are_told_the_close_one(text: str, meant: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_spec(text, now_ms=NOW, tz=UTC)
    assert f"invalid offset spec {text!r}: not recognised (did you mean {meant!r}?); expected " in str(
        info.value
    )


def test_no_suggestion_for_what_is_close_to_nothing() -> None:
    with pytest.raises(UsageError) as info:
        parse_time("banana", now_ms=NOW, tz=UTC)
    assert "did you mean" not in str(info.value)


def test_the_warning_reaches_stderr_through_the_cli() -> None:
    """``list -s 1795490000``: the number is used as milliseconds and stderr says how to write seconds."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    args = ["list", "-b", "127.0.0.1:9", "-s", "1795490000", "-s", "latest", "-o", "plain"]
    run = subprocess.run(  # -o plain with two specs is refused right after the specs are parsed
        [sys.executable, "-m", "kafka_offsets_cli", *args],
        capture_output=True,
        text=True,
        env={**env, "NO_COLOR": "1"},
        timeout=60,
    )
    lines = run.stderr.splitlines()
    assert lines[0].startswith("kafka-offsets: warning: 1795490000 is read as epoch milliseconds (1970-01-21")
    assert lines[0].endswith("write 1795490000s or @1795490000"), lines
    assert run.stdout == ""


def test_a_time_beyond_the_year_9999_is_said_as_its_number() -> None:
    """Kafka's times are any long: ``--time 1700000000000000`` (year 55,840) was an OverflowError
    traceback (argv fuzz, seed 20261124); it is a time after now, said with its number."""
    note = future_note("1700000000000000", 1_700_000_000_000_000, 1_795_000_000_000, timezone.utc)
    assert note is not None and note.startswith("1700000000000000 is epoch ms 1700000000000000, after now")
