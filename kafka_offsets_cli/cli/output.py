"""Terminal I/O for commands: stdout for data, stderr for everything else.

Colour and spinners appear only on a TTY (and never with ``NO_COLOR``); a closed
pipe on stdout ends the program quietly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich loads only when something is drawn: machine formats never need it
    from rich.console import Console


def stdout_is_tty() -> bool:
    """True when stdout is an interactive terminal."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def stderr_is_tty() -> bool:
    """True when stderr is an interactive terminal."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def no_color() -> bool:
    """True when the user asked for no colour (https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


_wide_tables = False


def set_wide_tables(on: bool) -> None:
    """``-o wide``: tables are drawn with every column in full, wider than the terminal if need be."""
    global _wide_tables
    _wide_tables = on


def data_console() -> Console:
    """A console on stdout: styled only on a TTY without NO_COLOR.

    A table fits the terminal's width (render/fit.py); off a terminal, and with
    ``-o wide``, the width is unlimited, so every column is shown in full.
    """
    from rich.console import Console

    tty = stdout_is_tty()
    return Console(
        file=sys.stdout,
        force_terminal=tty,
        no_color=no_color() or not tty,
        highlight=False,
        soft_wrap=not tty,
        width=None if tty and not _wide_tables else 10_000,
    )


def err_console() -> Console:
    """A console on stderr for messages and progress."""
    from rich.console import Console

    tty = stderr_is_tty()
    # off a terminal (a log, a pipe) a line is never wrapped: rich would break it at 80 columns
    return Console(
        stderr=True,
        force_terminal=tty,
        no_color=no_color() or not tty,
        highlight=False,
        soft_wrap=not tty,
        width=None if tty else 10_000,
    )


def write(text: str) -> None:
    """Write data to stdout and flush (a closed pipe raises BrokenPipeError upward)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def print_renderable(renderable: Any) -> None:
    """Print a rich renderable (table) to stdout.

    A table fits the terminal (render/fit.py); one that cannot (``--columns`` chose too
    much) is not cropped: the terminal wraps its lines, no name or number is cut.
    """
    data_console().print(renderable, crop=False)


def warn(message: str) -> None:
    """A one-line warning on stderr."""
    c = err_console()
    c.print(f"[yellow]kafka-offsets: warning:[/] {_escape(message)}", soft_wrap=True)  # one line, not 80 cols


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


@contextmanager
def progress(message: str) -> Iterator[Any]:
    """A spinner on stderr while work runs (only on a TTY); yields an updater."""
    if not stderr_is_tty():
        yield lambda _msg: None
        return
    console = err_console()
    with console.status(_escape(message)) as status:
        yield lambda msg: status.update(_escape(msg))


def write_chunks(chunks: Iterable[str]) -> None:
    """Write data to stdout a chunk at a time, then flush: the whole text is never held at once.

    As with :func:`write`, a closed pipe raises BrokenPipeError upward (the boundary ends quietly).
    """
    out = sys.stdout
    for chunk in chunks:
        out.write(chunk)
    out.flush()
