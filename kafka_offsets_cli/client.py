"""The one module that talks to Kafka (and the only one that imports confluent-kafka).

It executes planned requests and returns frozen models. Two librdkafka traps are
handled here, once:

* admin ListOffsets reports a per-broker request timeout as offset ``-1001``
  with no error: such a result is a ``REQUEST_TIMED_OUT`` error, never an offset;
* admin ListOffsets does not retry ``NOT_LEADER_OR_FOLLOWER`` and similar
  transient errors: partitions that fail with a retriable error are asked again
  (after a metadata refresh) until ``--timeout`` runs out.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, TypeVar

from .lazyimport import defer_import

defer_import("asyncio")  # confluent_kafka imports it for its asyncio clients only (see lazyimport)

from confluent_kafka import KafkaError, KafkaException
from confluent_kafka import TopicPartition as CTopicPartition
from confluent_kafka import cimpl as _cimpl
from confluent_kafka.admin import AdminClient
from confluent_kafka.admin import OffsetSpec as COffsetSpec  # type: ignore[attr-defined]

from .config import ClientSettings, redact
from .errors import AuthenticationFailed, ClusterUnreachable, ConfigError, KafkaOffsetsError
from .models import (
    ClusterMetadata,
    Isolation,
    OffsetResult,
    OffsetSpec,
    PartitionInfo,
    SpecKind,
    TopicInfo,
    TopicPartition,
)
from .planner import DEFAULT_CHUNK, OffsetRequest

_T = TypeVar("_T")

log = logging.getLogger("kafka_offsets.client")
rdlog = logging.getLogger("kafka_offsets.librdkafka")


class _Redacting(logging.Filter):
    """Masks every client secret in librdkafka's log lines (shown with ``--debug``)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            record.msg = redact(record.getMessage(), self.secrets)
            record.args = None
        return True


_REDACT = _Redacting()
rdlog.addFilter(_REDACT)
# Without --debug nothing is configured: this keeps Python's last-resort handler from
# printing librdkafka's warnings (connection refused, SASL failures...) on stderr.
logging.getLogger("kafka_offsets").addHandler(logging.NullHandler())

#: librdkafka's "invalid offset", which admin ListOffsets returns for a timed-out broker request.
OFFSET_INVALID = -1001

#: Kafka protocol error names by code (librdkafka's names differ for some).
KAFKA_ERROR_NAMES = {
    1: "OFFSET_OUT_OF_RANGE",
    3: "UNKNOWN_TOPIC_OR_PARTITION",
    5: "LEADER_NOT_AVAILABLE",
    6: "NOT_LEADER_OR_FOLLOWER",
    7: "REQUEST_TIMED_OUT",
    8: "BROKER_NOT_AVAILABLE",
    9: "REPLICA_NOT_AVAILABLE",
    13: "NETWORK_EXCEPTION",
    14: "COORDINATOR_LOAD_IN_PROGRESS",
    15: "COORDINATOR_NOT_AVAILABLE",
    16: "NOT_COORDINATOR",
    25: "UNKNOWN_MEMBER_ID",
    29: "TOPIC_AUTHORIZATION_FAILED",
    30: "GROUP_AUTHORIZATION_FAILED",
    31: "CLUSTER_AUTHORIZATION_FAILED",
    35: "UNSUPPORTED_VERSION",
    42: "INVALID_REQUEST",
    43: "UNSUPPORTED_FOR_MESSAGE_FORMAT",
    56: "KAFKA_STORAGE_ERROR",
    58: "SASL_AUTHENTICATION_FAILED",
    69: "GROUP_ID_NOT_FOUND",
    74: "FENCED_LEADER_EPOCH",
    75: "UNKNOWN_LEADER_EPOCH",
    78: "OFFSET_NOT_AVAILABLE",
}

#: librdkafka's reconnect.backoff.ms unless the user sets it. Once the first metadata answer
#: names the brokers, librdkafka (2.10+) retires the bootstrap connection, failing the
#: application's request still in flight on it; the request is sent again only after the
#: "sparse connect" pause, half this backoff (the default 100 ms cost ~50 ms in a third of all
#: runs on loopback). Later reconnects still back off exponentially up to reconnect.backoff.max.ms.
RECONNECT_BACKOFF_MS = "10"

#: How often a wait on librdkafka polls for error callbacks (authentication failures).
_POLL_S = 0.1

#: Seconds the first ListOffsets attempt may take before its unanswered partitions are asked
#: again; each later attempt may take twice as long as the one before (never past --timeout).
FIRST_ATTEMPT_S = 5.0

