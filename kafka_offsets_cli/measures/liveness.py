"""Partition liveness: how old is the newest record of each partition, and is that alarming.

Shared by ``kafka-offsets liveness`` and the Spark ``check`` command: both apply these rules
(``check`` compiles :func:`liveness_rule` for the JVM), so they sit here, below both features,
and neither imports the other. The age behind a topic's status is :mod:`.liveness_age`.

The newest record is the one ListOffsets ``max-timestamp`` (KIP-734) returns: the
record with the highest timestamp, its offset and timestamp. Its *age* is
``now - timestamp``. What that timestamp means depends on the topic's
``message.timestamp.type``: with ``LogAppendTime`` it is the broker's clock when the
record was written; with ``CreateTime`` (the default) it is whatever the producer
set, so liveness then reflects the producers' clocks. On transactional topics the
newest "record" can be a transaction marker, stamped with the broker's clock when
the transaction ended (measured on Kafka 4.3.1) — including the abort marker the
coordinator writes when a stuck transaction times out.

States (one per partition):

* ``ok``: age at most ``warn``;
* ``warning``: age above ``warn``, at most ``crit``;
* ``critical``: age above ``crit``;
* ``empty``: no record: the log start equals the log end (never written, or retention
  removed everything) — not stale: OK by default (:data:`DEFAULT_EMPTY_STATUS`), since an
  unused partition of a healthy cluster is not an alarm;
* ``pending``: the partition has records, but the one with the highest timestamp is not
  visible yet (beyond the high watermark while it replicates, or the last stable offset in
  an open transaction) after the answer was asked again for ~0.6 s
  (:mod:`~kafka_offsets_cli.plan.settle`): its age is not knowable now, so UNKNOWN — never
  ``empty``;
* ``future``: the timestamp is more than ``future_tolerance_ms`` after now (clock
  skew or producer-set times) — not "fresh": its age says nothing;
* ``error``: the partition could not be listed (Kafka's error name in ``error``).

A timestamp at most ``future_tolerance_ms`` ahead of now counts as age 0.

How ``empty`` and ``future`` count (:data:`DEFAULT_EMPTY_STATUS`,
:data:`DEFAULT_FUTURE_STATUS`) is defined here once, for ``liveness`` and ``check`` alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..models.offsets import OffsetResult
from ..models.topics import TopicPartition
from ..plan.settle import PENDING
from ..severity import severity, worst
from ..tally import EVERY, Pred, Where

if TYPE_CHECKING:
    from ..decide import Arm, Rule, Value

#: The topic config that says what record timestamps mean (each liveness record's ``timestamp_type``).
TIMESTAMP_TYPE_KEY = "message.timestamp.type"

#: Timestamps up to this far after now are small clock differences, not ``future``.
DEFAULT_FUTURE_TOLERANCE_MS = 60_000
#: ``--warn`` and ``--crit``'s defaults (the data source's ``warn`` and ``crit`` too)
DEFAULT_WARN, DEFAULT_CRIT = "5m", "15m"

#: How an ``empty`` partition counts unless told otherwise (``liveness --empty-status``).
DEFAULT_EMPTY_STATUS = MonitoringStatus.OK

#: How a ``future`` partition counts unless told otherwise (``liveness --future-status``).
DEFAULT_FUTURE_STATUS = MonitoringStatus.WARNING

#: Keys of the liveness record, in order.
COLUMNS = ("topic", "partition", "offset", "timestamp", "age_ms", "state", "timestamp_type", "error")


class LiveState(str, Enum):
    """A partition's liveness state (see the module docstring)."""

    OK = "ok"
    WARNING = "warning"
    CRITICAL = "critical"
    EMPTY = "empty"
    PENDING = "pending"
    FUTURE = "future"
    ERROR = "error"


