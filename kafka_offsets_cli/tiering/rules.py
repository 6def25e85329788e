"""Tiered storage per partition: the local and remote spans, the upload backlog, and the verdict (pure).

Five ListOffsets answers per partition: ``earliest`` (E, the log start: in remote storage once
segments moved), ``earliest-local`` (EL, -4, KIP-405: the first offset still on the leader's
disk), ``latest-tiered`` (T, -5, KIP-1005: the highest offset copied to remote storage; none
before the first upload), ``earliest-pending-upload`` (P, -6, KIP-1023) and ``latest`` (L, the
log end: the next offset to be written).

* local span: EL → L−1, ``local_records = L − EL``;
* remote span: E → T, ``remote_records = T − E + 1`` (0 while nothing is tiered). The spans
  overlap while uploaded segments are still kept locally (``local.retention.*``);
* upload backlog: the records not yet tiered, from the first of them, F, to L−1:
  ``F = T + 1`` when T is known; with nothing tiered yet ``F = P`` (Kafka answers the log
  start), or E when the broker answers no P either; ``backlog_records = L − F``. The active
  segment is always part of it (a segment is uploaded only once it rolls), so thresholds must
  leave room for one segment's worth (``segment.bytes`` / ``segment.ms``);
* backlog age: ``now − M(F)``, M(F) the newest timestamp of the records up to F (the same
  M that ``lag``'s time lag uses for a committed offset,
  :mod:`kafka_offsets_cli.measures.timestamps`; with ``LogAppendTime``, or producers whose
  clocks agree, it is F's own timestamp). 0 records: no age.

States: ``ok``; ``warning`` / ``critical`` (backlog records or age above ``--warn-*`` /
``--crit-*``, whichever is worse); ``not-tiered`` (the topic's ``remote.storage.enable`` is
not true: OK, no numbers invented); ``error`` (an answer the numbers need failed: UNKNOWN).
Roll-ups use :func:`kafka_offsets_cli.severity.worst`, like ``liveness``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any

from ..errors import MonitoringStatus, UsageError
from ..measures.thresholds import warn_above_crit
from ..parse.durations import parse_duration
from ..severity import worst

#: Keys of a partition record, in order.
COLUMNS = (
    "topic",
    "partition",
    "earliest",
    "earliest_local",
    "latest_tiered",
    "earliest_pending_upload",
    "latest",
    "local_records",
    "remote_records",
    "backlog_records",
    "backlog_first_offset",
    "backlog_timestamp",
    "backlog_age_ms",
    "state",
    "error",
)


class TierState(str, Enum):
    """A partition's tiering state (see the module docstring)."""

    OK = "ok"
    WARNING = "warning"
    CRITICAL = "critical"
    NOT_TIERED = "not-tiered"
    ERROR = "error"


_STATUS = {
    TierState.OK: MonitoringStatus.OK,
    TierState.WARNING: MonitoringStatus.WARNING,
    TierState.CRITICAL: MonitoringStatus.CRITICAL,
    TierState.NOT_TIERED: MonitoringStatus.OK,
    TierState.ERROR: MonitoringStatus.UNKNOWN,
}


@dataclass(frozen=True, kw_only=True)
class Thresholds:
    """Backlog thresholds: records and age (ms); ``None`` is not checked."""

    warn_records: int | None = None
    crit_records: int | None = None
    warn_age_ms: int | None = None
    crit_age_ms: int | None = None


def thresholds_from(
    warn_records: int | None, crit_records: int | None, warn_age: str | None, crit_age: str | None
) -> Thresholds:
    """The checked thresholds (ages as durations); a warning above its critical is a usage error."""
    wa = parse_duration(warn_age) if warn_age else None
    ca = parse_duration(crit_age) if crit_age else None
    for name, w, c in (("records", warn_records, crit_records), ("age", wa, ca)):
        if warn_above_crit(w, c):
            raise UsageError(f"--warn-{name} is above --crit-{name}")
    return Thresholds(warn_records=warn_records, crit_records=crit_records, warn_age_ms=wa, crit_age_ms=ca)


@dataclass(frozen=True, kw_only=True)
class Answers:
    """One partition's offsets (``None``: no offset) and the first error among them."""

    earliest: int | None
    earliest_local: int | None
    latest_tiered: int | None
    earliest_pending_upload: int | None
    latest: int | None
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class TierRow:
    """Tiering of one partition (see the module docstring for every number)."""

    topic: str
    partition: int
    earliest: int | None
    earliest_local: int | None
    latest_tiered: int | None
    earliest_pending_upload: int | None
    latest: int | None
    local_records: int | None
    remote_records: int | None
    backlog_records: int | None
    backlog_first_offset: int | None
    backlog_timestamp: int | None
    backlog_age_ms: int | None
    state: TierState
    error: str | None = None

    @property
    def status(self) -> MonitoringStatus:
        """The row's monitoring status."""
        return _STATUS[self.state]

    def to_record(self) -> dict[str, Any]:
        """The documented JSON/CSV record (keys :data:`COLUMNS`)."""
        rec = asdict(self)
        rec["state"] = self.state.value
        return {k: rec[k] for k in COLUMNS}


