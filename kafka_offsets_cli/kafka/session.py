"""One admin client and what all its requests share: the deadline, librdkafka's error reports, waiting.

The parts of :class:`~kafka_offsets_cli.kafka.KafkaClient` (ListOffsets, admin reads,
groups, marker checks) each hold the same :class:`Session`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, TypeVar

from confluent_kafka import KafkaError, KafkaException
from confluent_kafka.admin import AdminClient

from ..connection.settings import ClientSettings, redact
from ..errors import AuthenticationFailed, ClusterUnreachable, ConfigError, KafkaOffsetsError
from ..lingering import CALL_THREAD
from .deadline import FIRST_ATTEMPT_S, MIN_REQUEST_S, Deadline
from .errors import (
    CLUSTER_DOWN,
    auth_failure,
    cluster_unreachable,
    config_error,
    connect_failed,
    connect_failure,
    error_name,
    require_utf8_settings,
)
from .settings import admin_config, log, mask_secrets_in_logs, rdlog

if TYPE_CHECKING:
    from .kafka_python import KafkaPython

_T = TypeVar("_T")

#: How often a wait on librdkafka polls for error callbacks (authentication failures).
_POLL_S = 0.1

#: Once librdkafka reports every broker down before anything answered, how long the tool still
#: waits for one to come up. A broker refusing connections, a host name not found or a TLS listener
#: spoken to in plaintext fails every attempt (one a second) and ends the run after this, with the
#: cause; --timeout is for slow clusters, not dead addresses. At most half of --timeout, so that a
#: short --timeout still ends with the cause rather than "no answer".
CONNECT_GRACE_S = 2.0


class Session:
    """An admin client for one cluster, with the tool's timeout and error rules."""

    def __init__(
        self, settings: ClientSettings, *, debug: bool = False, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        #: waits and the --timeout budget are measured on it (a test gives one that it moves)
        self._clock = clock
        self._reports: list[KafkaError] = []
        self._lock = threading.Lock()
        #: whether any request was ever answered (then a broker going down is not a dead address)
        self._answered = False
        #: when librdkafka first reported every broker down
        self._all_down_at: float | None = None
        #: the latest failed connection to each broker: (monotonic time, cause)
        self._connect_failures: dict[str, tuple[float, str]] = {}
        conf = admin_config(settings, self.on_error, debug=debug)
        conf["logger"] = _FailureLog(self)
        require_utf8_settings(conf)
        self._conf = conf
        self._secrets = mask_secrets_in_logs(conf)
        #: ``None`` once closed
        self.admin: Any = self._new_admin()
        self.deadline = Deadline(settings.timeout_ms / 1000, clock=clock)
        self._kafka_python: KafkaPython | None = None

    @property
    def answered(self) -> bool:
        """Whether a broker has answered a request yet (before: the client is still connecting)."""
        return self._answered

    def check_reachable(self) -> None:
        """One cheap DescribeCluster through librdkafka, unless a request was answered already.

        Before kafka-python is first asked: a wrong password, a TLS failure or an unreachable
        cluster is then librdkafka's one line (exit 4 or 3, see :meth:`wait`), where kafka-python's
        bootstrap would only time out. DescribeCluster goes to any broker, never a coordinator.
        """
        if self._answered:
            return

        def once(timeout: float) -> None:
            with self.failing_as("describe cluster"):
                self.wait(self.admin.describe_cluster(request_timeout=timeout), timeout)

        self.asked_again(once)

    @property
    def kafka_python_open(self) -> bool:
        """Whether this run has made its kafka-python client already (it read groups, or a tiered spec)."""
        return self._kafka_python is not None

    def kafka_python(self) -> KafkaPython:
        """The kafka-python client for the requests librdkafka cannot (or must not) send.

        kafka-python is imported on the first call only: runs that need neither a tiered spec nor
        committed offsets never load it.
        """
        self.check_reachable()  # a wrong password in librdkafka's words, not kafka-python's timeout
        if self._kafka_python is None:
            from .kafka_python import KafkaPython

            self._kafka_python = KafkaPython(self.settings, self.deadline)
        return self._kafka_python

    def _new_admin(self) -> Any:
        try:
            return AdminClient(self._conf)
        except KafkaException as e:
            raise self.config_error(e) from None
        except (ValueError, TypeError) as e:
            raise ConfigError(self.redact(f"invalid client configuration: {e}")) from None

    def reconnect(self) -> None:
        """Replace the admin client with a new one (new connections, fresh metadata).

        librdkafka keeps sending admin reads to the broker its metadata named
        (DescribeTopics goes to the "controller", which KRaft brokers report as a
        random live broker) even while that broker is frozen; measured: every retry
        on the same client timed out again. A new client learns the cluster anew.
        """
        old, self.admin = self.admin, self._new_admin()
        if old is not None:
            old.poll(0)

    # -- librdkafka's reports and the tool's errors ---------------------------------

    def on_error(self, err: KafkaError) -> None:
        """librdkafka's ``error_cb``: keep the report (authentication failures arrive only here)."""
        with self._lock:
            self._reports.append(err)
            if err.code() == KafkaError._ALL_BROKERS_DOWN and self._all_down_at is None:
                self._all_down_at = self._clock()
        self.note_failure(err.str())
        rdlog.debug("client error: %s", self.redact(str(err)))

    def note_failure(self, message: str) -> None:
        """Keep a failed connection that librdkafka's ``message`` (a report or a log line) tells of."""
        failed = connect_failed(message)
        if failed is not None:
            with self._lock:
                self._connect_failures[failed[0]] = (self._clock(), failed[1])

    def connect_failure(self) -> ClusterUnreachable | None:
        """Every broker failed to connect, nothing ever answered, and none came up within the grace.

        Only failures seen within the last :data:`CONNECT_GRACE_S` count: a broker that stopped
        failing may be up, its answer on the way.
        """
        now = self._clock()
        grace = min(CONNECT_GRACE_S, self.deadline.seconds / 2)
        with self._lock:
            if self._answered or self._all_down_at is None or now - self._all_down_at < grace:
                return None
            causes = {b: c for b, (t, c) in self._connect_failures.items() if now - t < CONNECT_GRACE_S}
        if not causes:
            return None
        return connect_failure(dict(sorted(causes.items())), self.settings, self.redact)

    def redact(self, text: str) -> str:
        """``text`` with the client's secrets masked."""
        return redact(text, self._secrets)

    def config_error(self, e: KafkaException) -> ConfigError:
        """A client (admin or consumer) that librdkafka refused to create."""
        return config_error(self.settings, e, self.redact)

    def auth_failure(self) -> AuthenticationFailed | None:
        """The first authentication or TLS handshake failure librdkafka reported, as the tool's error."""
        with self._lock:
            reports = list(self._reports)
        return auth_failure(reports, self.settings, self.redact)

    def cluster_failure(self, what: str, cause: BaseException | None = None) -> KafkaOffsetsError:
        """Why ``what`` got no answer: a reported authentication failure, else an unreachable cluster."""
        auth = self.auth_failure()
        if auth is not None:
            return auth
        return cluster_unreachable(what, cause, self.settings, self.redact)

    @contextlib.contextmanager
    def failing_as(self, what: str) -> Iterator[None]:
        """A whole request (``what``) that fails or times out is the cluster's failure (exit 3 or 4)."""
        try:
            yield
        except (KafkaException, FutureTimeout) as e:
            raise self.cluster_failure(what, e) from None

    def item_error(self, e: BaseException, what: str) -> str:
        """The error name of one item's failed answer in ``what`` (a topic, a group).

        Raises the cluster's failure instead when the answer says the cluster did not
        answer at all (:data:`~.errors.CLUSTER_DOWN`, or no answer within the wait).
        """
        name = error_name(e)
        if isinstance(e, FutureTimeout) or name in CLUSTER_DOWN:
            raise self.cluster_failure(what, e) from None
        return name

    # -- waiting ---------------------------------------------------------------------

    def wait(self, f: Future[_T], request_timeout: float) -> _T:
        """The answer of a request sent with ``request_timeout``, serving the client's callbacks meanwhile.

        librdkafka reports a failed SASL authentication or TLS handshake only to
        ``error_cb``, which runs when the client is polled; the request itself just
        waits for ``--timeout``. Polling while waiting ends the wait at once with
        :class:`AuthenticationFailed` (exit 4) instead, and lets Ctrl-C through.
        Raises :class:`concurrent.futures.TimeoutError` when no answer came in time.
        """
        deadline = self.deadline.answer_by(request_timeout)
        while True:
            try:
                answer = f.result(timeout=min(_POLL_S, max(0.0, deadline - self._clock())))
                self._answered = True
                return answer
            except FutureTimeout:
                if self._clock() >= deadline:
                    raise
            admin = self.admin
            if admin is not None:
                admin.poll(0)
            failure = self.auth_failure() or self.connect_failure()
            if failure is not None:
                raise failure

    def asked_again(self, read: Callable[[float], _T]) -> _T:
        """``read(request_timeout)``, sent again while a whole attempt goes unanswered and --timeout allows.

        The first attempt gets at most :data:`~.deadline.FIRST_ATTEMPT_S`, each later one
        twice as long: a read that went to a frozen broker (not yet fenced by the
        controller) is asked again elsewhere instead of waiting out --timeout, as
        ListOffsets is. A failure that came sooner (refused, authentication) is final.
        """
        cap = FIRST_ATTEMPT_S
        while True:
            timeout = self.deadline.request_timeout(cap)
            started = self._clock()
            try:
                return read(timeout)
            except ClusterUnreachable:
                unanswered = self._clock() - started >= timeout
                if not unanswered or self.deadline.remaining() < MIN_REQUEST_S:
                    raise
                log.debug("no answer within %.1fs: asking again on a new connection", timeout)
                self.reconnect()
                cap *= 2

    def call(self, fn: Callable[..., _T], request_timeout: float, **kwargs: Any) -> _T:
        """``fn(timeout=request_timeout, **kwargs)``, a blocking librdkafka call, waited on as a request.

        confluent-kafka's blocking calls (``list_topics``) hold their thread in C until
        they return -- up to ``--timeout`` against a frozen broker -- while the caller
        should poll for authentication failures and react to Ctrl-C (see :meth:`wait`).
        """
        return self.wait(_in_thread(fn, timeout=request_timeout, **kwargs), request_timeout)

    def close(self) -> None:
        """Release the client (librdkafka threads stop when it is collected)."""
        admin = self.admin
        self.admin = None
        if self._kafka_python is not None:
            self._kafka_python.close()
            self._kafka_python = None
        if admin is not None:
            admin.poll(0)  # deliver pending log lines (--debug) and error callbacks


class _FailureLog:
    """librdkafka's ``logger``: passes every line to the tool's log and keeps failed connections.

    A plaintext client closed on by a TLS listener is told only in a log line, never to ``error_cb``.
    """

    def __init__(self, session: Session) -> None:
        self._session = session

    def log(self, level: int, fmt: str, *args: Any) -> None:
        """``logging.Logger.log`` as confluent-kafka calls it: ``("%s [%s] %s", FACILITY, NAME, TEXT)``."""
        if len(args) == 3 and args[0] == "FAIL":
            self._session.note_failure(str(args[2]))
        rdlog.log(level, fmt, *args)


def _in_thread(fn: Callable[..., _T], **kwargs: Any) -> Future[_T]:
    """Start ``fn(**kwargs)`` in a helper thread; its future."""
    done: Future[_T] = Future()
    done.set_running_or_notify_cancel()

    def run() -> None:
        try:
            done.set_result(fn(**kwargs))
        except BaseException as e:
            done.set_exception(e)

    threading.Thread(target=run, name=CALL_THREAD, daemon=True).start()
    return done
