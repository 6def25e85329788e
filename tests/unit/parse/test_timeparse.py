"""Unit and property tests of kafka_offsets_cli.parse.times (pure; no broker)."""

from __future__ import annotations

import calendar
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.parse.durations import MAX_MS, format_duration, parse_duration
from kafka_offsets_cli.parse.times import format_time, local_tz, now_ms, parse_time, parse_tz

S = 1000
M = 60 * S
H = 60 * M
D = 24 * H
W = 7 * D

NOW = 1_800_000_000_000  # 2027-01-15T08:00:00Z
UTC = timezone.utc
PARIS = ZoneInfo("Europe/Paris")


def utc_ms(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> int:
    """Epoch ms of a UTC wall time, computed independently of the code under test."""
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)) * 1000


# ----------------------------------------------------------------------------- parse_duration


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("250ms", 250),
        ("30s", 30 * S),
        ("5m", 5 * M),
        ("1h30m", H + 30 * M),
        ("2d", 2 * D),
        ("1w", W),
        ("1.5h", 90 * M),
        ("30", 30 * S),
        ("0", 0),
        ("0s", 0),
        ("1.5", 1500),
        (".5s", 500),
        ("  1H 30M  ", H + 30 * M),
        ("1 h 30 m", H + 30 * M),
        ("6 hours", 6 * H),
        ("1 hour", H),
        ("90 sec", 90 * S),
        ("2 days", 2 * D),
        ("3 weeks", 3 * W),
        ("5mins", 5 * M),
        ("10 minutes", 10 * M),
        ("100 millis", 100),
        ("1msec", 1),
        ("1m1ms", M + 1),
        ("30m1h", H + 30 * M),
        ("+5m", 5 * M),
        ("1w2d3h4m5s6ms", W + 2 * D + 3 * H + 4 * M + 5 * S + 6),
        ("0.0004s", 0),  # rounded to whole ms
        ("0.0006s", 1),
    ],
)
def test_parse_duration_examples(text: str, expected: int) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "-5m",
        "-0",
        "abc",
        "1h30",
        "5 m s",
        "1e5",
        "1,5h",
        "h",
        "5y",
        "5 parsecs",
        "1..5h",
        "ms",
        "9" * 60,
    ],
)
def test_parse_duration_rejects(text: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_duration(text)
    assert repr(text) in str(info.value)


def test_parse_duration_negative_message() -> None:
    with pytest.raises(UsageError, match="negative"):
        parse_duration("-30s")


_UNITS = {"ms": 1, "s": S, "m": M, "h": H, "d": D, "w": W, "hours": H, "minutes": M, "sec": S}
components = st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(sorted(_UNITS)), st.sampled_from(["", " "])),
    min_size=1,
    max_size=6,
)


@given(components)
def test_durations_compose(parts: list[tuple[int, str, str]]) -> None:
    text = "".join(f"{n}{sep}{unit} " for n, unit, sep in parts)
    assert parse_duration(text) == sum(parse_duration(f"{n}{unit}") for n, unit, _ in parts)
    assert parse_duration(text) == sum(n * _UNITS[unit] for n, unit, _ in parts)
    assert parse_duration(text.upper()) == parse_duration(text)


@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_durations_add(a: int, b: int) -> None:
    assert parse_duration(f"{a}ms{b}ms") == a + b
    assert parse_duration(f"{a}s") == parse_duration(str(a))


@given(st.text(max_size=40))
@example("1" * 5000 + "s")
@example("\u0661s")  # an Arabic-Indic digit: not an ASCII number
def test_parse_duration_total(text: str) -> None:
    try:
        ms = parse_duration(text)
    except UsageError:
        return
    assert isinstance(ms, int)
    assert 0 <= ms <= MAX_MS


# ----------------------------------------------------------------------------- format_duration


@pytest.mark.parametrize(
    ("ms", "expected"),
    [
        (None, ""),
        (0, "0s"),
        (1, "1ms"),
        (850, "850ms"),
        (999, "999ms"),
        (1000, "1s"),
        (41 * S + 999, "41s"),
        (59 * S, "59s"),
        (M, "1m 00s"),
        (5 * M + 3 * S, "5m 03s"),
        (2 * H + 5 * M + 59 * S, "2h 05m"),
        (23 * H + 59 * M, "23h 59m"),
        (3 * D + 4 * H + 59 * M, "3d 4h"),
        (400 * D, "400d 0h"),
        (-850, "-850ms"),
        (-(2 * H + 5 * M), "-2h 05m"),
    ],
)
def test_format_duration_examples(ms: int | None, expected: str) -> None:
    assert format_duration(ms) == expected


