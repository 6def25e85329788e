"""ListOffsets through kafka-python: one request per leader and round, every spec.

Two reasons to send ListOffsets here rather than through librdkafka:

* librdkafka (confluent-kafka 2.x) sends ListOffsets only up to v7 and refuses the codes
  below -3 itself (``_INVALID_ARG: Partition 0 has an invalid offset -4``); the broker needs
  v8 for ``earliest-local`` (-4, KIP-405), v9 for ``latest-tiered`` (-5, KIP-1005) and v11
  for ``earliest-pending-upload`` (-6, KIP-1023);
* at fleet scale librdkafka's admin ListOffsets costs more CPU than the answers are worth: it
  matches each answered partition against its call's list with a linear search (so
  :mod:`..plan.requests` cuts calls into chunks of 500, i.e. dozens of requests per leader
  and spec), and builds a Python object per answer. kafka-python 3.x decodes a 50,000-partition
  answer in a few tens of milliseconds, and one request per leader and round is the protocol's
  minimum (``bench/list_offsets_routes.py`` measures both routes on the same cluster).

How queries become requests (the plan's calls merged per leader, rounds, waves of at most 4
requests per broker) is :mod:`.list_offsets_batches`; leaders come from the plan, else (and on
every retry) from the session's own metadata (librdkafka's route: a frozen broker holds
kafka-python's own metadata request for its whole request timeout).
kafka-python's ``KafkaAdminClient.list_partition_offsets`` is not used: its ``OffsetSpec``
has no -6 (``OffsetSpec(-6)`` raises ``ValueError``) and it raises on the first partition
with an error, losing the others. The requests are built from kafka-python's
``ListOffsetsRequest`` with the least version their specs and isolation need (kafka-python
will not send it to a broker too old for it: every partition then reads
``UNSUPPORTED_VERSION``, never a wrong answer) and sent through the adapter
:mod:`.kafka_python` (the only module touching kafka-python's internals), all at once.

Same rules as :mod:`.list_offsets`: every partition gets its own answer or error (Kafka's
names), an offset of -1 is "no offset" (a time with no record at or after it; a topic without
tiered storage answers so for -5 and -6), retriable errors are asked again at fresh leaders
while the ``--timeout`` budget (:mod:`.deadline`) lasts, each attempt a share of it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from kafka.protocol.consumer.offsets import ListOffsetsRequest  # type: ignore[import-untyped]

from ..errors import KafkaOffsetsError
from ..models.offsets import Isolation, OffsetResult, SpecKind
from ..models.topics import ClusterMetadata
from ..plan.requests import OffsetRequest
from .deadline import FIRST_ATTEMPT_S, Deadline
from .errors import RETRIABLE
from .kafka_python import KafkaPython, RequestError, Route, code_name, error_name
from .list_offsets_batches import Batch, Key, batches, error, place, waves
from .settings import log

#: The least ListOffsets version that carries each code (0 for the rest: times, -1, -2).
MIN_VERSION = {
    SpecKind.MAX_TIMESTAMP: 7,
    SpecKind.EARLIEST_LOCAL: 8,
    SpecKind.LATEST_TIERED: 9,
    SpecKind.EARLIEST_PENDING_UPLOAD: 11,
}
#: read_committed needs v2 (KIP-98).
COMMITTED_MIN_VERSION = 2
#: The last ListOffsets version without tagged fields.
LAST_RIGID = 5
#: Requests in flight to one broker at a time (kafka-python's connections take 5; one left spare).
IN_FLIGHT = 4

_Topic = ListOffsetsRequest.ListOffsetsTopic
_Partition = _Topic.ListOffsetsPartition


class WireLister:
    """ListOffsets for any spec, on the session's kafka-python client (made on first use).

    ``metadata(topics)``: the topics' metadata by the session's own route (librdkafka's, bounded by
    ``--timeout`` and asked again elsewhere when a broker does not answer), for the queries whose
    leader the plan did not know and for every retry: a frozen broker holds kafka-python's own
    metadata request for its whole request timeout.
    """

    def __init__(
        self,
        kafka_python: KafkaPython,
        deadline: Deadline,
        isolation: Isolation,
        metadata: Callable[[Sequence[str]], ClusterMetadata],
    ) -> None:
        self._kp = kafka_python
        self._deadline = deadline
        self._isolation = isolation
        self._metadata = metadata

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        """Answer every (partition, spec) query of ``requests``, as OffsetLister does."""
        placed, unplaced = batches(requests)
        final: dict[Key, OffsetResult] = {}
        if unplaced:  # the plan had no leaders: a metadata failure is the run's, as on librdkafka's route
            placed += place(unplaced, self._metadata(sorted({tp[0] for tp, _ in unplaced})), final)
        if not placed:
            return list(final.values())
        route = self._kp.route()
        iso = 1 if (isolation or self._isolation) is Isolation.READ_COMMITTED else 0
        backoff, limit, first = 0.1, FIRST_ATTEMPT_S, True
        while placed:
            timeout = self._deadline.request_timeout(limit)
            limit *= 2
            answers = route.run(_attempt, route, placed, iso, int(timeout * 1000), timeout_s=timeout)
            if progress is not None and first:
                progress(len(answers))
            if final:
                final.update(answers)
            else:
                final = answers  # the first attempt: no copy of 100,000 answers
            first = False
            retry = [k for k, r in answers.items() if r[6] is not None and r[6] in RETRIABLE]
            if not retry or self._deadline.remaining() <= backoff:
                break
            log.debug(
                "retrying %d ListOffsets queries after %s",
                len(retry),
                sorted({str(final[k][6]) for k in retry}),
            )
            time.sleep(backoff)
            backoff = min(backoff * 2, 1.0)
            try:  # fresh leaders: the partitions may have moved
                fresh = self._metadata(sorted({tp[0] for tp, _ in retry}))
            except KafkaOffsetsError as e:  # the queries keep the errors they have
                log.debug("metadata before a retry failed: %s", e)
                break
            placed = place(retry, fresh, final)
        return list(final.values())


async def _attempt(route: Route, placed: list[Batch], iso: int, timeout_ms: int) -> dict[Key, OffsetResult]:
    """One attempt: the requests in waves of at most :data:`IN_FLIGHT` per leader, each wave's all in
    flight at once; each query's answer or error."""
    out: dict[Key, OffsetResult] = {}
    for wave in waves(placed, IN_FLIGHT):
        await _wave(route, wave, iso, timeout_ms, out)
    return out


