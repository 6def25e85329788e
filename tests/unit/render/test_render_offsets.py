"""Unit tests of the list renderers (pure functions of results)."""

from __future__ import annotations

import csv
import io
import json
from datetime import timezone

from rich.console import Console

from kafka_offsets_cli.cli.emit import records_text
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render import offsets as r


def text(t: OffsetTable, fmt: Format, *, header: bool = True) -> str:
    """List records as the one record dispatch writes them."""
    return records_text(r.records(t), fmt, r.COLUMNS, header=header)


E, L, M, T = (
    OffsetSpec.earliest(),
    OffsetSpec.latest(),
    OffsetSpec.max_timestamp(),
    OffsetSpec.at(1_700_000_000_000),
)


def table() -> OffsetTable:
    res = [
        OffsetResult("b", 0, L, 10),
        OffsetResult("b", 0, M, 7, 1_700_000_000_500, 0),
        OffsetResult("a", 1, L, 5, None, 0),
        OffsetResult("a", 1, M, None),  # empty partition
        OffsetResult("a", 0, L, None, error="NOT_LEADER_OR_FOLLOWER"),
        OffsetResult("a", 0, M, 3, 1_700_000_000_000, 2),
    ]
    parts = (TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0))
    return OffsetTable((L, M), parts, tuple(res), (("gone", "UNKNOWN_TOPIC_OR_PARTITION"),))


def test_records_are_sorted_and_have_the_documented_keys() -> None:
    recs = r.records(table())
    assert all(tuple(x) == r.COLUMNS for x in recs)
    assert [(x["topic"], x["partition"], x["spec"]) for x in recs] == [
        ("gone", None, "latest"),
        ("gone", None, "max-timestamp"),
        ("a", 0, "latest"),
        ("a", 0, "max-timestamp"),
        ("a", 1, "latest"),
        ("a", 1, "max-timestamp"),
        ("b", 0, "latest"),
        ("b", 0, "max-timestamp"),
    ]
    err = recs[2]
    assert err["offset"] is None and err["error"] == "NOT_LEADER_OR_FOLLOWER"


def test_json_and_jsonl_round_trip() -> None:
    t = table()
    assert json.loads(text(t, Format.json)) == r.records(t)
    assert [json.loads(line) for line in text(t, Format.jsonl).splitlines()] == r.records(t)


def test_csv_uses_empty_fields_for_null() -> None:
    rows = list(csv.DictReader(io.StringIO(text(table(), Format.csv))))
    assert rows[2]["offset"] == "" and rows[2]["error"] == "NOT_LEADER_OR_FOLLOWER"
    assert text(table(), Format.csv, header=False).splitlines()[0].startswith("gone,")


def test_plain_is_getoffsetshell_format_for_the_first_spec_only() -> None:
    assert r.render_plain(table()) == "a:1:5\nb:0:10\n"


def test_timestamp_spec_name_is_epoch_ms() -> None:
    assert T.name == "1700000000000"
    assert r.spec_heading(T, timezone.utc).startswith(">= 2023-11-14T22:13:20")
    assert r.spec_heading(M, timezone.utc) == "MAX-TIMESTAMP"


def test_rich_table_shows_errors_and_dashes() -> None:
    c = Console(width=200, record=True, no_color=True)
    c.print(r.rich_table(table(), timezone.utc))
    text = c.export_text()
    assert "NOT_LEADER_OR_FOLLOWER" in text and "UNKNOWN_TOPIC_OR_PARTITION" in text
    assert "2023-11-14T22:13:20.500Z" in text
    lines = [ln for ln in text.splitlines() if ln.startswith("a ")]
    assert len(lines) == 2 and "-" in lines[1]
