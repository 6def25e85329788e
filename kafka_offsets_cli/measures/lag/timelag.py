"""Time lag: M(c), the newest record timestamp up to a committed offset, and the resume times.

The method and what the number means are in :mod:`kafka_offsets_cli.measures.lag` ("Time
lag"). The search itself, M(o) for any offsets, is :mod:`kafka_offsets_cli.measures.timestamps`
(``tiering`` asks it too); here are the offsets a lag row asks it for (:func:`time_lags`,
:func:`search_offset`) and the rows its answers fill in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum

from ...models.offsets import Isolation
from ...models.topics import TopicPartition
from ...plan.requests import DEFAULT_CHUNK
from ...sources import OffsetSource
from ..timestamps import TimeLag, newest_timestamps
from .rows import LagRow, LagState


def time_lags(
    source: OffsetSource,
    rows: Iterable[LagRow],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
) -> dict[tuple[TopicPartition, int], TimeLag]:
    """Time lag inputs M(c) for every lagging row, by batched bisection on timestamps.

    One max-timestamp call for the lagging partitions gives each search its upper
    bound (and often the answer); then every round sends one timestamp lookup per
    unfinished (partition, committed offset) — all partitions in the same round go
    out together, planned by :func:`~kafka_offsets_cli.plan.requests.plan_queries` (per
    leader when ``leaders`` is given: one request per leader per round).
    Rows that share a partition and committed offset (several groups) share a
    search. Keys: ``(partition, committed)``; turn them into ``time_lag_ms`` with
    :func:`with_time_lags`.
    """
    keys = {(r.tp, r.committed) for r in rows if r.state is LagState.OK and r.lag and r.committed is not None}
    return newest_timestamps(source, keys, isolation=isolation, chunk_size=chunk_size, leaders=leaders)


def with_time_lags(
    rows: Iterable[LagRow], lags: Mapping[tuple[TopicPartition, int], TimeLag], now_ms: int
) -> list[LagRow]:
    """Rows with ``time_lag_ms`` filled in from :func:`time_lags` (rows without a search unchanged)."""
    out: list[LagRow] = []
    for r in rows:
        # (topic, partition) finds a TopicPartition key (it is that tuple) without building one per row
        tl = lags.get(((r.topic, r.partition), r.committed)) if r.committed is not None else None  # type: ignore[arg-type]
        out.append(r.evolve(time_lag_ms=tl.lag_ms(now_ms)) if tl is not None else r)
    return out


class Why(str, Enum):
    """Which record a partition's resume time (``resume_timestamp``, a DR cutover's ``T``) is taken from."""

    FIRST_UNREAD = "first-unread"  # T = M(c)
    READ_TO_END = "read-to-end"  # T = M(c - 1): nothing left (end, marker, or c beyond the end)
    BELOW_START = "below-start"  # T = M(log start): the records before it are gone
    EMPTY = "empty"  # no record on the primary: DR log start
    NO_TIMESTAMP = "no-timestamp"  # no timestamp up to that record: DR log start
    NO_COMMIT = "no-commit"  # nothing committed on the primary: left out of the plan
    ERROR = "error"


def search_offset(row: LagRow) -> tuple[int | None, Why]:
    """The offset whose M() is the partition's resume time, and why (pure; the one rule that both
    ``lag --time-lag``'s ``resume_timestamp`` and ``rewind --from-cluster`` follow)."""
    if row.state is LagState.ERROR or row.log_start is None or row.end is None:
        return None, Why.ERROR
    if row.state is LagState.NO_COMMIT or row.committed is None:
        return None, Why.NO_COMMIT
    if row.log_start >= row.end:
        return None, Why.EMPTY
    if row.state is LagState.BELOW_START:
        return row.log_start, Why.BELOW_START
    if row.state is LagState.OK and row.lag:
        return row.committed, Why.FIRST_UNREAD
    # lag 0, a transaction marker left, or ahead of the end: the last record read
    return max(row.log_start, min(row.committed, row.end) - 1), Why.READ_TO_END


def time_lags_and_resume_times(
    source: OffsetSource,
    rows: Iterable[LagRow],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
) -> tuple[dict[tuple[TopicPartition, int], TimeLag], dict[tuple[TopicPartition, int], TimeLag]]:
    """:func:`time_lags` and the resume times (M of each row's :func:`search_offset`), in one batched
    bisection: a lagging row's resume time is its time lag's M(c), shared."""
    rows = list(rows)
    points = {(r.tp, off) for r in rows if (off := search_offset(r)[0]) is not None}
    lagging = {
        (r.tp, r.committed) for r in rows if r.state is LagState.OK and r.lag and r.committed is not None
    }
    found = newest_timestamps(
        source, points | lagging, isolation=isolation, chunk_size=chunk_size, leaders=leaders
    )
    return {k: found[k] for k in lagging}, {k: found[k] for k in points}


def with_resume_times(
    rows: Iterable[LagRow], found: Mapping[tuple[TopicPartition, int], TimeLag], taken_ms: int
) -> list[LagRow]:
    """Rows with ``resume_timestamp`` (M of :func:`search_offset`) and ``taken_at_ms`` filled in; a
    failed search becomes the row's error (``resume time: ERROR``) unless it has one."""
    out: list[LagRow] = []
    for r in rows:
        off, _ = search_offset(r)
        tl = found.get(((r.topic, r.partition), off)) if off is not None else None  # type: ignore[arg-type]
        ts = tl.timestamp if tl is not None and tl.error is None else None
        r = r.evolve(resume_timestamp=ts, taken_at_ms=taken_ms)
        if tl is not None and tl.error and r.error is None:
            r = r.evolve(error=f"resume time: {tl.error}")
        out.append(r)
    return out


def with_time_lag_errors(
    rows: Iterable[LagRow], lags: Mapping[tuple[TopicPartition, int], TimeLag]
) -> list[LagRow]:
    """Rows whose time-lag search failed, with ``time lag: ERROR`` as their error (unless they have one)."""
    out: list[LagRow] = []
    for r in rows:
        tl = lags.get(((r.topic, r.partition), r.committed)) if r.committed is not None else None  # type: ignore[arg-type]
        if tl is not None and tl.error and r.error is None:
            r = r.evolve(error=f"time lag: {tl.error}")
        out.append(r)
    return out
