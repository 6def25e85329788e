"""Remote reads: a group whose committed offset is below ``earliest-local`` reads from remote storage.

With tiered storage (KIP-405) the leader keeps only the offsets ``earliest-local`` (EL, ListOffsets
-4) to the end on its disk; a consumer that fetches below EL is served from remote storage, the
slow path (the broker fetches whole remote segments). So for a group on a partition:

* ``remote_read`` is ``True`` when ``committed < EL`` and records are left (``committed < end``);
* ``False`` when nothing is left to read (``committed == end``, whatever the topic), on a topic
  whose ``remote.storage.enable`` is not ``true`` (every record is local), or when
  ``committed >= EL``;
* ``None`` (unknown) for rows without a committed offset inside the log (``no-commit``,
  ``below-start``, ``ahead``, ``error``), for a topic whose config could not be read, and for
  a partition whose EL lookup failed: never a made-up answer.

A remote read is not lag: the row's lag, state and monitoring status stay as they are.

Cost: one DescribeConfigs for the topics of rows with records left, and only for the partitions
of tiered topics one ListOffsets -4 per leader (through kafka-python, which ``lag`` has loaded anyway
to read the groups: :mod:`kafka_offsets_cli.kafka.list_offsets_kafka_python`). ``lag`` sends the
DescribeConfigs (:func:`read_remote_configs`) for every planned topic on a thread of its own while
the ListOffsets of the rows are answered (a tenth of a second of waiting and decoding at 100 topics,
``bench/lag_scale.py``): the flags read only the topics of rows with records left, so the answer is
the same.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from ...errors import ClusterError, ConfigError
from ...models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ...models.topics import TopicPartition
from ...plan.queries import fetch_offsets
from ...plan.requests import DEFAULT_CHUNK
from ...sources import ConfigSource, OffsetSource
from ..remote_storage import REMOTE_KEY, remote_enabled
from .rows import IN_LOG as _IN_LOG
from .rows import LagRow, remote_rule

__all__ = [
    "RemoteConfigs",
    "RemoteSource",
    "read_remote_configs",
    "remote_read",
    "remote_rule",
    "tiered_topics",
    "with_remote_reads",
]

#: topics' configs with ``remote.storage.enable`` among them, or the error that failed their request
RemoteConfigs = Mapping[str, Mapping[str, str]] | ClusterError

_EARLIEST_LOCAL = OffsetSpec(SpecKind.EARLIEST_LOCAL)


class RemoteSource(OffsetSource, ConfigSource, Protocol):
    """Topic configs and ListOffsets: what the remote-read check needs."""


def read_remote_configs(source: ConfigSource, topics: Collection[str]) -> RemoteConfigs:
    """The ``remote.storage.enable`` of ``topics`` (one DescribeConfigs), or the :class:`ClusterError`
    that failed the request as a whole (returned, not raised: the caller tells which rows it costs)."""
    try:
        return source.topic_configs(sorted(topics), [REMOTE_KEY]) if topics else {}
    except ClusterError as e:
        return e


def tiered_topics(configs: RemoteConfigs) -> dict[str, bool | None]:
    """Each topic's ``remote.storage.enable`` among ``configs`` (a topic absent: unknown, as for a
    request that failed as a whole)."""
    if isinstance(configs, ClusterError):
        return {}
    return {t: remote_enabled(c.get(REMOTE_KEY)) for t, c in configs.items()}


def _left(row: LagRow) -> bool:
    """Records left to read from a committed offset inside the log."""
    f = row.__dict__  # the fields read from the row's dict: 50,000 rows a run
    committed, end = f["committed"], f["end"]
    return f["state"] in _IN_LOG and committed is not None and end is not None and committed < end


def remote_read(row: LagRow, tiered: bool | None, earliest_local: OffsetResult | None) -> bool | None:
    """Whether the group's next fetch on ``row``'s partition is served from remote storage (the rule).

    ``tiered``: the topic's ``remote.storage.enable`` (``None``: not known); ``earliest_local``:
    the partition's ListOffsets -4 answer (``None``: not asked).
    """
    return remote_rule(row.state, row.committed, row.end, tiered, earliest_local)


def with_remote_reads(
    source: RemoteSource,
    rows: Sequence[LagRow],
    *,
    leaders: Mapping[TopicPartition, int] | None = None,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    configs: RemoteConfigs | None = None,
    flagged: bool = False,
) -> tuple[tuple[LagRow, ...], dict[str, int]]:
    """``rows`` with ``remote_read`` set, and the tiered partitions whose lookup failed, by error (for a
    warning). A topic whose config cannot be read (no DescribeConfigs permission) is unknown quietly:
    a user without that permission is not warned on every run.

    A lookup that fails (kafka-python cannot connect, or cannot honour a security setting) leaves
    the flag unknown and the rows otherwise unchanged: the lag never depends on it. ``configs``: the
    topics' configs already read with ``remote.storage.enable`` among them (``lag --loss-eta`` reads
    them once for both; or :func:`read_remote_configs`'s answer for at least the rows' topics), else
    asked here. ``flagged``: each row's ``remote_read`` was set when it was made
    (:func:`.rows.lag_rows_of`) from these same ``configs``; then, with no tiered partition to look up,
    no flag can change and the rows are kept as they are (no pass over 50,000 of them).
    """
    left = [r for r in rows if _left(r)]
    topics = sorted({r.topic for r in left})
    unchecked: dict[str, int] = {}
    if configs is None:
        configs = read_remote_configs(source, topics)
    if isinstance(configs, ClusterError):  # the request failed as a whole: every flag unknown, the rows kept
        if left:
            unchecked[str(configs)] = len(left)
        configs = {}
    tiered = {t: remote_enabled(configs.get(t, {}).get(REMOTE_KEY)) for t in topics}
    tps = sorted({r.tp for r in left if tiered[r.topic]}, key=lambda tp: (tp.topic, tp.partition))
    if flagged and not tps:
        return tuple(rows), unchecked
    answers: dict[TopicPartition, OffsetResult] = {}
    if tps:
        try:
            found = fetch_offsets(
                source, tps, [_EARLIEST_LOCAL], isolation=isolation, chunk_size=chunk_size, leaders=leaders
            )
        except (ConfigError, ClusterError) as e:  # the row's lag is known without it: only the flag is lost
            unchecked[str(e)] = len(tps)
            found = []
        answers = {a.tp: a for a in found}
        for a in found:
            if a.error is not None:
                unchecked[a.error] = unchecked.get(a.error, 0) + 1
    out: list[LagRow] = []
    keep, tier, rule = out.append, tiered.get, remote_rule
    # a row made with its flag already (lag_rows_of: every topic not tiered) is kept, not copied
    for r in rows:
        f = r.__dict__
        el = answers.get(r.tp) if answers else None
        flag = rule(f["state"], f["committed"], f["end"], tier(f["topic"]), el)
        keep(r if flag is f["remote_read"] else r.evolve(remote_read=flag))
    return tuple(out), unchecked