#: Errors worth asking again (after a metadata refresh) while time remains.
RETRIABLE = frozenset(
    {
        "LEADER_NOT_AVAILABLE",
        "NOT_LEADER_OR_FOLLOWER",
        "REQUEST_TIMED_OUT",
        "BROKER_NOT_AVAILABLE",
        "REPLICA_NOT_AVAILABLE",
        "NETWORK_EXCEPTION",
        "KAFKA_STORAGE_ERROR",
        "FENCED_LEADER_EPOCH",
        "UNKNOWN_LEADER_EPOCH",
        "OFFSET_NOT_AVAILABLE",
        "TRANSPORT",
        "TIMED_OUT",
        "NOT_CONTROLLER",
        "ALL_BROKERS_DOWN",
    }
)

#: Errors of a whole request that mean the cluster did not answer (exit 3), not a per-item failure.
CLUSTER_DOWN = frozenset({"TIMED_OUT", "TRANSPORT", "ALL_BROKERS_DOWN"})

#: A group's answer while its coordinator is not ready (a new cluster creating __consumer_offsets,
#: a coordinator moving or loading): transient, asked again while --timeout allows.
COORDINATOR_NOT_READY = frozenset(
    {"NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS"}
)

_AUTH_CODES = {
    KafkaError._AUTHENTICATION,
    KafkaError._SSL,
    KafkaError.SASL_AUTHENTICATION_FAILED,
}

_COFFSET: dict[SpecKind, Callable[[], Any]] = {
    SpecKind.EARLIEST: COffsetSpec.earliest,
    SpecKind.LATEST: COffsetSpec.latest,
    SpecKind.MAX_TIMESTAMP: COffsetSpec.max_timestamp,
}


#: librdkafka's ListOffsets for one call, bypassing AdminClient.list_offsets (see KafkaClient._submit).
_C_ADMIN: type | None = getattr(_cimpl, "_AdminClientImpl", None)
_C_LIST_OFFSETS: Callable[..., None] | None = getattr(_C_ADMIN, "list_offsets", None)

#: What submitting one call leaves to wait on: one future (fast path), a future per
#: partition (public API), or the exception the submission raised.
_Outcome = Future[Any] | dict[Any, Future[Any]] | BaseException


def error_name(err: KafkaError) -> str:
    """Kafka's protocol name for a librdkafka error (``UNKNOWN_TOPIC_OR_PARTITION``…)."""
    code = err.code()
    if code in KAFKA_ERROR_NAMES:
        return KAFKA_ERROR_NAMES[code]
    name = str(err.name())
    return name.lstrip("_") if name.startswith("_") else name


#: librdkafka's local errors for one partition of admin ListOffsets, as Kafka names them: a
#: partition without a leader (its only replica down) is reported as "No such entry".
_LOCAL_PARTITION_ERRORS = {
    KafkaError._NOENT: "LEADER_NOT_AVAILABLE",
    KafkaError._UNKNOWN_PARTITION: "UNKNOWN_TOPIC_OR_PARTITION",
    KafkaError._UNKNOWN_TOPIC: "UNKNOWN_TOPIC_OR_PARTITION",
}


def _partition_error(err: KafkaError) -> str:
    """The error name of one partition's ListOffsets answer."""
    return _LOCAL_PARTITION_ERRORS.get(err.code()) or error_name(err)


def _offsets_exc_name(e: BaseException) -> str:
    """The error name of a failed ListOffsets call (or partition)."""
    if isinstance(e, KafkaException) and e.args and isinstance(e.args[0], KafkaError):
        return _partition_error(e.args[0])
    return type(e).__name__


def _isolation(iso: Isolation) -> Any:
    from confluent_kafka import IsolationLevel

    return (
        IsolationLevel.READ_COMMITTED if iso is Isolation.READ_COMMITTED else IsolationLevel.READ_UNCOMMITTED
    )


def _coffset(spec: OffsetSpec) -> Any:
    if spec.kind is SpecKind.TIMESTAMP:
        return COffsetSpec.for_timestamp(spec.kafka_time)
    return _COFFSET[spec.kind]()


@dataclass(frozen=True)
class GroupOffsets:
    """Committed offsets of one consumer group (``None`` offset: nothing committed)."""

    group: str
    offsets: Mapping[TopicPartition, int | None]
    error: str | None = None


@dataclass(frozen=True)
class GroupDescription:
    """A consumer group's state as the coordinator describes it.

    ``state`` is Kafka's state name in lower case (``stable``, ``empty``, ``dead``,
    ``preparing_rebalance``…; ``dead`` also for a group that does not exist);
    ``members`` the number of active members; ``assigned`` the partitions assigned
    to them.
    """

    group: str
    state: str | None
    members: int
    assigned: tuple[TopicPartition, ...] = ()
    error: str | None = None

    @property
    def active(self) -> bool:
        """True when the group has members (a reset would be rejected or overwritten)."""
        return self.members > 0


