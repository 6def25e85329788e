"""The lag row model: a group's lag on one partition, its state, and a group with nothing to show.

:func:`lag_rows_of` (:func:`lag_row` for one row) is the one place that decides a partition's lag
and state (the rules are in :mod:`kafka_offsets_cli.measures.lag`). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ...errors import MonitoringStatus
from ...models.offsets import OffsetResult, OffsetSpec
from ...models.topics import TopicPartition
from ...tally import Pred, Stat, Where, holds

#: Error for committed offsets on a topic or partition that no longer exists.
UNKNOWN_TOPIC = "UNKNOWN_TOPIC_OR_PARTITION"

#: Error for a partition or group the cluster gave no answer for.
NO_ANSWER = "NO_ANSWER"

#: Keys of the lag record, in order.
COLUMNS = (
    "group",
    "group_type",
    "topic",
    "partition",
    "committed",
    "log_start",
    "end",
    "lag",
    "time_lag_ms",
    "state",
    "error",
    "resume_timestamp",
    "taken_at_ms",
    "remote_read",
)


class LagState(str, Enum):
    """Why a partition's lag is what it is (see :mod:`kafka_offsets_cli.measures.lag`)."""

    OK = "ok"
    NO_COMMIT = "no-commit"
    BELOW_START = "below-start"
    AHEAD = "ahead"
    MARKER = "marker"
    ERROR = "error"


#: a partition with records left to consume (lag above 0, not a marker), or below the log start
LAGGING: Where = (
    (Pred("state", "in", (LagState.OK.value,)), Pred("lag", "nonzero")),
    (Pred("state", "in", (LagState.BELOW_START.value,)),),
)

#: a partition whose lag is not a plain count (anything but ``ok`` and ``marker``)
PROBLEM: Where = ((Pred("state", "not_in", (LagState.OK.value, LagState.MARKER.value)),),)

#: a group's (or a group's topic's) totals, declared once: ``lag`` and ``check`` read them
TOTAL_STATS = (
    Stat("partitions", "count"),
    Stat("lag", "sum", "lag"),
    Stat("lagging", "count", where=LAGGING),
    Stat("max_time_lag_ms", "max", "time_lag_ms"),
    Stat("problems", "count", where=PROBLEM),
)


@dataclass(frozen=True, kw_only=True)
class LagRow:
    """The lag of one consumer group on one partition.

    ``lag`` is ``None`` unless ``state`` is ``ok`` or ``marker``; it is never negative.
    ``time_lag_ms`` is ``None`` until computed (and for states without a lag).
    """

    group: str
    #: ``classic``, ``consumer``, ``share`` or ``streams`` (the broker's type; ``None`` when not known)
    group_type: str | None = None
    topic: str
    partition: int
    committed: int | None
    log_start: int | None
    end: int | None
    lag: int | None
    time_lag_ms: int | None
    state: LagState
    error: str | None = None
    #: With ``--time-lag``: the DR cutover resume time (M of :func:`..timelag.search_offset`), in ms
    resume_timestamp: int | None = None
    taken_at_ms: int | None = None  # with --time-lag: the "now" time_lag_ms is measured from
    #: the group's next fetch is below earliest-local, from remote storage (:mod:`.remote`; None: unknown)
    remote_read: bool | None = None

    @property
    def tp(self) -> TopicPartition:
        """The row's topic partition."""
        return TopicPartition(self.topic, self.partition)

    def evolve(self, **changes: Any) -> LagRow:
        """``dataclasses.replace(self, **changes)`` at a tenth of the cost.

        The fields are copied instead of passed through the frozen ``__init__`` (which sets
        each with ``object.__setattr__``): ``lag --time-lag`` changes each of 50,000 rows up to
        three times (remote read, time lag, resume time), 5 µs a time with ``replace``.
        """
        if not changes.keys() <= _FIELDS:
            raise TypeError(f"not LagRow fields: {sorted(changes.keys() - _FIELDS)}")
        fields = self.__dict__.copy()
        fields.update(changes)
        new = _new(type(self))
        _set(new, "__dict__", fields)  # the copy becomes the row's: no second copy
        return new

    @property
    def lagging(self) -> bool:
        """True when records are left to consume (lag > 0, not a marker) or the group is below log start."""
        return holds(LAGGING, lambda field: getattr(self, field))

    def to_record(self) -> dict[str, Any]:
        """The documented JSON/CSV record (``null`` where unknown).

        Keys: group, group_type, topic, partition, committed, log_start, end, lag,
        time_lag_ms, state, error (Kafka's error name for state ``error``),
        resume_timestamp, taken_at_ms (``--time-lag``), remote_read (:mod:`.remote`).
        """
        # the fields are the record's keys, in its order (every row's __dict__ is made in COLUMNS order:
        # the constructor, lag_row's display, evolve's copy): a C copy, not 14 reads and a display
        rec = self.__dict__.copy()
        rec["state"] = self.state._value_  # .value is a descriptor call: 50,000 records a run
        return rec

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> LagRow:
        """The row of a record :meth:`to_record` made (a saved ``lag -o json`` record, a Spark row).

        ``remote_read`` and ``group_type`` may be absent (records written before they existed).
        Raises ``KeyError``, ``TypeError`` or ``ValueError`` for a record that is not one.
        """
        return cls(
            group=str(rec["group"]),
            group_type=rec.get("group_type"),
            topic=str(rec["topic"]),
            partition=int(rec["partition"]),
            committed=rec["committed"],
            log_start=rec["log_start"],
            end=rec["end"],
            lag=rec["lag"],
            time_lag_ms=rec["time_lag_ms"],
            state=LagState(rec["state"]),
            error=rec["error"],
            resume_timestamp=rec["resume_timestamp"],
            taken_at_ms=rec["taken_at_ms"],
            remote_read=rec.get("remote_read"),
        )


