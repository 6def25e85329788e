"""Run kafka-offsets commands in-process (CliRunner) or as a real subprocess, for tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from typer.testing import CliRunner

from kafka_offsets_cli.cli.app import app


@dataclass
class Run:
    """What a command printed and returned."""

    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        """stdout parsed as one JSON document."""
        return json.loads(self.stdout)

    def jsonl(self) -> list[Any]:
        """stdout parsed as JSON lines."""
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


def cli(*args: str, env: dict[str, str] | None = None) -> Run:
    """Invoke the Typer app in-process with separate stdout and stderr."""
    runner = CliRunner()
    result = runner.invoke(app, list(args), env=env, catch_exceptions=False)
    return Run(result.exit_code, result.stdout, result.stderr)


def subprocess_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> Run:
    """Run ``python -m kafka_offsets_cli`` as a child process (real TTY-less stdio, real exit code)."""
    full_env = dict(os.environ)
    full_env.pop("KAFKA_BOOTSTRAP_SERVERS", None)
    full_env.update(env or {})
    p = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )
    return Run(p.returncode, p.stdout, p.stderr)


def bounded_watch(monkeypatch: Any, refreshes: int, between: Callable[[int], None]) -> None:
    """Make ``--watch`` run ``refreshes`` refreshes in-process, calling ``between(n)`` after refresh ``n``.

    There is no command-line way to stop a watch but Ctrl-C, so this patches the loop
    (:func:`kafka_offsets_cli.cli.watch.run_watch`) to its own ``max_refreshes``, with a
    clock that only moves while it sleeps: refreshes are exactly the ``--watch``
    interval apart, so a rate is (offset delta) / interval exactly.
    """
    from kafka_offsets_cli.cli import watch as w

    real = w.run_watch

    def bounded(*args: Any, **kwargs: Any) -> Any:
        now = [1000.0]
        done = [0]

        def sleep(seconds: float) -> None:
            done[0] += 1
            between(done[0])
            now[0] += seconds

        kwargs.update(max_refreshes=refreshes, clock=lambda: now[0], sleep=sleep)
        return real(*args, **kwargs)

    monkeypatch.setattr(w, "run_watch", bounded)
