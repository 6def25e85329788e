"""The completion script as the shell runs it: an interactive bash on a pseudo-terminal, its readline
completing a word on Tab with ``completions/kafka-offsets.bash`` loaded, against a cluster that cannot be
asked. Where the cluster would have given the candidates (``-t``, ``-g``) and where nothing completes
(``-s``, ``--to``), no file name is offered; a FILE option still completes file names.

bash only: zsh and fish are not installed on the machines these tests run on; the answers the program
gives them are tested in tests/unit/cli/test_complete.py.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dev import gendocs
from tests.availability import unavailable

ROOT = Path(__file__).resolve().parent.parent

#: a file in the shell's directory that every word below would complete to, were file names offered
BAIT = "orders-backup.txt"


class Bash:
    """An interactive bash (no rc files, empty inputrc) on a pseudo-terminal."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            ["bash", "--norc", "--noprofile", "-i"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.marks = 0

    def read_until(self, token: bytes, timeout: float) -> bytes:
        """What the terminal shows until ``token`` (fails when it does not come in ``timeout`` s)."""
        buf, deadline = b"", time.monotonic() + timeout
        while token not in buf:
            left = deadline - time.monotonic()
            assert left > 0, f"no {token!r} in {timeout} s; the terminal showed {buf!r}"
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the shell ended
                    break
                buf += chunk
        return buf

    def run(self, line: str, timeout: float = 30) -> bytes:
        """Type ``line`` and Enter; what the terminal showed until the shell was ready again."""
        self.marks += 1
        mark = f"@@mark{self.marks}"
        # the shell expands $((…)): the mark appears once the command ran, not when it is typed
        os.write(self.master, f"{line}; echo @@mark$(({self.marks}))\n".encode())
        # and the prompt after it: readline has the terminal again, so what is typed next is read by
        # readline (typed earlier, the kernel echoes a Tab as a Tab, and under load no completion ran)
        return self.read_until(f"{mark}\r\n$ ".encode(), timeout)

    def tab(self, words: str, timeout: float = 60) -> str:
        """What the line shows after typing ``words`` and Tab twice (the completion of its last word),
        then the line is killed (Ctrl-U). readline finishes the Tabs before reading on, so the mark
        that follows comes after the completion."""
        os.write(self.master, f"{words}\t\t".encode())
        shown = self.run("\x15true", timeout)
        return shown.decode(errors="replace")

    def close(self) -> None:
        """End the shell."""
        try:
            os.write(self.master, b"exit\n")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
        finally:
            os.close(self.master)


@pytest.fixture
def bash(tmp_path: Path) -> Iterator[Bash]:
    if shutil.which("bash") is None:
        unavailable("bash is not installed")
    work, bin_dir, home = tmp_path / "work", tmp_path / "bin", tmp_path / "home"
    for d in (work, bin_dir, home):
        d.mkdir()
    (work / BAIT).write_text("")
    program = bin_dir / "kafka-offsets"  # this source tree, as the scripts call it: by name on PATH
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kafka_offsets_cli "$@"\n')
    program.chmod(0o755)
    drop = ("KAFKA_BOOTSTRAP_SERVERS", "KAFKA_OFFSETS_CONFIG", "KAFKA_OFFSETS_CLUSTER", "BASH_ENV", "ENV")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),  # no profile: no cluster from a config file
        INPUTRC="/dev/null",
        TERM="dumb",
        PS1="$ ",
    )
    shell = Bash(work, env)
    try:
        shell.run(f"source {ROOT / gendocs.BASH}")
        yield shell
    finally:
        shell.close()


@pytest.mark.parametrize(
    "words",
    [
        "kafka-offsets list -b 127.0.0.1:1 -t or",  # the cluster is unreachable
        "kafka-offsets lag -g or",  # no cluster configured at all
        "kafka-offsets list -b 127.0.0.1:1 -t x -s or",  # an offset spec: nothing completes
        "kafka-offsets rewind -b 127.0.0.1:1 -g g --to or",  # a time: nothing completes
    ],
)
def test_no_file_names_where_the_cluster_could_not_be_asked(bash: Bash, words: str) -> None:
    shown = bash.tab(words)
    assert BAIT[2:] not in shown, shown


def test_no_file_names_with_an_unreachable_cluster_from_the_environment(bash: Bash) -> None:
    bash.run("export KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:1")
    assert BAIT[2:] not in bash.tab("kafka-offsets list -t or")


def test_file_options_and_commands_still_complete(bash: Bash) -> None:
    # the same shell and script: file names where the value is a file, candidates where there are some
    assert BAIT[2:] in bash.tab("kafka-offsets lag --prometheus-file or")
    assert BAIT[2:] in bash.tab("kafka-offsets check or")  # check SPEC: a spec file
    assert "pletion" in bash.tab("kafka-offsets com")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_typers_install_and_show_options_give_these_scripts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shell: str
) -> None:
    # Typer's --install-completion wrote Typer's own bash script (complete -o default: file names
    # wherever nothing completes); it writes the script `kafka-offsets completion SHELL` prints. Typer's
    # own installer runs here for each shell (its option detects the shell it runs in: bash only here)
    from typer import _completion_shared, completion

    from kafka_offsets_cli.cli.complete import COMPLETE_VAR, PROG, completion_script, use_our_scripts

    monkeypatch.setenv("HOME", str(tmp_path))
    use_our_scripts()
    ours = completion_script(shell)
    shown = completion.get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell)  # type: ignore[attr-defined]
    assert shown == ours  # --show-completion's
    _, installed = _completion_shared.install(shell=shell, prog_name=PROG, complete_var=COMPLETE_VAR)
    assert installed.read_text().strip() == ours.strip()
    if shell == "bash":
        assert (
            "complete -F _kafka_offsets_completion kafka-offsets" in ours and "-o default kafka" not in ours
        )


def test_the_install_option_writes_the_script_for_the_shell_it_runs_in(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m kafka_offsets_cli --install-completion'],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = tmp_path / ".bash_completions" / "kafka-offsets.sh"
    ours = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", "completion", "bash"],
        env=env, capture_output=True, text=True, timeout=60,
    ).stdout  # fmt: skip
    assert "bash completion installed" in done.stdout and written.read_text().strip() == ours.strip()
