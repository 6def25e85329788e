"""The one ``--output`` option: each command offers exactly its formats, one dispatch writes records."""

from __future__ import annotations

import pytest
import typer.main

from kafka_offsets_cli.cli import emit
from kafka_offsets_cli.cli.app import app
from kafka_offsets_cli.cli.options import OUTPUTS, Format
from kafka_offsets_cli.errors import UsageError
from tests.mock_environment import MockEnvironment

COMMANDS = {
    ("list",): "list",
    ("lag",): "lag",
    ("liveness",): "liveness",
    ("rewind",): "rewind",
    ("check",): "check",
    ("config", "show"): "config",
    ("config", "list"): "config",
}


def _output_param(path: tuple[str, ...]) -> object:
    cmd = typer.main.get_command(app)
    ctx = cmd.make_context("kafka-offsets", [], resilient_parsing=True)
    for name in path:
        cmd = cmd.get_command(ctx, name)  # type: ignore[attr-defined]
    return next(p for p in cmd.params if "--output" in getattr(p, "opts", ()))


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_each_command_offers_its_formats_case_insensitively(path: tuple[str, ...]) -> None:
    param = _output_param(path)
    out = OUTPUTS[COMMANDS[path]]
    assert list(param.type.choices) == [f.value for f in out.formats]  # type: ignore[attr-defined]
    assert param.type.case_sensitive is False  # type: ignore[attr-defined]
    assert param.opts == ["--output", "-o"]  # type: ignore[attr-defined]
    assert param.help == out.help  # type: ignore[attr-defined]


def test_a_given_choice_becomes_the_format_and_the_defaults_follow_the_terminal() -> None:
    param = _output_param(("liveness",))
    given = param.type.convert("NAGIOS", None, None)  # type: ignore[attr-defined]
    assert OUTPUTS["liveness"].choose(given, MockEnvironment()) is Format.nagios
    terminal, pipe = MockEnvironment(stdout_isatty=True), MockEnvironment(stdout_isatty=False)
    assert [OUTPUTS[c].choose(None, terminal) for c in ("list", "check", "config")] == [
        Format.table,
        Format.table,
        Format.text,
    ]
    assert [OUTPUTS[c].choose(None, pipe) for c in ("list", "check", "config")] == [
        Format.jsonl,
        Format.json,
        Format.text,
    ]


def test_records_text_is_the_one_record_dispatch() -> None:
    recs: list[dict[str, object]] = [{"a": 1, "b": True}, {"a": None, "b": False}]
    assert emit.records_text(recs, Format.jsonl, ("a", "b"), ("b",)) == '{"b":true}\n{"b":false}\n'
    assert emit.records_text(recs, Format.csv, ("a", "b"), header=False) == "1,true\n,false\n"
    with pytest.raises(ValueError, match="not a record format: nagios"):
        emit.records_text(recs, Format.nagios, ("a",))
    with pytest.raises(UsageError, match="unknown column 'c'"):
        emit.parse_columns("a, c", ("a", "b"))


def test_watch_blocks_of_plain_end_with_an_empty_line_and_csv_rows_run_on() -> None:
    assert emit.block_text("x\n", Format.csv) == "x\n"  # one CSV stream, its rows stamped refreshed_ms
    assert emit.block_text("x\n", Format.plain) == "x\n\n"
    assert emit.block_text("x\n", Format.jsonl) == "x\n"
    assert emit.block_text("OK - x\n", Format.nagios) == "OK - x\n"
