"""Reading the files a user names for configuration: bounded in size and in time.

``--command-config``, the config file (``KAFKA_OFFSETS_CONFIG``), its profiles' ``*_file``
secret references and ``check``'s spec file are all read here. A regular file is read up to
the cap and one byte more, so a huge file is refused without being read whole. A pipe --
``--command-config <(vault read ...)``, a FIFO someone writes to -- is read the same way,
but must reach its end within :data:`PIPE_WAIT_S`; a FIFO with no writer is refused at once
(it used to block the run for ever, whatever ``--timeout`` said). ``/dev/null`` reads as
empty. Any other device (``/dev/zero`` never ends) or a socket is refused before a byte is read.
"""

from __future__ import annotations

import errno
import os
import select
import stat
import time
from pathlib import Path

__all__ = ["MAX_CONFIG_BYTES", "FileTooLarge", "NotARegularFile", "read_regular_file"]

#: Properties and config files are a few lines; a larger one is refused unread.
MAX_CONFIG_BYTES = 1024 * 1024

#: How long a pipe may take to deliver all of its data (a secret fetched by ``<(command)``).
PIPE_WAIT_S = 10.0

# O_NONBLOCK: a FIFO put in place between the stat and the open must not block the open
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotARegularFile(Exception):
    """The path names a FIFO, a device or a socket; ``kind`` says which (``"a FIFO"``...)."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path}: is {kind}")
        self.path = path
        self.kind = kind


class FileTooLarge(Exception):
    """The file holds more than ``limit`` bytes."""

    def __init__(self, path: Path, limit: int) -> None:
        super().__init__(f"{path}: more than {limit} bytes")
        self.path = path
        self.limit = limit


def read_regular_file(path: str | os.PathLike[str], *, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (a symlink is followed), at most ``limit`` of them.

    Raises :class:`NotARegularFile` for a FIFO, device or socket, :class:`FileTooLarge`
    past ``limit``, :class:`IsADirectoryError` for a directory and, as ``open`` does,
    :class:`FileNotFoundError` or another :class:`OSError` (:class:`ValueError` for a name
    with a NUL byte or a lone surrogate).
    """
    p = Path(path)
    st = os.stat(p)
    if _is_devnull(st):
        return b""
    _refuse_special(p, st.st_mode)
    fd = os.open(p, _OPEN_FLAGS)
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fd).st_mode
        _refuse_special(p, mode)  # what was opened, should it have changed since
        data = _read_pipe(p, fd, limit) if stat.S_ISFIFO(mode) else fh.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(p, limit)
    return data


def _is_devnull(st: os.stat_result) -> bool:
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev


def _read_pipe(path: Path, fd: int, limit: int) -> bytes:
    """A pipe's data up to its end (at most ``limit`` + 1 bytes), within :data:`PIPE_WAIT_S`."""
    deadline = time.monotonic() + PIPE_WAIT_S
    chunks: list[bytes] = []
    size = 0
    first = True
    while size <= limit:
        try:
            chunk = os.read(fd, limit + 1 - size)
        except BlockingIOError:  # a writer is there, its data is not (yet)
            first = False
            left = deadline - time.monotonic()
            if left <= 0:
                raise NotARegularFile(path, f"a pipe that did not end within {PIPE_WAIT_S:g}s") from None
            select.select([fd], [], [], left)
            continue
        if not chunk:
            if first:  # end of data before any writer: nobody will write to this FIFO
                raise NotARegularFile(path, "a FIFO with no writer")
            break
        first = False
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _refuse_special(path: Path, mode: int) -> None:
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    raise NotARegularFile(path, _kind(mode))


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
