"""Usage errors of monitoring checks are UNKNOWN (3), not CRITICAL (2) (issue 27 item 6).

Nagios, Icinga and cron wrappers read exit 2 as CRITICAL: an invalid argument of ``liveness``,
``tiering``, ``check`` or a monitoring ``lag`` (a threshold, ``-o nagios|prometheus``,
``--prometheus-file``) said "the cluster is critical". As the monitoring-plugins guidelines say,
it is UNKNOWN; with ``-o nagios`` its status line is the UNKNOWN one. The parser's own errors (no
such option, a bad value) and the tool's (a bad duration, an unwritable file) alike; ``list``,
plain ``lag``, ``rewind`` and ``config`` keep exit 2. No broker: nothing is contacted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fault_helpers import assert_one_error_line, run_timed

NOWHERE = "127.0.0.1:9"  # a closed port: a run that contacts it fails at once (exit 3, "cannot connect")
MISSING = "/missing/x.prom"
UNWRITABLE = f"cannot write {MISSING}: directory /missing does not exist"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("liveness", "-b", NOWHERE, "--prometheus-file", MISSING), UNWRITABLE),  # the command line
        (("liveness", "-b", NOWHERE, "--warn", "9m", "--crit", "5m"), "--warn 9m is longer than --crit 5m"),
        (("liveness", "-b", NOWHERE, "--no-such-option"), "No such option: --no-such-option"),
        (("tiering", "-b", NOWHERE, "--warn-records", "many"), "Invalid value for '--warn-records': 'many'"),
        (("check", "spec.yaml", "--worst", "-1"), "Invalid value for '--worst': -1 is not in the range x>=0"),
        (("check", "missing-spec.yaml"), "missing-spec.yaml: no such spec file"),
        (("lag", "-b", NOWHERE, "-g", "g", "--warn-lag", "10", "--crit-lag", "5"), "--warn-lag 10 is above"),
        (("lag", "-b", NOWHERE, "-g", "g", "--crit-lag", "x"), "Invalid value for '--crit-lag': 'x'"),
        (("lag", "-b", NOWHERE, "-g", "g", "--prometheus-file", MISSING), UNWRITABLE),
        (("lag", "-b", NOWHERE, "-g", "g", "-o", "prometheus", "--bogus"), "No such option: --bogus"),
    ],
)
def test_a_usage_error_of_a_monitoring_check_is_unknown(args: tuple[str, ...], message: str) -> None:
    run = run_timed(*args)
    assert run.code == 3 and run.stdout == "", run
    assert_one_error_line(run.stderr, contains=message)
    assert run.seconds < 20, run  # refused before anything was contacted


@pytest.mark.parametrize(
    ("service", "args", "message"),
    [
        ("KAFKA LIVENESS", ("liveness", "-b", NOWHERE, "--prometheus-file", MISSING), UNWRITABLE),
        ("KAFKA LIVENESS", ("liveness", "-b", NOWHERE, "--warn", "soon"), "invalid duration 'soon'"),
        ("KAFKA TIERING", ("tiering", "-b", NOWHERE, "--bogus"), "No such option: --bogus"),
        ("KAFKA CHECK", ("check", "missing-spec.yaml"), "missing-spec.yaml: no such spec file"),
        (
            "KAFKA LAG",
            ("lag", "-b", NOWHERE, "-g", "g", "--min-lag", "x"),
            "Invalid value for '--min-lag': 'x'",
        ),
    ],
)
def test_a_nagios_check_prints_an_unknown_status_line(
    service: str, args: tuple[str, ...], message: str
) -> None:
    for nagios in (("-o", "nagios"), ("--output=nagios",)):
        run = run_timed(*args, *nagios)
        assert run.code == 3, run
        [line] = run.stdout.splitlines()
        assert line.startswith(f"{service} UNKNOWN - ") and message in line, run
        assert message in assert_one_error_line(run.stderr), run


@pytest.mark.parametrize(
    "args",
    [
        ("list", "-b", NOWHERE, "--bogus"),
        ("list", "-b", NOWHERE, "-s", "latests"),
        ("lag", "-b", NOWHERE, "-g", "g", "--bogus"),
        ("lag", "-b", NOWHERE, "-g", "g", "--min-lag", "x"),
        ("rewind", "-b", NOWHERE, "-g", "g", "--to", "5"),
        ("config", "show", "-o", "bogus"),
    ],
)
def test_the_other_commands_keep_exit_2(args: tuple[str, ...]) -> None:
    run = run_timed(*args)
    assert run.code == 2 and run.stdout == "", run
    assert_one_error_line(run.stderr)


def test_the_check_spec_of_a_nagios_check_is_unknown_with_every_problem(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("clusters: {}\nchecks: []\n")
    run = run_timed("check", str(spec), "-o", "nagios")
    assert run.code == 3, run
    assert run.stdout.startswith(f"KAFKA CHECK UNKNOWN - {spec}: "), run
