"""A run whose librdkafka call outlived its wait ends with its verdict and without Python's
finalization beside that call (kafka_offsets_cli/lingering.py); any other run ends as usual.

No broker: ``lag`` against a refused port gives its verdict (exit 3) at ``--timeout`` while the
metadata call is still inside librdkafka. A sentinel object's ``__del__`` tells whether the
interpreter was finalized; an ``atexit`` handler, that the exit handlers still ran.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from kafka_offsets_cli.lingering import exit_status

_RUN = """
import atexit, sys, threading
class Sentinel:
    def __del__(self):
        sys.__stderr__.write("FINALIZED\\n")
sentinel = Sentinel()
atexit.register(lambda: sys.__stderr__.write("ATEXIT %s\\n" % any(
    t.name == "kafka-offsets-call" and t.is_alive() for t in threading.enumerate())))
sys.argv = ["kafka-offsets", *sys.argv[1:]]
from kafka_offsets_cli.__main__ import main
main()
"""


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    cmd = [sys.executable, "-c", _RUN, *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)


def test_the_verdict_ends_the_process_without_finalization_beside_a_running_call() -> None:
    p = _run("lag", "-b", f"127.0.0.1:{_closed_port()}", "--timeout", "1s", "-o", "json")
    assert p.returncode == 3, p.stderr
    assert p.stdout == "" and "cannot connect" in p.stderr, p.stderr
    assert "ATEXIT True" in p.stderr, p.stderr  # the call still ran; the exit handlers ran
    assert "FINALIZED" not in p.stderr, p.stderr  # and no finalization beside it


def test_a_run_without_a_running_call_ends_as_usual() -> None:
    p = _run("lag", "-b", "127.0.0.1:1", "--timeout", "soon")  # a usage error: no client made
    assert p.returncode == 2, p.stderr
    assert "ATEXIT False" in p.stderr and "FINALIZED" in p.stderr, p.stderr


def test_exit_status_as_python_gives_it() -> None:
    assert [exit_status(c) for c in (None, 0, 3, "a message")] == [0, 0, 3, 1]