@dataclass(frozen=True, kw_only=True)
class LiveRow:
    """Liveness of one partition.

    ``age_ms`` is ``now - timestamp`` (0 within the future tolerance; negative only
    in state ``future``, where it says how far ahead the timestamp is); ``None``
    when there is no timestamp.
    """

    topic: str
    partition: int
    offset: int | None
    timestamp: int | None
    age_ms: int | None
    state: LiveState
    error: str | None = None

    @property
    def tp(self) -> TopicPartition:
        """The row's topic partition."""
        return TopicPartition(self.topic, self.partition)

    def to_record(self, timestamp_type: str | None = None) -> dict[str, Any]:
        """The documented JSON/CSV record.

        Keys: topic, partition, offset, timestamp, age_ms, state, plus
        ``timestamp_type`` (the topic's ``message.timestamp.type``, ``null`` if
        unknown) and ``error`` (Kafka's error name in state ``error``).
        """
        return {
            "topic": self.topic,
            "partition": self.partition,
            "offset": self.offset,
            "timestamp": self.timestamp,
            "age_ms": self.age_ms,
            "state": self.state.value,
            "timestamp_type": timestamp_type,
            "error": self.error,
        }


#: The outputs of :func:`liveness_rule`, in order.
LIVE_OUTPUTS = ("state", "status", "age_ms", "error")


def liveness_rule(
    now_ms: int,
    warn_ms: int,
    crit_ms: int,
    future_tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS,
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS,
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS,
) -> Rule:
    """Liveness of one partition as a decision list (:mod:`kafka_offsets_cli.decide`), the one
    definition: of a max-timestamp answer's ``error``, ``offset`` and ``timestamp``, its
    :data:`LIVE_OUTPUTS` (a :class:`LiveState`, a status, ``age_ms``, ``error``).

    The age is ``age = now - timestamp``; the rule compares the timestamp with constants instead,
    so that the JVM compares a column with a literal:

    * ``future``: ``age < -tolerance`` ⇔ ``now - ts < -tolerance`` ⇔ ``ts > now + tolerance``
      (integers: exact, whatever the tolerance's sign);
    * ``critical``: ``max(0, age) > crit``. When ``crit >= 0``: if ``age <= 0`` both
      ``max(0, age) > crit`` (0 > crit) and ``age > crit`` are false; otherwise ``max(0, age) =
      age``; so it is ``age > crit`` ⇔ ``ts < now - crit``. When ``crit < 0`` it holds for every
      timestamp (``max(0, age) >= 0 > crit``): the arm holds always. ``warning`` alike with ``warn``.
    """
    from ..decide import Arm, Const, Field, Minus, Rule  # here: a run that rates partitions (~2 ms of import)

    def arm(when: Where, state: LiveState, status: MonitoringStatus, age: Value, error: Value) -> Arm:
        return Arm(when, (Const(state), Const(status), age, error))

    none, age = Const(None), Minus(now_ms, "timestamp", floor=0)

    def older(limit: int) -> Where:  # max(0, age) > limit (the proof above)
        return EVERY if limit < 0 else ((Pred("timestamp", "lt", (now_ms - limit,)),),)

    return Rule(
        LIVE_OUTPUTS,
        (
            arm(
                ((Pred("error", "in", (PENDING,)),),), LiveState.PENDING, MonitoringStatus.UNKNOWN, none, none
            ),
            arm(
                ((Pred("error", "present"),),),
                LiveState.ERROR,
                MonitoringStatus.UNKNOWN,
                none,
                Field("error"),
            ),
            arm(((Pred("offset", "absent"),),), LiveState.EMPTY, empty, none, none),
            arm(
                ((Pred("timestamp", "absent"),),),
                LiveState.ERROR,
                MonitoringStatus.UNKNOWN,
                none,
                Const("NO_TIMESTAMP"),
            ),
            arm(
                ((Pred("timestamp", "gt", (now_ms + future_tolerance_ms,)),),),
                LiveState.FUTURE,
                future,
                Minus(now_ms, "timestamp"),
                none,
            ),
            arm(older(crit_ms), LiveState.CRITICAL, MonitoringStatus.CRITICAL, age, none),
            arm(older(warn_ms), LiveState.WARNING, MonitoringStatus.WARNING, age, none),
        ),
        (Const(LiveState.OK), Const(MonitoringStatus.OK), age, none),
    )