def first_pending(a: Answers) -> int | None:
    """F, the first offset not yet tiered: T+1, else P, else E (nothing tiered yet); ``None`` if unknown."""
    if a.latest_tiered is not None:
        return a.latest_tiered + 1
    if a.earliest_pending_upload is not None:
        return a.earliest_pending_upload
    return a.earliest


def grade(thresholds: Thresholds, records: int, age_ms: int | None) -> TierState:
    """ok, warning or critical: the worse of the records and the age verdicts."""

    def above(value: int | None, limit: int | None) -> bool:
        return value is not None and limit is not None and value > limit

    th = thresholds
    if above(records, th.crit_records) or above(age_ms, th.crit_age_ms):
        return TierState.CRITICAL
    if above(records, th.warn_records) or above(age_ms, th.warn_age_ms):
        return TierState.WARNING
    return TierState.OK


def tier_row(
    topic: str,
    partition: int,
    answers: Answers,
    *,
    tiered: bool,
    thresholds: Thresholds,
    now_ms: int,
    backlog_timestamp: int | None = None,
    timestamp_error: str | None = None,
) -> TierRow:
    """Classify one partition. ``backlog_timestamp`` is M(F) (see the module docstring)."""
    a = answers
    local = a.latest - a.earliest_local if a.latest is not None and a.earliest_local is not None else None
    base: dict[str, Any] = {
        "topic": topic,
        "partition": partition,
        "earliest": a.earliest,
        "earliest_local": a.earliest_local,
        "latest_tiered": a.latest_tiered,
        "earliest_pending_upload": a.earliest_pending_upload,
        "latest": a.latest,
        "local_records": local,
        "remote_records": None,
        "backlog_records": None,
        "backlog_first_offset": None,
        "backlog_timestamp": None,
        "backlog_age_ms": None,
    }
    if a.error is not None:
        return TierRow(**base, state=TierState.ERROR, error=a.error)
    if not tiered:
        return TierRow(**base, state=TierState.NOT_TIERED)
    first = first_pending(a)
    if first is None or a.latest is None or a.earliest is None:
        return TierRow(**base, state=TierState.ERROR, error="NO_OFFSET")
    remote = 0 if a.latest_tiered is None else max(0, a.latest_tiered - a.earliest + 1)
    backlog = max(0, a.latest - first)
    base.update(remote_records=remote, backlog_records=backlog, backlog_first_offset=first)
    if backlog == 0:
        return TierRow(**base, state=TierState.OK)
    if timestamp_error is not None:
        return TierRow(**base, state=TierState.ERROR, error=f"backlog age: {timestamp_error}")
    age = None if backlog_timestamp is None else max(0, now_ms - backlog_timestamp)
    base.update(backlog_timestamp=backlog_timestamp, backlog_age_ms=age)
    return TierRow(**base, state=grade(thresholds, backlog, age))


@dataclass(frozen=True, kw_only=True)
class TopicTiering:
    """One topic's roll-up: sums of the partitions' numbers, the oldest backlog, the worst status."""

    topic: str
    tiered: bool
    status: MonitoringStatus
    partitions: int
    local_records: int
    remote_records: int
    backlog_records: int
    backlog_age_ms: int | None
    error: str | None = None  # the topic could not be listed at all

    def to_record(self) -> dict[str, Any]:
        """The per-topic JSON record (``json`` output's ``topics``)."""
        rec = asdict(self)
        rec["status"] = self.status.name
        return rec


def topic_rollup(topic: str, tiered: bool, rows: Iterable[TierRow]) -> TopicTiering:
    """Sum a topic's partitions; its status is the worst of theirs (OK for a topic without tiering)."""
    rs = list(rows)
    ages = [r.backlog_age_ms for r in rs if r.backlog_age_ms is not None]
    return TopicTiering(
        topic=topic,
        tiered=tiered,
        status=worst(r.status for r in rs),
        partitions=len(rs),
        local_records=sum(r.local_records or 0 for r in rs),
        remote_records=sum(r.remote_records or 0 for r in rs),
        backlog_records=sum(r.backlog_records or 0 for r in rs),
        backlog_age_ms=max(ages, default=None),
    )