async def _wave(
    route: Route, placed: Sequence[Batch], iso: int, timeout_ms: int, out: dict[Key, OffsetResult]
) -> None:
    sent = []
    for leader, keys in placed:
        try:
            sent.append((keys, route.send(_request(keys, iso, timeout_ms), leader, timeout_ms)))
        except RequestError as e:  # kafka-python reports these on the future; never lose the others
            out.update({k: error(k, error_name(e)) for k in keys})
    new, result = tuple.__new__, OffsetResult
    for keys, future in sent:
        try:
            response = await future
        except RequestError as e:
            out.update({k: error(k, error_name(e)) for k in keys})
            continue
        answered = {(t.name, p.partition_index): p for t in response.topics for p in t.partitions}
        for key in keys:
            tp, spec = key
            p = answered.get(tp)  # a TopicPartition is its (topic, partition) tuple
            if p is None:
                out[key] = error(key, "UNKNOWN")
            elif p.error_code or p.offset < 0:
                out[key] = _result(key, p)
            else:  # the common answer, built as _result would without a call for each of 100,000
                ts, epoch = p.timestamp, p.leader_epoch
                out[key] = new(
                    result,
                    (
                        tp[0],
                        tp[1],
                        spec,
                        p.offset,
                        ts if ts >= 0 else None,
                        epoch if epoch >= 0 else None,
                        None,
                    ),
                )


def _request(keys: Sequence[Key], iso: int, timeout_ms: int) -> Any:
    by_topic: dict[str, list[Any]] = {}
    kinds = {spec.kind for _, spec in keys}
    version = max([COMMITTED_MIN_VERSION if iso else 0, *(MIN_VERSION.get(k, 0) for k in kinds)])
    part = _partition
    for tp, spec in keys:
        by_topic.setdefault(tp[0], []).append(part(tp[1], spec.kafka_time))
    return ListOffsetsRequest(
        replica_id=-1,
        isolation_level=iso,
        topics=[_Topic(name=t, partitions=ps) for t, ps in by_topic.items()],
        timeout_ms=timeout_ms,
        min_version=version,
        # v6+ is "flexible": a tagged-field block per partition, most of the encoding's cost; the
        # answers to -2, -1 and times are the same in v5 (bench/list_offsets_routes.py)
        max_version=None if version > LAST_RIGID else LAST_RIGID,
    )


_new = object.__new__


def _partition_fast(index: int, timestamp: int) -> Any:
    p = _new(_Partition)
    p.partition_index, p.timestamp, p.current_leader_epoch = index, timestamp, -1
    p.tags = p.unknown_tags = p._version = None
    return p


def _partition_public(index: int, timestamp: int) -> Any:
    return _Partition(partition_index=index, current_leader_epoch=-1, timestamp=timestamp)


def _fast_works() -> bool:
    """Whether a partition made without kafka-python's constructor encodes as one made with it."""
    try:
        made = [
            ListOffsetsRequest(
                replica_id=-1, isolation_level=0, topics=[_Topic(name="t", partitions=[f(3, -2)])]
            )
            for f in (_partition_fast, _partition_public)
        ]
        return all(made[0].encode(version=v) == made[1].encode(version=v) for v in (1, 5, 11))
    except Exception:
        return False


#: kafka-python's constructor costs 8 us a partition (0.8 s of a 100,000-query lag): the containers are
#: plain slotted objects, filled directly when that still encodes the same bytes (checked once)
def choose_builder() -> Callable[[int, int], Any]:
    """The partition builder: direct when it encodes as the constructor does, else the constructor."""
    return _partition_fast if _fast_works() else _partition_public


_partition = choose_builder()


def _result(key: Key, p: Any) -> OffsetResult:
    """A partition's answer; offset -1 (no record at or after a time, no tiered storage) is no offset."""
    tp, spec = key
    if p.error_code:
        return error(key, code_name(p.error_code))
    epoch = p.leader_epoch if p.leader_epoch is not None and p.leader_epoch >= 0 else None
    if p.offset < 0:
        return OffsetResult(tp[0], tp[1], spec, None, None, epoch)
    ts = p.timestamp if p.timestamp is not None and p.timestamp >= 0 else None
    return OffsetResult(tp[0], tp[1], spec, p.offset, ts, epoch)
