"""One collection at a time, and none sooner than the minimum interval after the last one.

Prometheus' guide to writing exporters: collect on scrape. Several scrapers (two Prometheus
replicas, a curl) must not multiply the load on the brokers, so a scrape that finds a result
younger than the interval gets it from the cache, and a scrape that arrives while a collection
runs waits for that one and shares its result (single flight) instead of starting another.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

__all__ = ["Served", "SingleFlight"]


@dataclass(frozen=True)
class Served(Generic[T]):
    """A collection's result as one scrape gets it: the value and its age in seconds."""

    value: T
    age_s: float


class SingleFlight(Generic[T]):
    """``collect()`` run by at most one caller at a time, its result reused for ``min_interval_s``.

    ``clock`` is monotonic seconds (injected by tests). A failed collection is raised to every
    caller that waited for it and not cached: the next caller tries again.
    """

    def __init__(
        self, collect: Callable[[], T], *, min_interval_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._collect = collect
        self._min_interval_s = min_interval_s
        self._clock = clock
        self._cond = threading.Condition()
        self._last: tuple[T, float] | None = None  # (value, when it was taken)
        self._running = False
        self._flight = 0  # how many collections have ended (each wakes its waiters)
        self._error: BaseException | None = None  # the last collection's failure
        self._collections = 0
        self._waiting = 0

    @property
    def collections(self) -> int:
        """How many collections have completed (failed ones not counted)."""
        return self._collections

    @property
    def waiting(self) -> int:
        """How many callers wait for the collection in flight now."""
        return self._waiting

    def get(self) -> Served[T]:
        """A result no older than ``min_interval_s``, or the one of the collection in flight, or a new one."""
        with self._cond:
            fresh = self._fresh()
            if fresh is not None:
                return fresh
            if self._running:
                return self._wait()
            self._running = True
        try:
            value = self._collect()
        except BaseException as e:
            self._landed(None, e)
            raise
        self._landed((value, self._clock()), None)
        return Served(value, 0.0)

    def _fresh(self) -> Served[T] | None:
        if self._last is None:
            return None
        age = self._clock() - self._last[1]
        return Served(self._last[0], age) if age < self._min_interval_s else None

    def _wait(self) -> Served[T]:
        """Wait (holding the condition) for the collection in flight; its result, or its failure raised."""
        flight = self._flight
        self._waiting += 1
        try:
            while self._flight == flight:
                self._cond.wait()
        finally:
            self._waiting -= 1
        if self._error is not None:
            raise self._error
        assert self._last is not None  # a collection that did not fail left its result
        return Served(self._last[0], self._clock() - self._last[1])

    def _landed(self, taken: tuple[T, float] | None, error: BaseException | None) -> None:
        """The collection in flight ended: keep its result ``taken`` (unless it failed), wake its waiters."""
        with self._cond:
            if taken is not None:
                self._last = taken
                self._collections += 1
            self._error = error
            self._running = False
            self._flight += 1
            self._cond.notify_all()
