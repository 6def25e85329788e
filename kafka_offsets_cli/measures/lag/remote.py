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
to read the groups: :mod:`kafka_offsets_cli.kafka.list_offsets_kafka_python`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ...errors import ClusterError, ConfigError
from ...models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ...models.topics import TopicPartition
from ...plan.queries import fetch_offsets
from ...plan.requests import DEFAULT_CHUNK
from ...sources import ConfigSource, OffsetSource
from ..remote_storage import REMOTE_KEY, remote_enabled
from .rows import LagRow, LagState

__all__ = ["RemoteSource", "remote_read", "with_remote_reads"]

_EARLIEST_LOCAL = OffsetSpec(SpecKind.EARLIEST_LOCAL)


class RemoteSource(OffsetSource, ConfigSource, Protocol):
    """Topic configs and ListOffsets: what the remote-read check needs."""


def _left(row: LagRow) -> bool:
    """Records left to read from a committed offset inside the log."""
    return (
        row.state in (LagState.OK, LagState.MARKER)
        and row.committed is not None
        and row.end is not None
        and row.committed < row.end
    )


def remote_read(row: LagRow, tiered: bool | None, earliest_local: OffsetResult | None) -> bool | None:
    """Whether the group's next fetch on ``row``'s partition is served from remote storage (the rule).

    ``tiered``: the topic's ``remote.storage.enable`` (``None``: not known); ``earliest_local``:
    the partition's ListOffsets -4 answer (``None``: not asked).
    """
    if row.state not in (LagState.OK, LagState.MARKER) or row.committed is None or row.end is None:
        return None
    if row.committed >= row.end:
        return False  # nothing left to read
    if tiered is None:
        return None
    if not tiered:
        return False
    if earliest_local is None or earliest_local.error is not None or earliest_local.offset is None:
        return None
    return row.committed < earliest_local.offset


def with_remote_reads(
    source: RemoteSource,
    rows: Sequence[LagRow],
    *,
    leaders: Mapping[TopicPartition, int] | None = None,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    configs: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[tuple[LagRow, ...], dict[str, int]]:
    """``rows`` with ``remote_read`` set, and the tiered partitions whose lookup failed, by error (for a
    warning). A topic whose config cannot be read (no DescribeConfigs permission) is unknown quietly:
    a user without that permission is not warned on every run.

    A lookup that fails (kafka-python cannot connect, or cannot honour a security setting) leaves
    the flag unknown and the rows otherwise unchanged: the lag never depends on it. ``configs``: the
    topics' configs already read with ``remote.storage.enable`` among them (``lag --loss-eta`` reads
    them once for both), else asked here.
    """
    left = [r for r in rows if _left(r)]
    topics = sorted({r.topic for r in left})
    unchecked: dict[str, int] = {}
    if configs is None:
        try:
            configs = source.topic_configs(topics, [REMOTE_KEY]) if topics else {}
        except ClusterError as e:  # the configs' request failed as a whole: every flag unknown, the rows kept
            configs, unchecked[str(e)] = {}, len(left)
    tiered = {t: remote_enabled(configs.get(t, {}).get(REMOTE_KEY)) for t in topics}
    tps = sorted({r.tp for r in left if tiered[r.topic]}, key=lambda tp: (tp.topic, tp.partition))
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
    out = []
    for r in rows:
        flag = remote_read(r, tiered.get(r.topic), answers.get(r.tp) if answers else None)
        out.append(r if flag is r.remote_read else r.evolve(remote_read=flag))
    return tuple(out), unchecked
