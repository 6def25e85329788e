"""check's driver caps glibc's malloc arenas (kafka_offsets_cli/cli/arenas.py) unless the user chose a cap."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.availability import unavailable

CODE = "from kafka_offsets_cli.cli.arenas import limit_arenas; print(limit_arenas())"


def _fresh(env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _glibc() -> bool:
    import ctypes

    return sys.platform.startswith("linux") and hasattr(ctypes.CDLL(None), "gnu_get_libc_version")


def test_glibc_takes_the_cap() -> None:
    if not _glibc():  # CI's machines are glibc Linux: there, a missing glibc is a failure
        unavailable("the arena cap is glibc's: this C library is not glibc")
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    assert _fresh(env) == "True"


def test_a_cap_in_the_environment_is_left_alone() -> None:
    assert _fresh({**os.environ, "MALLOC_ARENA_MAX": "4"}) == "False"
