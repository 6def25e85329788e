"""The oldest and the newest typer that pyproject.toml allows both run the CLI: ``--help`` of the root and
of every command, completion of a command name, the suggestion for a mistyped one.

Each runs in a throwaway virtualenv holding only that typer (and what pip picks for it: older typers run
on click, newer ones on a vendored copy), with this source tree on PYTHONPATH. Needs PyPI (or a
pip cache); without it the test is skipped locally and fails under CI=true.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_offsets_cli.cli.app import COMMANDS
from tests.availability import unavailable

ROOT = Path(__file__).resolve().parent.parent


def typer_pin() -> tuple[str, str]:
    """(floor, ceiling) of the ``typer>=FLOOR,<CEILING`` requirement in pyproject.toml."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (req,) = [d for d in deps if re.match(r"typer\b", d)]
    m = re.fullmatch(r"typer\s*>=\s*([\w.]+)\s*,\s*<\s*([\w.]+)", req.split(";")[0].strip())
    assert m, f"unexpected typer requirement {req!r}"
    return m.group(1), m.group(2)


FLOOR, CEILING = typer_pin()


def _venv_with(tmp_path: Path, requirement: str) -> Path:
    """The python of a new virtualenv holding ``requirement``; unavailable() when it cannot be made."""
    env_dir = tmp_path / "venv"
    python = env_dir / "bin" / "python"
    steps = [
        [sys.executable, "-m", "venv", "--without-pip", str(env_dir)],
        # this interpreter's pip installs into the new environment: no pip bootstrap (~3 s)
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--disable-pip-version-check",
            requirement,
        ],
    ]
    for cmd in steps:
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            unavailable(f"{' '.join(cmd[2:4])} for {requirement} took over 60 s")
        if p.returncode != 0:
            unavailable(f"cannot make a virtualenv with {requirement}: {(p.stdout + p.stderr)[-800:]}")
    return python


def _run(python: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "_KAFKA_OFFSETS"))}
    full.update({"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", **env})
    return subprocess.run(
        [str(python), "-m", "kafka_offsets_cli", *args], capture_output=True, text=True, env=full, timeout=60
    )


@pytest.mark.slow
@pytest.mark.timeout(90)
@pytest.mark.parametrize("requirement", [f"typer=={FLOOR}", f"typer<{CEILING}"], ids=["oldest", "newest"])
def test_the_cli_runs_on_the_typer_versions_the_pin_allows(tmp_path: Path, requirement: str) -> None:
    python = _venv_with(tmp_path, requirement)
    version = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('typer'))"],
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout.strip()
    if requirement.startswith("typer=="):
        assert version == FLOOR

    root = _run(python, "--help")
    assert root.returncode == 0, (version, root.stderr)
    for name, entry in COMMANDS.items():
        assert re.search(rf"^\s+{name}\s+{re.escape(entry.help[:30])}", root.stdout, re.M), (version, name)
        sub = _run(python, name, "--help")
        assert sub.returncode == 0, (version, name, sub.stderr[-2000:])
        assert sub.stdout.startswith(f"Usage: kafka-offsets {name} "), (version, name)

    words = {"_KAFKA_OFFSETS_COMPLETE": "complete_bash", "COMP_WORDS": "kafka-offsets l", "COMP_CWORD": "1"}
    completion = _run(python, **words)
    assert (completion.returncode, completion.stderr) == (0, ""), version
    assert completion.stdout.split() == [n for n in COMMANDS if n.startswith("l")], version

    typo = _run(python, "lsit")
    assert typo.returncode == 2, (version, typo.stderr)
    assert "No such command 'lsit'. Did you mean 'list'?" in typo.stderr, version
