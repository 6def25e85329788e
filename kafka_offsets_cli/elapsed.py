"""How long the step now running has taken, as every progress line says it: one rule for all spinners.

A step shows its own seconds once it has run for a whole one (``planning (3 s)…``): a long wait
says how long it has waited, a quick step is not cluttered. A new step starts its own clock; a
step told more precisely (``starting Spark`` -> ``starting Spark, the first time…``) keeps it.
Used by ``check``'s Spark stages (:mod:`kafka_offsets_cli.spark.progress`) and the commands'
spinners (:mod:`kafka_offsets_cli.cli.output`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["StepClock"]


class StepClock:
    """The name of the step now running and since when it runs."""

    def __init__(self, step: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.step = step
        self._clock = clock
        self._since = clock()

    def set(self, step: str) -> None:
        """Name the step now running: its clock starts, unless it tells the current one more precisely."""
        if not step.startswith(self.step):
            self._since = self._clock()
        self.step = step

    def seconds(self) -> int:
        """Whole seconds the step has run."""
        return int(self._clock() - self._since)

    def line(self, detail: str = "", *, limit: str | None = None) -> str:
        """``step`` and ``detail`` and, once the step has run a second, its seconds (and ``limit``, what
        ends the wait): ``Connecting to b1:9092 (4 s, --timeout 30 s)…``."""
        elapsed = self.seconds()
        if elapsed < 1:
            return f"{self.step}{detail}…"
        return f"{self.step}{detail} ({elapsed} s{f', {limit}' if limit else ''})…"
