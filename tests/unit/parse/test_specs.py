"""Unit and property tests of kafka_offsets_cli.parse.specs (pure; no broker)."""

from __future__ import annotations

from datetime import timezone

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.models.offsets import OffsetSpec, SpecKind
from kafka_offsets_cli.parse.specs import SPEC_FORMS, parse_spec, parse_specs
from kafka_offsets_cli.parse.times import format_time, parse_time

NOW = 1_800_000_000_000
UTC = timezone.utc
H = 3_600_000


def spec(text: str) -> OffsetSpec:
    return parse_spec(text, now_ms=NOW, tz=UTC)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("earliest", SpecKind.EARLIEST),
        ("EARLIEST", SpecKind.EARLIEST),
        (" earliest ", SpecKind.EARLIEST),
        ("latest", SpecKind.LATEST),
        ("Latest", SpecKind.LATEST),
        ("max-timestamp", SpecKind.MAX_TIMESTAMP),
        ("max_timestamp", SpecKind.MAX_TIMESTAMP),
        ("maxtimestamp", SpecKind.MAX_TIMESTAMP),
        ("MAX-TIMESTAMP", SpecKind.MAX_TIMESTAMP),
        ("MaxTimestamp", SpecKind.MAX_TIMESTAMP),
        ("-1", SpecKind.LATEST),
        ("-2", SpecKind.EARLIEST),
        ("-3", SpecKind.MAX_TIMESTAMP),
        (" -2 ", SpecKind.EARLIEST),
    ],
)
def test_named_specs_and_kafka_codes(text: str, kind: SpecKind) -> None:
    result = spec(text)
    assert result == OffsetSpec(kind)
    assert result.timestamp_ms is None


def test_kafka_codes_round_trip_through_kafka_time() -> None:
    for kind in (SpecKind.EARLIEST, SpecKind.LATEST, SpecKind.MAX_TIMESTAMP):
        assert spec(str(OffsetSpec(kind).kafka_time)) == OffsetSpec(kind)
        assert spec(OffsetSpec(kind).name) == OffsetSpec(kind)


@pytest.mark.parametrize(
    ("text", "expected_ms"),
    [
        ("0", 0),
        ("1763704800000", 1763704800000),
        ("2026-11-21T06:00:00Z", 1795240800000),
        ("2026-11-21", 1795219200000),
        ("6h ago", NOW - 6 * H),
        ("-30m", NOW - 30 * 60_000),  # relative, not a Kafka code
        ("2d", NOW - 48 * H),
        ("now", NOW),
        ("now-6h", NOW - 6 * H),
    ],
)
def test_times_become_timestamp_specs(text: str, expected_ms: int) -> None:
    assert spec(text) == OffsetSpec.at(expected_ms)
    assert spec(text).kind is SpecKind.TIMESTAMP
    assert spec(text).kafka_time == expected_ms


def test_minus_zero_is_timestamp_zero_as_java_reads_it() -> None:
    assert spec("-0") == OffsetSpec.at(0)
    assert spec("-000") == OffsetSpec.at(0)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("-7", "negative values other than the Kafka codes"),
        ("-100", "negative values other than the Kafka codes"),
        ("oldest", "not recognised"),
        ("max-ts", "not recognised"),
        ("", "empty"),
        ("2026-02-30", "day is out of range"),
        ("1969-01-01", "before 1970"),
        ("-1.5", "negative"),
    ],
)
def test_bad_specs(text: str, reason: str) -> None:
    with pytest.raises(UsageError) as info:
        spec(text)
    message = str(info.value)
    assert message.startswith(f"invalid offset spec {text!r}")
    assert reason in message
    assert SPEC_FORMS in message


def test_parse_specs_default_is_latest() -> None:
    assert parse_specs([], now_ms=NOW, tz=UTC) == (OffsetSpec.latest(),)
    assert parse_specs((), now_ms=NOW, tz=UTC) == (OffsetSpec.latest(),)


def test_parse_specs_keeps_order_and_drops_duplicates() -> None:
    texts = ["max-timestamp", "earliest", "-1", "latest", "-2", "now", str(NOW), "6h ago", "now-6h"]
    assert parse_specs(texts, now_ms=NOW, tz=UTC) == (
        OffsetSpec.max_timestamp(),
        OffsetSpec.earliest(),
        OffsetSpec.latest(),
        OffsetSpec.at(NOW),
        OffsetSpec.at(NOW - 6 * H),
    )


def test_parse_specs_reports_the_bad_one() -> None:
    with pytest.raises(UsageError, match="'bogus'"):
        parse_specs(["earliest", "bogus", "latest"], now_ms=NOW, tz=UTC)


@given(st.text(max_size=40))
@example("-9223372036854775809")
@example("-99999999999999999999999")
@example("-\u0661")
def test_parse_spec_total(text: str) -> None:
    try:
        result = spec(text)
    except UsageError as exc:
        assert SPEC_FORMS in str(exc)
        return
    assert isinstance(result, OffsetSpec)
    if result.kind is SpecKind.TIMESTAMP:
        assert result.timestamp_ms is not None and result.timestamp_ms >= 0
    else:
        assert result.timestamp_ms is None


@given(st.integers(0, 2**63 - 1))
def test_epoch_ms_specs(ms: int) -> None:
    assert spec(str(ms)) == OffsetSpec.at(ms)


@given(st.integers(-(10**12), -1))
def test_negative_integers_are_codes_or_errors(n: int) -> None:
    if n >= -6:  # -1..-3, and the tiered-storage codes -4..-6
        assert spec(str(n)).kind is not SpecKind.TIMESTAMP
    else:
        with pytest.raises(UsageError):
            spec(str(n))


@given(st.integers(0, 4 * 10**12))
def test_iso_spec_agrees_with_parse_time(ms: int) -> None:
    text = format_time(ms, UTC)
    assert spec(text) == OffsetSpec.at(parse_time(text, now_ms=NOW, tz=UTC)) == OffsetSpec.at(ms)


@given(
    st.lists(st.sampled_from(["earliest", "latest", "-1", "-2", "-3", "max_timestamp", "0", "now", "1h ago"]))
)
def test_parse_specs_unique_and_ordered(texts: list[str]) -> None:
    result = parse_specs(texts, now_ms=NOW, tz=UTC)
    assert len(set(result)) == len(result)
    singles = [spec(t) for t in texts]
    assert set(result) == (set(singles) or {OffsetSpec.latest()})
    # first occurrences, in input order
    assert list(result) == (list(dict.fromkeys(singles)) or [OffsetSpec.latest()])
