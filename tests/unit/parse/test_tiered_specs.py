"""The tiered-storage specs by code and by name (GetOffsetShell's --time values)."""

from __future__ import annotations

from datetime import timezone

import pytest

from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable, SpecKind
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.parse.specs import parse_spec, parse_specs
from kafka_offsets_cli.render.offsets import records, render_plain


@pytest.mark.parametrize(
    ("code", "name", "kind"),
    [
        ("-4", "earliest-local", SpecKind.EARLIEST_LOCAL),
        ("-5", "latest-tiered", SpecKind.LATEST_TIERED),
        ("-6", "earliest-pending-upload", SpecKind.EARLIEST_PENDING_UPLOAD),
    ],
)
def test_code_and_name_are_one_spec(code: str, name: str, kind: SpecKind) -> None:
    by_code = parse_spec(code, now_ms=0, tz=timezone.utc)
    assert (
        by_code
        == parse_spec(name, now_ms=0, tz=timezone.utc)
        == parse_spec(name.upper(), now_ms=0, tz=timezone.utc)
    )
    assert by_code.kind is kind and by_code.tiered and by_code.name == name
    assert by_code.kafka_time == int(code)
    assert parse_specs([code, name], now_ms=0, tz=timezone.utc) == (by_code,)


def test_classic_specs_are_not_tiered() -> None:
    assert not any(s.tiered for s in (OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.at(5)))


def test_records_and_plain_output_of_a_tiered_spec() -> None:
    spec = OffsetSpec(SpecKind.LATEST_TIERED)
    results = (
        OffsetResult("t", 0, spec, 199, None, 0),
        OffsetResult(
            "t", 1, spec, None
        ),  # no tiered storage: Kafka answers -1, GetOffsetShell prints nothing
    )
    table = OffsetTable((spec,), (TopicPartition("t", 0), TopicPartition("t", 1)), results)
    assert render_plain(table) == "t:0:199\n"
    assert [r["spec"] for r in records(table)] == ["latest-tiered", "latest-tiered"]
    assert [r["offset"] for r in records(table)] == [199, None]


@pytest.mark.parametrize("target", ["earliest-local", "latest-tiered", "earliest-pending-upload"])
def test_a_tiered_spec_is_not_a_rewind_target(target: str) -> None:
    from tests.cli_runner import cli

    run = cli("rewind", "-b", "127.0.0.1:1", "-g", "g", "-t", "t", "--to", target)
    assert run.code == 2
    assert f"--to {target} is not a reset target" in run.stderr
