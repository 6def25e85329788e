"""stdout that cannot be written and a bad command line: one line and a documented exit code (no broker).

Each case runs the real CLI in a child process with its stdout or stderr as a shell leaves them:
``>/dev/full`` (every write fails with ENOSPC), ``>&-`` (closed), ``2>&-``.
"""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest

from tests.fault_helpers import REPO_ROOT, child_env

CLI = f"{shlex.quote(sys.executable)} -m kafka_offsets_cli"


def sh(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` (with ``$CLI`` for the tool) in a POSIX shell."""
    return subprocess.run(
        ["sh", "-c", command.replace("$CLI", CLI)],
        cwd=REPO_ROOT,
        env=child_env(KAFKA_OFFSETS_CONFIG="/nonexistent/kafka-offsets.toml"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("redirect", "why"),
    [(">/dev/full", "No space left on device"), (">&-", "it is closed")],
)
@pytest.mark.parametrize("args", ["config path", "--help", "list --help"])
def test_stdout_that_cannot_be_written_is_one_line_and_exit_7(redirect: str, why: str, args: str) -> None:
    run = sh(f"exec $CLI {args} {redirect}")
    assert run.returncode == 7, run.stderr
    assert run.stderr.splitlines()[-1] == f"kafka-offsets: error: cannot write to standard output: {why}"
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr


@pytest.mark.parametrize(
    ("args", "code"), [("config path >&-", 7), ("config path >/dev/full", 7), ("list --bogus", 2), ("", 2)]
)
def test_a_closed_stderr_never_changes_the_exit_code(args: str, code: int) -> None:
    assert sh(f"exec $CLI {args} 2>&-").returncode == code


def test_a_bad_option_is_one_line_and_a_hint() -> None:
    run = sh("exec $CLI liveness --bogus")
    assert run.returncode == 3 and run.stdout == ""  # a monitoring check: UNKNOWN (docs: "Exit codes")
    first, hint = run.stderr.splitlines()
    assert first.startswith("kafka-offsets: error: No such option: --bogus")  # + click's "Possible options"
    assert hint == "  hint: see 'kafka-offsets liveness --help'"


def test_a_bad_choice_and_a_mistyped_command_are_one_line_and_a_hint() -> None:
    choice = sh("exec $CLI list -o bogus")
    assert choice.returncode == 2
    first, hint = choice.stderr.splitlines()
    assert first.startswith("kafka-offsets: error: Invalid value for '--output' / '-o': 'bogus'")
    assert hint == "  hint: see 'kafka-offsets list --help'"
    typo = sh("exec $CLI lsit")
    assert (typo.returncode, typo.stderr.splitlines()) == (
        2,
        [
            "kafka-offsets: error: No such command 'lsit'. Did you mean 'list'?",
            "  hint: see 'kafka-offsets --help'",
        ],
    )
