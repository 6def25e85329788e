"""Copy-paste and logs: help examples print as written, stderr off a terminal is never wrapped, piped
``--watch`` table blocks say when they were taken."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from kafka_offsets_cli.cli import emit, list_view
from kafka_offsets_cli.cli.app import load_command, verbatim_blocks
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.cli.watch import Rates, block_stamp
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable
from kafka_offsets_cli.models.topics import TopicPartition

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def cli(*args: str, columns: int = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a child process, stdout and stderr piped (not a terminal), ``COLUMNS`` narrow."""
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    env.pop("KAFKA_BOOTSTRAP_SERVERS", None)
    return subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", *args],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def example_lines(name: str) -> list[str]:
    """The example command lines a command's help carries."""
    cmd = load_command(name)
    text = f"{cmd.help}\n{cmd.epilog}"
    return [line.strip() for line in text.splitlines() if line.strip().startswith("kafka-offsets ")]


@pytest.mark.parametrize("name", ["list", "check", "lag", "liveness", "rewind"])
def test_help_examples_print_whole_at_any_width(name: str) -> None:
    examples = example_lines(name)
    if name in ("list", "check"):
        assert len(examples) >= 4  # the ones reported broken
    help_lines = {line.strip() for line in cli(name, "--help").stdout.splitlines()}
    for line in examples:
        assert line in help_lines, f"{line!r} is not one line of `{name} --help`"


def test_only_indented_paragraphs_are_kept_verbatim() -> None:
    text = "Some prose that\nwraps.\n\n  kafka-offsets list -t a\n\n  x\n  y"
    assert verbatim_blocks(text) == "Some prose that\nwraps.\n\n\b\n  kafka-offsets list -t a\n\n\b\n  x\n  y"
    already = "\b\n  kafka-offsets list"
    assert verbatim_blocks(already) == already
    assert verbatim_blocks(None) is None


def test_a_long_error_line_is_one_line_off_a_terminal() -> None:
    spec = "not-a-spec-" + "x" * 200
    run = cli("list", "-b", "127.0.0.1:9", "-s", spec, columns=80)
    assert run.returncode == 2, run
    first = run.stderr.splitlines()[0]
    assert first.startswith("kafka-offsets: error: invalid offset spec ") and spec in first, run.stderr
    assert len(first) > 200


def test_every_stderr_line_is_unwrapped_off_a_terminal() -> None:
    """A message printed without ``soft_wrap`` (e.g. a failed --watch refresh) is not broken at 80 columns."""
    code = (
        "from kafka_offsets_cli.cli.output import err_console\n"
        "err_console().print('[yellow]warning:[/] ' + 'word ' * 60)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, "COLUMNS": "80"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.stderr == "warning: " + "word " * 60 + "\n"


def table(specs: tuple[OffsetSpec, ...]) -> OffsetTable:
    tp = TopicPartition("a", 0)
    return OffsetTable(
        specs, (tp,), tuple(OffsetResult(tp.topic, tp.partition, s, 5, None, 0) for s in specs)
    )


def test_piped_watch_table_blocks_start_with_when_they_were_taken() -> None:
    before = datetime.now(timezone.utc).replace(microsecond=0)
    view = list_view.ListView(fmt=Format.table, zone=timezone.utc)
    text = list_view._block(view)(table((OffsetSpec.latest(),)), Rates())
    first, rest = text.split("\n", 1)
    assert first.startswith("# ")
    taken = datetime.fromisoformat(first[2:])
    assert taken.tzinfo is not None and before <= taken <= datetime.now(timezone.utc)
    assert rest.lstrip().startswith("TOPIC")


@pytest.mark.parametrize("fmt", [Format.jsonl, Format.csv, Format.plain])
def test_machine_blocks_carry_no_stamp(fmt: Format) -> None:
    assert not emit.block_text("x\n", fmt).startswith("#")


def test_block_stamp_is_local_time_with_its_offset() -> None:
    at = datetime(2026, 11, 24, 14, 3, 7, tzinfo=timezone.utc)
    line = block_stamp(at)
    assert line.endswith("\n") and datetime.fromisoformat(line[2:-1]) == at