def _group_state(state: Any) -> str | None:
    if state is None:
        return None
    name = getattr(state, "name", None) or str(state)
    return str(name).lower()


def _ctps(offsets: Mapping[TopicPartition, int]) -> list[Any]:
    return [CTopicPartition(tp.topic, tp.partition, off) for tp, off in sorted(offsets.items())]


class KafkaClient:
    """An admin client for one cluster, with the tool's timeout and error rules."""

    def __init__(self, settings: ClientSettings, *, debug: bool = False) -> None:
        self.settings = settings
        self._errors: list[KafkaError] = []
        self._lock = threading.Lock()
        #: groups whose coordinator has answered (see committed_offsets)
        self._coordinator_ready: set[str] = set()
        conf: dict[str, Any] = dict(settings.librdkafka_config())
        conf.setdefault("socket.connection.setup.timeout.ms", str(min(settings.timeout_ms, 30_000)))
        # a metadata request for a topic by name must never create it (the admin client's default is true)
        conf.setdefault("allow.auto.create.topics", "false")
        conf.setdefault("reconnect.backoff.ms", RECONNECT_BACKOFF_MS)
        conf["error_cb"] = self._on_error
        conf["logger"] = rdlog
        if debug and "debug" not in conf:
            conf.setdefault("log_level", "7")
        self._secrets = [v for k, v in conf.items() if isinstance(v, str) and _is_secret_key(k)]
        _REDACT.secrets.update(self._secrets)
        try:
            self._admin = AdminClient(conf)
        except KafkaException as e:
            raise self._config_error(e) from None
        except (ValueError, TypeError) as e:
            raise ConfigError(self._redact(f"invalid client configuration: {e}")) from None
        self._deadline = time.monotonic() + settings.timeout_ms / 1000
        self._fast = _C_ADMIN is not None and isinstance(self._admin, _C_ADMIN)

    # -- housekeeping -------------------------------------------------------------

    def _on_error(self, err: KafkaError) -> None:
        with self._lock:
            self._errors.append(err)
        rdlog.debug("client error: %s", self._redact(str(err)))

    def _redact(self, text: str) -> str:
        return redact(text, self._secrets)

    def _config_error(self, e: KafkaException) -> ConfigError:
        msg = str(e.args[0].str() if e.args and isinstance(e.args[0], KafkaError) else e)
        m = re.search(r'(No such|Invalid value(?: "[^"]*")? for) configuration property:? "([^"]+)"', msg)
        if m is not None:
            key = m.group(2)
            where = self.settings.source_of(key)
            if m.group(1) == "No such":
                return ConfigError(
                    f"{where}: unknown client property {key!r} "
                    "(not a librdkafka setting: see librdkafka's CONFIGURATION.md)"
                )
            value = self.settings.librdkafka_config().get(key)
            shown = f" {value!r}" if value is not None and not _is_secret_key(key) else ""
            return ConfigError(f"{where}: invalid value{shown} for client property {key!r}")
        return ConfigError(self._redact(f"invalid client configuration: {msg}"))

    def remaining(self) -> float:
        """Seconds left before the overall ``--timeout``."""
        return max(0.0, self._deadline - time.monotonic())

    def restart_clock(self) -> None:
        """Start a new ``--timeout`` budget (used by ``--watch`` between refreshes)."""
        self._deadline = time.monotonic() + self.settings.timeout_ms / 1000

    def _cluster_failure(self, what: str, cause: BaseException | None = None) -> KafkaOffsetsError:
        auth = self._auth_failure()
        if auth is not None:
            return auth
        secs = self.settings.timeout_ms / 1000
        detail = ""
        if cause is not None and isinstance(cause, KafkaException) and cause.args:
            err = cause.args[0]
            if isinstance(err, KafkaError) and err.code() not in (
                KafkaError._TIMED_OUT,
                KafkaError._TRANSPORT,
            ):
                detail = f": {_short(err.str())}"
        return ClusterUnreachable(
            self._redact(
                f"{what}: no answer from {self.settings.bootstrap_servers} within {secs:g}s{detail}"
            ),
            hint="check --bootstrap-server, the network, and security settings (--command-config)",
        )

    def _auth_failure(self) -> AuthenticationFailed | None:
        """The first authentication or TLS handshake failure librdkafka reported, as the tool's error."""
        with self._lock:
            errs = [e for e in self._errors if e.code() in _AUTH_CODES]
        if not errs:
            return None
        e = errs[0]
        kind = "TLS handshake" if e.code() == KafkaError._SSL else "authentication"
        # "sasl_ssl://host:port/bootstrap: SSL handshake failed: ... (after 4ms in state SSL_HANDSHAKE)"
        detail = re.sub(r"^\S+://\S+?: ", "", _short(e.str()))
        detail = re.sub(r"\s*\(after \d+ms in state \w+\)$", "", detail)
        return AuthenticationFailed(
            self._redact(f"{kind} failed with {self.settings.bootstrap_servers}: {detail}"),
            hint="check the credentials and TLS settings (--command-config, -X)",
        )

    def _await(self, f: Future[_T], timeout: float) -> _T:
        """``f.result(timeout)``, serving the client's callbacks meanwhile.

        librdkafka reports a failed SASL authentication or TLS handshake only to
        ``error_cb``, which runs when the client is polled; the request itself just
        waits for ``--timeout``. Polling while waiting ends the wait at once with
        :class:`AuthenticationFailed` (exit 4) instead, and lets Ctrl-C through.
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                return f.result(timeout=min(_POLL_S, max(0.0, deadline - time.monotonic())))
            except FutureTimeout:
                if time.monotonic() >= deadline:
                    raise
            admin = self._admin
            if admin is not None:
                admin.poll(0)
            failure = self._auth_failure()
            if failure is not None:
                raise failure

    def close(self) -> None:
        """Release the client (librdkafka threads stop when it is collected)."""
        admin = self._admin
        self._admin = None  # type: ignore[assignment]
        if admin is not None:
            admin.poll(0)  # deliver pending log lines (--debug) and error callbacks

    def __enter__(self) -> KafkaClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- metadata ---------------------------------------------------------------

    def metadata(
        self,
        topic: str | None = None,
        *,
        only: Callable[[str], bool] | None = None,
        names: Sequence[str] | None = None,
    ) -> ClusterMetadata:
        """Topic metadata for the whole cluster (or one topic, or the topics ``names``).

        ``only``: keep just the topics whose name it accepts. Kafka answers with every
        topic of the cluster; turning tens of thousands of partitions into models costs
        more than the request when a selection needs a few of them.

        ``names``: describe just these topics (one request however large the cluster);
        each name is in the answer, with its partitions or its error
        (``UNKNOWN_TOPIC_OR_PARTITION``, ``TOPIC_AUTHORIZATION_FAILED``…).
        """
        if names is not None:
            return self._describe_topics(names)
        timeout = max(0.5, self.remaining())
        try:
            md = self._await(_in_thread(self._admin.list_topics, topic=topic, timeout=timeout), timeout + 5)
        except (KafkaException, FutureTimeout) as e:
            raise self._cluster_failure("metadata request", e) from None
        topics: dict[str, TopicInfo] = {}
        for name, t in md.topics.items():
            if only is not None and not only(name):
                continue
            terr = error_name(t.error) if t.error is not None else None
            parts = tuple(
                PartitionInfo(
                    name,
                    p.id,
                    p.leader,
                    tuple(p.replicas),
                    tuple(p.isrs),
                    error_name(p.error) if p.error is not None else None,
                )
                for p in sorted(t.partitions.values(), key=lambda p: p.id)
            )
            topics[name] = TopicInfo(name, parts, internal=name.startswith("__"), error=terr)
        brokers = {b.id: f"{b.host}:{b.port}" for b in md.brokers.values()}
        return ClusterMetadata(topics, brokers, md.cluster_id, md.controller_id)

    def _describe_topics(self, names: Sequence[str]) -> ClusterMetadata:
        """DescribeTopics for ``names``: the topics found, and each other name with its error."""
        from confluent_kafka import TopicCollection

        wanted = list(dict.fromkeys(names))
        if not wanted:
            return ClusterMetadata({})
        timeout = max(0.5, self.remaining())
        try:
            futs = self._admin.describe_topics(TopicCollection(wanted), request_timeout=timeout)
        except KafkaException as e:
            raise self._cluster_failure("describe topics", e) from None
        topics: dict[str, TopicInfo] = {}
        for name, f in futs.items():
            try:
                d = self._await(f, timeout + 5)
            except FutureTimeout as e:
                raise self._cluster_failure("describe topics", e) from None
            except KafkaException as e:
                err = _exc_name(e)
                if err in CLUSTER_DOWN:
                    raise self._cluster_failure("describe topics", e) from None
                topics[name] = TopicInfo(name, (), internal=name.startswith("__"), error=err)
                continue
            parts = tuple(
                PartitionInfo(
                    name,
                    p.id,
                    p.leader.id if p.leader is not None else -1,
                    tuple(r.id for r in p.replicas),
                    tuple(r.id for r in p.isr),
                )
                for p in sorted(d.partitions, key=lambda p: p.id)
            )
            topics[name] = TopicInfo(name, parts, internal=name.startswith("__"))
        return ClusterMetadata(topics)

    # -- ListOffsets ------------------------------------------------------------

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
        iso = _isolation(isolation or self.settings.isolation)
        final: dict[tuple[TopicPartition, OffsetSpec], OffsetResult] = {}
        pending: list[OffsetRequest] = [r for r in requests if len(r)]
        backoff = 0.1
        attempt = 0
        attempt_limit = FIRST_ATTEMPT_S
        with _gc_paused():
            while pending:
                attempt += 1
                # A request queued for a dead or frozen broker waits out its whole timeout: each
                # attempt gets a share of --timeout, so moved partitions are asked again in time.
                limit = min(max(0.5, self.remaining()), attempt_limit)
                attempt_limit *= 2
                tick = progress if attempt == 1 else None
                answers = dict(self._submit_and_wait(pending, iso, tick, limit))
                final.update(answers)
                retry = [k for k, r in answers.items() if r.error is not None and r.error in RETRIABLE]
                if not retry or self.remaining() <= backoff:
                    break
                log.debug(
                    "retrying %d queries after %s", len(retry), sorted({str(final[k].error) for k in retry})
                )
                time.sleep(backoff)
                backoff = min(backoff * 2, 1.0)
                self._refresh_leaders({tp.topic for tp, _ in retry})
                pending = _regroup(retry)
        return list(final.values())

    def _refresh_leaders(self, topics: set[str]) -> None:
        """Fresh metadata for ``topics`` before a retry.

        librdkafka's ListOffsets sends each partition to the leader in its metadata
        cache, where a dead leader stays until something refreshes it.
        """
        timeout = min(max(0.5, self.remaining()), FIRST_ATTEMPT_S)
        try:
            if len(topics) == 1:
                one = next(iter(topics))
                self._await(_in_thread(self._admin.list_topics, topic=one, timeout=timeout), timeout + 5)
            else:
                self._await(_in_thread(self._admin.list_topics, timeout=timeout), timeout + 5)
        except (KafkaException, FutureTimeout) as e:
            log.debug("metadata refresh before a retry failed: %s", _exc_name(e))

    def _submit_and_wait(
        self,
        requests: Sequence[OffsetRequest],
        iso: Any,
        progress: Callable[[int], None] | None,
        timeout: float,
    ) -> Iterable[tuple[tuple[TopicPartition, OffsetSpec], OffsetResult]]:
        """Submit every call at once, then collect them in order: ((partition, spec), result) pairs."""
        submitted = [(req, self._submit(req, iso, timeout)) for req in requests]
        for req, outcome in submitted:
            yield from self._collect(req, outcome, timeout)
            if progress is not None:
                progress(len(req))

    def _submit(self, req: OffsetRequest, iso: Any, timeout: float) -> _Outcome:
        """Start one ``list_offsets`` call; never waits.

        The fast path hands librdkafka the whole call with ONE future, resolved to
        ``{TopicPartition: ListOffsetsResultInfo | KafkaError}``; confluent-kafka's
        public ``AdminClient.list_offsets`` makes a ``concurrent.futures.Future`` per
        partition (tens of microseconds each, plus GC pressure), which dominated
        ``list`` over thousands of partitions. The public API stays the fallback
        when the C entry point is missing or its signature differs.
        """
        if self._fast and _C_LIST_OFFSETS is not None:
            f: Future[Any] = Future()
            f.set_running_or_notify_cancel()
            tps = [CTopicPartition(tp[0], tp[1], spec.kafka_time) for tp, spec in req.queries]
            try:
                _C_LIST_OFFSETS(self._admin, tps, f, request_timeout=timeout, isolation_level_value=iso.value)
            except KafkaException as e:
                return e
            except (TypeError, AttributeError) as e:  # confluent-kafka changed its private API
                log.debug("direct ListOffsets call unavailable (%s); using AdminClient.list_offsets", e)
                self._fast = False
            else:
                return f
        query = {CTopicPartition(tp.topic, tp.partition): _coffset(spec) for tp, spec in req.queries}
        try:
            futs: dict[Any, Future[Any]] = self._admin.list_offsets(
                query, isolation_level=iso, request_timeout=timeout
            )
        except KafkaException as e:
            return e
        return futs

    def _collect(
        self, req: OffsetRequest, outcome: _Outcome, timeout: float
    ) -> Iterable[tuple[tuple[TopicPartition, OffsetSpec], OffsetResult]]:
        if isinstance(outcome, BaseException):
            name = _offsets_exc_name(outcome)
            for key in req.queries:
                yield key, OffsetResult(key[0].topic, key[0].partition, key[1], None, error=name)
            return
        if isinstance(outcome, Future):
            yield from _collect_one_future(req, outcome, timeout, self._await)
            return
        by_tp = {(c.topic, c.partition): f for c, f in outcome.items()}
        for key in req.queries:
            tp, spec = key
            f = by_tp[(tp.topic, tp.partition)]
            try:
                info = self._await(f, timeout + 5)
            except KafkaException as e:
                yield key, OffsetResult(tp.topic, tp.partition, spec, None, error=_offsets_exc_name(e))
                continue
            except FutureTimeout:
                yield key, OffsetResult(tp.topic, tp.partition, spec, None, error="REQUEST_TIMED_OUT")
                continue
            yield key, _to_result(tp, spec, info.offset, info.timestamp, info.leader_epoch)

    # -- consumer groups ---------------------------------------------------------

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        """Committed offsets of each group, all groups queried concurrently.

        Only groups whose coordinator has answered are asked: librdkafka (through 2.16 at
        least, confluentinc/librdkafka#5040) crashes the process when an admin client's
        OffsetFetch is answered NOT_COORDINATOR. :meth:`describe_groups` (which handles
        that answer, and waits while the coordinator is not ready) goes first for groups
        not described yet; a group whose coordinator never became ready within
        ``--timeout`` is reported with that error.
        """
        from confluent_kafka import ConsumerGroupTopicPartitions

        unknown = [g for g in dict.fromkeys(groups) if g not in self._coordinator_ready]
        not_ready = {
            g: d.error or "COORDINATOR_NOT_AVAILABLE"
            for g, d in (self.describe_groups(unknown) if unknown else {}).items()
            if g not in self._coordinator_ready
        }
        timeout = max(0.5, self.remaining())
        tps = [CTopicPartition(tp.topic, tp.partition) for tp in partitions] if partitions else None
        futures: list[tuple[str, Any]] = []
        for g in groups:
            if g in not_ready:
                futures.append((g, not_ready[g]))
                continue
            req = ConsumerGroupTopicPartitions(g, tps) if tps else ConsumerGroupTopicPartitions(g)
            try:
                fmap = self._admin.list_consumer_group_offsets([req], request_timeout=timeout)
            except KafkaException as e:
                futures.append((g, e))
                continue
            futures.append((g, fmap[g]))
        out: list[GroupOffsets] = []
        for g, f in futures:
            if isinstance(f, str):
                out.append(GroupOffsets(g, {}, f))
                continue
            if isinstance(f, BaseException):
                out.append(GroupOffsets(g, {}, _exc_name(f)))
                continue
            try:
                res = self._await(f, timeout + 5)
            except KafkaException as e:
                name = _exc_name(e)
                if name in CLUSTER_DOWN:
                    raise self._cluster_failure("offset fetch", e) from None
                out.append(GroupOffsets(g, {}, name))
                continue
            offsets: dict[TopicPartition, int | None] = {}
            for ctp in res.topic_partitions or []:
                off = ctp.offset if ctp.offset is not None and ctp.offset >= 0 else None
                offsets[TopicPartition(ctp.topic, ctp.partition)] = off
            out.append(GroupOffsets(g, offsets))
        return out

    def group_ids(self) -> list[str]:
        """The ids of the cluster's consumer groups, sorted (used by shell completion)."""
        timeout = max(0.5, self.remaining())
        try:
            res = self._await(self._admin.list_consumer_groups(request_timeout=timeout), timeout + 5)
        except KafkaException as e:
            raise self._cluster_failure("group listing", e) from None
        return sorted(str(g.group_id) for g in res.valid)

    # -- consumer groups, configs and marker checks (lag, liveness, rewind) ------------

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """State, member count and assigned partitions of each group (all described at once).

        A group whose coordinator is not ready (:data:`COORDINATOR_NOT_READY`) is asked
        again, with a growing pause, while ``--timeout`` allows; its last answer stands.
        """
        pending = list(dict.fromkeys(groups))
        out: dict[str, GroupDescription] = {}
        backoff = 0.05
        while pending:
            out.update(self._describe_groups_once(pending))
            ready = {g for g in pending if out[g].error not in COORDINATOR_NOT_READY}
            self._coordinator_ready |= ready
            self._coordinator_ready -= set(pending) - ready  # moved since (--watch): ask again
            pending = [g for g in pending if g not in ready]
            if not pending or self.remaining() <= backoff:
                break
            log.debug("coordinator not ready for %d group(s); asking again", len(pending))
            time.sleep(backoff)
            backoff = min(backoff * 2, 1.0)
        return out

    def _describe_groups_once(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        """One DescribeConsumerGroups round for ``groups``."""
        if not groups:
            return {}
        timeout = max(0.5, self.remaining())
        try:
            futs = self._admin.describe_consumer_groups(list(groups), request_timeout=timeout)
        except KafkaException as e:
            raise self._cluster_failure("describe consumer groups", e) from None
        out: dict[str, GroupDescription] = {}
        for g, f in futs.items():
            try:
                d = self._await(f, timeout + 5)
            except KafkaException as e:
                name = _exc_name(e)
                if name in CLUSTER_DOWN:
                    raise self._cluster_failure("describe consumer groups", e) from None
                out[g] = GroupDescription(g, None, 0, (), name)
                continue
            assigned = sorted(
                {
                    TopicPartition(tp.topic, tp.partition)
                    for m in d.members or []
                    if m.assignment is not None
                    for tp in m.assignment.topic_partitions or []
                }
            )
            out[g] = GroupDescription(g, _group_state(d.state), len(d.members or []), tuple(assigned))
        return out

    def alter_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """Commit ``offsets`` for ``group`` (AdminClient alter consumer group offsets).

        Returns each partition's error name (``None``: committed). A request-level
        failure (e.g. ``UNKNOWN_MEMBER_ID`` because the group became active) is
        reported for every partition.
        """
        from confluent_kafka import ConsumerGroupTopicPartitions

        timeout = max(0.5, self.remaining())
        req = ConsumerGroupTopicPartitions(group, _ctps(offsets))
        try:
            futs = self._admin.alter_consumer_group_offsets([req], request_timeout=timeout)
            res = self._await(futs[group], timeout + 5)
        except KafkaException as e:
            name = _exc_name(e)
            if name in CLUSTER_DOWN:
                raise self._cluster_failure("alter consumer group offsets", e) from None
            return {tp: name for tp in offsets}
        out: dict[TopicPartition, str | None] = {tp: None for tp in offsets}
        for ctp in res.topic_partitions or []:
            err = getattr(ctp, "error", None)
            out[TopicPartition(ctp.topic, ctp.partition)] = error_name(err) if err is not None else None
        return out

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        """The values of ``keys`` for each topic (DescribeConfigs, one call).

        A topic whose configs cannot be described (no DESCRIBE_CONFIGS permission,
        deleted meanwhile) is left out; callers show its values as unknown.
        """
        from confluent_kafka.admin import ConfigResource, ResourceType  # type: ignore[attr-defined]

        if not topics:
            return {}
        timeout = max(0.5, self.remaining())
        resources = [ConfigResource(ResourceType.TOPIC, t) for t in dict.fromkeys(topics)]
        try:
            futs = self._admin.describe_configs(resources, request_timeout=timeout)
        except KafkaException as e:
            raise self._cluster_failure("describe topic configs", e) from None
        out: dict[str, dict[str, str]] = {}
        for res, f in futs.items():
            try:
                entries = self._await(f, timeout + 5)
            except KafkaException as e:
                log.debug("describe configs of %s: %s", res.name, _exc_name(e))
                continue
            out[res.name] = {
                k: str(entries[k].value) for k in keys if k in entries and entries[k].value is not None
            }
        return out

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]], *, max_wait: float = 10.0
    ) -> dict[tuple[TopicPartition, int], bool | str]:
        """Whether the record at each (partition, offset) is a control record (transaction marker).

        ListOffsets cannot tell (it returns markers like records), so this fetches: a
        consumer (READ permission on the topic) is assigned at each offset without
        joining any group or committing. The first data record delivered at the
        offset means "data" (False); data only after it, or reaching the end of the
        partition beyond it, means the offset holds a control record (True); an
        error name (str) when neither could be seen within ``max_wait`` seconds.
        """
        if not points:
            return {}
        conf: dict[str, Any] = dict(self.settings.librdkafka_config())
        conf.setdefault("reconnect.backoff.ms", RECONNECT_BACKOFF_MS)
        conf.update(
            {
                "group.id": "kafka-offsets-marker-check",
                "enable.auto.commit": False,
                "enable.auto.offset.store": False,
                "enable.partition.eof": True,
                "isolation.level": "read_uncommitted",
                "fetch.max.bytes": 1024 * 1024,
                "max.partition.fetch.bytes": 65536,
                "error_cb": self._on_error,
                "logger": rdlog,
            }
        )
        by_tp: dict[TopicPartition, list[int]] = {}
        for tp, off in points:
            by_tp.setdefault(tp, []).append(off)
        out: dict[tuple[TopicPartition, int], bool | str] = {}
        # One consumer assignment per round: a partition can be read at one offset at a time.
        while by_tp:
            round_ = {tp: offs.pop() for tp, offs in by_tp.items()}
            by_tp = {tp: offs for tp, offs in by_tp.items() if offs}
            out.update(self._probe(conf, round_, min(max_wait, max(0.5, self.remaining()))))
        return out

    def _probe(
        self, conf: dict[str, Any], wanted: dict[TopicPartition, int], wait: float
    ) -> dict[tuple[TopicPartition, int], bool | str]:
        from confluent_kafka import Consumer

        try:
            consumer = Consumer(conf)
        except KafkaException as e:
            raise self._config_error(e) from None
        result: dict[tuple[TopicPartition, int], bool | str] = {}
        try:
            consumer.assign([CTopicPartition(tp.topic, tp.partition, off) for tp, off in wanted.items()])
            deadline = time.monotonic() + wait
            pending = dict(wanted)
            while pending and time.monotonic() < deadline:
                msg = consumer.poll(min(0.5, max(0.01, deadline - time.monotonic())))
                if msg is None:
                    continue
                tp = TopicPartition(str(msg.topic()), int(msg.partition() or 0))
                off = pending.get(tp)
                err = msg.error()
                if err is not None and err.code() != KafkaError._PARTITION_EOF:
                    if msg.topic() is None:
                        continue  # a client-level event, not about a partition
                    if off is not None:
                        result[(tp, off)] = error_name(err)
                        del pending[tp]
                    continue
                if off is None:
                    continue
                seen = msg.offset()
                if seen is None:
                    continue
                if err is None and seen == off:
                    result[(tp, off)] = False
                    del pending[tp]
                elif seen > off:
                    result[(tp, off)] = True  # data after it, or the end past it: a control record
                    del pending[tp]
            for tp, off in pending.items():
                result[(tp, off)] = "REQUEST_TIMED_OUT"
        finally:
            consumer.close()
        return result


