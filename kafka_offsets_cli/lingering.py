"""Ending a process whose Kafka call outlived its wait, without Python's finalization.

The client waits on a librdkafka call with a bound (:mod:`kafka_offsets_cli.kafka.session` runs it
on a helper thread): against a broker that does not answer, the wait ends at ``--timeout`` with
the verdict, while the call goes on until librdkafka's own timeout. The command then ends with
that call still inside librdkafka, and Python's finalization (module teardown, then the C
library's exit handlers) runs beside librdkafka's threads: once, under load, a ``lag`` whose
verdict was already printed died there of SIGSEGV (exit -11 instead of 3). So when such a call is
still running at the end, the process leaves without finalization: the streams flushed, the
``atexit`` handlers run, then ``os._exit`` with the verdict's status. Otherwise it ends as usual.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading

#: the name of the client's helper threads (each runs one librdkafka call the command waits on)
CALL_THREAD = "kafka-offsets-call"


def exit_status(code: object) -> int:
    """The status Python gives ``SystemExit(code)``: 0 for ``None``, the number, else 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    return 1


def calls_running() -> bool:
    """Whether a client call is still running on its helper thread."""
    return any(t.name == CALL_THREAD and t.is_alive() for t in threading.enumerate())


def leave_if_calls_linger(code: object) -> None:
    """End the process now, with ``SystemExit(code)``'s status, when a client call still runs (the
    module docstring); return when none does (the caller then exits as usual)."""
    if not calls_running():
        return
    if code is not None and not isinstance(code, int):
        sys.stderr.write(f"{code}\n")  # as Python prints a SystemExit's message
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # what could not be written was handled by the command
            stream.flush()
    atexit._run_exitfuncs()  # what the package and its libraries registered still runs
    os._exit(exit_status(code))
