"""Consumer lag: the one place that decides a partition's lag, its state and its time lag.

Shared by ``kafka-offsets lag`` and the Spark ``check`` command (which imports these
rules, never copies them).

Offset lag
----------
``lag = end - committed`` where ``end`` is the high watermark (``read_uncommitted``)
or the last stable offset (``--isolation read_committed``). Offsets count every
record in the log, including transaction markers (control records) and aborted
records, as ``kafka-consumer-groups --describe`` does. A number is shown only when
it means something; otherwise the state says why there is none:

* ``no-commit``: the group has no committed offset for the partition;
* ``below-start``: the committed offset is below the log start (retention or
  ``delete_records`` passed it). The group's next fetch fails with
  OFFSET_OUT_OF_RANGE and its ``auto.offset.reset`` decides what it reads, so no
  lag is shown (``end - committed`` would count records that no longer exist);
* ``ahead``: the committed offset is beyond the end offset (topic recreated,
  unclean leader election, or an offset committed by hand);
* ``marker``: ``committed == end - 1`` and the record at ``committed`` is a
  control record (a transaction commit/abort marker) — nothing is left to consume.
  Lag stays 1 (offsets, as Kafka's tool shows) and time lag is 0. Whether that
  offset holds a marker cannot be learnt from ListOffsets (timestamp lookups and
  max-timestamp return control records like data records: measured on Kafka
  4.3.1, max-timestamp points *at* the marker, whose timestamp is the broker's
  clock at commit); it comes from a one-record fetch
  (:meth:`kafka_offsets_cli.client.KafkaClient.control_records`);
* ``error``: the partition's log start or end could not be listed.

Time lag (``time_lag_ms``)
--------------------------
``offsetsForTimes(T)`` (ListOffsets with a timestamp) returns the earliest offset
whose record timestamp is ``>= T``. For the committed offset ``c`` it is therefore
``<= c`` exactly when some record at an offset ``<= c`` has a timestamp ``>= T``, so
bisecting on ``T`` finds::

    M(c) = max(timestamp of the records at offsets log_start .. c)

and ``time_lag_ms = max(0, now - M(c))``. When timestamps never go backwards
(LogAppendTime, or well-behaved producers) ``M(c)`` is the timestamp of the first
unconsumed record and the time lag is its age. With out-of-order CreateTime
timestamps it is the age of the newest record among those the group has consumed
plus the first unconsumed one: a lower bound on that record's age, and exactly the
latest time ``T`` for which rewinding the group to ``T`` (``rewind --to T``) would
skip no record it has not yet read. Control records and aborted records have
timestamps too and take part. A record timestamp after ``now`` gives 0. The result
is exact to the millisecond; each bisection round is one batched ListOffsets call
for all lagging partitions (about 41 rounds for current epoch times, fewer when
the answers' own timestamps narrow the interval).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from .errors import MonitoringStatus, NotFound, UsageError
from .models import ClusterMetadata, Isolation, OffsetResult, OffsetSpec, TopicPartition
from .planner import DEFAULT_CHUNK, plan_queries
from .queries import OffsetSource, fetch_offsets, selection_metadata
from .selection import Missing, Selection, resolve

if TYPE_CHECKING:
    from .models import GroupDescription, GroupOffsets

#: Error for committed offsets on a topic or partition that no longer exists.
UNKNOWN_TOPIC = "UNKNOWN_TOPIC_OR_PARTITION"

#: Largest timestamp Kafka can store (a Java long): the search bound when max-timestamp gives none.
MAX_TIMESTAMP = 2**63 - 1

#: Keys of the lag record, in order.
COLUMNS = (
    "group",
    "topic",
    "partition",
    "committed",
    "log_start",
    "end",
    "lag",
    "time_lag_ms",
    "state",
    "error",
)


class LagState(str, Enum):
    """Why a partition's lag is what it is (see the module docstring)."""

    OK = "ok"
    NO_COMMIT = "no-commit"
    BELOW_START = "below-start"
    AHEAD = "ahead"
    MARKER = "marker"
    ERROR = "error"