def _regroup(queries: list[tuple[TopicPartition, OffsetSpec]]) -> list[OffsetRequest]:
    from .planner import plan_queries

    return plan_queries(queries, DEFAULT_CHUNK)


def _collect_one_future(
    req: OffsetRequest, f: Future[Any], timeout: float, wait: Callable[[Future[Any], float], Any]
) -> Iterable[tuple[tuple[TopicPartition, OffsetSpec], OffsetResult]]:
    """Results of a fast-path call: one future holding every partition's answer or error."""
    try:
        answers: dict[Any, Any] = wait(f, timeout + 5)
    except FutureTimeout:
        answers, failure = {}, "REQUEST_TIMED_OUT"
    except KafkaException as e:
        answers, failure = {}, _offsets_exc_name(e)
    else:
        failure = "UNKNOWN"  # a partition missing from the answer (librdkafka never does this)
    # keyed by (topic, partition): a TopicPartition is that tuple, so it looks itself up
    by_tp = {(c.topic, c.partition): v for c, v in answers.items()}
    for key in req.queries:
        tp, spec = key
        info = by_tp.get(tp)
        if info is None:
            yield key, OffsetResult(tp[0], tp[1], spec, None, error=failure)
        elif isinstance(info, KafkaError):
            yield key, OffsetResult(tp[0], tp[1], spec, None, error=_partition_error(info))
        else:
            yield key, _to_result(tp, spec, info.offset, info.timestamp, info.leader_epoch)


