"""Kafka's ``--reset-offsets`` flags mapped to ``rewind``'s options
(:mod:`kafka_offsets_cli.parse.reset_flags`) and the conflicts refused in one line (their plans
against Kafka's: tests/test_rewind_kafka_flags.py)."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.parse.reset_flags import translate
from tests.cli_runner import cli

#: rewind's options that take a value (as the command hands them over)
VALUED = frozenset(
    {"-g", "--group", "--to", "--to-offset", "--shift-by", "--from-file", "--topic", "-t", "--export"}
)


@pytest.mark.parametrize(
    ("given", "becomes"),
    [
        (["--reset-offsets", "--to-earliest", "--dry-run"], ["--to", "earliest"]),
        (["--to-latest", "--all-topics"], ["--to", "latest"]),
        (["--to-datetime", "2026-11-21T06:00:00.000"], ["--to", "2026-11-21T06:00:00.000"]),
        (["--to-datetime=2026-11-21T06:00:00.000+01:00"], ["--to", "2026-11-21T06:00:00.000+01:00"]),
        (["--by-duration", "P1DT2H"], ["--to", "P1DT2H"]),
        (["--to-offset", "5", "--execute"], ["--to-offset", "5", "--execute"]),  # rewind's own
        (["--export", "--dry-run"], ["--export", "-"]),  # Kafka's bare --export: the CSV on stdout
        (["--export"], ["--export", "-"]),
        (["--export", "-g", "g"], ["--export", "-", "-g", "g"]),
        (["--export", "plan.csv"], ["--export", "plan.csv"]),  # rewind's --export FILE
        (["--export", "-"], ["--export", "-"]),
        (["--topic", "t:0,2"], ["--topic-partitions", "t:0,t:2"]),
        (["--topic", "a:1", "--topic", "b"], ["--topic-partitions", "a:1,b:"]),
        (["--topic", "orders.*"], ["--topic", "orders.*"]),  # rewind's regex, as before
        # a value is never read as a flag; nothing after -- is touched
        (["-g", "--to-earliest", "--to", "latest"], ["-g", "--to-earliest", "--to", "latest"]),
        (["--to-latest", "--", "--dry-run"], ["--to", "latest", "--", "--dry-run"]),
    ],
)
def test_kafka_flags_map_to_rewinds_options(given: list[str], becomes: list[str]) -> None:
    assert translate(given, VALUED) == becomes


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (["--to-earliest", "--to-latest"], "--to-earliest and --to-latest are both a reset target: give one"),
        (["--to", "earliest", "--by-duration", "PT1H"], "--to and --by-duration are both a reset target"),
        (["--shift-by", "2", "--to-current", "--to-earliest"], "--shift-by and --to-current are both"),
        (["--dry-run", "--execute"], "--dry-run and --execute: give one"),
        (["--all-topics", "--topic", "t"], "--all-topics and --topic: give one"),
        (["--by-duration", "1h"], "an ISO-8601 duration (PnDTnHnMnS"),
        (["--to-datetime", "PT1H"], "Kafka's YYYY-MM-DDTHH:mm:SS.sss"),
        (["--to-datetime"], "--to-datetime needs a value"),
    ],
)
def test_conflicts_and_bad_values_are_refused(given: list[str], message: str) -> None:
    with pytest.raises(UsageError) as e:
        translate(given, VALUED)
    assert message in e.value.message


def test_rewinds_own_options_alone_are_left_to_the_request() -> None:
    """Two of rewind's own targets keep the request's message (listing every target)."""
    assert translate(["--to", "earliest", "--to-offset", "3"], VALUED) == [
        "--to",
        "earliest",
        "--to-offset",
        "3",
    ]
    r = cli("rewind", "-b", "127.0.0.1:9", "-g", "g", "--to", "earliest", "--to-offset", "3")
    assert r.code == 2 and "give one target" in r.stderr


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--to-earliest", "--to-latest"], "--to-earliest and --to-latest are both a reset target: give one"),
        (["--to-latest", "--dry-run", "--execute"], "--dry-run and --execute: give one"),
        (["--to-latest", "--all-topics", "--topic", "t"], "--all-topics and --topic: give one"),
        (["--to-datetime", "2999-01-01T00:00:00.000"], "after now"),  # then the request's checks, as --to's
        (["--topic", "t:0", "--partitions", "1", "--to-latest"], "--topic-partitions cannot be used with"),
    ],
)
def test_the_command_refuses_in_one_line(words: list[str], message: str) -> None:
    r = cli("rewind", "--bootstrap-server", "127.0.0.1:9", "--reset-offsets", "--group", "g", *words)
    assert r.code == 2, r.stderr
    assert message in r.stderr and r.stderr.count("error:") == 1, r.stderr
    assert "No such option" not in r.stderr
