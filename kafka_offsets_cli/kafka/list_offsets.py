"""ListOffsets: planned calls sent concurrently, transient errors asked again, librdkafka's fast path.

Two librdkafka traps are handled here, once:

* admin ListOffsets reports a per-broker request timeout as offset ``-1001``
  with no error: such a result is a ``REQUEST_TIMED_OUT`` error, never an offset;
* admin ListOffsets does not retry ``NOT_LEADER_OR_FOLLOWER`` and similar
  transient errors: partitions that fail with a retriable error are asked again
  (after a metadata refresh) until ``--timeout`` runs out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from confluent_kafka import IsolationLevel, KafkaError, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition
from confluent_kafka import cimpl as _cimpl
from confluent_kafka.admin import OffsetSpec as COffsetSpec  # type: ignore[attr-defined]

from ..gcpause import gc_paused
from ..models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ..models.topics import TopicPartition
from ..plan.requests import DEFAULT_CHUNK, OffsetRequest, plan_queries
from .deadline import FIRST_ATTEMPT_S
from .errors import RETRIABLE, error_name
from .session import Session
from .settings import log

#: librdkafka's "invalid offset", which admin ListOffsets returns for a timed-out broker request.
OFFSET_INVALID = -1001


_COFFSET: dict[SpecKind, Callable[[], Any]] = {
    SpecKind.EARLIEST: COffsetSpec.earliest,
    SpecKind.LATEST: COffsetSpec.latest,
    SpecKind.MAX_TIMESTAMP: COffsetSpec.max_timestamp,
}

#: librdkafka's ListOffsets for one call, bypassing AdminClient.list_offsets (see OffsetLister._submit).
_C_ADMIN: type | None = getattr(_cimpl, "_AdminClientImpl", None)
_C_LIST_OFFSETS: Callable[..., None] | None = getattr(_C_ADMIN, "list_offsets", None)

#: What submitting one call leaves to wait on: one future (fast path), a future per
#: partition (public API), or the exception the submission raised.
_Outcome = Future[Any] | dict[Any, Future[Any]] | BaseException

#: What one query asks: (partition, spec).
_Key = tuple[TopicPartition, OffsetSpec]

#: ((partition, spec), result) pairs, as the calls are collected.
_Answers = Iterable[tuple[_Key, OffsetResult]]


class OffsetLister:
    """Runs planned ListOffsets calls on a session's admin client."""

    def __init__(self, session: Session) -> None:
        self._s = session
        self._fast = _C_ADMIN is not None and isinstance(session.admin, _C_ADMIN)

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        """Execute planned ListOffsets calls concurrently, retrying transient errors.

        Returns one result per (partition, spec) query, in no particular order. A
        partition whose last attempt failed carries the error and no offset.
        """
        deadline = self._s.deadline
        iso = _isolation(isolation or self._s.settings.isolation)
        final: dict[tuple[TopicPartition, OffsetSpec], OffsetResult] = {}
        pending: list[OffsetRequest] = [r for r in requests if len(r)]
        backoff = 0.1
        attempt = 0
        attempt_limit = FIRST_ATTEMPT_S
        with gc_paused():
            while pending:
                attempt += 1
                # A request queued for a dead or frozen broker waits out its whole timeout: each
                # attempt gets a share of --timeout, so moved partitions are asked again in time.
                limit = deadline.request_timeout(attempt_limit)
                attempt_limit *= 2
                tick = progress if attempt == 1 else None
                answers = self._submit_and_wait(pending, iso, tick, limit)
                if final:
                    final.update(answers)
                else:
                    final = answers  # the first attempt: no copy of 100,000 answers
                # r[6]: the answer's error, without a property call for each of 100,000 answers
                retry = [k for k, r in answers.items() if r[6] is not None and r[6] in RETRIABLE]
                if not retry or deadline.remaining() <= backoff:
                    break
                log.debug(
                    "retrying %d queries after %s", len(retry), sorted({str(final[k].error) for k in retry})
                )
                time.sleep(backoff)
                backoff = min(backoff * 2, 1.0)
                self._refresh_leaders({tp.topic for tp, _ in retry})
                pending = plan_queries(retry, DEFAULT_CHUNK)
        return list(final.values())

    def _refresh_leaders(self, topics: set[str]) -> None:
        """Fresh metadata for ``topics`` before a retry.

        librdkafka's ListOffsets sends each partition to the leader in its metadata
        cache, where a dead leader stays until something refreshes it.
        """
        timeout = self._s.deadline.request_timeout(FIRST_ATTEMPT_S)
        try:
            if len(topics) == 1:
                self._s.call(self._s.admin.list_topics, timeout, topic=next(iter(topics)))
            else:
                self._s.call(self._s.admin.list_topics, timeout)
        except (KafkaException, FutureTimeout) as e:
            log.debug("metadata refresh before a retry failed: %s", error_name(e))

    def _submit_and_wait(
        self,
        requests: Sequence[OffsetRequest],
        iso: Any,
        progress: Callable[[int], None] | None,
        timeout: float,
    ) -> dict[_Key, OffsetResult]:
        """Submit every call at once, then collect them in order: the result of each (partition, spec)."""
        submitted = [(req, self._submit(req, iso, timeout)) for req in requests]
        answers: dict[_Key, OffsetResult] = {}
        for req, outcome in submitted:
            if isinstance(outcome, Future):  # the fast path: filled in place, no pair per answer
                _collect_one_future(req, outcome, timeout, self._s.wait, answers)
            else:
                answers.update(self._collect(req, outcome, timeout))
            if progress is not None:
                progress(len(req))
        return answers

    def _submit(self, req: OffsetRequest, iso: Any, timeout: float) -> _Outcome:
        """Start one ``list_offsets`` call; never waits.

        The fast path hands librdkafka the whole call with ONE future, resolved to
        ``{TopicPartition: ListOffsetsResultInfo | KafkaError}``; confluent-kafka's
        public ``AdminClient.list_offsets`` makes a ``concurrent.futures.Future`` per
        partition (tens of microseconds each, plus GC pressure), which dominated
        ``list`` over thousands of partitions. The public API stays the fallback
        when the C entry point is missing or its signature differs.
        """
        admin = self._s.admin
        if self._fast and _C_LIST_OFFSETS is not None:
            f: Future[Any] = Future()
            f.set_running_or_notify_cancel()
            tps = [CTopicPartition(tp[0], tp[1], spec.kafka_time) for tp, spec in req.queries]
            try:
                _C_LIST_OFFSETS(admin, tps, f, request_timeout=timeout, isolation_level_value=iso.value)
            except KafkaException as e:
                return e
            except (TypeError, AttributeError) as e:  # confluent-kafka changed its private API
                log.debug("direct ListOffsets call unavailable (%s); using AdminClient.list_offsets", e)
                self._fast = False
            else:
                return f
        query = {CTopicPartition(tp.topic, tp.partition): _coffset(spec) for tp, spec in req.queries}
        try:
            futs: dict[Any, Future[Any]] = admin.list_offsets(
                query, isolation_level=iso, request_timeout=timeout
            )
        except KafkaException as e:
            return e
        return futs

    def _collect(self, req: OffsetRequest, outcome: _Outcome, timeout: float) -> _Answers:
        if isinstance(outcome, BaseException):
            name = error_name(outcome, list_offsets=True)
            for key in req.queries:
                yield key, OffsetResult(key[0].topic, key[0].partition, key[1], None, error=name)
            return
        if isinstance(outcome, Future):
            answers: dict[_Key, OffsetResult] = {}
            _collect_one_future(req, outcome, timeout, self._s.wait, answers)
            yield from answers.items()
            return
        by_tp = {(c.topic, c.partition): f for c, f in outcome.items()}
        for key in req.queries:
            tp, spec = key
            f = by_tp[(tp.topic, tp.partition)]
            try:
                info = self._s.wait(f, timeout)
            except KafkaException as e:
                yield (
                    key,
                    OffsetResult(tp.topic, tp.partition, spec, None, error=error_name(e, list_offsets=True)),
                )
                continue
            except FutureTimeout:
                yield key, OffsetResult(tp.topic, tp.partition, spec, None, error="REQUEST_TIMED_OUT")
                continue
            yield key, _to_result(tp, spec, info.offset, info.timestamp, info.leader_epoch)


