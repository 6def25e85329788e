"""GetOffsetShell's own command-line forms on ``kafka-offsets list`` (no broker needed)."""

from __future__ import annotations

import re
from datetime import timezone
from pathlib import Path

import pytest

from kafka_offsets_cli import __version__
from kafka_offsets_cli.cli.list_options import KAFKA_TOOLS_VERSION
from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.parse.specs import parse_spec
from tests.cli_runner import cli


def test_list_version_answers_like_get_offsets_version_and_ignores_the_rest() -> None:
    # kafka-get-offsets.sh --version prints and exits 0 before it looks at any other option
    for args in (["--version"], ["--bootstrap-server", "nowhere:1", "--time", "bogus", "--version"]):
        run = cli("list", *args)
        assert run.code == 0, run.stderr
        lines = run.stdout.splitlines()
        assert lines[0] == f"kafka-offsets {__version__}"
        assert (
            lines[-1]
            == f"command line of kafka-get-offsets.sh (GetOffsetShell), Apache Kafka {KAFKA_TOOLS_VERSION}"
        )
        assert run.stderr == ""


def test_the_kafka_release_named_is_the_one_the_tests_run() -> None:
    pom = (Path(__file__).resolve().parents[3] / "dev" / "pom.xml").read_text()
    m = re.search(r"<kafka.version>([^<]+)</kafka.version>", pom)
    assert m is not None and m.group(1) == KAFKA_TOOLS_VERSION


def test_time_takes_a_plus_signed_epoch_like_long_parse_long() -> None:
    utc = timezone.utc
    assert parse_spec("+1700000002000", now_ms=0, tz=utc) == parse_spec("1700000002000", now_ms=0, tz=utc)
    for bad in ("++1", "+", "+-1", "1+2"):
        with pytest.raises(UsageError):
            parse_spec(bad, now_ms=0, tz=utc)