@given(st.integers(0, 10**13))
def test_format_duration_parses_back_truncated(ms: int) -> None:
    """format_duration drops only the sub-unit remainder, and its output is a valid duration."""
    text = format_duration(ms)
    back = parse_duration(text)
    assert back <= ms
    unit = 1 if ms < S else S if ms < H else M if ms < D else H
    assert ms - back < unit
    assert format_duration(-ms) == ("-" + text if ms else text)


# ----------------------------------------------------------------------------- parse_tz


@pytest.mark.parametrize("text", [None, "", "UTC", "utc", "Z", "z", " UTC ", "GMT", "+00:00", "-0000"])
def test_parse_tz_utc(text: str | None) -> None:
    tz = parse_tz(text)
    assert datetime(2026, 7, 1, tzinfo=tz).utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("+01:00", timedelta(hours=1)),
        ("-0530", -timedelta(hours=5, minutes=30)),
        ("+0545", timedelta(hours=5, minutes=45)),
        ("+01", timedelta(hours=1)),
        ("-3", -timedelta(hours=3)),
        ("UTC+02:00", timedelta(hours=2)),
        ("+23:59", timedelta(hours=23, minutes=59)),
    ],
)
def test_parse_tz_offsets(text: str, offset: timedelta) -> None:
    assert datetime(2026, 1, 1, tzinfo=parse_tz(text)).utcoffset() == offset


@pytest.mark.parametrize("text", ["Europe/Paris", "europe/paris", "EUROPE/PARIS", " Europe/Paris "])
def test_parse_tz_iana_case_insensitive(text: str) -> None:
    tz = parse_tz(text)
    assert datetime(2026, 1, 15, tzinfo=tz).utcoffset() == timedelta(hours=1)
    assert datetime(2026, 7, 15, tzinfo=tz).utcoffset() == timedelta(hours=2)  # DST-aware


def test_parse_tz_local_follows_tz_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    tz = parse_tz("local")
    assert datetime(2026, 1, 1, tzinfo=tz).utcoffset() == timedelta(hours=5, minutes=30)
    monkeypatch.setenv("TZ", ":America/New_York")
    tz = parse_tz("LOCAL")
    assert datetime(2026, 1, 1, tzinfo=tz).utcoffset() == -timedelta(hours=5)
    assert datetime(2026, 7, 1, tzinfo=tz).utcoffset() == -timedelta(hours=4)


def test_local_tz_without_tz_env_matches_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TZ", raising=False)
    tz = local_tz()
    now = datetime.now(UTC)
    assert now.astimezone(tz).utcoffset() == now.astimezone().utcoffset()