def _collect_one_future(
    req: OffsetRequest,
    f: Future[Any],
    timeout: float,
    wait: Callable[[Future[Any], float], Any],
    out: dict[_Key, OffsetResult],
) -> None:
    """Results of a fast-path call (one future holding every partition's answer or error), into ``out``.

    The loop runs once per partition and spec (100,000 times for ``lag`` over 50,000 partitions):
    a plain answer becomes its result here, without a call per answer; sentinels and errors go
    through :func:`_to_result` and :func:`~.errors.error_name`.
    """
    try:
        answers: dict[Any, Any] = wait(f, timeout)
    except FutureTimeout:
        answers, failure = {}, "REQUEST_TIMED_OUT"
    except KafkaException as e:
        answers, failure = {}, error_name(e, list_offsets=True)
    else:
        failure = "UNKNOWN"  # a partition missing from the answer (librdkafka never does this)
    # keyed by (topic, partition): a TopicPartition is that tuple, so it looks itself up
    by_tp = {(c.topic, c.partition): v for c, v in answers.items()}
    new, result = tuple.__new__, OffsetResult
    for key in req.queries:
        tp, spec = key
        info = by_tp.get(tp)
        if info is None:
            out[key] = result(tp[0], tp[1], spec, None, error=failure)
        elif isinstance(info, KafkaError):
            out[key] = result(tp[0], tp[1], spec, None, error=error_name(info, list_offsets=True))
        elif (offset := info.offset) >= 0:
            ts, epoch = info.timestamp, info.leader_epoch
            # OffsetResult(topic, partition, spec, offset, timestamp, epoch), as _to_result makes it
            out[key] = new(
                result,
                (
                    tp[0],
                    tp[1],
                    spec,
                    offset,
                    ts if ts is not None and ts >= 0 else None,
                    epoch if epoch is not None and epoch >= 0 else None,
                    None,
                ),
            )
        else:
            out[key] = _to_result(tp, spec, offset, info.timestamp, info.leader_epoch)