@dataclass(frozen=True)
class LagRow:
    """The lag of one consumer group on one partition.

    ``lag`` is ``None`` unless ``state`` is ``ok`` or ``marker``; it is never negative.
    ``time_lag_ms`` is ``None`` until computed (and for states without a lag).
    """

    group: str
    topic: str
    partition: int
    committed: int | None
    log_start: int | None
    end: int | None
    lag: int | None
    time_lag_ms: int | None
    state: LagState
    error: str | None = None

    @property
    def tp(self) -> TopicPartition:
        """The row's topic partition."""
        return TopicPartition(self.topic, self.partition)

    @property
    def lagging(self) -> bool:
        """True when records are left to consume (lag > 0, not a marker) or the group is below log start."""
        return (self.state is LagState.OK and bool(self.lag)) or self.state is LagState.BELOW_START

    def to_record(self) -> dict[str, Any]:
        """The documented JSON/CSV record (``null`` where unknown).

        Keys: group, topic, partition, committed, log_start, end, lag,
        time_lag_ms, state, error (Kafka's error name for state ``error``).
        """
        return {
            "group": self.group,
            "topic": self.topic,
            "partition": self.partition,
            "committed": self.committed,
            "log_start": self.log_start,
            "end": self.end,
            "lag": self.lag,
            "time_lag_ms": self.time_lag_ms,
            "state": self.state.value,
            "error": self.error,
        }


def lag_row(
    group: str,
    tp: TopicPartition,
    committed: int | None,
    earliest: OffsetResult,
    latest: OffsetResult,
    *,
    marker: bool | None = None,
) -> LagRow:
    """Decide the lag and state of ``group`` on ``tp`` (the one place that does).

    ``earliest``/``latest`` are the partition's ListOffsets results (log start; high
    watermark or LSO); ``committed`` the group's committed offset (``None``: none).
    ``marker`` says whether the record at ``committed`` is a control record, when
    known (it matters only when ``committed == end - 1``). Time lag is left
    ``None`` (see :func:`time_lags`), except 0 where nothing is left to consume.
    """
    err = earliest.error or latest.error
    start = earliest.offset if earliest.error is None else None
    end = latest.offset if latest.error is None else None

    def row(
        state: LagState, lag: int | None = None, time_lag: int | None = None, error: str | None = None
    ) -> LagRow:
        return LagRow(group, tp.topic, tp.partition, committed, start, end, lag, time_lag, state, error)

    if err is not None:
        return row(LagState.ERROR, error=err)
    if end is None or start is None:
        return row(LagState.ERROR, error="OFFSET_NOT_AVAILABLE")
    if committed is None:
        return row(LagState.NO_COMMIT)
    if committed > end:
        return row(LagState.AHEAD)
    if committed < start:
        return row(LagState.BELOW_START)
    lag = end - committed
    if lag == 0:
        return row(LagState.OK, 0, 0)
    if lag == 1 and marker:
        return row(LagState.MARKER, 1, 0)
    return row(LagState.OK, lag)


def marker_candidates(rows: Iterable[LagRow]) -> list[tuple[TopicPartition, int]]:
    """(partition, committed) pairs worth a marker check: lag exactly 1, state ok; no duplicates."""
    out: dict[tuple[TopicPartition, int], None] = {}
    for r in rows:
        if r.state is LagState.OK and r.lag == 1 and r.committed is not None:
            out[(r.tp, r.committed)] = None
    return list(out)


# ----------------------------------------------------------------------------- time lag


