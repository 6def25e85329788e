"""Atomic file writes for monitoring outputs (node_exporter's textfile collector, exported plans).

The collector may read the file at any moment, so the text is written to a
temporary file in the same directory (named ``.NAME.PID.tmp``, which the collector
ignores as it does not end in ``.prom``), flushed to disk, and renamed over the
target: readers see the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from ..errors import UsageError


def write_atomic(path: str | os.PathLike[str], text: str, *, mode: int = 0o644) -> Path:
    """Replace ``path`` with ``text`` atomically; returns the path written.

    Raises :class:`UsageError` when the directory does not exist or cannot be written.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"cannot write {target}: directory {directory} does not exist")
    tmp = directory / f".{target.name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
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
        raise UsageError(f"cannot write {target}: {e.strerror or e}") from None
    return target
