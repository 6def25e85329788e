"""The CLI process switches core dumps off: its memory holds secrets (a crash once left them in a core)."""

from __future__ import annotations

import subprocess
import sys

RUN_MAIN = """
import contextlib, resource, sys
import kafka_offsets_cli.__main__ as entry
sys.argv = ["kafka-offsets", "--version"]
with contextlib.suppress(SystemExit):
    entry.main()
print(resource.getrlimit(resource.RLIMIT_CORE), file=sys.stderr)
"""


def test_the_cli_process_cannot_dump_core() -> None:
    run = subprocess.run([sys.executable, "-c", RUN_MAIN], capture_output=True, text=True, timeout=60)
    assert run.stderr.strip().splitlines()[-1] == "(0, 0)", run.stderr
