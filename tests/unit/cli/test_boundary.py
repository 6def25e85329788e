"""The one place exceptions become a line on stderr and an exit code (cli/boundary.py)."""

from __future__ import annotations

import pytest
import typer

from kafka_offsets_cli.cli.boundary import boundary
from kafka_offsets_cli.cli.families import Family, from_argv
from kafka_offsets_cli.errors import ClusterUnreachable, ExitCode, UsageError, interrupted
from tests.unit.ctrl_c import replaced_by_py4j_error, wrapped_by_c_extension


def _exit_code(exc: BaseException, *, monitoring: bool = False) -> int:
    with pytest.raises(typer.Exit) as info, boundary(monitoring=monitoring):
        raise exc
    return info.value.exit_code


def test_ctrl_c_is_one_line_and_130(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(KeyboardInterrupt()) == ExitCode.INTERRUPTED
    assert capsys.readouterr().err.strip() == "kafka-offsets: interrupted"


def test_ctrl_c_wrapped_by_a_c_extension_is_still_the_interrupt(capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_code(wrapped_by_c_extension()) == ExitCode.INTERRUPTED
    err = capsys.readouterr().err
    assert err.strip() == "kafka-offsets: interrupted" and "Traceback" not in err


def test_a_failure_raised_while_handling_ctrl_c_counts_as_the_interrupt() -> None:
    """py4j's 'Answer from Java side is empty' after a Ctrl-C, or CPython's SystemError from a C
    extension, is the interrupt, not a failure."""
    assert interrupted(replaced_by_py4j_error())
    assert interrupted(wrapped_by_c_extension())
    assert interrupted(KeyboardInterrupt())
    plain = RuntimeError("task failed")
    assert not interrupted(plain)
    a, b = ValueError("a"), ValueError("b")
    a.__context__, b.__context__ = b, a  # a cycle ends the walk
    assert not interrupted(a)


def test_a_bug_keeps_its_traceback() -> None:
    with pytest.raises(SystemError, match="a real bug"), boundary():
        raise SystemError("a real bug")


def test_tool_errors_map_to_their_codes_and_monitoring_turns_every_failure_unknown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _exit_code(ClusterUnreachable("no answer")) == ExitCode.UNREACHABLE
    assert _exit_code(UsageError("bad")) == ExitCode.USAGE
    assert _exit_code(ClusterUnreachable("no answer"), monitoring=True) == 3
    assert _exit_code(UsageError("bad"), monitoring=True) == 3  # issue 27 item 6: 2 read as CRITICAL
    out, err = capsys.readouterr()
    assert err.count("kafka-offsets: error:") == 4 and out == ""


def test_a_usage_error_of_a_nagios_check_prints_its_unknown_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as info, boundary(monitoring=True, nagios="KAFKA LIVENESS"):
        raise UsageError("--warn 9m is longer than --crit 5m")
    assert info.value.exit_code == 3
    out, err = capsys.readouterr()
    assert out == "KAFKA LIVENESS UNKNOWN - --warn 9m is longer than --crit 5m\n"
    assert err == "kafka-offsets: error: --warn 9m is longer than --crit 5m\n"
    with pytest.raises(typer.Exit), boundary(monitoring=True, nagios="KAFKA LIVENESS"):
        raise ClusterUnreachable("no answer")  # the command prints that UNKNOWN line itself
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("command", "args", "family"),
    [
        ("liveness", ["--bogus"], Family(None)),
        ("tiering", ["-o", "nagios", "--warn-records", "x"], Family("KAFKA TIERING")),
        ("check", ["--output=NAGIOS"], Family("KAFKA CHECK")),
        ("check", ["-onagios", "-o", "json"], Family(None)),  # the last -o wins, as in the parser
        ("lag", ["-g", "g", "--bogus"], None),  # plain lag keeps exit 2
        ("lag", ["--warn-lag", "x"], Family(None)),
        ("lag", ["--crit-time-lag=x", "-o", "nagios"], Family("KAFKA LAG")),
        ("lag", ["--prometheus-file", "f", "--bogus"], Family(None)),
        ("lag", ["-o", "prometheus", "--bogus"], Family(None)),
        ("lag", ["--bogus", "--", "--warn-lag"], None),  # after --: not an option
        ("list", ["-o", "nagios", "--bogus"], None),
        ("rewind", ["--warn-lag", "1"], None),
    ],
)
def test_which_command_lines_are_monitoring_checks(
    command: str, args: list[str], family: Family | None
) -> None:
    assert from_argv(command, args) == family


def test_ctrl_c_while_the_cli_is_imported_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before any command runs (importing typer and the app), Ctrl-C is still one line and 130."""
    import sys
    from importlib.abc import MetaPathFinder

    from kafka_offsets_cli.__main__ import main

    class CtrlC(MetaPathFinder):
        def find_spec(self, name: str, *_: object) -> None:
            if name == "kafka_offsets_cli.cli.app":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "kafka_offsets_cli.cli.app", raising=False)
    monkeypatch.setattr(sys, "meta_path", [CtrlC(), *sys.meta_path])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == ExitCode.INTERRUPTED
    assert capsys.readouterr().err.strip() == "kafka-offsets: interrupted"
