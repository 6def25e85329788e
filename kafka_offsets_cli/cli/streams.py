"""Standard output and error that fail the way the tool documents, whatever they are connected to.

stdout carries the data: a write that fails (``/dev/full``, a full disk, ``>&-``)
becomes :class:`~kafka_offsets_cli.errors.OutputError` -- one line and exit 7
(UNKNOWN for the monitoring commands) -- instead of an ``OSError`` or
``AttributeError`` traceback. A closed pipe (``| head``) stays a
``BrokenPipeError``, which the boundary ends quietly. stderr carries only messages:
when it is closed or cannot be written, they are dropped, so ``2>&-`` never changes
an exit code.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import Any, TextIO

from ..errors import OutputError


class _Wrapped(io.TextIOBase):
    """A text stream around a standard stream (``None`` when the process was started without it)."""

    _closed_name = "the stream"

    def __init__(self, inner: TextIO | None) -> None:
        super().__init__()
        self._inner = inner

    def isatty(self) -> bool:
        """Whether the real stream is a terminal."""
        try:
            return self._inner is not None and self._inner.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        """The real stream's descriptor (``io.UnsupportedOperation`` when it is closed, as :mod:`io` does)."""
        if self._inner is None:
            raise io.UnsupportedOperation(f"{self._closed_name} is closed")
        return self._inner.fileno()

    def writable(self) -> bool:
        """Always: a write either goes through or is handled as the subclass says."""
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The real stream's encoding (UTF-8 when it is closed)."""
        return getattr(self._inner, "encoding", None) or "utf-8"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class GuardedStdout(_Wrapped):
    """stdout whose write failures are :class:`OutputError` (a closed pipe stays ``BrokenPipeError``)."""

    _closed_name = "standard output"

    def _fail(self, e: OSError | None) -> OutputError:
        why = "it is closed" if e is None else (e.strerror or str(e))
        return OutputError(f"cannot write to standard output: {why}")

    def write(self, text: str) -> int:
        """Write ``text``; a failure other than a closed pipe is :class:`OutputError`."""
        if self._inner is None:
            raise self._fail(None)
        try:
            return self._inner.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._fail(e) from None
        except ValueError:  # the stream was closed under us
            raise self._fail(None) from None

    def flush(self) -> None:
        """Flush; a failure other than a closed pipe is :class:`OutputError`."""
        if self._inner is None:
            return
        try:
            self._inner.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._fail(e) from None
        except ValueError:
            raise self._fail(None) from None


class QuietStderr(_Wrapped):
    """stderr that drops what it cannot write (a closed or full stderr must not change the exit code)."""

    _closed_name = "standard error"

    def write(self, text: str) -> int:
        """Write ``text`` if stderr can take it."""
        if self._inner is not None:
            with contextlib.suppress(OSError, ValueError):
                self._inner.write(text)
        return len(text)

    def flush(self) -> None:
        """Flush if stderr can take it."""
        if self._inner is not None:
            with contextlib.suppress(OSError, ValueError):
                self._inner.flush()


def guard_streams() -> None:
    """Put the guards around ``sys.stdout`` and ``sys.stderr`` (once, at start-up)."""
    if not isinstance(sys.stdout, GuardedStdout):
        sys.stdout = GuardedStdout(sys.stdout)
    if not isinstance(sys.stderr, QuietStderr):
        sys.stderr = QuietStderr(sys.stderr)


def silence_stdout() -> None:
    """After stdout failed or its pipe closed, send what is still buffered to /dev/null (a quiet exit)."""
    inner = getattr(sys.stdout, "_inner", sys.stdout)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, inner.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass
