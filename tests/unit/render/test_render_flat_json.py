"""The fast JSON writers (render/flat_json.py) write exactly what render/formats.py writes."""

from __future__ import annotations

import math
from enum import Enum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.render import flat_json, formats

# strings with the characters that matter: separators, braces, quotes, escapes, newlines, non-ASCII
_TEXT = st.text(
    alphabet=st.sampled_from(list('ab{}[],: \n\r\t"\\/\x00\x1féü€😀\u2028')) | st.characters(),
    max_size=12,
)
_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | _TEXT
)
_RECORD = st.dictionaries(_TEXT, _SCALAR, min_size=1, max_size=6)


@settings(max_examples=300)
@given(st.lists(_RECORD, max_size=8))
def test_flat_records_are_byte_identical(records: list[dict[str, Any]]) -> None:
    assert flat_json.flat(records)
    assert flat_json.to_json(records) == formats.to_json(records)
    assert flat_json.to_jsonl(records) == formats.to_jsonl(records)


class _Color(str, Enum):
    RED = "red"


def test_what_is_not_flat_falls_back_to_the_contract() -> None:
    cases: list[list[Any]] = [
        [],
        [{}],
        [{"a": 1}, {}],
        [{"a": [1, {"b": "},\n    {"}]}],
        [{"a": {"b": None}}],
        [{"a": _Color.RED}],  # a str subclass: the slow encoder's answer is the contract
        [{"a": math.nan, "b": -math.inf}],
    ]
    for records in cases:
        assert flat_json.to_json(records) == formats.to_json(records)
        assert flat_json.to_jsonl(records) == formats.to_jsonl(records)
    assert not flat_json.flat([{"a": [1]}])
    assert not flat_json.flat([{"a": _Color.RED}])
    assert not flat_json.flat([{}])


def test_separator_lookalikes_inside_strings_stay_as_they_are() -> None:
    records = [
        {"group": "},\n    {", "topic": "},{", "partition": 0, "lag": None, "ok": True},
        {"group": '"},\n{"', "topic": ",\n", "partition": 1, "lag": 2.5, "ok": False},
    ]
    assert flat_json.to_json(records) == formats.to_json(records)
    assert flat_json.to_jsonl(records) == formats.to_jsonl(records)
    assert flat_json.to_jsonl(records).count("\n") == 2


# records that share their keys in one order take the one-call path (values encoded together,
# keys woven around them); these tests pin that path to the contract as well


def _same_both_ways(records: list[Any]) -> None:
    assert flat_json.to_json(records) == formats.to_json(records)
    assert flat_json.to_jsonl(records) == formats.to_jsonl(records)


def _lag_rows(n: int) -> list[dict[str, Any]]:
    """Rows shaped like ``lag``'s (the keys and value types it writes), with varied values."""
    return [
        {
            "group": f"bench.g.{i % 7:02d}",
            "group_type": "classic" if i % 3 else "consumer",
            "topic": f"bench.m.{i % 5:02d}",
            "partition": i,
            "committed": None if i % 11 == 0 else 10 * i,
            "log_start": 0,
            "end": 10 * i + i % 4,
            "lag": None if i % 11 == 0 else i % 4,
            "time_lag_ms": None if i % 2 else 1.5 * i,
            "state": "ok" if i % 13 else "no-commit",
            "error": None if i % 17 else "COORDINATOR_NOT_AVAILABLE: retry",
            "resume_timestamp": None,
            "taken_at_ms": 1_764_400_000_000 + i,
            "remote_read": i % 9 == 0,
        }
        for i in range(n)
    ]


def test_lag_shaped_rows_take_the_shared_keys_path_and_are_byte_identical() -> None:
    for n in (1, 2, 3, 250):
        rows = _lag_rows(n)
        assert flat_json._shared_keys(rows) == tuple(rows[0])
        _same_both_ways(rows)


def test_keys_that_need_escaping() -> None:
    keys = [
        'say "hi"',
        "back\\slash",
        "ünïcödé €😀",
        "100%",
        "%s %(x)s",
        "new\nline",
        "tab\t\x00\x1f",
        "\u2028",
    ]
    rows = [{k: i * j for j, k in enumerate(keys)} for i in range(3)]
    assert flat_json._shared_keys(rows) is not None
    _same_both_ways(rows)
    _same_both_ways(rows[:1])


