"""File writes for monitoring outputs (node_exporter's textfile collector) and exported plans.

A regular file is replaced atomically: the collector may read it at any moment, so the
text goes to a temporary file in the same directory (named ``.NAME.PID.tmp``, which
the collector ignores as it does not end in ``.prom``), is flushed to disk, and is
renamed over the target: readers see the old file or the new one, never half of one.

Everything else is written as it is, never replaced: a symlink is followed and its
target replaced (the link stays a link); a character device (``/dev/stdout``,
``/dev/null``) or a FIFO is opened and written straight (renaming over one would put a
regular file where the machine's device was: run as root, ``--export /dev/stdout`` did
that to ``/dev/stdout``); ``-`` is standard output.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from pathlib import Path

from ..errors import UsageError

STDOUT = "-"


def write_atomic(path: str | os.PathLike[str], text: str, *, mode: int = 0o644) -> Path:
    """Write ``text`` to ``path`` (see the module docstring); returns the path written.

    Raises :class:`UsageError` when the directory does not exist or the file cannot be written.
    """
    if os.fspath(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return Path(STDOUT)
    given = Path(path)
    target = Path(os.path.realpath(given))  # a symlink's target, in its own directory
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise UsageError(f"cannot write {given}: {e.strerror or e}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise UsageError(f"cannot write {given}: it is a directory")
        _write_through(given, target, text)
        return given
    directory = target.parent
    if not directory.is_dir():
        raise UsageError(f"cannot write {given}: directory {given.parent} does not exist")
    tmp = directory / f".{target.name}.{os.getpid()}.tmp"
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # left by a killed run with our pid; O_EXCL then never follows a planted link
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
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


def _write_through(given: Path, target: Path, text: str) -> None:
    """Write to a device or FIFO in place (no temp file, no rename, no truncation of a device)."""
    try:
        # O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging the run
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise UsageError(f"cannot write {given}: a FIFO with no reader") from None
        raise UsageError(f"cannot write {given}: {e.strerror or e}") from None
