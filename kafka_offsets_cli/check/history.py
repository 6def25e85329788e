"""Burrow-style sliding-window evaluation of consumer lag history (pure).

``kafka-offsets check --history DIR`` stores one sample per run for every
(cluster, group, topic, partition): the run time, committed offset, end
offset and lag (and the group's type, which the rules do not read). Over the
last ``window`` samples of a partition, LinkedIn Burrow's rules decide a status without thresholds (Burrow's
``calculatePartitionStatus``, evaluated in the same order)::

    OK        the lag was <= allowed_lag in some sample of the window (rule 1),
              or the current lag is
    REWIND    the committed offset went backwards between two samples (rule 2)
    STOP      the committed offset has not moved for longer than it had been
              moving within the window: the consumer stopped committing (rule 3)
    STALL     as STOP, but a live member of the group owns the partition: the
              consumer is there and commits, yet its offset does not move (rule 4)
    WARN      offsets move but the lag never decreased across the window (rule 5)

Burrow sees every commit with its timestamp (it reads ``__consumer_offsets``);
the admin API used here does not expose commit times, so a commit is
*observed* when the committed offset differs from the previous sample, at that
sample's time. Burrow tells STOP (no commits) from STALL (commits of the same
offset) by commit timestamps; here the distinction is whether the group has an
active member that owns the partition (``owned``). When ownership is unknown
(``None``), a partition whose offset does not move is reported as STOP.

Fewer than ``min_samples`` usable samples (with a committed offset and a lag)
give ``incomplete``, which counts as OK. Rates (records per second) come from
the first and last sample of the window; the time to catch up is the lag over
the net consumption rate, ``None`` when the group is not gaining
(:func:`kafka_offsets_cli.measures.catch_up.catch_up_ms`, also ``lag --summary --watch``'s).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from typing import Any

from ..errors import MonitoringStatus
from ..measures.catch_up import catch_up_ms
from ..tally import Pred, Stat, count_each, tally
from .spec import HistoryRules

__all__ = [
    "GroupHistory",
    "HistoryStatus",
    "PartitionHistory",
    "Sample",
    "evaluate_group",
    "evaluate_partition",
    "rates",
    "window",
]


class HistoryStatus(str, Enum):
    """A partition's (or group's) status over the window, in Burrow's order of severity."""

    INCOMPLETE = "incomplete"
    OK = "ok"
    WARN = "warn"
    STOP = "stop"
    STALL = "stall"
    REWIND = "rewind"

    @property
    def severity(self) -> int:
        """Burrow's order: incomplete < ok < warn < stop < stall < rewind."""
        return _SEVERITY[self]

    @property
    def monitoring(self) -> MonitoringStatus:
        """WARN is a warning; STOP, STALL and REWIND are critical; the rest OK."""
        if self is HistoryStatus.WARN:
            return MonitoringStatus.WARNING
        if self in (HistoryStatus.STOP, HistoryStatus.STALL, HistoryStatus.REWIND):
            return MonitoringStatus.CRITICAL
        return MonitoringStatus.OK


_SEVERITY = {s: i for i, s in enumerate(HistoryStatus)}


@dataclass(frozen=True, order=True)
class Sample:
    """One observation of a group's partition: run time (epoch ms), committed offset, end offset, lag."""

    run_ms: int
    committed: int | None
    end: int | None
    lag: int | None


@dataclass(frozen=True, kw_only=True)
class PartitionHistory:
    """The verdict for one partition over the window."""

    status: HistoryStatus
    samples: int
    reason: str
    lag: int | None = None
    produce_rate: float | None = None
    consume_rate: float | None = None
    eta_ms: int | None = None


@dataclass(frozen=True, kw_only=True)
class GroupHistory:
    """A group's roll-up: the worst partition, summed rates, time to catch up, lag trend."""

    status: HistoryStatus
    partitions: int
    counts: dict[str, int]
    produce_rate: float | None
    consume_rate: float | None
    eta_ms: int | None
    trend: tuple[int | None, ...] = ()


def window(samples: Iterable[Sample], size: int) -> list[Sample]:
    """The last ``size`` samples in time order (one per run time; later duplicates win)."""
    by_run: dict[int, Sample] = {}
    for s in samples:
        by_run[s.run_ms] = s
    ordered = [by_run[k] for k in sorted(by_run)]
    return ordered[-size:] if size > 0 else []


def rates(samples: Sequence[Sample]) -> tuple[float | None, float | None]:
    """(produce, consume) rates in records per second between the first and last usable sample."""
    ends = [s for s in samples if s.end is not None]
    commits = [s for s in samples if s.committed is not None]
    produce = _rate(ends[0].run_ms, ends[0].end, ends[-1].run_ms, ends[-1].end) if len(ends) >= 2 else None
    consume = (
        _rate(commits[0].run_ms, commits[0].committed, commits[-1].run_ms, commits[-1].committed)
        if len(commits) >= 2
        else None
    )
    return produce, consume


