"""Terminal I/O for commands: stdout for data, stderr for everything else.

Colour and spinners appear only on a TTY (and never with ``NO_COLOR``); a closed
pipe on stdout ends the program quietly. A spinner says the step running, its seconds once past
one (:mod:`kafka_offsets_cli.elapsed`), and while no broker has answered, the connection it waits on.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..elapsed import StepClock
from .environment import Environment

if TYPE_CHECKING:  # rich loads only when something is drawn: machine formats never need it
    from rich.console import Console
    from rich.text import Text

    from ..kafka import KafkaClient

#: What a spinner waits on before its work can start: ``(step, limit)`` (``Connecting to b1:9092``,
#: ``--timeout 30 s``) while it waits, ``None`` once it does not.
Waiting = Callable[[], tuple[str, str] | None]


@dataclass(frozen=True)
class Screen:
    """Where a command's data is drawn: the environment's stdout, and ``-o wide`` or not.

    Chosen with the format (:meth:`~kafka_offsets_cli.cli.options.Outputs.select`) and passed
    along to whatever draws a table: no module keeps it.
    """

    env: Environment
    #: ``-o wide``: tables are drawn with every column in full, wider than the terminal if need be
    wide: bool = False

    @property
    def tty(self) -> bool:
        """True when stdout is an interactive terminal."""
        return self.env.stdout_isatty


def data_console(screen: Screen) -> Console:
    """A console on ``screen``'s stdout: styled only on a TTY without NO_COLOR.

    A table fits the terminal's width (render/fit.py); off a terminal, and with
    ``-o wide``, the width is unlimited, so every column is shown in full.
    """
    env, tty = screen.env, screen.tty
    return _console(env, env.stdout, tty, env.width if tty and not screen.wide else 10_000)


def err_console(env: Environment | None = None) -> Console:
    """A console on stderr for messages and progress (``env``: the process's own by default)."""
    env = env or Environment.of_process()
    tty = env.stderr_isatty
    # off a terminal (a log, a pipe) a line is never wrapped: rich would break it at 80 columns
    return _console(env, env.stderr, tty, None if tty else 10_000)


def _console(env: Environment, stream: Any, tty: bool, width: int | None) -> Console:
    """A console on ``stream``: styled only on a terminal without NO_COLOR, unwrapped off one."""
    from rich.console import Console

    no_color = env.no_color or not tty
    return Console(
        file=stream, force_terminal=tty, no_color=no_color, highlight=False, soft_wrap=not tty, width=width
    )


def write(text: str, env: Environment | None = None) -> None:
    """Write data to stdout and flush (a closed pipe raises BrokenPipeError upward)."""
    out = env.stdout if env is not None else sys.stdout
    out.write(text)
    out.flush()


def print_renderable(renderable: Any, screen: Screen) -> None:
    """Print a rich renderable (table) on ``screen``.

    A table fits the terminal (render/fit.py); one that cannot (``--columns`` chose too
    much) is not cropped: the terminal wraps its lines, no name or number is cut.
    """
    data_console(screen).print(renderable, crop=False)


def warn(message: str, env: Environment | None = None) -> None:
    """A one-line warning on stderr."""
    c = err_console(env)
    c.print(f"[yellow]kafka-offsets: warning:[/] {_escape(message)}", soft_wrap=True)  # one line, not 80 cols


def note(message: str, env: Environment | None = None) -> None:
    """A dim line for a person at a terminal (a group's state, how a value was found) on stderr.

    Nothing when stderr is not a terminal: there (cron mail, a pipe, a log) stderr carries
    warnings and errors only, and how a value is measured is told by ``--help`` and the man page.
    """
    env = env or Environment.of_process()
    if env.stderr_isatty:
        err_console(env).print(message, style="dim", highlight=False, soft_wrap=True)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


class Spinner:
    """A spinner's line: the step the work says, its seconds, and what it waits on first (``waiting``).

    Called with a step (``Reading 3 group(s)…``) by the work it shows; read by rich's refresh
    thread, which draws it afresh ten times a second, so the seconds move while the work blocks.
    """

    def __init__(self, message: str, *, clock: Callable[[], float], waiting: Waiting | None = None) -> None:
        self._work, self._detail = _bare(message), ""
        self._waiting = waiting
        self._lock = threading.Lock()
        self._clock = StepClock(self._work, clock=clock)
        self._line()  # the step shown first (what it waits on) starts its clock now, not when first drawn

    def __call__(self, message: str, detail: str = "") -> None:
        """The step now running (``detail``: a count that changes within it and keeps its clock)."""
        with self._lock:
            self._work, self._detail = _bare(message), detail
            self._line()

    def text(self) -> str:
        """The line as drawn now."""
        with self._lock:
            return self._line()

    def _line(self) -> str:
        waiting = self._waiting() if self._waiting is not None else None
        step, detail, limit = (waiting[0], "", waiting[1]) if waiting else (self._work, self._detail, None)
        if step != self._clock.step:
            self._clock.set(step)
        return self._clock.line(detail, limit=limit)

    def __rich__(self) -> Text:
        from rich.text import Text

        return Text(self.text())


def _bare(message: str) -> str:
    """A step's name without the ellipsis the line adds after its seconds."""
    return message.removesuffix("…").removesuffix("...")


def connecting(client: KafkaClient) -> Waiting:
    """While no broker has answered ``client``: ``Connecting to HOST:PORT`` and the ``--timeout``
    that ends the wait."""
    servers = [s.strip() for s in client.settings.bootstrap_servers.split(",") if s.strip()]
    more = f" and {len(servers) - 1} more" if len(servers) > 1 else ""
    step = f"Connecting to {servers[0] if servers else '?'}{more}"
    limit = f"--timeout {client.settings.timeout_ms / 1000:g} s"
    return lambda: None if client.answered else (step, limit)


@contextmanager
def progress(
    message: str, env: Environment | None = None, *, waiting: Waiting | None = None
) -> Iterator[Spinner]:
    """A spinner on stderr while work runs (only on a TTY); yields its :class:`Spinner` to say each step.

    ``waiting``: what the work waits on first (:func:`connecting`), said instead while it lasts.
    """
    env = env or Environment.of_process()
    spinner = Spinner(message, clock=env.clock, waiting=waiting)
    if not env.stderr_isatty:
        yield spinner  # never drawn: off a terminal stderr has warnings and errors only
        return
    with err_console(env).status(spinner):
        yield spinner


def write_chunks(chunks: Iterable[str], env: Environment | None = None) -> None:
    """Write data to stdout a chunk at a time, then flush: the whole text is never held at once.

    As with :func:`write`, a closed pipe raises BrokenPipeError upward (the boundary ends quietly).
    """
    out = env.stdout if env is not None else sys.stdout
    for chunk in chunks:
        out.write(chunk)
    out.flush()
