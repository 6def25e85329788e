# ruff: noqa: E501  (expected problem messages are long on purpose)
"""A spec file's ``type: tiering`` check (issue 31.1): its keys, their problems, and ``check``'s refusal.

``serve --spec`` serves it (tests/test_serve_spec.py); ``check`` refuses a spec with one in one line,
before any cluster or Spark is contacted (the file's cluster listens nowhere).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.check.spec import CheckSpec, TieringCheck
from kafka_offsets_cli.errors import SpecFileError
from tests.cli_runner import cli
from tests.unit.check.test_specfile import problems

SPEC = r"""clusters:
  c: {bootstrap_servers: '127.0.0.1:1'}
checks:
  - {name: alive, type: liveness, topics: [t], warn: 5m, crit: 15m}
  - {name: tiers, type: tiering, topics: ['orders\..*'], warn_records: 100, crit_records: 1000, warn_age: 30m, crit_age: 2h}
  - {name: every, type: tiering, exclude_internal: false, description: all topics}
"""


def _spec(text: str = SPEC) -> CheckSpec:
    return parse_spec_text(textwrap.dedent(text), "spec.yaml", environ={})


def test_tiering_checks_take_the_tiering_commands_thresholds() -> None:
    spec = _spec()
    assert [c.name for c in spec.checks] == ["alive"]  # what check runs on Spark
    assert spec.tiering_checks == (
        TieringCheck(
            name="tiers", clusters=("c",), topics=(r"orders\..*",), warn_records=100, crit_records=1000,
            warn_age_ms=1_800_000, crit_age_ms=7_200_000, line=5,
        ),
        TieringCheck(name="every", clusters=("c",), exclude_internal=False, description="all topics", line=6),
    )  # fmt: skip
    # the names tiering's Thresholds takes
    assert spec.tiering_checks[0].thresholds() == {
        "warn_records": 100, "crit_records": 1000, "warn_age_ms": 1_800_000, "crit_age_ms": 7_200_000,
    }  # fmt: skip


def test_tiering_check_problems_and_other_types_keys() -> None:
    text = """\
    clusters: {c: {bootstrap_servers: 'h:1'}}
    checks:
      - {name: a, type: tiering, warn_records: 10, crit_records: 5, warn_age: 2h, crit_age: 1h}
      - {name: b, type: tiering, warn_records: -1, crit_age: soon, warn_lag: 5, min_alive: 1}
      - {name: c, type: liveness, topics: [t], warn: 1m, crit: 2m, crit_records: 5}
      - {name: d, type: lag, groups: [g], warn_age: 1h}
      - {name: a, type: tiering, topics: []}
    """
    assert problems(text) == [
        "checks[0].warn_records: must not exceed crit_records (line 3)",
        "checks[0].warn_age: must not exceed crit_age (line 3)",
        "checks[1].warn_lag: warn_lag applies to lag checks, not tiering (line 4)",
        "checks[1].min_alive: min_alive applies to liveness checks, not tiering (line 4)",
        "checks[1].warn_records: expected an integer >= 0, got -1 (line 4)",
        "checks[1].crit_age: invalid duration 'soon': not a duration; expected 250ms, 30s, 5m, 1h30m, 2d, 1w, 1.5h, or a bare number of seconds (line 4)",
        "checks[2].crit_records: crit_records applies to tiering checks, not liveness (line 5)",
        "checks[3].warn_age: warn_age applies to tiering checks, not lag (line 6)",
        "checks[4].name: duplicate check name 'a' (first at line 3) (line 7)",
        "checks[4].topics: expected at least one topic name or pattern (line 7)",
    ]


def _write(tmp_path: Path, text: str = SPEC) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_check_refuses_a_spec_with_tiering_checks_naming_each(tmp_path: Path) -> None:
    run = cli("check", _write(tmp_path), "-o", "json")
    assert run.code == 3, run.stderr  # a spec error of a monitoring check: UNKNOWN, as every usage error
    assert run.stdout == ""
    # one line per tiering check, each naming it
    first, second = run.stderr.strip().splitlines()
    assert first.endswith(
        "spec.yaml: check 'tiers': tiering checks are served by 'serve --spec' and run by 'tiering', "
        "not by check (line 5) (and 1 more)"
    ), first
    assert second.strip().startswith("check 'every': tiering checks are served by 'serve --spec'"), second


def test_refusal_comes_before_any_cluster_or_spark() -> None:
    from kafka_offsets_cli.spark.driver import refuse_tiering

    with pytest.raises(SpecFileError) as info:
        refuse_tiering(_spec())
    assert [p.split(":")[0] for p in info.value.problems] == ["check 'tiers'", "check 'every'"]
    refuse_tiering(_spec(SPEC.split("  - {name: tiers")[0]))  # no tiering check: nothing to refuse


def test_validate_accepts_the_file_and_notes_each_tiering_check(tmp_path: Path) -> None:
    run = cli("check", "--validate", _write(tmp_path))
    assert run.code == 0, run.stderr
    assert "valid: 3 check(s) (1 liveness, 0 lag, 2 tiering) on 1 cluster(s)" in run.stderr
    assert "note: check 'tiers': tiering checks are served by 'serve --spec', not run by check" in run.stderr
