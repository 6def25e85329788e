"""ListOffsets v8-v11 for the tiered specs, through kafka-python.

librdkafka (confluent-kafka 2.x) sends ListOffsets only up to v7 and refuses the codes
below -3 itself (``_INVALID_ARG: Partition 0 has an invalid offset -4``); the broker
needs v8 for ``earliest-local`` (-4, KIP-405), v9 for ``latest-tiered`` (-5, KIP-1005)
and v11 for ``earliest-pending-upload`` (-6, KIP-1023). kafka-python 3.x generates its
protocol classes from Kafka's own JSON schemas and speaks ListOffsets v1-v11; its
``KafkaAdminClient.list_partition_offsets`` is not used, because its ``OffsetSpec`` has
no -6 (``OffsetSpec(-6)`` raises ``ValueError``) and it raises on the first partition
with an error, losing the others. So the requests are built here from kafka-python's
``ListOffsetsRequest`` (``min_version`` 8, 9 or 11: kafka-python will not send it to a
broker too old for it, and every partition reads ``UNSUPPORTED_VERSION``, never a wrong
answer) and sent through the adapter :mod:`.kafka_python` (the only module touching
kafka-python's internals): one request per spec and leader, all at once.

Same rules as :mod:`.list_offsets`: every partition gets its own answer or error
(Kafka's names), an offset of -1 is "no offset" (a topic without tiered storage answers
so for -5 and -6), retriable errors are asked again after fresh metadata while the
``--timeout`` budget (:mod:`.deadline`) lasts, each attempt a share of it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from kafka.protocol.consumer.offsets import ListOffsetsRequest  # type: ignore[import-untyped]

from ..models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ..models.topics import TopicPartition
from ..plan.requests import OffsetRequest
from .deadline import FIRST_ATTEMPT_S, Deadline
from .errors import KAFKA_ERROR_NAMES, RETRIABLE
from .kafka_python import KafkaPython, RequestError, Route, code_name, error_name
from .settings import log

#: The least ListOffsets version that carries each tiered code.
MIN_VERSION = {SpecKind.EARLIEST_LOCAL: 8, SpecKind.LATEST_TIERED: 9, SpecKind.EARLIEST_PENDING_UPLOAD: 11}


_Topic = ListOffsetsRequest.ListOffsetsTopic
_Partition = _Topic.ListOffsetsPartition
_Key = tuple[TopicPartition, OffsetSpec]


class TieredLister:
    """ListOffsets for the tiered specs, on the session's kafka-python client (made on first use)."""

    def __init__(self, kafka_python: KafkaPython, deadline: Deadline, isolation: Isolation) -> None:
        self._kp = kafka_python
        self._deadline = deadline
        self._isolation = isolation

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        """Answer every (partition, tiered spec) query of ``requests``, as OffsetLister does."""
        queries = list(dict.fromkeys(q for r in requests for q in r.queries))
        if not queries:
            return []
        route = self._kp.route()
        iso = 1 if (isolation or self._isolation) is Isolation.READ_COMMITTED else 0
        final: dict[_Key, OffsetResult] = {}
        pending, backoff, limit = queries, 0.1, FIRST_ATTEMPT_S
        while pending:
            timeout = self._deadline.request_timeout(limit)
            limit *= 2
            answers = route.run(_round, route, pending, iso, int(timeout * 1000), timeout_s=timeout)
            if progress is not None and len(final) == 0:
                progress(len(pending))
            final.update(answers)
            pending = [k for k, r in answers.items() if r.error is not None and r.error in RETRIABLE]
            if not pending or self._deadline.remaining() <= backoff:
                break
            log.debug("retrying %d tiered queries", len(pending))
            time.sleep(backoff)
            backoff = min(backoff * 2, 1.0)
        return list(final.values())


async def _round(
    route: Route, queries: Sequence[_Key], iso: int, timeout_ms: int
) -> dict[_Key, OffsetResult]:
    """One attempt: fresh leaders, then one request per (spec, leader), all in flight at once."""
    out: dict[_Key, OffsetResult] = {}
    try:
        md = await route.metadata(sorted({tp.topic for tp, _ in queries}))
    except RequestError as e:
        return {k: _error(k, error_name(e)) for k in queries}
    leaders: dict[tuple[str, int], int | str] = {}
    for t in md.get("topics", ()):
        topic_error = t.get("error_code", 0)
        for p in t.get("partitions", ()):
            leaders[(t["name"], p["partition_index"])] = p["leader_id"]
        if topic_error:
            leaders.update({(t["name"], -1): KAFKA_ERROR_NAMES.get(topic_error, str(topic_error))})
    groups: dict[tuple[OffsetSpec, int], list[TopicPartition]] = {}
    for tp, spec in queries:
        leader = leaders.get((tp.topic, tp.partition))
        if leader is None:
            err = leaders.get((tp.topic, -1), "UNKNOWN_TOPIC_OR_PARTITION")
            out[(tp, spec)] = _error((tp, spec), str(err))
        elif leader == -1:
            out[(tp, spec)] = _error((tp, spec), "LEADER_NOT_AVAILABLE")
        else:
            groups.setdefault((spec, int(leader)), []).append(tp)
    sent = []
    for (spec, leader), tps in groups.items():
        try:
            sent.append((spec, tps, route.send(_request(spec, tps, iso, timeout_ms), leader, timeout_ms)))
        except RequestError as e:  # kafka-python reports these on the future; never lose the others
            out.update({(tp, spec): _error((tp, spec), error_name(e)) for tp in tps})
    for spec, tps, future in sent:
        try:
            response = await future
        except RequestError as e:
            out.update({(tp, spec): _error((tp, spec), error_name(e)) for tp in tps})
            continue
        answered = {(t.name, p.partition_index): p for t in response.topics for p in t.partitions}
        for tp in tps:
            p = answered.get((tp.topic, tp.partition))
            out[(tp, spec)] = _error((tp, spec), "UNKNOWN") if p is None else _result(tp, spec, p)
    return out


def _request(spec: OffsetSpec, tps: Sequence[TopicPartition], iso: int, timeout_ms: int) -> Any:
    by_topic: dict[str, list[Any]] = {}
    for tp in tps:
        by_topic.setdefault(tp.topic, []).append(
            _Partition(partition_index=tp.partition, current_leader_epoch=-1, timestamp=spec.kafka_time)
        )
    return ListOffsetsRequest(
        replica_id=-1,
        isolation_level=iso,
        topics=[_Topic(name=t, partitions=ps) for t, ps in by_topic.items()],
        timeout_ms=timeout_ms,
        min_version=MIN_VERSION[spec.kind],
    )


def _result(tp: TopicPartition, spec: OffsetSpec, p: Any) -> OffsetResult:
    """A partition's answer; offset -1 (no tiered storage, nothing known yet) is no offset."""
    if p.error_code:
        return _error((tp, spec), code_name(p.error_code))
    epoch = p.leader_epoch if p.leader_epoch is not None and p.leader_epoch >= 0 else None
    if p.offset < 0:
        return OffsetResult(tp.topic, tp.partition, spec, None, None, epoch)
    return OffsetResult(tp.topic, tp.partition, spec, p.offset, None, epoch)


def _error(key: _Key, name: str) -> OffsetResult:
    tp, spec = key
    return OffsetResult(tp.topic, tp.partition, spec, None, error=name)
