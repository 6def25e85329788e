"""Row order of ``list`` output (``--sort``/``--reverse``): a pure function of the results.

Two base orders: topic then partition number (tables, json, jsonl, csv), and
Kafka's (``-o plain``): GetOffsetShell keeps its lines in a ``TreeMap`` ordered by
``TopicPartition.toString()``, the string ``topic-partition`` compared as a Java
``String`` (UTF-16 code units), so ``lex-1:0`` comes between ``lex:1`` and ``lex:10``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from ..models.offsets import OffsetTable
from ..models.topics import TopicPartition


class SortKey(str, Enum):
    """What ``--sort`` orders partitions by."""

    TOPIC = "topic"
    PARTITION = "partition"
    OFFSET = "offset"
    TIMESTAMP = "timestamp"


def kafka_order(tps: Iterable[TopicPartition]) -> list[TopicPartition]:
    """``tps`` in GetOffsetShell's order: by ``f"{topic}-{partition}"`` as Java compares strings.

    Java's ``String.compareTo`` compares UTF-16 code units, Python compares code
    points; they differ only for characters beyond U+FFFF against U+E000..U+FFFF,
    so names that are all ASCII (every legal Kafka topic name) are compared as they
    are and anything else by its UTF-16 encoding. The strings are unique: the
    partition after the last ``-`` is digits only.
    """
    keyed = [(f"{tp.topic}-{tp.partition}", tp) for tp in tps]
    if all(k.isascii() for k, _ in keyed):
        keyed.sort(key=lambda kv: kv[0])
    else:
        keyed.sort(key=lambda kv: kv[0].encode("utf-16-be", "surrogatepass"))
    return [tp for _, tp in keyed]


def partition_order(
    table: OffsetTable, key: SortKey = SortKey.TOPIC, *, reverse: bool = False, kafka: bool = False
) -> list[TopicPartition]:
    """The table's partitions in display order.

    ``topic``: by topic then partition (the default), or in Kafka's order when
    ``kafka`` (``-o plain``, see :func:`kafka_order`); ``partition``: by partition
    number, ties in that base order; ``offset``/``timestamp``: by the first spec's
    offset or record time, ties in the base order, partitions without one (errors,
    no record) last. ``reverse`` makes the key descending; ties and rows without a
    value keep their places.
    """
    selected = set(table.partitions)
    extra = {r.tp for r in table.results if (r.topic, r.partition) not in selected}
    every = selected | extra if extra else selected
    tps = kafka_order(every) if kafka else sorted(every)
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
