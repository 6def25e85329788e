"""The data-loss ETA read from a cluster: the partition sizes its size bound needs, then the pure rule
(:mod:`.loss`). Shared by ``lag`` (:mod:`.collect`) and a ``check`` task (one rule, every front end)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...errors import KafkaOffsetsError
from ...models.topics import TopicPartition
from ...sources import SizeSource
from .loss import LossTopics, RowKey, loss_etas, sized_partitions
from .rows import LagRow


def read_loss_etas(
    source: SizeSource,
    rows: Sequence[LagRow],
    configs: Mapping[str, Mapping[str, str]],
    leaders: Mapping[TopicPartition, int],
) -> tuple[dict[RowKey, int], LossTopics]:
    """Each row's ``loss_eta_ms`` (:func:`.loss.loss_etas`) with the sizes of the partitions whose
    topics set ``retention.bytes`` (one DescribeLogDirs per leader, only when some topic does): a
    size that did not come leaves that partition to the time bound, and its topic is named."""
    wanted = sized_partitions(rows, configs)
    asked = {tp: leaders[tp] for tp in wanted if tp in leaders}
    errors: dict[TopicPartition, str] = {tp: "LEADER_NOT_AVAILABLE" for tp in wanted if tp not in leaders}
    sizes: dict[TopicPartition, int] = {}
    if asked:
        try:
            sizes, failed = source.partition_sizes(asked)
        except KafkaOffsetsError as e:  # the request as a whole: every size unknown, said by name
            failed = dict.fromkeys(asked, e.name)
        errors.update(failed)
    return loss_etas(rows, configs, sizes, errors)
