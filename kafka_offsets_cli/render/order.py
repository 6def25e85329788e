"""Row order of ``list`` output (``--sort``/``--reverse``): a pure function of the results."""

from __future__ import annotations

from enum import Enum

from ..models.offsets import OffsetTable
from ..models.topics import TopicPartition


class SortKey(str, Enum):
    """What ``--sort`` orders partitions by."""

    TOPIC = "topic"
    PARTITION = "partition"
    OFFSET = "offset"
    TIMESTAMP = "timestamp"


def partition_order(
    table: OffsetTable, key: SortKey = SortKey.TOPIC, *, reverse: bool = False
) -> list[TopicPartition]:
    """The table's partitions in display order.

    ``topic``: by topic then partition (the default); ``partition``: by partition
    number then topic; ``offset``/``timestamp``: by the first spec's offset or
    record time, ties by topic and partition, partitions without one (errors,
    no record) last. ``reverse`` makes the key descending; ties and rows without
    a value keep their places.
    """
    selected = set(table.partitions)
    extra = {r.tp for r in table.results if (r.topic, r.partition) not in selected}
    tps = sorted(selected | extra) if extra else sorted(selected)
    if key is SortKey.TOPIC:
        return list(reversed(tps)) if reverse else tps
    if key is SortKey.PARTITION:
        return sorted(tps, key=lambda tp: tp.partition, reverse=reverse)
    first = table.specs[0] if table.specs else None
    value: dict[TopicPartition, int] = {}
    for r in table.results:
        if r.spec == first and r.error is None:
            v = r.offset if key is SortKey.OFFSET else r.timestamp
            if v is not None:
                value[r.tp] = v
    known = sorted((tp for tp in tps if tp in value), key=lambda tp: value[tp], reverse=reverse)
    return known + [tp for tp in tps if tp not in value]
