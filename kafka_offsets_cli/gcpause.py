"""Pausing Python's cyclic garbage collector around a burst of short-lived objects."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["command_ends_process", "gc_paused", "no_final_pass"]

#: whether the process ends when its command does (said by ``__main__.main``; never under a test runner
#: or a server, whose process goes on)
_ENDS_WITH_COMMAND: list[bool] = [False]


def command_ends_process() -> None:
    """Said by the process's entry (``__main__.main``) before the command runs: the process ends when
    the command does, so a pause held ``to_exit`` is not lifted (:func:`gc_paused`)."""
    _ENDS_WITH_COMMAND[0] = True


@contextlib.contextmanager
def gc_paused(*, to_exit: bool = False) -> Iterator[None]:
    """The cyclic collector off for the block (reference counting still frees everything acyclic).

    Tens of thousands of new result or row objects trigger repeated full collections that scan
    every live object: with the collector left running, ``lag`` over 10,000 rows takes 1.13x the
    CPU (``python -m bench.workarounds --only gcpause-lag``; ``list`` over 10,000 partitions x 4
    specs showed no difference, 0.97x). Left as it was found (a caller that disabled it keeps it
    off), except with ``to_exit`` in a process that ends with its command (:func:`command_ends_process`):
    ``lag`` holds one pause over its read and its output, and the first collection after a pause
    scans everything made during it (30-45 ms after 50,000 rows) just before the exit frees it all.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled and not (to_exit and _ENDS_WITH_COMMAND[0]):
            gc.enable()


def no_final_pass() -> None:
    """The process is ending: the collector stays off to the end.

    The interpreter's finalization runs one last full collection when the collector is on; after a
    ``lag`` of 50,000 rows it scans every object still alive (25-40 ms) to free what the exit frees
    anyway. Python never promised the finalizers of objects left in cycles at exit (the language
    reference, ``object.__del__``); the package's files are closed by their ``with`` blocks.
    """
    gc.disable()
