"""What the ``rewind`` use case needs of its front end: lines on stderr, the plan on stdout, a
spinner, and files written whole (httpie's injected ``Environment``: the terminal CLI gives
:class:`kafka_offsets_cli.cli.rewind_io.TerminalIO`, a test or another front end its own)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from datetime import tzinfo

    from .plan import Plan


class RewindIO(Protocol):
    """The front end of one ``rewind`` run."""

    def ready(self) -> None:
        """Check the front end's own options (:class:`~kafka_offsets_cli.errors.UsageError`), once
        the request's target is found valid and before anything is shown."""

    def say(self, line: str) -> None:
        """One line on stderr, as it is (no markup)."""

    def warn(self, text: str) -> None:
        """A one-line warning on stderr."""

    def progress(self, text: str) -> AbstractContextManager[Any]:
        """A spinner while the work in its block runs."""

    def show_plans(self, plans: Sequence[Plan]) -> None:
        """The plans on stdout, in the front end's format."""

    def summary(
        self, plan: Plan, *, zone: tzinfo, executed: bool, cluster: str, exported: str | None = None
    ) -> None:
        """One plan's summary line on stderr, times in ``zone`` (``cluster``: where it was made;
        ``exported``: the ``--export`` file, which the dry run then says how to apply)."""

    def check_writable(self, path: str) -> None:
        """Refuse (:class:`~kafka_offsets_cli.errors.UsageError`) a file that cannot be written."""

    def write(self, path: str, text: str) -> None:
        """Write ``text`` to ``path`` whole (``-``: stdout), or not at all."""
