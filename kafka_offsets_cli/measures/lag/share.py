"""Share groups' rows (KIP-932), pure: the share-partition start offset in the committed offset's place.

A share group has no committed offsets: its consumers acknowledge records one by one, and the
share coordinator keeps, per share-partition, the *start offset*, below which every record is
acknowledged (DescribeShareGroupOffsets). ``lag`` plans a share group as any group, with its start
offsets as the "committed" offsets (:func:`share_committed`), so the partitions, the log end, the
states and the time lag are decided by the same rules (:mod:`.plan`, :func:`.rows.lag_row`,
:mod:`.timelag`): the time lag is the age of the record at the start offset, found by the same
bisection. The lag is then the broker's own (KIP-1226, DescribeShareGroupOffsets v1,
:func:`with_broker_lags`): records past the start offset that are already acknowledged do not
count, as ``kafka-share-groups --describe`` shows it; a broker before v1 leaves ``end - start``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...models.group_types import ShareGroupOffsets
from ...models.groups import GroupOffsets
from ...models.topics import TopicPartition
from ...sources import ShareOffsetReader
from .rows import LagRow, LagState


def share_committed(offsets: ShareGroupOffsets) -> GroupOffsets:
    """A share group's start offsets as committed offsets (``None`` where it has none yet)."""
    if offsets.error is not None:
        return GroupOffsets(offsets.group, {}, offsets.error)
    return GroupOffsets(offsets.group, {p.partition: p.start_offset for p in offsets.partitions})


def broker_lags(offsets: Mapping[str, ShareGroupOffsets]) -> dict[tuple[str, TopicPartition], int]:
    """Each (group, share-partition)'s lag as the broker computed it (where it did)."""
    return {
        (g, p.partition): p.lag
        for g, o in offsets.items()
        for p in o.partitions
        if p.lag is not None and p.error is None
    }


def with_broker_lags(rows: Iterable[LagRow], lags: Mapping[tuple[str, TopicPartition], int]) -> list[LagRow]:
    """``rows`` with each share-partition's lag the broker's (rows with a lag only: the state stays)."""
    out = []
    for r in rows:
        lag = lags.get((r.group, r.tp)) if r.group_type == "share" else None
        if lag is not None and r.state in (LagState.OK, LagState.MARKER):
            r = r.evolve(lag=lag)
        out.append(r)
    return out


@dataclass(frozen=True)
class ShareRead:
    """Share groups read in the committed offsets' place: their start offsets as committed offsets,
    the broker's lags, and ``unavailable``, the one line when the cluster cannot describe share
    groups at all (each group's offsets then carry the broker's error)."""

    committed: dict[str, GroupOffsets] = field(default_factory=dict)
    lags: dict[tuple[str, TopicPartition], int] = field(default_factory=dict)
    unavailable: str | None = None


def read_share_groups(source: ShareOffsetReader, groups: Sequence[str]) -> ShareRead:
    """``groups`` (share groups) read as :class:`ShareRead` (nothing asked when there are none)."""
    if not groups:
        return ShareRead()
    answer = source.share_start_offsets(groups)
    committed = {g: share_committed(o) for g, o in answer.groups.items()}
    return ShareRead(committed, broker_lags(answer.groups), answer.unavailable)