@dataclass(frozen=True)
class TimeLag:
    """Result of one bisection: ``timestamp`` is M(c) (see the module docstring).

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
    out together, planned by :func:`~kafka_offsets_cli.planner.plan_queries` (per
    leader when ``leaders`` is given: one request per leader per round).
    Rows that share a partition and committed offset (several groups) share a
    search. Keys: ``(partition, committed)``; turn them into ``time_lag_ms`` with
    :func:`with_time_lags`.
    """
    keys = sorted(
        {(r.tp, r.committed) for r in rows if r.state is LagState.OK and r.lag and r.committed is not None}
    )
    if not keys:
        return {}
    tps = sorted({tp for tp, _ in keys})
    max_results = {
        r.tp: r
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
        active = [(k, b, b.next_time()) for k, b in searches.items() if not b.done]
        if not active:
            break
        queries = [(k[0], OffsetSpec.at(t)) for k, _, t in active]
        answers = source.list_offsets(plan_queries(queries, chunk_size, leaders), isolation=isolation)
        by_query = {(a.tp, a.spec): a for a in answers}
        for (tp, _c), b, t in active:
            ans = by_query.get((tp, OffsetSpec.at(t)))
            b.feed(t, ans or OffsetResult(tp.topic, tp.partition, OffsetSpec.at(t), None, error="NO_ANSWER"))
    return {k: b.result() for k, b in searches.items()}


def with_time_lags(
    rows: Iterable[LagRow], lags: Mapping[tuple[TopicPartition, int], TimeLag], now_ms: int
) -> list[LagRow]:
    """Rows with ``time_lag_ms`` filled in from :func:`time_lags` (rows without a search unchanged)."""
    out: list[LagRow] = []
    for r in rows:
        tl = lags.get((r.tp, r.committed)) if r.committed is not None else None
        out.append(replace(r, time_lag_ms=tl.lag_ms(now_ms)) if tl is not None else r)
    return out


# ----------------------------------------------------------------------------- totals and sorting


@dataclass(frozen=True)
class LagTotal:
    """Sum of lag over a group's partitions of one topic (``topic`` ``None``: the whole group)."""

    group: str
    topic: str | None
    partitions: int
    lag: int
    lagging: int
    max_time_lag_ms: int | None
    problems: int  # partitions in no-commit, below-start, ahead or error


def totals(rows: Sequence[LagRow]) -> list[LagTotal]:
    """Per (group, topic) then per group totals, sorted by group then topic (group total last)."""
    buckets: dict[tuple[str, str | None], list[LagRow]] = {}
    for r in rows:
        buckets.setdefault((r.group, r.topic), []).append(r)
        buckets.setdefault((r.group, None), []).append(r)
    out = []
    for (group, topic), rs in sorted(
        buckets.items(), key=lambda kv: (kv[0][0], kv[0][1] is None, kv[0][1] or "")
    ):
        times = [r.time_lag_ms for r in rs if r.time_lag_ms is not None]
        out.append(
            LagTotal(
                group,
                topic,
                len(rs),
                sum(r.lag for r in rs if r.lag is not None),
                sum(1 for r in rs if r.lagging),
                max(times) if times else None,
                sum(1 for r in rs if r.state not in (LagState.OK, LagState.MARKER)),
            )
        )
    return out


class SortKey(str, Enum):
    """Row orders of ``lag --sort``."""

    name = "name"
    lag = "lag"
    time_lag = "time-lag"


def sort_rows(rows: Iterable[LagRow], key: SortKey = SortKey.name) -> list[LagRow]:
    """Rows by group/topic/partition, or by lag / time lag descending (unknown last)."""
    base = sorted(rows, key=lambda r: (r.group, r.topic, r.partition))
    if key is SortKey.lag:
        return sorted(base, key=lambda r: (r.lag is None, -(r.lag or 0)))
    if key is SortKey.time_lag:
        return sorted(base, key=lambda r: (r.time_lag_ms is None, -(r.time_lag_ms or 0)))
    return base


# ----------------------------------------------------------------------------- monitoring


def lag_status(
    row: LagRow,
    warn_lag: int | None = None,
    crit_lag: int | None = None,
    warn_time_lag_ms: int | None = None,
    crit_time_lag_ms: int | None = None,
) -> MonitoringStatus:
    """Monitoring status of one row against thresholds (a value above a threshold alerts).

    ``ok`` rows compare lag and time lag (a time lag that was not computed is not
    compared); ``marker`` rows are OK; ``below-start`` is CRITICAL (the group lost
    records); ``no-commit`` and ``ahead`` are WARNING; ``error`` is UNKNOWN.
    """
    if row.state is LagState.ERROR:
        return MonitoringStatus.UNKNOWN
    if row.state is LagState.BELOW_START:
        return MonitoringStatus.CRITICAL
    if row.state in (LagState.NO_COMMIT, LagState.AHEAD):
        return MonitoringStatus.WARNING
    if row.state is LagState.MARKER:
        return MonitoringStatus.OK

    def over(value: int | None, limit: int | None) -> bool:
        return value is not None and limit is not None and value > limit

    if over(row.lag, crit_lag) or over(row.time_lag_ms, crit_time_lag_ms):
        return MonitoringStatus.CRITICAL
    if over(row.lag, warn_lag) or over(row.time_lag_ms, warn_time_lag_ms):
        return MonitoringStatus.WARNING
    return MonitoringStatus.OK


# ----------------------------------------------------------------------------- the lag use case


class GroupLister(Protocol):
    """What :func:`resolve_groups` needs: the cluster's consumer group ids."""

    def group_ids(self) -> list[str]:
        """All consumer group ids."""
        ...


class GroupSource(OffsetSource, GroupLister, Protocol):
    """What :func:`collect` needs from a Kafka client (:class:`~kafka_offsets_cli.client.KafkaClient`)."""

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """State, members and assignments of each group."""
        ...

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        """Committed offsets of each group."""
        ...

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]]
    ) -> dict[tuple[TopicPartition, int], bool | str]:
        """Whether each (partition, offset) holds a control record."""
        ...


