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