def test_values_that_need_escaping() -> None:
    texts = [
        "line\nbreak",
        'quote " here',
        "back\\slash",
        "é€😀",
        "\x00\x01\x1f\x7f",
        "\r\t\b\f",
        "\u2028\u2029",
        "",
        "%s",
    ]
    rows = [{"a": t, "b": t[::-1], "c": len(t)} for t in texts]
    assert flat_json._shared_keys(rows) is not None
    _same_both_ways(rows)


def test_floats_follow_json_dumps_defaults() -> None:
    floats = [
        1e100,
        -1e-100,
        -0.0,
        0.0,
        math.nan,
        math.inf,
        -math.inf,
        0.1,
        1 / 3,
        2.0**53,
        5e-324,
        1.7976931348623157e308,
    ]
    rows = [{"x": x, "y": -x} for x in floats]
    _same_both_ways(rows)
    assert "NaN" in flat_json.to_json(rows) and "-Infinity" in flat_json.to_jsonl(rows)


def test_bool_stays_bool_and_int_stays_int() -> None:
    rows: list[dict[str, Any]] = [
        {"v": True, "w": 1},
        {"v": 1, "w": False},
        {"v": 0, "w": 2**80},
        {"v": None, "w": -(2**70)},
    ]
    _same_both_ways(rows)
    assert '"v": true' in flat_json.to_json(rows) and '"v":1,' in flat_json.to_jsonl(rows)


def test_a_single_record_and_a_single_key() -> None:
    _same_both_ways([{"only": "one"}])
    _same_both_ways([{"a": 1, "b": None}])
    _same_both_ways([{"k": i} for i in range(4)])


def test_differing_key_order_falls_back_to_the_replace_path() -> None:
    rows = [{"a": 1, "b": "x"}, {"b": "y", "a": 2}]
    assert flat_json._shared_keys(rows) is None and flat_json.flat(rows)
    _same_both_ways(rows)
    more = [{"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}]  # a prefix of the keys is not the same keys
    assert flat_json._shared_keys(more) is None
    _same_both_ways(more)
    _same_both_ways([{"a": 1, "b": 2}, {"a": 1}])
    middle = [{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a": 5, "b": 6}]  # first and last agree
    assert flat_json._shared_keys(middle) is None
    _same_both_ways(middle)


def test_empty_nested_and_subclassed_records_fall_back_to_formats() -> None:
    class Row(dict):  # type: ignore[type-arg]
        pass

    cases: list[list[Any]] = [
        [{}],
        [{"a": 1}, {}],
        [{}, {"a": 1}],
        [{"a": 1}, {"a": [1, 2]}],  # same keys, a nested value further on
        [{"a": {"b": "}\n{"}}, {"a": {}}],
        [{"a": []}, {"a": {}}],
        [Row(a=1), Row(a=2)],
        [{"a": 1}, Row(a=2)],
        [{"a": _Color.RED}, {"a": "red"}],
    ]
    for records in cases:
        assert flat_json._shared_keys(records) is None or flat_json._value_texts(records) is None
        _same_both_ways(records)


def test_a_key_equal_to_the_first_records_key_is_written_alike() -> None:
    # an Enum key compares equal to its str value; both encoders write its text
    rows: list[Any] = [{"red": 1, "b": 2}, {_Color.RED: 3, "b": 4}]
    _same_both_ways(rows)
    _same_both_ways([{1: "a"}, {1: "b"}])  # a non-str key: json turns it into "1"; not the fast path
    assert flat_json._shared_keys([{1: "a"}]) is None


_KEYS = st.lists(_TEXT, min_size=1, max_size=6, unique=True)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.data())
def test_records_sharing_keys_are_byte_identical(data: st.DataObject) -> None:
    keys = data.draw(_KEYS)
    values = st.lists(_SCALAR, min_size=len(keys), max_size=len(keys))
    rows = [dict(zip(keys, row, strict=True)) for row in data.draw(st.lists(values, min_size=1, max_size=8))]
    assert flat_json._shared_keys(rows) == tuple(keys)
    _same_both_ways(rows)