@dataclass(frozen=True)
class GroupProblem:
    """A group that could not be read (its offsets or description) or has nothing to show."""

    group: str
    error: str | None  # Kafka's error name; None: the group has no committed offsets in the selection

    def to_record(self) -> dict[str, Any]:
        """A lag record with null partition fields, state ``error`` (or ``no-commit`` for an empty group)."""
        rec: dict[str, Any] = {c: None for c in COLUMNS}
        rec.update(
            group=self.group,
            state=(LagState.ERROR if self.error else LagState.NO_COMMIT).value,
            error=self.error,
        )
        return rec


@dataclass(frozen=True)
class LagReport:
    """The result of :func:`collect`: rows, group descriptions, problems and how time lag went."""

    rows: tuple[LagRow, ...]
    groups: Mapping[str, GroupDescription]
    problems: tuple[GroupProblem, ...] = ()
    time_lag: bool = False
    time_lag_rounds: int = 0
    time_lag_searched: int = 0
    time_lag_failed: int = 0
    marker_checked: int = 0
    marker_unchecked: Mapping[str, int] = field(default_factory=dict)  # check failures by error name
    #: selected topics or partitions that do not exist or cannot be described
    missing: tuple[Missing, ...] = ()

    @property
    def failed(self) -> bool:
        """True when a group, partition or selected topic carries an error, or a time-lag search failed."""
        return (
            bool(self.missing)
            or any(p.error for p in self.problems)
            or any(r.state is LagState.ERROR for r in self.rows)
            or self.time_lag_failed > 0
        )

    def missing_records(self) -> list[dict[str, Any]]:
        """Records (group null, state error) for the selection's missing topics and partitions."""
        out = []
        for m in self.missing:
            rec: dict[str, Any] = {c: None for c in COLUMNS}
            rec.update(topic=m.topic, partition=m.partition, state=LagState.ERROR.value, error=m.error)
            out.append(rec)
        return out


def resolve_groups(source: GroupLister, names: Sequence[str], regexes: Sequence[str]) -> list[str]:
    """Explicit group ids plus every listed group a regex matches as a whole (sorted, no duplicates).

    Raises :class:`UsageError` for an invalid regex and :class:`NotFound` when a
    regex was given and nothing at all was selected.
    """
    compiled = []
    for rx in regexes:
        try:
            compiled.append(re.compile(rx))
        except re.error as e:
            raise UsageError(f"invalid --group-regex {rx!r}: {e}") from None
    groups = dict.fromkeys(names)
    if compiled:
        for g in source.group_ids():
            if any(c.fullmatch(g) for c in compiled):
                groups[g] = None
    if not groups:
        raise NotFound(
            "no consumer group matched " + ", ".join(repr(r) for r in regexes),
            hint="--group-regex must match the whole group id; see `kafka-consumer-groups --list`",
        )
    return sorted(groups)


def _group_partitions(
    metadata: ClusterMetadata,
    selection: Selection | None,
    touched: Iterable[TopicPartition],
    *,
    include_literal: bool = True,
) -> tuple[list[TopicPartition], list[TopicPartition]]:
    """A group's rows: every partition of each topic it committed to or is assigned (within the
    selection) plus the selection's literal topics; and touched partitions that do not exist."""
    touched = set(touched)
    allowed = resolve(selection, metadata).partitions if selection is not None else None
    allowed_set = set(allowed) if allowed is not None else None
    topics = {tp.topic for tp in touched}
    if selection is not None and include_literal:
        topics |= set(selection.literal_topics() or ())
    rows: set[TopicPartition] = set()
    gone: list[TopicPartition] = []
    for name in topics:
        info = metadata.topics.get(name)
        if info is None or info.error is not None:
            gone += [
                tp
                for tp in touched
                if tp.topic == name and (selection is None or selection.allows(tp.topic, tp.partition))
            ]
            continue
        for p in info.partitions:
            tp = TopicPartition(name, p.partition)
            if allowed_set is None or tp in allowed_set:
                rows.add(tp)
        existing = {p.partition for p in info.partitions}
        gone += [
            tp
            for tp in touched
            if tp.topic == name
            and tp.partition not in existing
            and (selection is None or selection.allows(tp.topic, tp.partition))
        ]
    return sorted(rows), sorted(set(gone))


