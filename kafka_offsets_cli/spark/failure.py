"""Why a Spark job failed: one readable line, and with ``--debug`` the Spark side in full.

* classic (a master): a ``Py4JJavaError`` whose text is the Java trace -- the Python error raised in
  a task if there is one, else the failed task's Java exception and where it ran
  (``Lost task ... (TID n) (HOST executor N): ...``), else the innermost ``Caused by``;
* Spark Connect (``--remote``): a ``pyspark.errors`` exception made by the client from the
  server's gRPC error. A task's Python error arrives as ``PythonException`` (condition
  ``PYTHON_EXCEPTION``), its message the worker's traceback: the line is that traceback's
  exception line. Any other error: the Java cause (a failed task, a ``Caused by``) read from the
  message and the server's stack trace, else the Java class and the message's first line.

The server's side in full: :func:`job_failure` adds it to the Connect exception as a note (the
condition, SQLSTATE, Java classes and the server's stack trace, which pyspark drops from a
``PythonException``), and ``--debug`` prints the exception chain, notes included, on stderr.
The server sends its stack trace when the session says so: :mod:`.connect` sets
``spark.sql.connect.serverStacktrace.enabled`` and ``spark.sql.pyspark.jvmStacktrace.enabled``
with ``--debug``.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

from ..errors import KafkaOffsetsError

__all__ = ["SparkJobFailed", "connect_detail", "job_failure"]

_JAVA = ("org.", "java.", "javax.", "scala.", "py4j.")
#: ``...(TID 3) (10.0.0.5 executor 1): java.io.IOException: ...``: the failed task's own error.
_TASK_CAUSE = re.compile(r"most recent failure: Lost task [^()]*\(TID \d+\) \(([^)]*)\): (.+)$")
#: where pyspark's Connect client appends the server's stack trace to a message
_JVM_STACK = "\n\nJVM stacktrace:\n"
_CONNECT_MODULE = "pyspark.errors.exceptions.connect"
_TRACEBACK = "Traceback (most recent call last):"
_LIMIT = 400


class SparkJobFailed(KafkaOffsetsError):
    """A Spark job failed (a task raised, an executor died): the check has no verdict (UNKNOWN)."""


def job_failure(e: BaseException) -> SparkJobFailed:
    """One readable line for a failed Spark job: the Python error raised in a task if there is one,
    else the Java-side cause (the failed task's exception, where it ran; the innermost ``Caused by``).

    A Spark Connect error also gets the server's detail as a note (shown by ``--debug``)."""
    if is_connect(e):
        detail = _connect_cause(e)
        note = connect_detail(e)
        if note:
            e.add_note(note)
        hint = "run with --debug for the Spark Connect server's error and stack trace"
    else:
        text = str(getattr(e, "java_exception", None) or "") + "\n" + str(e)
        found = re.findall(r"^\s*([A-Za-z_][\w.]*(?:Error|Exception)): (.+)$", text, re.M)
        python = [(n, m) for n, m in found if not n.startswith(_JAVA)]
        if python:
            name, msg = python[-1]
            detail = f"{name}: {msg.strip()}"
        else:
            detail = _java_cause(text) or type(e).__name__
        hint = "run with --debug for Spark's log and the full trace"
    return SparkJobFailed(f"the Spark job failed: {detail[:_LIMIT]}", hint=hint)


def _java_cause(text: str) -> str | None:
    """The Java exception that made a job fail, from a Py4J error's text (None: none found)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        m = _TASK_CAUSE.search(ln)
        if m:
            return f"{m.group(2).strip()} (on {m.group(1)})"
    caused = [ln[len("Caused by: ") :] for ln in lines if ln.startswith("Caused by: ")]
    if caused:
        return caused[-1]
    java = [ln.lstrip(": ") for ln in lines if ln.lstrip(": ").startswith(_JAVA) and ": " in ln]
    if java:
        return java[0]
    return lines[0] if lines else None


def is_connect(e: BaseException) -> bool:
    """An exception of pyspark's Spark Connect client (checked by module: importing it needs grpc)."""
    return any(c.__module__ == _CONNECT_MODULE for c in type(e).__mro__)


def _python_error(text: str) -> str | None:
    """The exception line of the last Python traceback in ``text`` (None: no traceback)."""
    start = text.rfind(_TRACEBACK)
    if start < 0:
        return None
    seen_frame = False
    for line in text[start + len(_TRACEBACK) :].splitlines():
        if line[:1].isspace():  # a frame, its source line, or a ^^^ marker
            seen_frame = seen_frame or bool(line.strip())
        elif line.strip() and seen_frame:
            return line.strip()
    return None


def _connect_cause(e: BaseException) -> str:
    """The line for a Spark Connect error: a task's Python error, else the Java-side cause."""
    text = str(e).split(_JVM_STACK, 1)[0].strip()
    python = _python_error(text)
    if python is not None:
        worker = _condition(e) == "PYTHON_EXCEPTION" or "PythonException" in type(e).__name__
        return python + (" (in a Python worker of the Spark Connect server)" if worker else "")
    stack = _server_stack(e) or ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    grpc = [ln[len("details = ") :].strip('"') for ln in lines if ln.startswith("details = ")]
    if grpc:  # a gRPC failure (the server went away): its details, not the call's repr
        return grpc[0]
    for ln in lines:
        m = _TASK_CAUSE.search(ln)
        if m:
            return f"{m.group(2).strip()} (on {m.group(1)})"
    caused = [ln[len("Caused by: ") :] for ln in stack.splitlines() if ln.startswith("Caused by: ")]
    if caused:
        return caused[-1]
    first = lines[0] if lines else type(e).__name__
    head = stack.splitlines()[0].strip() if stack else ""
    if head.startswith(_JAVA) and re.fullmatch(r"[\w.$]+", head):  # the server's exception class
        return f"{head}: {first}"
    return first


def _condition(e: BaseException) -> str | None:
    get = getattr(e, "getCondition", None) or getattr(e, "getErrorClass", None)
    value = get() if get is not None else None
    return value or _error_info(e).get("errorClass")


def _server_stack(e: BaseException) -> str | None:
    """The server's stack trace: the exception's own, else the one in the gRPC error's metadata."""
    get = getattr(e, "getStackTrace", None)
    own = get() if get is not None else None
    return own or _error_info(e).get("stackTrace")


def _error_info(e: BaseException) -> dict[str, str]:
    """The metadata of the ``google.rpc.ErrorInfo`` the server sent with ``e`` ({} if none).

    pyspark raises its exception inside the handler of the gRPC error (``from None``): that error
    stays the exception's ``__context__``, with the server's status in its trailing metadata.
    """
    call: Any = e.__context__
    if call is None or not callable(getattr(call, "trailing_metadata", None)):
        return {}
    try:
        # pyspark's Connect dependencies (googleapis-common-protos, grpcio-status): untyped
        from google.rpc import error_details_pb2  # type: ignore[import-untyped]
        from grpc_status import rpc_status  # type: ignore[import-untyped]

        status = rpc_status.from_call(call)
        for d in status.details if status is not None else ():
            if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                d.Unpack(info)
                return dict(info.metadata)
    except Exception:  # best effort: the line does not depend on it
        return {}
    return {}


def connect_detail(e: BaseException) -> str | None:
    """The Spark Connect server's side of ``e`` for ``--debug``: condition, SQLSTATE, the Java
    classes and the server's stack trace (when the exception's own message does not show it)."""
    if not is_connect(e):
        return None
    info = _error_info(e)
    lines: list[str] = []
    condition = _condition(e)
    get_state = getattr(e, "getSqlState", None)
    state = (get_state() if get_state is not None else None) or info.get("sqlState")
    if condition or state:
        lines.append(f"condition: {condition or '-'}; SQLSTATE: {state or '-'}")
    if info.get("classes"):
        with contextlib.suppress(ValueError):
            lines.append("server exception: " + " < ".join(json.loads(info["classes"])[:2]))
    stack = _server_stack(e)
    if stack and stack not in str(e):
        lines.append("server stack trace:")
        lines.append(stack)
        if stack.endswith("..."):
            lines.append("(cut by the server at spark.connect.jvmStacktrace.maxSize)")
    if not lines:
        return None
    return "Spark Connect server detail:\n" + "\n".join(lines)
