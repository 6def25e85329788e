"""The exporter: its clusters' jobs collected on scrape through the single-flight cache, as text."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence

from .cache import SingleFlight
from .collect import ClusterJob, Collection, collect
from .metrics import exposition

__all__ = ["Exporter"]


class Exporter:
    """``metrics()``: the ``/metrics`` body, collected at most once per ``min_interval_s`` however many
    scrape at once; each failure of a collection is one ``log`` line (the exporter's stderr)."""

    def __init__(
        self,
        jobs: Sequence[ClusterJob],
        *,
        min_interval_s: float,
        log: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._jobs = tuple(jobs)
        self._log = log
        self._clock = clock
        self._last: Collection | None = None  # written by the one collection in flight only
        self._started = itertools.count(1)  # thread-safe: each collection's number as it starts
        self._cache = SingleFlight(self._collect, min_interval_s=min_interval_s, clock=clock)

    def _collect(self) -> Collection:
        collection = collect(self._jobs, self._last, next(self._started), self._clock)
        for outcome in collection.clusters:
            name = ",".join(f"{k}={v}" for k, v in outcome.labels.items())
            for line in outcome.errors:
                self._log(f"{name}: {line}")
        self._last = collection
        return collection

    def metrics(self) -> str:
        """The exposition text of a collection no older than the interval (the cached one, the one in
        flight, or a new one)."""
        served = self._cache.get()
        return exposition(served.value, served.age_s)