def _to_result(
    tp: TopicPartition, spec: OffsetSpec, offset: int, timestamp: int, leader_epoch: int | None
) -> OffsetResult:
    """Turn a broker answer into a result, applying Kafka's sentinels."""
    epoch = leader_epoch if leader_epoch is not None and leader_epoch >= 0 else None
    if offset == OFFSET_INVALID:
        return OffsetResult(tp.topic, tp.partition, spec, None, error="REQUEST_TIMED_OUT")
    if offset < 0:
        # timestamp lookup with no record at or after the target, or max-timestamp on
        # an empty partition: Kafka answers -1/-1; there is no offset to show.
        return OffsetResult(tp.topic, tp.partition, spec, None, None, epoch)
    ts = timestamp if timestamp is not None and timestamp >= 0 else None
    return OffsetResult(tp.topic, tp.partition, spec, offset, ts, epoch)


def _isolation(iso: Isolation) -> Any:
    return (
        IsolationLevel.READ_COMMITTED if iso is Isolation.READ_COMMITTED else IsolationLevel.READ_UNCOMMITTED
    )


def _coffset(spec: OffsetSpec) -> Any:
    if spec.kind is SpecKind.TIMESTAMP:
        return COffsetSpec.for_timestamp(spec.kafka_time)
    return _COFFSET[spec.kind]()
