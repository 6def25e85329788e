"""Time lag: M(c), the newest record timestamp up to a committed offset, by batched bisection.

The method and what the number means are in :mod:`kafka_offsets_cli.lag` ("Time
lag"). :class:`Bisection` is the pure search for one (partition, committed offset);
:func:`time_lags` runs all of them together, one ListOffsets round at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from ..models.offsets import Isolation, OffsetResult, OffsetSpec
from ..models.topics import TopicPartition
from ..plan.queries import fetch_offsets
from ..plan.requests import DEFAULT_CHUNK, plan_queries
from ..sources import OffsetSource
from .rows import LagRow, LagState

#: Largest timestamp Kafka can store (a Java long): the search bound when max-timestamp gives none.
MAX_TIMESTAMP = 2**63 - 1


@dataclass(frozen=True)
class TimeLag:
    """Result of one bisection: ``timestamp`` is M(c) (see :mod:`kafka_offsets_cli.lag`).

    ``timestamp`` is ``None`` when no record up to the committed offset carries a
    timestamp (legacy v0 records) or on ``error``. ``rounds`` counts the ListOffsets
    rounds this partition took part in.
    """

    timestamp: int | None
    rounds: int
    error: str | None = None

    def lag_ms(self, now_ms: int) -> int | None:
        """``max(0, now - timestamp)``, or ``None`` when unknown."""
        if self.timestamp is None or self.error is not None:
            return None
        return max(0, now_ms - self.timestamp)


class Bisection:
    """Find M(c), the largest ``T`` with ``offsetsForTimes(T) <= c``, one lookup at a time.

    Invariant: ``lo`` is a timestamp known to be ``<= M(c)`` (``-1``: none known) and
    ``offsetsForTimes(hi) > c`` (or finds nothing). Each answer ``(offset, ts)`` for
    a lookup at ``T`` narrows the interval: ``offset <= c`` proves ``M(c) >= ts``
    (and ``offset == c`` proves ``M(c) == ts``: every earlier record is older than
    ``T``); ``offset > c`` or no record proves ``M(c) < T``.
    """

    def __init__(self, committed: int, hi: int, lo: int = -1) -> None:
        self.committed = committed
        self.lo = lo
        self.hi = hi
        self.rounds = 0
        self.error: str | None = None

    @classmethod
    def start(cls, committed: int, max_ts: OffsetResult) -> Bisection:
        """Initial interval from the partition's max-timestamp result (KIP-734).

        If the newest record by timestamp is at or before ``committed``, M(c) is its
        timestamp and no lookup is needed. Without a usable answer the search covers
        every timestamp Kafka can store (about 63 rounds instead of 41).
        """
        if max_ts.error is not None or max_ts.offset is None or max_ts.timestamp is None:
            # No usable answer (an old broker without KIP-734, or the newest record is past
            # the high watermark / LSO and so filtered out): search all of Kafka's range.
            return cls(committed, hi=MAX_TIMESTAMP)
        if max_ts.offset <= committed:
            return cls(committed, hi=max_ts.timestamp + 1, lo=max_ts.timestamp)
        return cls(committed, hi=max_ts.timestamp + 1)

    @property
    def done(self) -> bool:
        """True when the interval is down to one value or an error stopped the search."""
        return self.error is not None or self.hi - self.lo <= 1

    def next_time(self) -> int:
        """The timestamp to look up next (only while not :attr:`done`)."""
        return (self.lo + self.hi) // 2 if self.lo >= 0 else (self.hi - 1) // 2

    def feed(self, target: int, result: OffsetResult) -> None:
        """Narrow the interval with the answer to a lookup at ``target``."""
        self.rounds += 1
        if result.error is not None:
            self.error = result.error
            return
        if result.offset is None or result.offset > self.committed:
            self.hi = min(self.hi, target)
            return
        ts = result.timestamp if result.timestamp is not None else target
        self.lo = max(self.lo, ts)
        if result.offset == self.committed:
            self.hi = self.lo + 1
        self.hi = max(self.hi, self.lo + 1)

    def result(self) -> TimeLag:
        """The finished search as a :class:`TimeLag`."""
        if self.error is not None:
            return TimeLag(None, self.rounds, self.error)
        return TimeLag(self.lo if self.lo >= 0 else None, self.rounds)


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


def newest_timestamps(
    source: OffsetSource,
    points: Iterable[tuple[TopicPartition, int]],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
) -> dict[tuple[TopicPartition, int], TimeLag]:
    """M(o) for each (partition, offset ``o``), by the batched bisection :func:`time_lags` describes
    (``rewind --from-cluster`` asks it for offsets of its own: a DR cutover's resume times)."""
    keys = sorted(set(points))
    if not keys:
        return {}
    tps = sorted({tp for tp, _ in keys})
    max_results = {
        (r[0], r[1]): r  # (topic, partition), which a TopicPartition looks up
        for r in fetch_offsets(
            source,
            tps,
            [OffsetSpec.max_timestamp()],
            isolation=isolation,
            chunk_size=chunk_size,
            leaders=leaders,
        )
    }
    searches: dict[tuple[TopicPartition, int], Bisection] = {}
    for tp, c in keys:
        mx = max_results.get(tp) or OffsetResult(
            tp.topic, tp.partition, OffsetSpec.max_timestamp(), None, error="NO_ANSWER"
        )
        searches[(tp, c)] = Bisection.start(c, mx)
    while True:
        # each lookup's spec made once a round (a spec computes its hash and name when made)
        active = [
            (k, b, t, OffsetSpec.at(t)) for k, b in searches.items() if not b.done for t in (b.next_time(),)
        ]
        if not active:
            break
        queries = [(k[0], spec) for k, _, _, spec in active]
        answers = source.list_offsets(plan_queries(queries, chunk_size, leaders), isolation=isolation)
        # keyed by ((topic, partition), spec): a TopicPartition is that tuple, so it looks itself up
        by_query = {((a[0], a[1]), a[2]): a for a in answers}
        for (tp, _c), b, t, spec in active:
            ans = by_query.get((tp, spec))
            b.feed(t, ans or OffsetResult(tp.topic, tp.partition, spec, None, error="NO_ANSWER"))
    return {k: b.result() for k, b in searches.items()}


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
