"""``python -m build`` on a copy of the source tree, once per test session (the ``built_dist`` fixture).

Both the wheel's contents (tests/test_packaging.py) and the installs as users make them
(tests/test_install_matrix.py) use the one build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from kafka_offsets_cli import __version__

ROOT = Path(__file__).resolve().parent.parent

#: what is not part of the source (venvs, caches, build output, the Kafka jars)
NOT_SOURCE = shutil.ignore_patterns(
    ".venv",
    ".git",
    "target",
    ".state",
    "__pycache__",
    "*.egg-info",
    "build",
    "dist",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "spark-warehouse",
    "metastore_db",
    "*.pyc",
)


@dataclass(frozen=True)
class Built:
    """The sdist and the wheel ``python -m build`` made, and its output."""

    wheel: Path
    sdist: Path
    log: str


class BuildFailed(RuntimeError):
    """``python -m build`` failed (the message holds its output's tail)."""


def build(base: Path) -> Built:
    """Copy the source tree under ``base`` and build it (sdist, then the wheel from the sdist)."""
    src = base / "src"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCE)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    p = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(src)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    log = p.stdout + p.stderr
    if p.returncode != 0:
        raise BuildFailed(log[-4000:])
    built = Built(
        base / "dist" / f"kafka_offsets-{__version__}-py3-none-any.whl",
        base / "dist" / f"kafka_offsets-{__version__}.tar.gz",
        log,
    )
    if not (built.wheel.exists() and built.sdist.exists()):
        raise BuildFailed(f"python -m build wrote {sorted(os.listdir(base / 'dist'))}")
    return built
