"""A ListOffsets request's partitions, built at the least cost kafka-python still encodes exactly.

kafka-python's constructor costs 8 us a partition (0.8 s of a 100,000-query lag). Two cheaper ways,
each taken only while a check proves it gives what the constructor gives, else the constructor:

* :func:`build`: kafka-python's slotted containers filled directly (:func:`fast_works` compares every
  slot of one made both ways: whatever version encodes them reads no more); any version.
* :func:`rigid_tuples`: plain ``(partition_index, current_leader_epoch, timestamp)`` tuples, which
  kafka-python's generated encoders take in place of the containers (its own consumer passes topics
  as tuples). A tuple is read by position, and the positions are those of the version kafka-python
  picks when it sends: v1-v3 have no leader epoch, so such a tuple would be encoded wrongly there.
  Tuples therefore go only into requests limited to :data:`TUPLE_VERSIONS` (v4 and v5, the same
  fields; Kafka 2.1 and later, the oldest brokers Kafka 4's own clients speak to; this route serves the
  group commands, whose OffsetFetch v8 needs Kafka 3.0), and only while :func:`tuples_work` finds a
  request of tuples encoded byte for byte as one of containers at both versions. A broker without
  v4 answers every partition ``UNSUPPORTED_VERSION``, never a wrong offset.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any

from kafka.protocol.consumer.offsets import ListOffsetsRequest  # type: ignore[import-untyped]

__all__ = ["TUPLE_VERSIONS", "Topic", "build", "choose_builder", "rigid_tuples", "tuples_work"]

Topic = ListOffsetsRequest.ListOffsetsTopic
_Partition = Topic.ListOffsetsPartition

#: The versions whose partitions a tuple may stand for: (partition_index, current_leader_epoch, timestamp).
TUPLE_VERSIONS = (4, 5)

_new = object.__new__


def partitions_fast(indexes: list[int], times: Iterable[int]) -> list[Any]:
    """kafka-python's partition containers, filled without their constructor."""
    made = list(map(_new, repeat(_Partition, len(indexes))))
    # times: as many, or an endless repeat (a request's keys sharing one spec)
    for p, index, timestamp in zip(made, indexes, times, strict=False):
        p.partition_index, p.timestamp, p.current_leader_epoch = index, timestamp, -1
        p.tags = p.unknown_tags = p._version = None
    return made


def partitions_public(indexes: list[int], times: Iterable[int]) -> list[Any]:
    """kafka-python's partition containers, made by their constructor (the reference)."""
    return [
        _Partition(partition_index=i, current_leader_epoch=-1, timestamp=t)
        for i, t in zip(indexes, times, strict=False)
    ]


def rigid_tuples(indexes: list[int], times: Iterable[int]) -> list[tuple[int, int, int]]:
    """The partitions as tuples in the field order of :data:`TUPLE_VERSIONS`, made in C."""
    return list(zip(indexes, repeat(-1), times, strict=False))


def _state(obj: object) -> list[tuple[str, type, Any]] | None:
    """Everything an encoder can read of a slotted ``obj``: each set slot's name, type and value (an
    unset one has no row: reading it falls back to the field's default); ``None`` with a ``__dict__``."""
    if hasattr(obj, "__dict__"):
        return None
    state = []
    for c in type(obj).__mro__:
        for name in c.__dict__.get("__slots__", ()):
            try:  # the slot itself, not getattr: kafka-python's __getattr__ answers for unset fields
                value = c.__dict__[name].__get__(obj, type(obj))
            except AttributeError:
                continue
            state.append((name, type(value), value))
    return state


def fast_works() -> bool:
    """Whether partitions made without kafka-python's constructor are the ones made with it: the same
    class and the same value in every slot (whatever version encodes them, it reads no more)."""
    try:
        fast, public = partitions_fast([3], [-2])[0], partitions_public([3], [-2])[0]
        got = _state(fast)
        return type(fast) is type(public) and got is not None and got == _state(public)
    except Exception:
        return False


def choose_builder() -> Callable[[list[int], Iterable[int]], list[Any]]:
    """The containers' builder: direct when it makes what the constructor makes, else the constructor."""
    return partitions_fast if fast_works() else partitions_public


#: the containers' builder, chosen once (no encoding: no encoder compiled at import)
build = choose_builder()


def _encoded(partitions: list[Any], version: int) -> bytes:
    topic = Topic(name="t", partitions=partitions)
    request = ListOffsetsRequest(replica_id=-1, isolation_level=1, topics=[topic], timeout_ms=9)
    return bytes(request.encode(version=version))


@functools.cache
def tuples_work() -> bool:
    """Whether a request of :func:`rigid_tuples` encodes byte for byte as one of containers at each of
    :data:`TUPLE_VERSIONS` (checked once, on the first rigid request: those encoders are used anyway)."""
    indexes, times = [7, 8], [-2, 1_700_000_000_000]
    try:
        return all(
            _encoded(rigid_tuples(indexes, iter(times)), v) == _encoded(partitions_public(indexes, times), v)
            for v in TUPLE_VERSIONS
        )
    except Exception:
        return False
