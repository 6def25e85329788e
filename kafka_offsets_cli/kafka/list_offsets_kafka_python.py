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
``ListOffsetsRequest`` with the least version their specs and isolation need, v4 at least
while their partitions go as tuples (:mod:`.list_offsets_partitions`); kafka-python will not
send it to a broker too old for it: every partition then reads ``UNSUPPORTED_VERSION``, never
a wrong answer. They are sent through the adapter
:mod:`.kafka_python` (the only module touching kafka-python's internals), all at once.

Same rules as :mod:`.list_offsets`: every partition gets its own answer or error (Kafka's
names), an offset of -1 is "no offset" (a time with no record at or after it; a topic without
tiered storage answers so for -5 and -6), retriable errors are asked again at fresh leaders
while the ``--timeout`` budget (:mod:`.deadline`) lasts, each attempt a share of it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from itertools import groupby, repeat
from operator import attrgetter, is_, itemgetter
from typing import Any

from kafka.protocol.consumer.offsets import ListOffsetsRequest  # type: ignore[import-untyped]

from ..errors import KafkaOffsetsError
from ..models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ..models.topics import ClusterMetadata
from ..plan.requests import OffsetRequest
from .deadline import FIRST_ATTEMPT_S, Deadline
from .errors import RETRIABLE
from .kafka_python import KafkaPython, RequestError, Route, code_name, error_name
from .list_offsets_batches import Answers, Batch, Key, batches, error, place, waves
from .list_offsets_partitions import TUPLE_VERSIONS, Topic, build, rigid_tuples, tuples_work
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
        final = Answers()
        if unplaced:  # the plan had no leaders: a metadata failure is the run's, as on librdkafka's route
            placed += place(unplaced, self._metadata(sorted({tp[0] for tp, _ in unplaced})), final)
        if not placed:
            return final.results()
        route = self._kp.route()
        iso = 1 if (isolation or self._isolation) is Isolation.READ_COMMITTED else 0
        backoff, limit, first = 0.1, FIRST_ATTEMPT_S, True
        while placed:
            timeout = self._deadline.request_timeout(limit)
            limit *= 2
            answers, retry = route.run(_attempt, route, placed, iso, int(timeout * 1000), timeout_s=timeout)
            if progress is not None and first:
                progress(len(answers))
            if first and not len(final):
                final = answers  # the first attempt: no copy of 100,000 answers
            else:
                final.merge(answers)
            first = False
            if not retry or self._deadline.remaining() <= backoff:
                break
            log.debug(
                "retrying %d ListOffsets queries after %s",
                len(retry),
                sorted({str(r[6]) for r in map(final.get, retry) if r is not None}),
            )
            time.sleep(backoff)
            backoff = min(backoff * 2, 1.0)
            try:  # fresh leaders: the partitions may have moved
                fresh = self._metadata(sorted({tp[0] for tp, _ in retry}))
            except KafkaOffsetsError as e:  # the queries keep the errors they have
                log.debug("metadata before a retry failed: %s", e)
                break
            placed = place(retry, fresh, final)
        return final.results()


async def _attempt(route: Route, placed: list[Batch], iso: int, timeout_ms: int) -> tuple[Answers, list[Key]]:
    """One attempt: the requests in waves of at most :data:`IN_FLIGHT` per leader, each wave's all in
    flight at once; each query's answer or error, and the queries whose (last) error is worth asking again."""
    out, failed = Answers(), list[Key]()
    for wave in waves(placed, IN_FLIGHT):
        await _wave(route, wave, iso, timeout_ms, out, failed)
    retry = [k for k in dict.fromkeys(failed) if (r := out.get(k)) is not None and r[6] in RETRIABLE]
    return out, retry


async def _wave(
    route: Route, placed: Sequence[Batch], iso: int, timeout_ms: int, out: Answers, failed: list[Key]
) -> None:
    sent = []
    for leader, keys in placed:
        request, keys, topics, spec = _request(keys, iso, timeout_ms)
        try:
            sent.append((keys, topics, spec, route.send(request, leader, timeout_ms)))
        except RequestError as e:  # kafka-python reports these on the future; never lose the others
            _keep(keys, _errors(keys, e, failed), spec, out)
    for keys, topics, spec, future in sent:
        try:
            response = await future
        except RequestError as e:
            _keep(keys, _errors(keys, e, failed), spec, out)
            continue
        _keep(keys, _answers(keys, topics, response, failed), spec, out)


_Asked = tuple[str, list[int], int, int]  # a topic, its partitions asked in order, where its keys are
_first, _second, _index = itemgetter(0), itemgetter(1), attrgetter("partition_index")
_code, _offset = attrgetter("error_code"), attrgetter("offset")
_timestamp, _epoch = attrgetter("timestamp"), attrgetter("leader_epoch")
_fields = attrgetter("offset", "timestamp", "leader_epoch")


def _request(
    keys: list[Key], iso: int, timeout_ms: int
) -> tuple[Any, list[Key], list[_Asked], OffsetSpec | None]:
    """The request for ``keys`` (reordered by topic if a topic comes back), what it asks, and the spec
    all its keys share (``None``: mixed)."""
    specs = list(map(_second, keys))
    # one spec object (lag: 50,000 keys) needs no lookup per key; else per spec object, not per key
    shared = bool(specs) and all(map(is_, specs, repeat(specs[0])))
    distinct = {id(specs[0]): specs[0]} if shared else dict(zip(map(id, specs), specs, strict=True))
    needs = [MIN_VERSION.get(s.kind, 0) for s in distinct.values()]
    version = max([COMMITTED_MIN_VERSION if iso else 0, *needs])
    groups = [(name, list(map(_second, tps))) for name, tps in groupby(map(_first, keys), _first)]
    if len({name for name, _ in groups}) < len(groups):  # a topic twice: a request names it once
        keys = sorted(keys, key=lambda k: k[0][0])  # stable: partitions keep their order
        groups = [(name, list(map(_second, tps))) for name, tps in groupby(map(_first, keys), _first)]
    one, times = len(distinct) == 1, list[int]()
    if not one:
        time_of = {i: s.kafka_time for i, s in distinct.items()}
        times = list(map(time_of.__getitem__, map(id, map(_second, keys))))
    # a rigid request's partitions as tuples (versions 4 and 5 only: list_offsets_partitions.py)
    tuples = version <= LAST_RIGID and tuples_work()
    make = rigid_tuples if tuples else build
    topics, asked, start = [], [], 0
    for name, idx in groups:
        end = start + len(idx)
        ts = repeat(specs[0].kafka_time) if one else iter(times[start:end])
        topics.append(Topic(name=name, partitions=make(idx, ts)))
        asked.append((name, idx, start, end))
        start = end
    request = ListOffsetsRequest(
        replica_id=-1,
        isolation_level=iso,
        topics=topics,
        timeout_ms=timeout_ms,
        min_version=max(version, TUPLE_VERSIONS[0]) if tuples else version,
        # v6+ is "flexible": a tagged-field block per partition, most of the encoding's cost; the
        # answers to -2, -1 and times are the same in v5 (bench/list_offsets_routes.py)
        max_version=None if version > LAST_RIGID else LAST_RIGID,
    )
    return request, keys, asked, specs[0] if len(distinct) == 1 else None


def _answers(keys: list[Key], asked: list[_Asked], response: Any, failed: list[Key]) -> list[OffsetResult]:
    """Each of ``keys``' answer in ``response``, in order (a partition not in it: ``UNKNOWN``); the keys
    of errors worth asking again into ``failed``."""
    got: dict[str, list[Any]] = {}
    for t in response.topics:
        got[t.name] = got[t.name] + list(t.partitions) if t.name in got else t.partitions
    new, result, none, out = tuple.__new__, OffsetResult, repeat(None), []
    for name, idx, start, end in asked:
        # the broker answers a topic's partitions in its own (hash) order: matched by index, in C
        ps = got.get(name, [])
        by_index = dict(zip(map(_index, ps), ps, strict=True))
        ks = keys[start:end]
        try:  # every partition asked is answered: no None to look for
            ps, missing = list(map(by_index.__getitem__, idx)), False
        except KeyError:
            ps, missing = list(map(by_index.get, idx)), True
        if missing or any(map(_code, ps)) or min(offsets := list(map(_offset, ps))) < 0:
            rs = [error(k, "UNKNOWN") if p is None else _result(k, p) for k, p in zip(ks, ps, strict=True)]
            failed += [k for k, r in zip(ks, rs, strict=True) if r[6] in RETRIABLE]
            out += rs
        elif max(map(_timestamp, ps)) < 0 and min(epochs := list(map(_epoch, ps))) >= 0:
            # the common answer (-2, -1: no timestamp), built as _result would, in C: no call for each
            out += map(
                new, repeat(result), zip(repeat(name), idx, map(_second, ks), offsets, none, epochs, none)
            )
        else:  # a time's record has a timestamp (or a broker gave no leader epoch): checked each
            out += [
                new(result, (name, i, s, o, ts if ts >= 0 else None, e if e >= 0 else None, None))
                for i, (_, s), (o, ts, e) in zip(idx, ks, map(_fields, ps), strict=True)
            ]
    return out


def _keep(keys: list[Key], results: list[OffsetResult], spec: OffsetSpec | None, out: Answers) -> None:
    """``results`` (of ``keys``, in order) into ``out``."""
    if spec is not None:
        out.of(spec).update(zip(map(_first, keys), results, strict=True))
    else:
        for key, r in zip(keys, results, strict=True):
            out[key] = r


def _errors(keys: list[Key], e: RequestError, failed: list[Key]) -> list[OffsetResult]:
    """A request's failure: every query's error (all of them into ``failed`` if worth asking again)."""
    name = error_name(e)
    failed.extend(keys if name in RETRIABLE else ())
    return [error(k, name) for k in keys]


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