#: the states of a committed offset inside the log
IN_LOG = (LagState.OK, LagState.MARKER)


def remote_rule(
    state: LagState, committed: int | None, end: int | None, tiered: bool | None, el: OffsetResult | None
) -> bool | None:
    """Whether the group's next fetch is served from remote storage (explained in :mod:`.remote`), on a
    row's fields. ``tiered``: the topic's ``remote.storage.enable`` (``None``: not known); ``el``: its
    ListOffsets -4 answer (``None``: not asked). Used by :func:`lag_rows_of` and :mod:`.remote`."""
    if state not in IN_LOG or committed is None or end is None:
        return None
    if committed >= end:
        return False  # nothing left to read
    if tiered is None:
        return None
    if not tiered:
        return False
    if el is None or el.error is not None or el.offset is None:
        return None
    return committed < el.offset


def lag_row(
    group: str,
    tp: TopicPartition,
    committed: int | None,
    earliest: OffsetResult,
    latest: OffsetResult,
    *,
    marker: bool | None = None,
    group_type: str | None = None,
) -> LagRow:
    """Decide the lag and state of ``group`` on ``tp`` (by :func:`lag_rows_of`, the one place that does).

    ``earliest``/``latest`` are the partition's ListOffsets results (log start; high
    watermark or LSO); ``committed`` the group's committed offset (``None``: none).
    ``marker`` says whether the record at ``committed`` is a control record, when
    known (it matters only when ``committed == end - 1``). Time lag is left
    ``None`` (see :func:`~kafka_offsets_cli.measures.lag.timelag.time_lags`), except 0 where
    nothing is left to consume.
    """
    return lag_rows_of(
        group, group_type, (tp,), {tp: committed}, {tp: earliest}, {tp: latest}, marker=marker
    )[0]


