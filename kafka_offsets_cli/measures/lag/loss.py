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

Not computed: ``retention.bytes``. Size-based retention deletes the oldest segments while the
partition is larger than the limit, which can come first; predicting it needs the partition's size
on disk (DescribeLogDirs, which this client does not send) and its growth rate. The record says
nothing about it, and ``lag`` warns once for the topics that have a ``retention.bytes`` limit: there
size may delete the record before its ETA. On a tiered topic (``remote.storage.enable``) ``retention.ms``
governs the remote copy, i.e. when the data is gone; ``local.retention.*`` only moves reads to remote
storage, which the row's ``remote_read`` already says. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..remote_storage import REMOTE_KEY
from .rows import LagRow, LagState
from .timelag import Why, search_offset

__all__ = ["LOSS_KEYS", "LossTopics", "Retention", "loss_eta_ms", "loss_etas", "retention_of"]

RETENTION_MS = "retention.ms"
RETENTION_BYTES = "retention.bytes"
CLEANUP_POLICY = "cleanup.policy"

#: The topic configs the ETA reads (with ``remote.storage.enable``, asked in the same DescribeConfigs).
LOSS_KEYS = (RETENTION_MS, RETENTION_BYTES, CLEANUP_POLICY, REMOTE_KEY)


@dataclass(frozen=True, kw_only=True)
class Retention:
    """A topic's retention as the ETA reads it.

    ``retention_ms``: ``None`` for ``-1`` (unlimited); ``deletes``: ``cleanup.policy`` includes
    ``delete``; ``bytes_limited``: ``retention.bytes`` is set (not ``-1``), which the ETA ignores.
    """

    retention_ms: int | None
    deletes: bool
    bytes_limited: bool = False


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
        bytes_limited=size is not None and size >= 0,
    )


def loss_eta_ms(row: LagRow, retention: Retention | None) -> int | None:
    """The row's data-loss ETA in ms (the rule; module docstring): ``0`` below the log start,
    ``max(0, M(c) + retention.ms - now)`` for a lagging row (``M(c)`` its ``resume_timestamp``,
    ``now`` its ``taken_at_ms``: both from the time-lag search), else ``None``."""
    if row.state is LagState.BELOW_START:
        return 0
    if retention is None or not retention.deletes or retention.retention_ms is None:
        return None
    if row.resume_timestamp is None or row.taken_at_ms is None:
        return None
    if search_offset(row)[1] is not Why.FIRST_UNREAD:  # nothing left to read (or no offset in the log)
        return None
    return max(0, row.resume_timestamp + retention.retention_ms - row.taken_at_ms)


@dataclass(frozen=True)
class LossTopics:
    """What the ETA could not account for, by topic (for a warning): ``unread``: topics with rows to
    predict whose retention configs could not be read; ``sized``: topics with a ``retention.bytes``
    limit (ignored: size may delete first)."""

    unread: tuple[str, ...] = ()
    sized: tuple[str, ...] = ()


#: A row's key: (group, topic, partition).
RowKey = tuple[str, str, int]


def loss_etas(
    rows: Iterable[LagRow], configs: Mapping[str, Mapping[str, str]]
) -> tuple[dict[RowKey, int], LossTopics]:
    """Each row's ``loss_eta_ms`` by (group, topic, partition), rows without one left out, from their
    topics' configs (:func:`retention_of`); and the topics whose ETA misses something
    (:class:`LossTopics`). Kept beside the rows, not in them: the lag record is the same with or
    without ``--loss-eta`` (its front ends add ``loss_eta_ms`` when asked)."""
    by_topic: dict[str, Retention | None] = {}
    unread: set[str] = set()
    sized: set[str] = set()
    out: dict[RowKey, int] = {}
    for r in rows:
        if r.topic not in by_topic:
            by_topic[r.topic] = retention_of(configs.get(r.topic))
        retention = by_topic[r.topic]
        eta = loss_eta_ms(r, retention)
        if retention is None and r.state is not LagState.BELOW_START and loss_eta_ms(r, _ANY) is not None:
            unread.add(r.topic)
        if eta is not None:
            out[r.group, r.topic, r.partition] = eta
            if retention is not None and retention.bytes_limited:
                sized.add(r.topic)
    return out, LossTopics(unread=tuple(sorted(unread)), sized=tuple(sorted(sized)))


#: a retention that predicts for any row that can have an ETA (to tell which rows lacked configs)
_ANY = Retention(retention_ms=0, deletes=True)