@lru_cache(maxsize=32)
def _compiled(now_ms: int, warn_ms: int, crit_ms: int, tolerance_ms: int) -> Callable[[Any], tuple[Any, ...]]:
    from ..decide import compile_rule  # here: once per thresholds and clock (lru_cache)

    return compile_rule(liveness_rule(now_ms, warn_ms, crit_ms, tolerance_ms))


def liveness_row(
    result: OffsetResult,
    now_ms: int,
    warn_ms: int,
    crit_ms: int,
    future_tolerance_ms: int = DEFAULT_FUTURE_TOLERANCE_MS,
) -> LiveRow:
    """Classify one partition from its max-timestamp result (:func:`liveness_rule`).

    An age above ``crit_ms`` is ``critical``, above ``warn_ms`` ``warning``.
    """
    state, _, age, error = _compiled(now_ms, warn_ms, crit_ms, future_tolerance_ms)(result)
    return LiveRow(
        topic=result.topic,
        partition=result.partition,
        offset=result.offset,
        timestamp=result.timestamp,
        age_ms=age,
        state=state,
        error=error,
    )


@lru_cache(maxsize=16)
def _statuses(empty: MonitoringStatus, future: MonitoringStatus) -> dict[LiveState, MonitoringStatus]:
    """Each state's status, read off :func:`liveness_rule`'s arms (a state's status is constant)."""
    from ..decide import Const  # here: once per statuses (lru_cache)

    rule = liveness_rule(0, 0, 0, 0, empty, future)
    out: dict[LiveState, MonitoringStatus] = {}
    for then in (*(a.then for a in rule.arms), rule.default):
        state, status = then[0], then[1]
        assert isinstance(state, Const) and isinstance(status, Const)
        assert out.get(state.value, status.value) == status.value, "a state has one status"
        out[state.value] = status.value
    return out


def row_status(
    row: LiveRow,
    *,
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS,
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS,
) -> MonitoringStatus:
    """A row's status: ok/warning/critical as named, error and pending UNKNOWN, empty and future as given."""
    return _statuses(empty, future)[row.state]


def topic_status(
    rows: Sequence[LiveRow],
    min_alive: int | None = None,
    *,
    empty: MonitoringStatus = DEFAULT_EMPTY_STATUS,
    future: MonitoringStatus = DEFAULT_FUTURE_STATUS,
) -> MonitoringStatus:
    """Roll a topic's partitions up to one status.

    Without ``min_alive`` the stalest (most severe) partition decides. With
    ``min_alive = N`` the topic gets the best status that at least N of its
    partitions reach: with statuses OK, OK, CRITICAL, N=2 gives OK and N=3
    CRITICAL. A topic with fewer than N partitions is CRITICAL.
    """
    counts: dict[MonitoringStatus, int] = {}
    for r in rows:
        st = row_status(r, empty=empty, future=future)
        counts[st] = counts.get(st, 0) + 1
    return status_at(counts, min_alive)


def status_at(counts: Mapping[MonitoringStatus, int], min_alive: int | None = None) -> MonitoringStatus:
    """:func:`topic_status` of partitions whose statuses are counted in ``counts``.

    The roll-up of ``check`` counts the statuses in the JVM (:mod:`kafka_offsets_cli.tally`) and
    decides here, as ``liveness`` does.
    """
    present = [s for s in sorted(counts, key=severity) if counts[s] > 0]
    if min_alive is None:
        return worst(present)
    if min_alive <= 0:
        return MonitoringStatus.OK
    if sum(counts[s] for s in present) < min_alive:
        return MonitoringStatus.CRITICAL
    reached = 0
    for s in present:  # best first: the best status at least min_alive partitions reach
        reached += counts[s]
        if reached >= min_alive:
            return s
    raise AssertionError("unreachable: the counts add up to at least min_alive")
