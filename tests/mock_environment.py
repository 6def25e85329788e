"""A :class:`~kafka_offsets_cli.cli.environment.Environment` for tests, in place of patching modules.

Handed to the CLI entry (``cli(..., environment=...)``) or to a view's ``show``/``watch``; what it
does not say is the test process's own: the streams are read when written (CliRunner swaps
``sys.stdout`` while it runs), no terminal, the real variables and clocks.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from kafka_offsets_cli.cli.environment import Environment


class CurrentStream:
    """``sys.<name>`` as it is at each call (a runner may have swapped it since)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(getattr(sys, self.name), attr)


def _current(name: str) -> Callable[[], TextIO]:
    return lambda: CurrentStream(name)  # type: ignore[return-value]


@dataclass(frozen=True, kw_only=True)
class MockEnvironment(Environment):
    """The test process's environment, but for what a test says (a terminal, a clock, variables)."""

    stdin: TextIO = field(default_factory=_current("stdin"))
    stdout: TextIO = field(default_factory=_current("stdout"))
    stderr: TextIO = field(default_factory=_current("stderr"))
    stdout_isatty: bool = False
    stderr_isatty: bool = False
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)


class Refreshes:
    """A ``--watch`` clock that moves only while the loop sleeps, and a Ctrl-C after ``refreshes``.

    There is no command-line way to stop a watch but Ctrl-C: the sleep after refresh ``refreshes``
    raises KeyboardInterrupt, as Ctrl-C does; after each earlier refresh ``n`` it calls
    ``between(n)``. Refreshes are exactly the ``--watch`` interval apart, so a rate is
    (offset delta) / interval exactly.
    """

    def __init__(
        self, refreshes: int, between: Callable[[int], None] | None = None, start: float = 1000.0
    ) -> None:
        self.refreshes, self.between, self.now, self.done = refreshes, between, start, 0

    def clock(self) -> float:
        """Monotonic seconds: moved only by :meth:`sleep`."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """After refresh ``refreshes``: Ctrl-C; before: ``between(n)``, then the time moves on."""
        self.done += 1
        if self.done >= self.refreshes:
            raise KeyboardInterrupt
        if self.between is not None:
            self.between(self.done)
        self.now += seconds


def watching(refreshes: int, between: Callable[[int], None] | None = None, **changes: Any) -> MockEnvironment:
    """A :class:`MockEnvironment` whose ``--watch`` runs ``refreshes`` refreshes (:class:`Refreshes`)."""
    loop = Refreshes(refreshes, between)
    return MockEnvironment(clock=loop.clock, sleep=loop.sleep, **changes)
