"""Commit staleness (pure): how long a group's committed offset has not moved while records wait for it.

A one-shot ``lag`` run sees each committed offset once; staleness needs what earlier runs saw, kept
per cluster, group and partition as a :class:`Seen` (``lag``: a state file,
:mod:`kafka_offsets_cli.lag.stale_state`; ``serve``: in memory). The rule, for each row:

* ``commit_stale_ms = now - since``, ``since`` the first time this tool saw the partition's current
  committed offset with records left behind it (lag > 0 or below the log start);
* a committed offset that moved since the last sight resets it to 0 (the clock starts again);
* a partition with nothing to read (lag 0, a transaction marker, ahead of the end) is 0 and its
  clock is cleared: an idle, fully consumed topic never alerts. This is Burrow's first rule
  ("if any lag within the window is zero, the status is considered to be OK"): staleness is its
  *stalled* consumer (offset unchanged while lag stays), measured as a duration so thresholds apply;
* a partition that had nothing to read at the last sight and is lagging now at the same offset
  starts its clock now: records arrived in between, at an unknown moment, so the value is a lower
  bound (never an alert the data cannot back);
* first sight of a lagging partition (no earlier run, or the entry expired): unknown, ``None``
  (never 0: nothing says the consumer moved); the next run knows;
* no committed offset, or the partition's offsets could not be read: ``None``, and the earlier
  sight is kept as it was.

Entries a run did not see (another selection, a group gone) are kept for :data:`KEEP_MS` after
their last sight, so cron jobs with different selections share one state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .rows import LagRow, LagState

__all__ = ["KEEP_MS", "Observed", "Seen", "observe", "pruned", "stalest"]

#: How long an entry is kept after its last sight: longer than any sensible cron interval.
KEEP_MS = 30 * 24 * 3600 * 1000

#: A row's key: (group, topic, partition).
RowKey = tuple[str, str, int]


@dataclass(frozen=True)
class Seen:
    """What was last seen of one partition's committed offset: the offset, since when it has stood
    still with records left behind it (``None``: nothing was left to read), and when it was last seen."""

    offset: int
    since_ms: int | None
    seen_ms: int


@dataclass(frozen=True)
class Observed:
    """One observation's outcome: each row's ``commit_stale_ms`` (rows with a value), the new sights to
    store, and how many lagging partitions were seen for the first time (their value unknown)."""

    stale_ms: Mapping[RowKey, int]
    seen: Mapping[RowKey, Seen]
    first_sight: int = 0


def _unread(row: LagRow) -> bool:
    # records are left for the group: lag above 0 (not a marker) or below the log start
    return row.state is LagState.BELOW_START or (row.state is LagState.OK and bool(row.lag))


def observe(before: Mapping[RowKey, Seen], rows: Iterable[LagRow], now_ms: int) -> Observed:
    """Each row's staleness at ``now_ms`` against the sights ``before`` (the module's rule), and the
    sights to store for the rows it could judge."""
    stale: dict[RowKey, int] = {}
    seen: dict[RowKey, Seen] = {}
    first = 0
    for row in rows:
        if row.committed is None or row.state in (LagState.ERROR, LagState.NO_COMMIT):
            continue  # nothing to judge: the earlier sight stays as it was
        key = (row.group, row.topic, row.partition)
        if not _unread(row):
            stale[key], seen[key] = 0, Seen(row.committed, None, now_ms)
            continue
        prev = before.get(key)
        if prev is None:
            first += 1
            seen[key] = Seen(row.committed, now_ms, now_ms)
        elif prev.offset != row.committed or prev.since_ms is None:
            stale[key], seen[key] = 0, Seen(row.committed, now_ms, now_ms)
        else:
            stale[key] = max(0, now_ms - prev.since_ms)  # a clock set back never makes it negative
            seen[key] = Seen(row.committed, prev.since_ms, now_ms)
    return Observed(stale_ms=stale, seen=seen, first_sight=first)


def pruned(before: Mapping[RowKey, Seen], seen: Mapping[RowKey, Seen], now_ms: int) -> dict[RowKey, Seen]:
    """``before`` with ``seen`` applied, less the entries last seen more than :data:`KEEP_MS` ago."""
    out = {k: s for k, s in before.items() if now_ms - s.seen_ms <= KEEP_MS}
    out.update(seen)
    return out


def stalest(stale_ms: Mapping[RowKey, int]) -> dict[str, int]:
    """Each group's largest ``commit_stale_ms`` among its partitions' (groups without one left out):
    the summary's ``max_commit_stale_ms``, the per-group series and perfdata."""
    out: dict[str, int] = {}
    for (group, _, _), ms in stale_ms.items():
        out[group] = max(out.get(group, ms), ms)
    return out
