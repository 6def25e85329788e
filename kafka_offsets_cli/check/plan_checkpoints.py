"""A lag check's Spark checkpoints, read on the driver while planning (``spark_checkpoints``).

A Structured Streaming query keeps its Kafka position in its checkpoint, not in a consumer group.
A check names the checkpoints (paths on the driver, as ``lag --spark-checkpoint`` takes them) and
each query's Kafka sources become groups ``spark:<query id>``, planned and measured as any group's
committed offsets are (:func:`~kafka_offsets_cli.parse.spark_checkpoint.read_checkpoint`: the
newest committed batch). They are read here, on the driver, because the paths are the driver's
(the executors of a cluster need not see them); the tasks get the offsets with their units.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import KafkaOffsetsError
from ..models.groups import GroupOffsets
from ..parse.spark_checkpoint import Opener, read_checkpoint

__all__ = ["checkpoint_groups"]


def checkpoint_groups(
    paths: Sequence[str], opener: Opener | None = None
) -> list[GroupOffsets] | KafkaOffsetsError:
    """The groups of the checkpoints at ``paths`` with their offsets, or the first checkpoint's error
    (missing, half-written, a newer format, no batch committed): a check never measures part of
    what it names as if it were all. A query's sources that are not Kafka's are left out. ``opener``:
    the front end's reader of the paths it can open (file-system URIs)."""
    out: list[GroupOffsets] = []
    for path in paths:
        try:
            files = opener(path) if opener is not None else None
            out += read_checkpoint(path, option="spark_checkpoints:", files=files).group_offsets()
        except KafkaOffsetsError as e:
            return e
    return out
