"""Fewer glibc malloc arenas for ``check``'s driver: memory one thread frees serves the others.

glibc gives threads that allocate at once arenas of their own (up to 8 per core), and memory
freed in one arena serves only that arena's later allocations. ``check``'s driver plans with
a thread per cluster and the Kafka client's threads, then runs py4j's: at 50,000 partitions
the memory freed by planning sat in those arenas while the records and the JSON text took
new pages, 6-7 MB of a 150 MB peak. Two arenas (the main thread's and one shared by the others)
keep it reusable; the driver's work is one Python thread at a time (the GIL), so the threads
rarely contend for them. This is glibc's own ``M_ARENA_MAX`` setting (what ``MALLOC_ARENA_MAX``
sets): a value given in that variable is left as it is, and elsewhere (musl, macOS) nothing
changes.
"""

from __future__ import annotations

import os
import sys

__all__ = ["limit_arenas"]

#: mallopt's parameter number for the arena limit (glibc's malloc.h)
_M_ARENA_MAX = -8


def limit_arenas(arenas: int = 2) -> bool:
    """Cap glibc's malloc arenas at ``arenas`` for this process; True when it was set.

    Call it before the process starts threads: arenas already made stay.
    """
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        if not hasattr(libc, "gnu_get_libc_version"):  # not glibc: its mallopt has no such setting
            return False
        return bool(libc.mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False
