"""Writing a group's offsets through kafka-python: a share group's start offsets
(AlterShareGroupOffsets, DeleteShareGroupOffsets) and a consumer or streams group's committed
offsets deleted (OffsetDelete, which librdkafka's Python admin client does not expose).

The share requests are Kafka's own (:mod:`.group_messages`: API keys 91 and 92, v0), OffsetDelete
kafka-python's (API key 47, v0, as Kafka's ``Admin.deleteConsumerGroupOffsets``), sent to the group's
coordinator the way the other group requests are (:mod:`.coordinated`: not-ready coordinators asked
again while ``--timeout`` lasts). Each names one group, as Kafka's admin client sends them
(``Admin.alterShareGroupOffsets``, ``Admin.deleteShareGroupOffsets``). The coordinator accepts them
only for a group without members (else ``NON_EMPTY_GROUP``) and creates a group that does not exist.

A group-level error is every partition's (topic's) error, so no partition is ever reported as
written when the whole request was refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..models.topics import TopicPartition
from .coordinated import GroupRequest, ask_coordinators
from .deadline import Deadline
from .group_messages import (
    AlterShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsRequest,
    OffsetDeleteRequest,
)
from .kafka_python import KafkaPython, code_name, group_error

K = TypeVar("K")


@dataclass(frozen=True)
class _Answer:
    """One group's answer to a write: the group's error, else each item's (``None``: written)."""

    group_id: str
    error: str | None
    items: Mapping[Any, str | None]


def alter_share_group_offsets(
    kafka_python: KafkaPython, deadline: Deadline, group: str, offsets: Mapping[TopicPartition, int]
) -> dict[TopicPartition, str | None]:
    """Set ``group``'s share-partition start offsets to ``offsets``: each partition's error name
    (``None``: set); a refusal of the whole request is every partition's error."""
    group_cls = AlterShareGroupOffsetsRequest
    topic_cls = group_cls.AlterShareGroupOffsetsRequestTopic
    part_cls = topic_cls.AlterShareGroupOffsetsRequestPartition
    by_topic: dict[str, list[tuple[int, int]]] = {}
    for tp, offset in sorted(offsets.items()):
        by_topic.setdefault(tp.topic, []).append((tp.partition, offset))
    topics = [
        topic_cls(topic_name=t, partitions=[part_cls(partition_index=p, start_offset=o) for p, o in ps])
        for t, ps in by_topic.items()
    ]

    def items(answer: Any) -> dict[TopicPartition, str | None]:
        return {
            TopicPartition(t.topic_name, int(p.partition_index)): code_name(p.error_code)
            if p.error_code
            else None
            for t in answer.responses
            for p in t.partitions
        }

    def request() -> Any:
        return AlterShareGroupOffsetsRequest(group_id=group, topics=topics, max_version=0)

    return _write(kafka_python, deadline, group, request, items, list(offsets))


def delete_share_group_offsets(
    kafka_python: KafkaPython, deadline: Deadline, group: str, topics: Sequence[str]
) -> dict[str, str | None]:
    """Delete ``group``'s share-partition state on ``topics``: each topic's error name (``None``:
    deleted); a refusal of the whole request is every topic's error."""
    topic_cls = DeleteShareGroupOffsetsRequest.DeleteShareGroupOffsetsRequestTopic
    wanted = sorted(set(topics))

    def items(answer: Any) -> dict[str, str | None]:
        return {
            str(t.topic_name): code_name(t.error_code) if t.error_code else None for t in answer.responses
        }

    def request() -> Any:
        topics = [topic_cls(topic_name=t) for t in wanted]
        return DeleteShareGroupOffsetsRequest(group_id=group, topics=topics, max_version=0)

    return _write(kafka_python, deadline, group, request, items, wanted)


def delete_group_offsets(
    kafka_python: KafkaPython, deadline: Deadline, group: str, partitions: Sequence[TopicPartition]
) -> dict[TopicPartition, str | None]:
    """Delete ``group``'s committed offsets on ``partitions`` (OffsetDelete): each partition's error
    name (``None``: deleted). Kafka refuses a topic the group's members are subscribed to
    (``GROUP_SUBSCRIBED_TO_TOPIC``, per partition) and deletes the others."""
    topic_cls = OffsetDeleteRequest.OffsetDeleteRequestTopic
    part_cls = topic_cls.OffsetDeleteRequestPartition
    wanted = sorted(set(partitions))
    by_topic: dict[str, list[int]] = {}
    for tp in wanted:
        by_topic.setdefault(tp.topic, []).append(tp.partition)

    def items(answer: Any) -> dict[TopicPartition, str | None]:
        return {
            TopicPartition(t.name, int(p.partition_index)): code_name(p.error_code) if p.error_code else None
            for t in answer.topics
            for p in t.partitions
        }

    def request() -> Any:
        topics = [
            topic_cls(name=t, partitions=[part_cls(partition_index=p) for p in ps])
            for t, ps in by_topic.items()
        ]
        return OffsetDeleteRequest(group_id=group, topics=topics, max_version=0)

    return _write(kafka_python, deadline, group, request, items, wanted)


def _write(
    kafka_python: KafkaPython,
    deadline: Deadline,
    group: str,
    request: Callable[[], Any],
    items: Callable[[Any], Mapping[K, str | None]],
    keys: Sequence[K],
) -> dict[K, str | None]:
    """``request()`` (one group's write, made afresh for each attempt) asked of its coordinator:
    each of ``keys``' error name (``None``: written). A group-level error is every key's; a key the
    answer does not name was not written, and says so rather than assume success."""

    def answered(g: str, answer: Any) -> _Answer:
        error = group_error(answer)
        return _Answer(g, error, {} if error is not None else items(answer))

    how = _one_group(group, request, answered)
    got = ask_coordinators(kafka_python, deadline, [group], how)[group]
    if got.error is not None:
        return {k: got.error for k in keys}
    return {k: got.items.get(k, "UNKNOWN_SERVER_ERROR") for k in keys}


def _one_group(
    group: str, request: Callable[[], Any], answered: Callable[[str, Any], _Answer]
) -> GroupRequest[_Answer]:
    """How a one-group request is asked: its answer names no group, so it is ``group``'s."""
    return GroupRequest(
        request=lambda _groups: request(),
        answered=answered,
        failed=lambda g, e: _Answer(g, e, {}),
        error=lambda a: a.error,
        entries=lambda answer: [_Named(group, answer)],
    )


class _Named:
    """An answer given the ``group_id`` :func:`~.coordinated.one_round` looks its groups up by; the
    answer's own fields are read through it."""

    def __init__(self, group_id: str, answer: Any) -> None:
        self.group_id = group_id
        self._answer = answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._answer, name)
