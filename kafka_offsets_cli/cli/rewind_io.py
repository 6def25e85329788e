"""The terminal front end of the ``rewind`` use case (:class:`~kafka_offsets_cli.rewind.io.RewindIO`):
the plan on stdout as a table or records, summaries, notes and spinners on stderr, files written
atomically."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..render import rewind as r
from ..rewind.plan import COLUMNS, Plan
from .emit import records_text, show
from .options import Format
from .output import err_console, progress, warn
from .textfile import check_writable, write_atomic

if TYPE_CHECKING:
    from datetime import tzinfo


@dataclass(frozen=True, kw_only=True)
class TerminalIO:
    """Where and how one ``rewind`` shows what it does (``-o``, ``--columns``, ``--no-headers``)."""

    fmt: Format
    cols: list[str] | None
    header: bool

    def say(self, line: str) -> None:
        """One line on stderr, as it is."""
        err_console().print(line, highlight=False, soft_wrap=True)

    def warn(self, text: str) -> None:
        """A one-line warning on stderr."""
        warn(text)

    def progress(self, text: str) -> AbstractContextManager[Any]:
        """A spinner on stderr (on a TTY) while the block runs."""
        return progress(text)

    def show_plans(self, plans: Sequence[Plan]) -> None:
        """The plans on stdout, as a table or records (``cols``: ``--columns``, ``None`` for all)."""
        if self.fmt is Format.table:
            show(r.rich_table(plans, header=self.header, columns=self.cols))
        else:
            show(records_text(r.records(plans), self.fmt, COLUMNS, self.cols, header=self.header))

    def summary(self, plan: Plan, *, zone: tzinfo, executed: bool, cluster: str) -> None:
        """One plan's summary line on stderr, times in ``zone``."""
        self.say(r.summary(plan, zone, executed=executed, cluster=cluster))

    def check_writable(self, path: str) -> None:
        """Refuse a path that cannot be written (a usage error), before any work."""
        check_writable(path)

    def write(self, path: str, text: str) -> None:
        """Write ``text`` to ``path`` atomically (``-``: stdout)."""
        write_atomic(path, text)
