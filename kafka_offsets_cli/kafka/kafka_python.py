"""The one adapter to kafka-python: its admin client, and the two internals the tool needs from it.

librdkafka cannot send ListOffsets v8-v11 (the tiered specs, :mod:`.tiered`), and its
ListConsumerGroupOffsets and DescribeConsumerGroups abort the process when a group's coordinator
changes under them (librdkafka #3663, #5040; :mod:`.offset_fetch`, :mod:`.describe_groups`).
Those requests are built from kafka-python's protocol classes (generated from Kafka's own
schemas) and sent here.
kafka-python has no public API for "send this request to that broker", so two private
surfaces are used, and only in this module:

* running a coroutine on the client's network thread: ``admin._net.run`` (3.0.x and the
  coming 3.1, where ``admin._manager.run`` is gone: kafka-python #3142), else
  ``admin._manager.run`` (older 3.0 releases);
* sending a request to a node: ``admin._manager.send(request, node_id=..., request_timeout_ms=...)``,
  and ``admin._get_cluster_metadata(topics)`` for partition leaders.

The route is detected once per client; when none exists the run ends with one line naming
the installed kafka-python version and the supported range (:data:`SUPPORTED`).
kafka-python's own logging is relayed with the secrets masked (:class:`_Relay`).
"""

from __future__ import annotations

import base64
import inspect
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]
from kafka.admin import KafkaAdminClient  # type: ignore[import-untyped]
from kafka.net.sasl.oauth import AbstractTokenProvider  # type: ignore[import-untyped]
from kafka.version import __version__ as VERSION  # type: ignore[import-untyped]

from ..connection.settings import ClientSettings, redact
from ..errors import AuthenticationFailed, ClusterUnreachable, ConfigError
from .bootstrap_race import HEAD_START_S, NoWinner, race
from .deadline import ANSWER_SLACK_S, Deadline
from .errors import KAFKA_ERROR_NAMES
from .tiered_config import OAuthToken, kafka_python_config

#: The kafka-python releases this adapter is written for (pyproject's dependency says the same).
SUPPORTED = ">=3.0.12,<3.2"


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


class Route:
    """How to run a coroutine on a kafka-python admin client's network thread, and send on it."""

    def __init__(self, admin: Any) -> None:
        net, manager = getattr(admin, "_net", None), getattr(admin, "_manager", None)
        run = getattr(net, "run", None) or getattr(manager, "run", None)
        send = getattr(manager, "send", None)
        metadata = getattr(admin, "_get_cluster_metadata", None)
        if not (callable(run) and callable(send) and callable(metadata)):
            raise ConfigError(
                f"kafka-python {VERSION} is installed, which kafka-offsets cannot send requests through (no "
                f"admin._net.run or admin._manager.run, admin._manager.send); install kafka-python{SUPPORTED}"
            )
        self._run: Callable[..., Any] = run
        self._send: Callable[..., Any] = send
        # bounded waits: a connection to a frozen broker stays "initializing" for kafka-python's own
        # connection set-up timeout (10 s), longer than a request's; 3.0.x manager.wait_for, 3.1 net.await_for
        bound = getattr(net, "await_for", None) or getattr(manager, "wait_for", None)
        self._bound: Callable[[Any, int], Awaitable[Any]] | None = bound if callable(bound) else None
        self._metadata: Callable[[list[str]], Awaitable[dict[str, Any]]] = metadata
        try:  # kafka-python 3.1 bounds the caller's wait (default_api_timeout_ms unless told)
            self._run_takes_timeout = "timeout_ms" in inspect.signature(run).parameters
        except (TypeError, ValueError):
            self._run_takes_timeout = False

    def run(self, coro_fn: Callable[..., Awaitable[Any]], *args: Any, timeout_s: float) -> Any:
        """``await coro_fn(*args)`` on the network thread; its result (blocks the caller)."""
        if self._run_takes_timeout:
            return self._run(coro_fn, *args, timeout_ms=int((timeout_s + ANSWER_SLACK_S) * 1000))
        return self._run(coro_fn, *args)

    def send(self, request: Any, node_id: int | None, timeout_ms: int) -> Awaitable[Any]:
        """Send ``request`` to ``node_id`` (``None``: the least loaded node); its answer, awaitable.

        The answer is awaited at most ``timeout_ms`` (then ``KafkaTimeoutError``), however long the
        connection takes to set up. kafka-python's failure to send at all may raise here.
        """
        future = self._send(request, node_id=node_id, request_timeout_ms=timeout_ms)
        if self._bound is None:
            return future  # type: ignore[no-any-return]
        return self._bound(future, timeout_ms)

    async def metadata(self, topics: list[str]) -> dict[str, Any]:
        """A Metadata answer for ``topics`` (kafka-python's dict form)."""
        return await self._metadata(topics)