def _in_thread(fn: Callable[..., _T], *args: Any, **kwargs: Any) -> Future[_T]:
    """Start ``fn(*args, **kwargs)`` in a helper thread; its future.

    confluent-kafka's blocking calls (``list_topics``) hold their thread in C until
    they return -- up to ``--timeout`` against a frozen broker -- while the caller
    should poll for authentication failures and react to Ctrl-C (see ``_await``).
    """
    done: Future[_T] = Future()
    done.set_running_or_notify_cancel()

    def run() -> None:
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as e:
            done.set_exception(e)

    threading.Thread(target=run, name="kafka-offsets-call", daemon=True).start()
    return done


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Suspend the cyclic garbage collector while results pile up (reference counting still frees).

    Tens of thousands of new result objects trigger repeated full collections that
    scan every live object: ~15% of ``list``'s CPU over 10,000 partitions x 4 specs.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


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


def _exc_name(e: BaseException) -> str:
    if isinstance(e, KafkaException) and e.args and isinstance(e.args[0], KafkaError):
        return error_name(e.args[0])
    return type(e).__name__


def _short(text: str) -> str:
    return text.splitlines()[0][:400] if text else ""


def _is_secret_key(key: str) -> bool:
    from .config import is_secret

    return is_secret(key)


def library_versions() -> tuple[str, str]:
    """confluent-kafka's and librdkafka's versions."""
    import confluent_kafka

    ck = confluent_kafka.version()  # a (str, int) tuple in older releases, a str in newer ones
    rd = confluent_kafka.libversion()
    return str(ck[0] if isinstance(ck, tuple) else ck), str(rd[0] if isinstance(rd, tuple) else rd)
