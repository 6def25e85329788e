"""Records/s consumed, from committed offsets that move in steps (pure).

A group's committed offset does not move with consumption: it jumps when the consumer
commits (librdkafka's and the Java client's auto-commit every 5 s by default). A rate from
two refreshes is then 0 when no commit fell between them and inflated when one did
(2.5x for a 2 s refresh and 5 s commits). :class:`CommitRates` instead measures between
commit *steps*:

* a step is a refresh where the committed offset moved; its time is taken as the middle of
  the gap since the previous refresh (the commit happened somewhere in it), so the error of
  a step's time is at most half a refresh interval;
* the rate is ``(offset at the last step - offset at the first step) / (time between them)``
  over the steps of the last ``window_s`` seconds (at least :data:`MIN_STEPS` steps, which
  are kept even when older): the span covers several commit intervals, so one commit more
  or less in a refresh does not move it;
* until :data:`MIN_STEPS` steps are seen there is no rate (``None``);
* when no step comes for longer than the usual gap between steps (plus a refresh), the
  rate decays as if the next commit were due now, and after ``max(2 window_s, 3 gaps)``
  without a step it is 0 (also for a group not seen to commit at all in ``2 window_s``):
  a group that stopped committing shows 0, a consuming one never does;
* an offset that goes backwards (a reset group) starts over.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["DEFAULT_WINDOW_S", "MIN_STEPS", "CommitRate", "CommitRates", "window_for"]

K = TypeVar("K", bound=Hashable)

#: Seconds of commit steps a rate spans (at least; see :func:`window_for`).
DEFAULT_WINDOW_S = 30.0

#: Commit steps seen before a rate is shown: the first and the last then span three commit intervals.
MIN_STEPS = 4


def window_for(interval_s: float) -> float:
    """The window for a ``--watch`` interval: 30 s, or five refreshes when those are longer."""
    return max(DEFAULT_WINDOW_S, 5 * interval_s)


@dataclass(frozen=True)
class CommitRate:
    """Records/s consumed, and what it is based on: ``steps`` commit steps spanning ``window_s`` seconds."""

    per_s: float
    window_s: float
    steps: int


@dataclass
class _Track:
    """One key's history: the last value seen, when, and the steps (middle time, offset)."""

    first_t: float
    last_t: float
    last_v: int
    steps: list[tuple[float, int]] = field(default_factory=list)


class CommitRates(Generic[K]):
    """Per-key consumed rates from successive observations of committed offsets (see the module doc)."""

    def __init__(self, window_s: float = DEFAULT_WINDOW_S) -> None:
        self.window_s = window_s
        self._tracks: dict[K, _Track] = {}

    def observe(self, t: float, offsets: Mapping[K, int]) -> dict[K, CommitRate | None]:
        """Record the committed ``offsets`` seen at time ``t`` (seconds); each key's rate now.

        Keys not in ``offsets`` are forgotten (a row that disappeared starts over when it returns).
        """
        self._tracks = {k: tr for k, tr in self._tracks.items() if k in offsets}
        return {k: self._observe(k, t, v) for k, v in offsets.items()}

    def _observe(self, key: K, t: float, value: int) -> CommitRate | None:
        tr = self._tracks.get(key)
        if tr is None or value < tr.last_v or t <= tr.last_t:
            self._tracks[key] = _Track(first_t=t, last_t=t, last_v=value)
            return None
        dt = t - tr.last_t
        if value > tr.last_v:
            tr.steps.append(((tr.last_t + t) / 2, value))
        tr.last_t, tr.last_v = t, value
        steps = tr.steps
        while len(steps) > MIN_STEPS and steps[0][0] < t - self.window_s:
            del steps[0]
        return self._rate(tr, t, dt)

    def _rate(self, tr: _Track, t: float, dt: float) -> CommitRate | None:
        steps = tr.steps
        if len(steps) < MIN_STEPS:
            since = t - (steps[-1][0] if steps else tr.first_t)
            if since >= 2 * self.window_s:  # no commit for two windows: not consuming
                return CommitRate(0.0, round(since, 3), 0)
            return None
        (ta, va), (tb, vb) = steps[0], steps[-1]
        n = len(steps) - 1
        gap = (tb - ta) / n
        if t - tb > max(2 * self.window_s, 3 * gap):
            return CommitRate(0.0, round(t - ta, 3), n + 1)
        # no step yet where one was due: measure as if it were due now, so a stopped group fades out
        end = max(tb, t - gap - dt)
        return CommitRate((vb - va) / (end - ta), round(end - ta, 3), n + 1)