def collect(
    source: GroupSource,
    groups: Sequence[str],
    selection: Selection | None,
    *,
    isolation: Isolation | None = None,
    time_lag: bool = False,
    marker_check: bool = True,
    chunk_size: int = DEFAULT_CHUNK,
    named: Collection[str] | None = None,
) -> LagReport:
    """The whole ``lag`` use case for already resolved ``groups``.

    Rows per group: every partition of each topic the group has committed offsets
    for or is assigned (restricted to ``selection``), so partitions without a
    commit show as ``no-commit``. For ``named`` groups (default: all of
    ``groups``; the CLI passes those given with ``--group``, not those a regex
    matched) the selection's literal topics are shown even if the group never
    touched them, and a group with nothing to show is reported as a
    :class:`GroupProblem`; other groups without anything in the selection are
    left out quietly. Committed partitions of topics or partitions that no longer
    exist show as ``error`` UNKNOWN_TOPIC_OR_PARTITION. Then one ListOffsets round
    for log start and end of all partitions, the marker check for partitions with
    lag 1 (unless ``marker_check`` is off), and the time-lag bisection if asked.
    """
    descriptions = source.describe_groups(groups)
    committed = {g.group: g for g in source.committed_offsets(groups)}
    metadata = selection_metadata(source, selection)
    missing: tuple[Missing, ...] = ()
    if selection is not None:
        missing = resolve(selection, metadata).require_any().missing
    problems: list[GroupProblem] = []
    plan: list[tuple[str, TopicPartition, int | None, bool]] = []  # group, tp, committed, exists
    for g in groups:
        offs = committed.get(g)
        if offs is None or offs.error is not None:
            problems.append(GroupProblem(g, offs.error if offs is not None else "NO_ANSWER"))
            continue
        desc = descriptions.get(g)
        touched = set(offs.offsets) | set(desc.assigned if desc is not None else ())
        is_named = named is None or g in named
        parts, gone = _group_partitions(metadata, selection, touched, include_literal=is_named)
        if not parts and not gone:
            if is_named:
                problems.append(GroupProblem(g, None))
            continue
        plan += [(g, tp, offs.offsets.get(tp), True) for tp in parts]
        plan += [(g, tp, offs.offsets.get(tp), False) for tp in gone]
    existing = sorted({tp for _, tp, _, ok in plan if ok})
    leaders = metadata.leaders()
    results = fetch_offsets(
        source,
        existing,
        [OffsetSpec.earliest(), OffsetSpec.latest()],
        isolation=isolation,
        chunk_size=chunk_size,
        leaders=leaders,
    )
    by_key = {(r.tp, r.spec): r for r in results}
    rows: list[LagRow] = []
    earliest, latest = OffsetSpec.earliest(), OffsetSpec.latest()
    for g, tp, c, ok in plan:
        if ok:
            early = by_key.get((tp, earliest))
            late = by_key.get((tp, latest))
            if early is None or late is None:
                no = OffsetResult(tp.topic, tp.partition, latest, None, error="NO_ANSWER")
                early, late = early or no, late or no
        else:
            early = late = OffsetResult(tp.topic, tp.partition, latest, None, error=UNKNOWN_TOPIC)
        rows.append(lag_row(g, tp, c, early, late))

    checked = 0
    unchecked: dict[str, int] = {}
    if marker_check:
        points = marker_candidates(rows)
        if points:
            found = source.control_records(points)
            checked = sum(1 for v in found.values() if not isinstance(v, str))
            for v in found.values():
                if isinstance(v, str):
                    unchecked[v] = unchecked.get(v, 0) + 1
            rows = [
                replace(r, state=LagState.MARKER, time_lag_ms=0)
                if r.committed is not None and found.get((r.tp, r.committed)) is True and r.lag == 1
                else r
                for r in rows
            ]

    rounds = searched = failed = 0
    if time_lag:
        from .timeparse import now_ms

        lags = time_lags(source, rows, isolation=isolation, chunk_size=chunk_size, leaders=leaders)
        rows = with_time_lags(rows, lags, now_ms())
        searched = len(lags)
        rounds = max((t.rounds for t in lags.values()), default=0)
        failed = sum(1 for t in lags.values() if t.error is not None)
        rows = [
            replace(r, error=f"time lag: {lags[(r.tp, r.committed)].error}")
            if r.committed is not None
            and (k := (r.tp, r.committed)) in lags
            and lags[k].error
            and r.error is None
            else r
            for r in rows
        ]
    return LagReport(
        tuple(rows),
        descriptions,
        tuple(problems),
        time_lag,
        rounds,
        searched,
        failed,
        checked,
        unchecked,
        missing,
    )
