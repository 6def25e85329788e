"""Pausing Python's cyclic garbage collector around a burst of short-lived objects."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["gc_paused"]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic collector off for the block (reference counting still frees everything acyclic).

    Tens of thousands of new result or row objects trigger repeated full collections that scan
    every live object: with the collector left running, ``lag`` over 10,000 rows takes 1.13x the
    CPU (``python -m bench.workarounds --only gcpause``; ``list`` over 10,000 partitions x 4
    specs showed no difference, 0.97x). Left as it was found (a caller that disabled it keeps it off).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
