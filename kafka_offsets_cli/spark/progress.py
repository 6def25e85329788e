"""Progress of the Spark stages on stderr (only on a TTY).

A background thread polls Spark's status tracker and shows the current step
(plan, collect, evaluate...) with the tasks done in the running stages and, after the first
second, how long the step has been running (a first Spark start can take most of a minute).
Off a TTY nothing is drawn (stderr stays clean for cron mail).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..elapsed import StepClock

__all__ = ["StageProgress"]


class StageProgress:
    """Tracks the current step name; draws it with the running stages' task counts."""

    def __init__(
        self,
        sc: Any | None = None,
        *,
        console: Any | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sc = sc
        self.console = console
        self._step = StepClock("starting Spark", clock=clock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status: Any = None

    def set(self, step: str) -> None:
        """Name the step now running (also the Spark job description)."""
        self._step.set(step)  # a step told more precisely keeps its clock
        if self.sc is not None:
            with contextlib.suppress(Exception):  # cosmetic only
                self.sc.setJobDescription(f"kafka-offsets check: {step}")
        self._draw()

    @property
    def step(self) -> str:
        """The step now running."""
        return self._step.step

    def attach(self, sc: Any) -> None:
        """Start following a SparkContext (once the session is up)."""
        self.sc = sc

    def _text(self) -> str:
        detail = ""
        tracker = None
        try:
            tracker = self.sc.statusTracker() if self.sc is not None else None
        except Exception:
            tracker = None
        if tracker is not None:
            done = total = 0
            try:
                for sid in tracker.getActiveStageIds():
                    info = tracker.getStageInfo(sid)
                    if info is not None:
                        done += info.numCompletedTasks
                        total += info.numTasks
            except Exception:
                total = 0
            if total:
                detail = f": {done}/{total} tasks"
        return self._step.line(detail)

    def _draw(self) -> None:
        if self._status is not None:
            from rich.markup import escape

            self._status.update(escape(self._text()))

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            self._draw()

    @contextmanager
    def shown(self) -> Iterator[StageProgress]:
        """Show the progress on the rich console given (none: a no-op, e.g. off a TTY)."""
        if self.console is None:
            yield self
            return
        with self.console.status(self.step + "…") as status:
            self._status = status
            self._thread = threading.Thread(target=self._run, name="spark-progress", daemon=True)
            self._thread.start()
            try:
                yield self
            finally:
                self._stop.set()
                self._thread.join(timeout=1)
                self._status = None
