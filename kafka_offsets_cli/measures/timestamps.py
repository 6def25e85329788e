"""M(o): the newest record timestamp at or before an offset, for many offsets at once, by batched
bisection on ListOffsets timestamp lookups.

``lag``'s time lag is M of a committed offset (the method and what the number means are in
:mod:`kafka_offsets_cli.measures.lag`, "Time lag"), ``tiering``'s backlog age M of the first
offset not yet uploaded, ``rewind --from-cluster``'s resume time M of the last record read: one
lookup for three features, so it sits here, below them. :class:`Bisection` is the pure search for
one (partition, offset); :func:`newest_timestamps` runs all of them together, one ListOffsets
round at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..models.offsets import Isolation, OffsetResult, OffsetSpec
from ..models.topics import TopicPartition
from ..plan.queries import fetch_offsets
from ..plan.requests import DEFAULT_CHUNK, plan_queries
from ..sources import OffsetSource

__all__ = ["MAX_TIMESTAMP", "Bisection", "TimeLag", "newest_timestamps"]

#: Largest timestamp Kafka can store (a Java long): the search bound when max-timestamp gives none.
MAX_TIMESTAMP = 2**63 - 1


@dataclass(frozen=True)
class TimeLag:
    """Result of one bisection: ``timestamp`` is M(c) (see :mod:`kafka_offsets_cli.measures.lag`).

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


def newest_timestamps(
    source: OffsetSource,
    points: Iterable[tuple[TopicPartition, int]],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    leaders: Mapping[TopicPartition, int] | None = None,
) -> dict[tuple[TopicPartition, int], TimeLag]:
    """M(o) for each (partition, offset ``o``), by batched bisection on timestamps.

    One max-timestamp call for the partitions gives each search its upper bound (and often the
    answer); then every round sends one timestamp lookup per unfinished (partition, offset), all
    together, planned by :func:`~kafka_offsets_cli.plan.requests.plan_queries` (per leader when
    ``leaders`` is given: one request per leader per round). Lag's time lags
    (:func:`kafka_offsets_cli.measures.lag.timelag.time_lags`), ``tiering``'s backlog ages and
    ``rewind --from-cluster``'s resume times (a DR cutover's) all ask it.
    """
    keys = sorted(set(points))
    if not keys:
        return {}
    tps = sorted(dict.fromkeys(tp for tp, _ in keys))  # keys are sorted: the sort only checks
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
        # each timestamp's spec made once a round (a spec computes its hash and name when made, 3 µs):
        # searches of partitions alike (the same newest record, the same committed offsets) look up
        # the same timestamps
        specs: dict[int, OffsetSpec] = {}
        active = [
            (k, b, t, specs.get(t) or specs.setdefault(t, OffsetSpec.at(t)))
            for k, b in searches.items()
            if not b.done
            for t in (b.next_time(),)
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