class KafkaPython:
    """A kafka-python admin client for one cluster, made on first use, shared by its users."""

    def __init__(self, settings: ClientSettings, deadline: Deadline) -> None:
        self._settings = settings
        self._deadline = deadline
        self._admin: Any = None
        self._route: Route | None = None

    def route(self) -> Route:
        """The client's route (the client is made, and the route detected, on the first call)."""
        if self._route is None:
            self._route = Route(self._client())
        return self._route

    def close(self) -> None:
        """Close kafka-python's client (its network thread stops)."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
            self._route = None

    def _client(self) -> Any:
        if self._admin is not None:
            return self._admin
        tc = kafka_python_config(self._settings)
        conf = dict(tc.config)
        _RELAY.secrets.update(str(conf[k]) for k in ("sasl_plain_password", "ssl_password") if conf.get(k))
        if tc.oauth is not None and tc.oauth.client_secret:
            _RELAY.secrets.add(tc.oauth.client_secret)
        if tc.oauth is not None:
            conf["sasl_oauth_token_provider"] = _Token(tc.oauth)
        # kafka-python holds on a frozen bootstrap server: clients race over the servers (.bootstrap_race)
        try:
            self._admin = race(
                lambda servers: self._bootstrapped(conf, servers),
                list(conf["bootstrap_servers"]),
                self._deadline,
                head_start_s=min(HEAD_START_S, self._deadline.seconds / 3),
                failure=kerrors.KafkaError,
                discard=lambda admin: admin.close(),
            )
        except NoWinner as e:
            # worded as every command's "unreachable" (errors.cluster_unreachable): the same cause,
            # whichever client met it first (rewind asks kafka-python first, for the group's type)
            where, secs = self._settings.bootstrap_servers, self._settings.timeout_ms / 1000
            raise ClusterUnreachable(
                f"no answer from {where} within {secs:g}s (kafka-python client: {e})",
                hint="check --bootstrap-server, the network, and security settings (--command-config)",
            ) from None
        return self._admin

    def _bootstrapped(self, conf: dict[str, Any], servers: list[str]) -> Any:
        """A kafka-python admin client bootstrapped from ``servers``, given what remains of --timeout."""
        budget_ms = max(1000, int(self._deadline.request_timeout() * 1000))
        conf = {**conf, "bootstrap_servers": servers, "bootstrap_timeout_ms": budget_ms}
        conf["request_timeout_ms"] = budget_ms
        if "default_api_timeout_ms" in KafkaAdminClient.DEFAULT_CONFIG:  # 3.1: >= request_timeout_ms
            conf["default_api_timeout_ms"] = max(budget_ms, 60000)
        try:
            return KafkaAdminClient(**conf)
        except (kerrors.SaslAuthenticationFailedError, kerrors.AuthorizationError) as e:
            raise AuthenticationFailed(f"authentication failed (kafka-python): {type(e).__name__}") from None
        except kerrors.KafkaConfigurationError as e:
            raise ConfigError(f"client configuration for kafka-python: {type(e).__name__}") from None


def error_name(e: BaseException) -> str:
    """A failed kafka-python request's error as the rest of the tool names it."""
    if isinstance(e, kerrors.KafkaTimeoutError | kerrors.RequestTimedOutError):
        return "REQUEST_TIMED_OUT"
    if isinstance(e, kerrors.KafkaConnectionError | kerrors.NodeNotReadyError):
        return "TRANSPORT"
    if isinstance(e, kerrors.UnknownBrokerIdError):
        # a leader or coordinator that kafka-python's metadata no longer lists (KRaft leaves a fenced
        # broker out of metadata answers): Kafka's name for it, retriable at a fresh leader
        return "BROKER_NOT_AVAILABLE"
    if isinstance(e, kerrors.BrokerResponseError) and getattr(e, "errno", None) is not None:
        return KAFKA_ERROR_NAMES.get(e.errno) or str(e.message)
    return type(e).__name__


def code_name(code: int) -> str:
    """Kafka's name of an error code in an answer."""
    return KAFKA_ERROR_NAMES.get(code) or str(kerrors.for_code(code).message)


def group_error(answer: Any) -> str | None:
    """The error of one group's entry in a coordinator's answer: ``COORDINATOR_NOT_AVAILABLE`` when
    no answer came (``None``), the name of its error code, or ``None`` when it was answered."""
    if answer is None:
        return "COORDINATOR_NOT_AVAILABLE"
    return code_name(answer.error_code) if answer.error_code else None


#: kafka-python's failures of one request (reported per item, never lost with the others).
RequestError = kerrors.KafkaError


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
        import urllib.parse
        import urllib.request  # here: http.client and email, ~13 ms of import no other run needs

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


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