@pytest.mark.parametrize(
    "text", ["Mars/Base", "Europe", "+25:00", "+01:75", "..", "/etc/localtime", "a\x00b", "x" * 300]
)
def test_parse_tz_rejects(text: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_tz(text)
    assert repr(text) in str(info.value)


@given(st.text(max_size=30))
@example("\ud800")
def test_parse_tz_total(text: str) -> None:
    try:
        tz = parse_tz(text)
    except UsageError:
        return
    assert isinstance(tz, tzinfo)


# ----------------------------------------------------------------------------- parse_time


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("1763704800000", 1763704800000),
        ("  1763704800000 ", 1763704800000),
        ("2026-11-21T06:00:00Z", utc_ms(2026, 11, 21, 6)),
        ("2026-11-21t06:00:00z", utc_ms(2026, 11, 21, 6)),
        ("2026-11-21T06:00:00.123+01:00", utc_ms(2026, 11, 21, 5) + 123),
        ("2026-11-21T06:00:00.1Z", utc_ms(2026, 11, 21, 6) + 100),
        ("2026-11-21T06:00:00.123999999Z", utc_ms(2026, 11, 21, 6) + 123),  # truncated
        ("2026-11-21 06:00+01:00", utc_ms(2026, 11, 21, 5)),
        ("2026-11-21 06:00 +01:00", utc_ms(2026, 11, 21, 5)),
        ("2026-11-21T06:00-0530", utc_ms(2026, 11, 21, 11, 30)),
        ("2026-11-21T06:00+05", utc_ms(2026, 11, 21, 1)),
        ("2026-11-21 06:00", utc_ms(2026, 11, 21, 6)),
        ("2026-11-21  06:00:30", utc_ms(2026, 11, 21, 6, 0, 30)),
        ("2026-11-21", utc_ms(2026, 11, 21)),
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T01:00:00+01:00", 0),
        ("now", NOW),
        ("NOW", NOW),
        ("now-6h", NOW - 6 * H),
        ("now - 6h", NOW - 6 * H),
        ("now+1h", NOW + H),
        ("now-30", NOW - 30 * S),
        ("6h ago", NOW - 6 * H),
        ("6hago", NOW - 6 * H),
        ("6 hours ago", NOW - 6 * H),
        ("6 Hours Ago", NOW - 6 * H),
        ("1h30m ago", NOW - H - 30 * M),
        ("30 ago", NOW - 30 * S),
        ("-30m", NOW - 30 * M),
        ("- 30m", NOW - 30 * M),
        ("2d", NOW - 2 * D),
        ("1.5h", NOW - 90 * M),
        ("0s", NOW),
    ],
)
def test_parse_time_examples(text: str, expected: int) -> None:
    assert parse_time(text, now_ms=NOW, tz=UTC) == expected


