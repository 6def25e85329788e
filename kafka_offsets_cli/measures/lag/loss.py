"""Data-loss ETA (``loss_eta_ms``): how long until retention may delete a group's first unread record.

What the broker does (time-based retention, ``cleanup.policy`` containing ``delete``): a retention
check (every ``log.retention.check.interval.ms``) deletes a partition's oldest segments, in order
and as long as each one's largest record timestamp is more than ``retention.ms`` old; it stops at
the first that is not. A record therefore goes with its segment, and its segment goes only once it
and every older segment hold no timestamp newer than ``now - retention.ms``. (The active segment is
deleted too once all of it is expired: the broker rolls a new one first.)

What the ETA predicts: for a group whose first unread record is at the committed offset ``c``::

    loss_eta_ms = max(0, M(c) + retention.ms - now)

where ``M(c)`` is the newest timestamp of the records from the log start up to ``c``, the number
the time lag is measured from (:mod:`kafka_offsets_cli.measures.lag`, "Time lag"; exact, by
ListOffsets bisection). That is the **earliest moment retention may delete the record at ``c``**:
no segment holding it can be expired before. The real deletion comes at or after it: its segment
also holds the records after ``c`` up to the segment's end, whose newer timestamps keep it (and the
next retention check must run), so the record disappears within one segment's time span
(``segment.ms``, or however long the segment took to fill) plus one
``log.retention.check.interval.ms`` after the ETA. With in-order timestamps ``M(c)`` is the
timestamp of the record at ``c`` itself. A timestamp in the future (CreateTime set ahead) counts as
the broker counts it: it postpones deletion, so the ETA exceeds ``retention.ms``. ``0`` means the
deletion is due: the next retention check after its segment expires takes it.

No ETA (``null``) where nothing can be lost or the prediction has no ground: ``retention.ms`` is
``-1`` (kept forever); ``cleanup.policy`` without ``delete`` (compaction keeps every key's newest
record; the unread records are not deleted by age); nothing left to read (lag 0, a transaction
marker); no committed offset in the log (``no-commit``, ``ahead``, ``error``); the topic's configs
could not be read; the time-lag search failed. ``below-start`` is ``0``: the first unread record is
already gone (the state says so; the ETA says the loss is not in the future).

Size-based retention (``retention.bytes``, not ``-1``): a retention check also deletes a partition's
oldest segments while the partition (the sum of its segments, which DescribeLogDirs reports) stays
at least ``retention.bytes`` large without them (``UnifiedLog.deleteRetentionSizeBreachedSegments``).
Deleting older segments takes the same bytes from both sides, so the segment holding ``c`` goes once
the bytes after its end reach the limit: **the record at ``c`` may go once the bytes after it,
``A(c)``, reach ``retention.bytes``**, and no sooner. Two estimates make it a time:

* ``A(c) = size * (end - c) / (end - log_start)``: the partition's size shared evenly over its
  offsets (no API gives the byte position of an offset; records of even size make it exact);
* the rate the partition grows: ``A(c) / (now - M(c))``, the unread bytes over the time they took
  to arrive (the time lag), which the ETA assumes goes on::

    size_eta_ms = (now - M(c)) * (retention.bytes - A(c)) / A(c)     (0 when A(c) >= retention.bytes)

The row's ETA is the sooner of the two bounds. As with time, the real deletion comes at or after it:
the rest of ``c``'s segment must also be followed by ``retention.bytes`` (one segment's bytes of
growth, ``segment.bytes`` at most) and a retention check must run. No size bound where the partition's
size did not come (DescribeLogDirs refused or unanswered: the topic is named in a warning), where
``now - M(c)`` is not positive (no rate), and on tiered topics: there ``retention.bytes`` bounds the
local and remote log together, and no Kafka API gives the remote size (the topic is named in a
warning). ``local.retention.*`` only moves reads to remote storage, which the row's ``remote_read``
already says; on a tiered topic ``retention.ms`` governs the remote copy, i.e. when the data is gone.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...models.topics import TopicPartition
from ..remote_storage import REMOTE_KEY
from .rows import LagRow, LagState
from .timelag import Why, search_offset

__all__ = [
    "LOSS_KEYS", "LossTopics", "Retention", "loss_eta_ms", "loss_etas", "retention_of", "size_eta_ms",
    "sized_partitions",
]  # fmt: skip

RETENTION_MS = "retention.ms"
RETENTION_BYTES = "retention.bytes"
CLEANUP_POLICY = "cleanup.policy"

#: The topic configs the ETA reads (with ``remote.storage.enable``, asked in the same DescribeConfigs).
LOSS_KEYS = (RETENTION_MS, RETENTION_BYTES, CLEANUP_POLICY, REMOTE_KEY)


@dataclass(frozen=True, kw_only=True)
class Retention:
    """A topic's retention as the ETA reads it.

    ``retention_ms`` and ``retention_bytes``: ``None`` for ``-1`` (unlimited); ``deletes``:
    ``cleanup.policy`` includes ``delete``; ``tiered``: ``remote.storage.enable`` (the size bound
    then counts remote data, which is not known).
    """

    retention_ms: int | None
    deletes: bool
    retention_bytes: int | None = None
    tiered: bool = False

    @property
    def bytes_limited(self) -> bool:
        """Whether size-based retention can delete here (a limit and the delete policy)."""
        return self.deletes and self.retention_bytes is not None

    @property
    def sizes_wanted(self) -> bool:
        """Whether the size bound is computed here: size-limited, and not tiered."""
        return self.bytes_limited and not self.tiered


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def retention_of(config: Mapping[str, str] | None) -> Retention | None:
    """The retention in a topic's DescribeConfigs values (``None``: ``retention.ms`` or
    ``cleanup.policy`` not read, e.g. no DescribeConfigs permission)."""
    if config is None:
        return None
    ms, policy = _int(config.get(RETENTION_MS)), config.get(CLEANUP_POLICY)
    if ms is None or policy is None:
        return None
    size = _int(config.get(RETENTION_BYTES))
    return Retention(
        retention_ms=ms if ms >= 0 else None,
        deletes="delete" in {p.strip().lower() for p in policy.split(",")},
        retention_bytes=size if size is not None and size >= 0 else None,
        tiered=str(config.get(REMOTE_KEY, "")).strip().lower() == "true",
    )


def loss_eta_ms(row: LagRow, retention: Retention | None, size: int | None = None) -> int | None:
    """The row's data-loss ETA in ms (the rule; module docstring): ``0`` below the log start; for a
    lagging row the sooner of ``max(0, M(c) + retention.ms - now)`` (``M(c)`` its
    ``resume_timestamp``, ``now`` its ``taken_at_ms``: both from the time-lag search) and, with the
    partition's ``size`` in bytes, :func:`size_eta_ms`; else ``None``."""
    if row.state is LagState.BELOW_START:
        return 0
    if retention is None or not retention.deletes:
        return None
    if row.resume_timestamp is None or row.taken_at_ms is None:
        return None
    if search_offset(row)[1] is not Why.FIRST_UNREAD:  # nothing left to read (or no offset in the log)
        return None
    by_time = None
    if retention.retention_ms is not None:
        by_time = max(0, row.resume_timestamp + retention.retention_ms - row.taken_at_ms)
    by_size = None
    if size is not None and retention.sizes_wanted and retention.retention_bytes is not None:
        by_size = size_eta_ms(row, retention.retention_bytes, size)
    return min((eta for eta in (by_time, by_size) if eta is not None), default=None)


