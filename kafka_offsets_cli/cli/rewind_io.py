"""The terminal front end of the ``rewind`` use case (:class:`~kafka_offsets_cli.rewind.io.RewindIO`):
the plan on stdout as a table or records, summaries, notes and spinners on stderr, files written
atomically."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from ..render import rewind as r
from ..rewind.plan import COLUMNS, Plan
from .emit import parse_columns, records_text, show
from .environment import Environment
from .options import OUTPUTS, Format
from .output import Screen, err_console, progress, warn
from .textfile import check_writable, write_atomic

if TYPE_CHECKING:
    from datetime import tzinfo


class TerminalIO:
    """Where and how one ``rewind`` shows what it does (``-o``, ``--columns``, ``--no-headers``)."""

    def __init__(self, *, output: str | None, columns: str | None, header: bool, env: Environment) -> None:
        self._output, self._columns, self.header = output, columns, header
        self.fmt, self.screen = Format.table, Screen(env)
        self.cols: list[str] | None = None

    def ready(self) -> None:
        """``-o`` and ``--columns`` checked (a usage error) and chosen."""
        self.fmt, self.screen = OUTPUTS["rewind"].select(self._output, self.screen.env)
        self.cols = parse_columns(self._columns, COLUMNS)

    def say(self, line: str) -> None:
        """One line on stderr, as it is."""
        err_console(self.screen.env).print(line, highlight=False, soft_wrap=True)

    def warn(self, text: str) -> None:
        """A one-line warning on stderr."""
        warn(text, self.screen.env)

    def progress(self, text: str) -> AbstractContextManager[Any]:
        """A spinner on stderr (on a TTY) while the block runs."""
        return progress(text, self.screen.env)

    def show_plans(self, plans: Sequence[Plan]) -> None:
        """The plans on stdout, as a table or records (``cols``: ``--columns``, ``None`` for all)."""
        if self.fmt is Format.table:
            show(r.rich_table(plans, header=self.header, columns=self.cols), self.screen)
        else:
            show(
                records_text(r.records(plans), self.fmt, COLUMNS, self.cols, header=self.header), self.screen
            )

    def summary(
        self, plan: Plan, *, zone: tzinfo, executed: bool, cluster: str, exported: str | None = None
    ) -> None:
        """One plan's summary line on stderr, times in ``zone`` (``exported``: the ``--export`` file)."""
        self.say(r.summary(plan, zone, executed=executed, cluster=cluster, exported=exported))

    def check_writable(self, path: str) -> None:
        """Refuse a path that cannot be written (a usage error), before any work."""
        check_writable(path)

    def write(self, path: str, text: str) -> None:
        """Write ``text`` to ``path`` atomically (``-``: stdout)."""
        write_atomic(path, text)
