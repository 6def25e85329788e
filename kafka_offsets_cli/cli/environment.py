"""The process's terminal I/O, clocks and variables, as one value a command is handed.

httpie's model: the CLI entry makes one :class:`Environment` of the real process
(:meth:`Environment.of_process`) and passes it down; tests hand the entry another one (streams
of their own, a "terminal", a clock that moves only when slept) instead of patching modules.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TextIO

from ..parse.times import now_ms


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or a stand-in stream
        return False


@dataclass(frozen=True, kw_only=True)
class Environment:
    """Where a command reads and writes, what they are, and how it tells and waits for time."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    stdout_isatty: bool
    stderr_isatty: bool
    #: the process's variables (``NO_COLOR``)
    environ: Mapping[str, str] = field(default_factory=dict)
    #: columns of the terminal; ``None``: as the terminal says (``COLUMNS``, the tty's size)
    width: int | None = None
    #: wall-clock time in epoch milliseconds (time lag, metric stamps)
    now_ms: Callable[[], int] = now_ms
    #: monotonic seconds (``--watch`` rates)
    clock: Callable[[], float] = time.monotonic
    #: waits between ``--watch`` refreshes (Ctrl-C surfaces here as KeyboardInterrupt)
    sleep: Callable[[float], None] = time.sleep

    @classmethod
    def of_process(cls) -> Environment:
        """The real process's streams (as they are now: a test runner may have swapped them)."""
        return cls(
            stdin=sys.stdin,
            stdout=sys.stdout,
            stderr=sys.stderr,
            stdout_isatty=_isatty(sys.stdout),
            stderr_isatty=_isatty(sys.stderr),
            environ=os.environ,
        )

    @property
    def no_color(self) -> bool:
        """True when the user asked for no colour (https://no-color.org)."""
        return bool(self.environ.get("NO_COLOR"))