def size_eta_ms(row: LagRow, limit: int, size: int) -> int | None:
    """When the bytes after the row's committed offset reach ``limit`` (``retention.bytes``), at the
    rate they arrived (module docstring); ``None`` without a lagging offset or a positive time lag."""
    c, why = search_offset(row)
    if why is not Why.FIRST_UNREAD or c is None or row.log_start is None or row.end is None:
        return None
    after = size * (row.end - c) / (row.end - row.log_start)
    if after >= limit:
        return 0
    if row.resume_timestamp is None or row.taken_at_ms is None:
        return None
    took = row.taken_at_ms - row.resume_timestamp
    if took <= 0 or after <= 0:
        return None
    return -(-int(took * (limit - after)) // int(after))  # ceiling


@dataclass(frozen=True)
class LossTopics:
    """What the ETA could not account for, by topic (for a warning): ``unread``: topics with rows to
    predict whose retention configs could not be read; ``sized``: size-limited topics whose size bound
    is not computed (size may delete first): tiered topics (``tiered``) and those whose partitions'
    sizes did not come (``size_error``: the first error's name)."""

    unread: tuple[str, ...] = ()
    sized: tuple[str, ...] = ()
    tiered: tuple[str, ...] = ()
    size_error: str | None = None


#: A row's key: (group, topic, partition).
RowKey = tuple[str, str, int]


#: topic configs by topic, as DescribeConfigs gave them
Configs = Mapping[str, Mapping[str, str]]


def _retentions(rows: Iterable[LagRow], configs: Configs) -> dict[str, Retention | None]:
    return {t: retention_of(configs.get(t)) for t in {r.topic for r in rows}}


def sized_partitions(rows: Iterable[LagRow], configs: Configs) -> list[TopicPartition]:
    """The partitions whose size the ETA needs: lagging rows of size-limited, untiered topics."""
    rows = list(rows)
    by_topic = _retentions(rows, configs)
    wanted = {
        r.tp
        for r in rows
        if (ret := by_topic[r.topic]) is not None
        and ret.sizes_wanted
        and search_offset(r)[1] is Why.FIRST_UNREAD
    }
    return sorted(wanted)


def loss_etas(
    rows: Iterable[LagRow],
    configs: Mapping[str, Mapping[str, str]],
    sizes: Mapping[TopicPartition, int] | None = None,
    size_errors: Mapping[TopicPartition, str] | None = None,
) -> tuple[dict[RowKey, int], LossTopics]:
    """Each row's ``loss_eta_ms`` by (group, topic, partition), rows without one left out, from their
    topics' configs (:func:`retention_of`) and partitions' ``sizes`` (:func:`sized_partitions`; those
    that did not come with their ``size_errors``); and the topics whose ETA misses something
    (:class:`LossTopics`). Kept beside the rows, not in them: the lag record is the same with or
    without ``--loss-eta`` (its front ends add ``loss_eta_ms`` when asked)."""
    rows = list(rows)
    by_topic = _retentions(rows, configs)
    sizes, size_errors = sizes or {}, size_errors or {}
    unread: set[str] = set()
    unsized: set[str] = set()
    tiered: set[str] = set()
    first_error: str | None = None
    out: dict[RowKey, int] = {}
    for r in rows:
        retention = by_topic[r.topic]
        size = sizes.get(r.tp)
        eta = loss_eta_ms(r, retention, size)
        if retention is None and r.state is not LagState.BELOW_START and loss_eta_ms(r, _ANY) is not None:
            unread.add(r.topic)
        if retention is not None and retention.bytes_limited and search_offset(r)[1] is Why.FIRST_UNREAD:
            if retention.tiered:
                tiered.add(r.topic)
            elif size is None:
                unsized.add(r.topic)
                first_error = first_error or size_errors.get(r.tp)
        if eta is not None:
            out[r.group, r.topic, r.partition] = eta
    return out, LossTopics(
        unread=tuple(sorted(unread)),
        sized=tuple(sorted(unsized | tiered)),
        tiered=tuple(sorted(tiered)),
        size_error=first_error,
    )


#: a retention that predicts for any row that can have an ETA (to tell which rows lacked configs)
_ANY = Retention(retention_ms=0, deletes=True)
