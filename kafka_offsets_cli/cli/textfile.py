"""File writes for monitoring outputs (node_exporter's textfile collector) and exported plans.

A regular file is replaced atomically: the collector may read it at any moment, so the
text goes to a temporary file in the same directory (named ``.NAME.PID.tmp``, which
the collector ignores as it does not end in ``.prom``), is flushed to disk, and is
renamed over the target: readers see the old file or the new one, never half of one. A
file replaced keeps its permission bits (a 0640 file stays 0640); a new one is 0644.

Everything else is written as it is, never replaced: a symlink is followed and its
target replaced (the link stays a link); a character device (``/dev/stdout``,
``/dev/null``), a FIFO or a pipe (also through a link to ``/proc/self/fd/1``, which
only the kernel can follow) is opened and written straight (renaming over one would put a
regular file where the machine's device was: run as root, ``--export /dev/stdout`` did
that to ``/dev/stdout``); ``-`` is standard output.

The monitoring commands check their file with :func:`check_writable` before contacting
anything (a path that cannot be written is a usage error, exit 2), so a write that still
fails once the run is over (disk full, directory removed meanwhile) is no usage error:
:func:`write_result` hands it back as :class:`ResultNotWritten`, reported as UNKNOWN once
the status line is printed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from ..errors import KafkaOffsetsError, UsageError
from .output import write_chunks

STDOUT = "-"
R = TypeVar("R")


def write_atomic(path: str | os.PathLike[str], text: str | Iterable[str], *, mode: int = 0o644) -> Path:
    """Write ``text`` (or its chunks, in turn) to ``path`` (see the module docstring); the path written.

    ``mode`` is a new file's; a file replaced keeps its own.

    Raises :class:`UsageError` when the directory does not exist or the file cannot be written.
    """
    if os.fspath(path) == STDOUT:
        write_chunks(_chunks(text))
        return Path(STDOUT)
    given = Path(path)
    target, st = _target(given)
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(given, target, text)
        return given
    directory = _directory(given, target)
    if st is not None:  # replaced, not created: a 0640 target turned 0644 and readable by all
        mode = stat.S_IMODE(st.st_mode)
    tmp = directory / f".{target.name}.{os.getpid()}.tmp"
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # left by a killed run with our pid; O_EXCL then never follows a planted link
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.writelines(_chunks(text))
                fh.flush()
                os.fsync(fh.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise UsageError(f"cannot write {given}: {e.strerror or e}") from None
    return given


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a path :func:`write_atomic` could not write (raises :class:`UsageError`).

    The same rules: ``-`` is stdout; a symlink is followed; a device or FIFO must allow
    writing (it is written in place; a FIFO is not opened now, which would signal its
    reader an end of file); otherwise the directory must exist and allow creating the
    temporary file (a file already there is replaced by rename, whatever its own mode).
    """
    if os.fspath(path) == STDOUT:
        return
    given = Path(path)
    target, st = _target(given)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(target, os.W_OK):
            raise UsageError(f"cannot write {given}: {os.strerror(errno.EACCES)}")
        return
    directory = _directory(given, target)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {given}: directory {given.parent} is not writable")


class ResultNotWritten(KafkaOffsetsError):
    """A monitoring result that could not be written once the run was over: UNKNOWN, not a usage error."""


def write_result(path: str | os.PathLike[str], text: str | Iterable[str]) -> ResultNotWritten | None:
    """Write a run's result with :func:`write_atomic`; a failure is returned, not raised.

    The caller prints its status line first and then raises the failure (exit 3).
    """
    try:
        write_atomic(path, text)
    except UsageError as e:
        return ResultNotWritten(e.message, hint=e.hint)
    return None


def write_down(path: str | os.PathLike[str], text: str, failure: KafkaOffsetsError) -> None:
    """Write the ``up 0`` result of a run that ended in ``failure`` (the caller then raises it).

    If that write fails too, one error names both (still UNKNOWN, the run's hint kept):
    the house's one line, and neither cause hidden.
    """
    unwritten = write_result(path, text)
    if unwritten is not None:
        raise ResultNotWritten(f"{failure.message} (and {unwritten.message})", hint=failure.hint) from failure


def publisher(path: str | None, text: Callable[[R], str]) -> Callable[[R], None] | None:
    """Each result's ``text`` written to ``path`` (``None``: no file, nothing to publish); a result
    that cannot be written is raised (:class:`ResultNotWritten`)."""
    if not path:
        return None

    def publish(result: R) -> None:
        unwritten = write_result(path, text(result))
        if unwritten is not None:
            raise unwritten

    return publish


def down_writer(path: str | None, text: Callable[[], str]) -> Callable[[KafkaOffsetsError], None] | None:
    """The ``up 0`` ``text`` written to ``path`` when a run fails (:func:`write_down`); ``None``
    without a file."""
    if not path:
        return None
    return lambda failure: write_down(path, text(), failure)


def _target(given: Path) -> tuple[Path, os.stat_result | None]:
    """The file to write (a symlink's target, in its own directory) and its status (None: not there).

    A device, FIFO or pipe is written through ``given`` itself: the kernel follows a link to
    ``/proc/self/fd/1`` to the process's stdout, where :func:`os.path.realpath` can only
    spell it ``/proc/PID/fd/pipe:[N]``, a name that does not exist (ENOENT).
    """
    try:
        st = os.stat(given)  # follows links as open() will
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise UsageError(f"cannot write {given}: {e.strerror or e}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UsageError(f"cannot write {given}: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return given, st
    return Path(os.path.realpath(given)), st


def _directory(given: Path, target: Path) -> Path:
    """The directory the temporary file goes to; it must exist."""
    directory = target.parent
    if not directory.is_dir():
        raise UsageError(f"cannot write {given}: directory {given.parent} does not exist")
    return directory


def _chunks(text: str | Iterable[str]) -> Iterable[str]:
    return (text,) if isinstance(text, str) else text


def _write_through(given: Path, target: Path, text: str | Iterable[str]) -> None:
    """Write to a device or FIFO in place (no temp file, no rename, no truncation of a device)."""
    try:
        # O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging the run
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.writelines(_chunks(text))
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise UsageError(f"cannot write {given}: a FIFO with no reader") from None
        raise UsageError(f"cannot write {given}: {e.strerror or e}") from None
