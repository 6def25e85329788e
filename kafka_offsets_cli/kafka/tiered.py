"""ListOffsets v8-v11 for the tiered specs: the one module that imports kafka-python.

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
answer) and sent
on its admin client's connection manager: one request per spec and leader, all at once.

Same rules as :mod:`.list_offsets`: every partition gets its own answer or error
(Kafka's names), an offset of -1 is "no offset" (a topic without tiered storage answers
so for -5 and -6), retriable errors are asked again after fresh metadata while the
``--timeout`` budget (:mod:`.deadline`) lasts, each attempt a share of it.
"""

from __future__ import annotations

import base64
import json
import logging
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]
from kafka.admin import KafkaAdminClient  # type: ignore[import-untyped]
from kafka.net.sasl.oauth import AbstractTokenProvider  # type: ignore[import-untyped]
from kafka.protocol.consumer.offsets import ListOffsetsRequest  # type: ignore[import-untyped]

from ..connection.settings import ClientSettings, redact
from ..errors import AuthenticationFailed, ClusterUnreachable, ConfigError
from ..models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from ..models.topics import TopicPartition
from ..plan.requests import OffsetRequest
from .deadline import FIRST_ATTEMPT_S, Deadline
from .errors import KAFKA_ERROR_NAMES, RETRIABLE
from .settings import log
from .tiered_config import OAuthToken, kafka_python_config

#: The least ListOffsets version that carries each tiered code.
MIN_VERSION = {SpecKind.EARLIEST_LOCAL: 8, SpecKind.LATEST_TIERED: 9, SpecKind.EARLIEST_PENDING_UPLOAD: 11}


class _Relay(logging.Handler):
    """kafka-python's log records, secrets masked, re-logged as ``kafka_offsets.kafka_python``.

    kafka-python logs its whole configuration (passwords included) at debug level and connection
    failures at error level: unhandled, Python would print the latter on stderr, and ``--debug``
    (root logger at DEBUG) the former. Its ``kafka`` logger therefore stops here; what goes on
    is masked, and shown only with ``--debug`` (``kafka_offsets`` has a NullHandler otherwise).
    """

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.secrets: set[str] = set()
        self._out = logging.getLogger("kafka_offsets.kafka_python")

    def emit(self, record: logging.LogRecord) -> None:
        self._out.log(record.levelno, "%s: %s", record.name, redact(record.getMessage(), self.secrets))


_RELAY = _Relay()
_KAFKA_LOG = logging.getLogger("kafka")
_KAFKA_LOG.addHandler(_RELAY)
_KAFKA_LOG.propagate = False

_Topic = ListOffsetsRequest.ListOffsetsTopic
_Partition = _Topic.ListOffsetsPartition
_Key = tuple[TopicPartition, OffsetSpec]