def test_naive_times_are_in_the_given_zone() -> None:
    assert parse_time("2026-11-21 06:00", now_ms=NOW, tz=PARIS) == utc_ms(2026, 11, 21, 5)
    assert parse_time("2026-07-21 06:00", now_ms=NOW, tz=PARIS) == utc_ms(2026, 7, 21, 4)  # CEST
    assert parse_time("2026-11-21", now_ms=NOW, tz=parse_tz("-0530")) == utc_ms(2026, 11, 21, 5, 30)
    # an explicit offset wins over the zone
    assert parse_time("2026-11-21T06:00Z", now_ms=NOW, tz=PARIS) == utc_ms(2026, 11, 21, 6)
    # epoch ms and relative times do not depend on the zone
    assert parse_time("12345", now_ms=NOW, tz=PARIS) == 12345
    assert parse_time("6h ago", now_ms=NOW, tz=PARIS) == NOW - 6 * H


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("-5", "negative"),
        ("-1", "negative"),
        ("-1.5", "negative"),
        ("1969-12-31", "before 1970"),
        ("1969-12-31T23:59:59.999Z", "before 1970"),
        ("1970-01-01T00:30+01:00", "before 1970"),
        ("100000w ago", "before 1970"),
        ("2026-02-30", "day is out of range"),
        ("2026-13-01", "month"),
        ("2026-11-21T24:00", "hour"),
        ("2026-11-21T06:00:60Z", "second"),
        ("2026-11-21T06:00+24:00", "less than 24 hours"),
        ("99999999999999999999", "too large"),
        ("foo", "not recognised"),
        ("", "empty"),
        ("1.5", "not recognised"),
        ("2026-11-21T06", "not recognised"),
        ("21/11/2026", "not recognised"),
        ("20261121T060000Z", "not recognised"),
        ("ago", "empty duration"),
        ("now*2", "now-DURATION"),
        ("now-", "empty duration"),
        ("--30m", "negative"),
        ("+30m", "not recognised"),
    ],
)
def test_parse_time_rejects(text: str, reason: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_time(text, now_ms=NOW, tz=UTC)
    message = str(info.value)
    assert repr(text) in message
    assert reason in message
    for form in ("epoch ms", "ISO-8601", "6h ago"):  # lists the accepted forms
        assert form in message


def test_parse_time_custom_wording() -> None:
    with pytest.raises(UsageError, match=r"^invalid since 'x': not recognised; expected SOMETHING$"):
        parse_time("x", now_ms=NOW, tz=UTC, what="since", accepted="SOMETHING")


@given(st.text(max_size=40), st.integers(0, MAX_MS))
@example("2026-11-21T06:00:00+23:59", NOW)
@example("9999-12-31T23:59:59.999-23:59", NOW)
@example("0001-01-01", NOW)
@example("\u0661\u0662", NOW)
def test_parse_time_total(text: str, now: int) -> None:
    try:
        ms = parse_time(text, now_ms=now, tz=PARIS)
    except UsageError:
        return
    assert isinstance(ms, int)
    assert 0 <= ms <= MAX_MS


@given(st.integers(0, 4 * 10**12), st.integers(0, 10**9))
def test_relative_forms_agree(now: int, ago: int) -> None:
    d = f"{ago}ms"
    if ago > now:
        with pytest.raises(UsageError):
            parse_time(f"{d} ago", now_ms=now, tz=UTC)
        return
    expected = now - ago
    for text in (f"{d} ago", f"-{d}", f"now-{d}", f"now - {d}", d):
        assert parse_time(text, now_ms=now, tz=UTC) == expected


# ----------------------------------------------------------------------------- format_time


@pytest.mark.parametrize(
    ("ms", "tz", "expected"),
    [
        (None, UTC, ""),
        (0, UTC, "1970-01-01T00:00:00.000Z"),
        (utc_ms(2026, 11, 21, 6) + 123, UTC, "2026-11-21T06:00:00.123Z"),
        (utc_ms(2026, 11, 21, 6), PARIS, "2026-11-21T07:00:00.000+01:00"),
        (utc_ms(2026, 7, 21, 6), PARIS, "2026-07-21T08:00:00.000+02:00"),
        (utc_ms(2026, 11, 21, 6), timezone(-timedelta(hours=5, minutes=30)), "2026-11-21T00:30:00.000-05:30"),
        (utc_ms(2026, 1, 21, 6), ZoneInfo("Europe/London"), "2026-01-21T06:00:00.000Z"),
        (-1, UTC, "1969-12-31T23:59:59.999Z"),
        (10**18, UTC, str(10**18)),  # beyond year 9999: the number itself
        (-(10**18), UTC, str(-(10**18))),
    ],
)
def test_format_time_examples(ms: int | None, tz: tzinfo, expected: str) -> None:
    assert format_time(ms, tz) == expected


def test_format_time_offset_with_seconds() -> None:
    # Monrovia used -00:44:30 until 1972: offsets with seconds are written in full
    ms = utc_ms(1971, 1, 1)
    text = format_time(ms, ZoneInfo("Africa/Monrovia"))
    assert text.endswith("-00:44:30")
    assert parse_time(text, now_ms=NOW, tz=UTC) == ms


zones = st.one_of(
    st.just(UTC),
    st.timezones(),
    st.builds(lambda m: timezone(timedelta(minutes=m)), st.integers(-(24 * 60) + 1, 24 * 60 - 1)),
)


@given(st.integers(0, MAX_MS), zones, zones)
@example(0, ZoneInfo("America/New_York"), UTC)
@example(253402300799999, timezone(timedelta(hours=1)), UTC)  # 9999-12-31T23:59:59.999Z in +01:00
@settings(max_examples=300)
def test_parse_time_round_trips_format_time(ms: int, tz: tzinfo, parse_zone: tzinfo) -> None:
    text = format_time(ms, tz)
    assert parse_time(text, now_ms=NOW, tz=parse_zone) == ms
    assert parse_time(text.lower(), now_ms=NOW, tz=parse_zone) == ms


@given(
    st.datetimes(
        min_value=datetime(1970, 1, 2),
        max_value=datetime(9999, 12, 30),
        timezones=zones,
        allow_imaginary=False,
    )
)
def test_format_time_agrees_with_datetime(dt: datetime) -> None:
    ms = (dt - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(
        milliseconds=1
    )  # exact, unlike float timestamps
    assert dt.tzinfo is not None
    text = format_time(ms, dt.tzinfo)
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    # same instant (by subtraction: PEP 495 makes ambiguous times compare unequal) ...
    assert (parsed - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1) == ms
    # ... and the same wall-clock reading and offset as datetime gives
    assert parsed.replace(tzinfo=None) == dt.replace(tzinfo=None, microsecond=dt.microsecond // 1000 * 1000)
    assert parsed.utcoffset() == dt.utcoffset()


def test_now_ms_is_current() -> None:
    before = int(datetime.now(UTC).timestamp() * 1000)
    value = now_ms()
    after = int(datetime.now(UTC).timestamp() * 1000)
    assert before - 1 <= value <= after + 1