def lag_rows_of(
    group: str,
    group_type: str | None,
    partitions: Iterable[TopicPartition],
    committed: Mapping[TopicPartition, int | None],
    earliest: Mapping[tuple[str, int], OffsetResult],
    latest: Mapping[tuple[str, int], OffsetResult],
    *,
    error: str = NO_ANSWER,
    marker: bool | None = None,
    tiered: Mapping[str, bool | None] | None = None,
) -> list[LagRow]:
    """:func:`lag_row` for each of ``partitions`` of ``group`` (the one place that decides a lag and state).

    ``earliest``/``latest``: the partitions' ListOffsets results by (topic, partition); a partition
    without both is an ``error`` row, its missing answer the error ``error``. ``committed``: the group's
    committed offsets. One loop, not a call a row: :func:`~.plan.assemble_rows` makes 50,000 rows a run.
    ``tiered``: each topic's ``remote.storage.enable`` (absent: unknown), to set each row's
    ``remote_read`` by :func:`remote_rule` without an ``earliest-local`` answer, which is the rule's
    answer for every topic not tiered (:func:`.remote.with_remote_reads` then copies only the rows whose
    flag it changes); ``None``: ``remote_read`` left ``None``.
    """
    rows: list[LagRow] = []
    add, early_at, late_at, committed_at = rows.append, earliest.get, latest.get, committed.get
    ok, error_state = LagState.OK, LagState.ERROR
    tier = tiered.get if tiered is not None else None
    flag: bool | None = None
    for tp in partitions:
        early = early_at(tp)
        late = late_at(tp)
        if early is None or late is None:
            no = OffsetResult(tp[0], tp[1], _LATEST, None, error=error)
            early, late = early or no, late or no
        now = committed_at(tp)
        err = early[6] or late[6]  # OffsetResult fields by index: 50,000 rows a run
        start = early[3] if early[6] is None else None
        end = late[3] if late[6] is None else None
        lag: int | None = None
        time_lag: int | None = None
        if err is not None:
            state = error_state
        elif end is None or start is None:
            state, err = error_state, "OFFSET_NOT_AVAILABLE"
        elif now is None:
            state = LagState.NO_COMMIT
        elif now > end:
            state = LagState.AHEAD
        elif now < start:
            state = LagState.BELOW_START
        else:
            lag = end - now
            if lag == 0:
                state, time_lag = ok, 0
            elif lag == 1 and marker:
                # Kafka's LAG (kafka-consumer-groups shows 1), while the state says nothing is left to consume
                state, time_lag = LagState.MARKER, 0
            else:
                state = ok
        if tier is not None:
            flag = remote_rule(state, now, end, tier(tp[0]), None)
        # LagRow(...) without the frozen __init__ (a quarter of the cost): a dict display in COLUMNS
        # order becomes its __dict__; equal to the row the constructor makes (test_lag_fast_paths.py)
        row: LagRow = _new(LagRow)
        _set(
            row,
            "__dict__",
            {
                "group": group,
                "group_type": group_type,
                "topic": tp[0],
                "partition": tp[1],
                "committed": now,
                "log_start": start,
                "end": end,
                "lag": lag,
                "time_lag_ms": time_lag,
                "state": state,
                "error": err,
                "resume_timestamp": None,
                "taken_at_ms": None,
                "remote_read": flag,
            },
        )
        add(row)
    return rows


def error_row(group: str, tp: TopicPartition, error: str, group_type: str | None = None) -> LagRow:
    """A row that knows nothing but its error (the group's offsets or the whole task failed)."""
    return LagRow(
        group=group,
        group_type=group_type,
        topic=tp.topic,
        partition=tp.partition,
        committed=None,
        log_start=None,
        end=None,
        lag=None,
        time_lag_ms=None,
        state=LagState.ERROR,
        error=error,
    )


#: The row's fields (:meth:`LagRow.evolve` checks the changes against them).
_FIELDS = frozenset(LagRow.__dataclass_fields__)

_new = object.__new__
_LATEST = OffsetSpec.latest()
_set = object.__setattr__


@dataclass(frozen=True)
class GroupProblem:
    """A group that could not be read (its offsets or description) or has nothing to show."""

    group: str
    error: str | None  # Kafka's error name; None: the group has no committed offsets in the selection
    group_type: str | None = None
    #: for a group that does not exist, the listed groups close to its name (said as "did you mean")
    close: tuple[str, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """A lag record with null partition fields, state ``error`` (or ``no-commit`` for an empty group)."""
        rec: dict[str, Any] = {c: None for c in COLUMNS}
        rec.update(
            group=self.group,
            group_type=self.group_type,
            state=(LagState.ERROR if self.error else LagState.NO_COMMIT).value,
            error=self.error,
        )
        return rec

    @property
    def status(self) -> MonitoringStatus:
        """UNKNOWN for a group that could not be read or does not exist, WARNING for one with nothing
        in the selection (as ``no-commit``): ``lag``'s monitoring and ``check``'s lag checks alike."""
        return MonitoringStatus.UNKNOWN if self.error else MonitoringStatus.WARNING