class TieredLister:
    """ListOffsets for the tiered specs, on a kafka-python admin client made on first use."""

    def __init__(self, settings: ClientSettings, deadline: Deadline) -> None:
        self._settings = settings
        self._deadline = deadline
        self._admin: Any = None

    def close(self) -> None:
        """Close kafka-python's client (its network thread stops)."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None

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
        admin = self._client()
        iso = 1 if (isolation or self._settings.isolation) is Isolation.READ_COMMITTED else 0
        final: dict[_Key, OffsetResult] = {}
        pending, backoff, limit = queries, 0.1, FIRST_ATTEMPT_S
        while pending:
            timeout = self._deadline.request_timeout(limit)
            limit *= 2
            answers = admin._manager.run(_round, admin, pending, iso, int(timeout * 1000))
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

    def _client(self) -> Any:
        if self._admin is not None:
            return self._admin
        tc = kafka_python_config(self._settings)
        conf = dict(tc.config)
        _RELAY.secrets.update(str(conf[k]) for k in ("sasl_plain_password", "ssl_password") if conf.get(k))
        if tc.oauth is not None and tc.oauth.client_secret:
            _RELAY.secrets.add(tc.oauth.client_secret)
        budget_ms = max(1000, int(self._deadline.request_timeout() * 1000))
        conf.update(bootstrap_timeout_ms=budget_ms, request_timeout_ms=budget_ms)
        if tc.oauth is not None:
            conf["sasl_oauth_token_provider"] = _token_provider(tc.oauth)
        try:
            self._admin = KafkaAdminClient(**conf)
        except (kerrors.SaslAuthenticationFailedError, kerrors.AuthorizationError) as e:
            raise AuthenticationFailed(f"authentication failed (kafka-python): {type(e).__name__}") from None
        except kerrors.KafkaConfigurationError as e:
            raise ConfigError(f"client configuration for the tiered specs: {type(e).__name__}") from None
        except kerrors.KafkaError as e:
            raise ClusterUnreachable(
                f"cluster {self._settings.bootstrap_servers} did not answer the tiered-spec client "
                f"(kafka-python: {type(e).__name__})"
            ) from None
        return self._admin


async def _round(admin: Any, queries: Sequence[_Key], iso: int, timeout_ms: int) -> dict[_Key, OffsetResult]:
    """One attempt: fresh leaders, then one request per (spec, leader), all in flight at once."""
    out: dict[_Key, OffsetResult] = {}
    try:
        md = await admin._get_cluster_metadata(sorted({tp.topic for tp, _ in queries}))
    except kerrors.KafkaError as e:
        return {k: _error(k, _name(e)) for k in queries}
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
            sent.append(
                (spec, tps, admin._manager.send(_request(spec, tps, iso, timeout_ms), leader, timeout_ms))
            )
        except kerrors.KafkaError as e:  # kafka-python reports these on the future; never lose the others
            out.update({(tp, spec): _error((tp, spec), _name(e)) for tp in tps})
    for spec, tps, future in sent:
        try:
            response = await future
        except kerrors.KafkaError as e:
            out.update({(tp, spec): _error((tp, spec), _name(e)) for tp in tps})
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
        code = p.error_code
        return _error((tp, spec), KAFKA_ERROR_NAMES.get(code) or kerrors.for_code(code).message)
    epoch = p.leader_epoch if p.leader_epoch is not None and p.leader_epoch >= 0 else None
    if p.offset < 0:
        return OffsetResult(tp.topic, tp.partition, spec, None, None, epoch)
    return OffsetResult(tp.topic, tp.partition, spec, p.offset, None, epoch)


def _error(key: _Key, name: str) -> OffsetResult:
    tp, spec = key
    return OffsetResult(tp.topic, tp.partition, spec, None, error=name)


def _name(e: BaseException) -> str:
    """A failed request's error as the rest of the tool names it."""
    if isinstance(e, kerrors.KafkaTimeoutError | kerrors.RequestTimedOutError):
        return "REQUEST_TIMED_OUT"
    if isinstance(e, kerrors.KafkaConnectionError | kerrors.NodeNotReadyError):
        return "TRANSPORT"
    if isinstance(e, kerrors.BrokerResponseError) and getattr(e, "errno", None) is not None:
        return KAFKA_ERROR_NAMES.get(e.errno) or str(e.message)
    return type(e).__name__


class _Token(AbstractTokenProvider):  # type: ignore[misc]
    """OAUTHBEARER tokens: librdkafka's unsecured JWT, or an OIDC client-credentials grant (cached)."""

    def __init__(self, spec: OAuthToken) -> None:
        super().__init__()
        self._spec = spec
        self._token = ""
        self._expires = 0.0

    def token(self) -> str:
        if self._token and time.time() < self._expires - 30:
            return self._token
        s = self._spec
        if s.method == "unsecured":
            now = int(time.time())
            claims: dict[str, Any] = {"sub": s.principal, "iat": now, "exp": now + s.life_seconds}
            if s.scope:
                claims["scope"] = s.scope.split(",")
            self._token = f"{_b64(json.dumps({'alg': 'none'}))}.{_b64(json.dumps(claims))}."
            self._expires = now + s.life_seconds
            _RELAY.secrets.add(self._token)
            return self._token
        form = {"grant_type": "client_credentials", **({"scope": s.scope} if s.scope else {})}
        auth = base64.b64encode(f"{s.client_id}:{s.client_secret}".encode()).decode()
        req = urllib.request.Request(
            s.token_endpoint,
            data=urllib.parse.urlencode(form).encode(),
            headers={"Authorization": f"Basic {auth}", "Content-Type": "application/x-www-form-urlencoded"},
        )
        with urllib.request.urlopen(req, timeout=30) as resp:  # the user's OIDC token endpoint
            body = json.loads(resp.read())
        self._token = str(body["access_token"])
        _RELAY.secrets.add(self._token)
        self._expires = time.time() + float(body.get("expires_in", 300))
        return self._token

    def extensions(self) -> dict[str, str]:
        return dict(self._spec.extensions)


def _token_provider(spec: OAuthToken) -> Any:
    return _Token(spec)


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