def _rate(t0: int, v0: int | None, t1: int, v1: int | None) -> float | None:
    if v0 is None or v1 is None or t1 <= t0:
        return None
    return (v1 - v0) * 1000.0 / (t1 - t0)


def evaluate_partition(
    samples: Iterable[Sample],
    rules: HistoryRules,
    *,
    now_ms: int,
    owned: bool | None = None,
) -> PartitionHistory:
    """Apply Burrow's rules (see the module docstring) to a partition's samples.

    ``samples`` may be in any order and longer than the window; ``owned`` says
    whether an active group member owns the partition now (``None``: unknown).
    """
    win = [s for s in window(samples, rules.window) if s.committed is not None and s.lag is not None]
    produce, consume = rates(win)
    lag = win[-1].lag if win else None
    eta = catch_up_ms(lag, produce, consume)

    def verdict(status: HistoryStatus, reason: str) -> PartitionHistory:
        return PartitionHistory(
            status=status,
            samples=len(win),
            reason=reason,
            lag=lag,
            produce_rate=produce,
            consume_rate=consume,
            eta_ms=eta,
        )

    if len(win) < rules.min_samples:
        return verdict(HistoryStatus.INCOMPLETE, f"{len(win)} of {rules.min_samples} samples needed")
    lags = [s.lag for s in win if s.lag is not None]
    offsets = [s.committed for s in win if s.committed is not None]
    if lags[-1] <= rules.allowed_lag:
        return verdict(HistoryStatus.OK, "caught up")
    if any(x <= rules.allowed_lag for x in lags):
        return verdict(HistoryStatus.OK, "caught up within the window")
    if any(b < a for a, b in pairwise(offsets)):
        return verdict(HistoryStatus.REWIND, "committed offset went backwards")
    first_ms = win[0].run_ms
    last_move_ms = first_ms
    for prev, cur in pairwise(win):
        if cur.committed != prev.committed:
            last_move_ms = cur.run_ms
    if now_ms - last_move_ms > last_move_ms - first_ms:
        if owned:
            return verdict(HistoryStatus.STALL, "a member owns the partition but its offset does not move")
        return verdict(HistoryStatus.STOP, "committed offset has stopped moving")
    if all(b >= a for a, b in pairwise(lags)):
        return verdict(HistoryStatus.WARN, "offsets move but the lag keeps growing")
    return verdict(HistoryStatus.OK, "consuming")


def worst_status(statuses: Iterable[HistoryStatus]) -> HistoryStatus:
    """The most severe status (``incomplete`` for none)."""
    out = HistoryStatus.INCOMPLETE
    for s in statuses:
        if s.severity > out.severity:
            out = s
    return out


#: what a group's verdict reads of its partitions' verdicts (``h_*`` columns), declared once
GROUP_STATS = (
    Stat("h_partitions", "count", where=((Pred("h_status", "present"),),)),
    *count_each("h_status", [s.value for s in HistoryStatus], "h:"),
    Stat("h_produce", "fsum", "h_produce"),
    Stat("h_consume", "fsum", "h_consume"),
    Stat("h_lag", "sum", "h_lag"),
)


def group_history(t: Mapping[str, Any], trend: Sequence[int | None] = ()) -> GroupHistory:
    """A group's verdict from the tally of its partitions' verdicts (:data:`GROUP_STATS`): worst
    status, summed rates and lag, time to catch up."""
    counts = {s.value: t[f"h:{s.value}"] for s in HistoryStatus if t[f"h:{s.value}"]}
    produce, consume = t["h_produce"], t["h_consume"]
    return GroupHistory(
        status=worst_status(HistoryStatus(v) for v in counts),
        partitions=t["h_partitions"],
        counts=counts,
        produce_rate=produce,
        consume_rate=consume,
        eta_ms=catch_up_ms(t["h_lag"], produce, consume),
        trend=tuple(trend),
    )


def evaluate_group(partitions: Sequence[PartitionHistory], trend: Sequence[int | None] = ()) -> GroupHistory:
    """Roll a group's partitions up: worst status, summed rates and lag, time to catch up."""
    cols: dict[str, Sequence[Any]] = {
        "h_status": [p.status.value for p in partitions],
        "h_produce": [p.produce_rate for p in partitions],
        "h_consume": [p.consume_rate for p in partitions],
        "h_lag": [p.lag for p in partitions],
    }
    return group_history(tally(GROUP_STATS, cols), trend)
