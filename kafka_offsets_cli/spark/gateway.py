"""The classic session's JVM: pyspark's gateway launched safely, Ctrl-C and py4j kept quiet."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from typing import Any

__all__ = ["launch_gateway", "quiet_python_side"]


def quiet_python_side(debug: bool) -> None:
    """Plain Ctrl-C handling and no py4j tracebacks on stderr (unless ``--debug``).

    pyspark's SIGINT handler cancels jobs from inside the signal handler, which
    re-enters the py4j connection the main thread is blocked on and prints
    tracebacks; the default handler raises KeyboardInterrupt and
    :meth:`.runtime.SparkRuntime.stop` then stops the context (cancelling its jobs).
    py4j logs with the root logger's module functions, which would install a
    stderr handler: a NullHandler on the root logger keeps that off the terminal.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if not debug:
        root = logging.getLogger()
        if not root.handlers:
            root.addHandler(logging.NullHandler())


def launch_gateway(conf: Any, popen_kwargs: dict[str, Any]) -> Any:
    """pyspark's ``launch_gateway`` with Ctrl-C held back until the JVM is up.

    Interrupted while it waits for the JVM, pyspark forgets the process it started;
    the JVM then fails to report its port, but its gateway thread keeps it alive
    for good (an orphan). A Ctrl-C meanwhile is remembered, the JVM stopped, and
    the interrupt raised once the launch is over.
    """
    from pyspark.java_gateway import launch_gateway as launch

    if threading.current_thread() is not threading.main_thread():
        return launch(conf, popen_kwargs=popen_kwargs)  # type: ignore[no-untyped-call]
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pending.append(signum))
    try:
        gateway = launch(conf, popen_kwargs=popen_kwargs)  # type: ignore[no-untyped-call]
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        proc = getattr(gateway, "proc", None)
        with contextlib.suppress(Exception):
            gateway.shutdown()
        if proc is not None:
            with contextlib.suppress(Exception):
                proc.terminate()
                proc.wait(10)
        raise KeyboardInterrupt
    return gateway
