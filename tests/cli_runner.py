"""Run kafka-offsets commands in-process (CliRunner) or as a real subprocess, for tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from typer.testing import CliRunner

from kafka_offsets_cli.cli.app import app
from kafka_offsets_cli.cli.environment import Environment


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


def cli(*args: str, env: dict[str, str] | None = None, environment: Environment | None = None) -> Run:
    """Invoke the Typer app in-process with separate stdout and stderr.

    ``environment`` is the run's :class:`~kafka_offsets_cli.cli.environment.Environment` (a
    :class:`~tests.mock_environment.MockEnvironment`: a terminal, a ``--watch`` clock…).
    """
    runner = CliRunner()
    result = runner.invoke(app, list(args), env=env, obj=environment, catch_exceptions=False)
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
