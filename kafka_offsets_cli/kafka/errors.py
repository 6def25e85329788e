"""librdkafka's errors in the tool's terms: Kafka's protocol names, and the tool's exceptions.

Every answer that failed is named by :func:`error_name`; a client that cannot be
configured, a failed authentication and a cluster that did not answer become the
tool's :class:`~kafka_offsets_cli.errors.KafkaOffsetsError` subclasses here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from confluent_kafka import KafkaError, KafkaException

from ..connection.settings import ClientSettings, is_secret
from ..errors import AuthenticationFailed, ClusterUnreachable, ConfigError, UsageError
from ..parse.text import is_utf8, require_utf8

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

#: librdkafka's local errors for one partition of admin ListOffsets, as Kafka names them: a
#: partition without a leader (its only replica down) is reported as "No such entry".
_LOCAL_PARTITION_ERRORS = {
    KafkaError._NOENT: "LEADER_NOT_AVAILABLE",
    KafkaError._UNKNOWN_PARTITION: "UNKNOWN_TOPIC_OR_PARTITION",
    KafkaError._UNKNOWN_TOPIC: "UNKNOWN_TOPIC_OR_PARTITION",
}

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


@functools.cache  # compiled on first use: only a failed connection is searched
def _tls_alert_pattern() -> re.Pattern[str]:
    """The server's TLS alert ("ssl/tls alert bad certificate: SSL alert number 42": mutual TLS
    without a client certificate, or one it does not trust), reported as a transport error: a TLS
    failure too."""
    return re.compile(r"SSL alert number \d+")


#: Masks secrets in a message (:func:`~kafka_offsets_cli.connection.settings.redact`).
Redact = Callable[[str], str]


def error_name(err: KafkaError | BaseException, *, list_offsets: bool = False) -> str:
    """Kafka's protocol name for a librdkafka error (``UNKNOWN_TOPIC_OR_PARTITION``…).

    ``err`` is an error, or the exception a call raised (one that carries no Kafka
    error is named by its type, e.g. ``TimeoutError``). ``list_offsets``: the error is
    a ListOffsets answer, where librdkafka reports some partition states as local
    errors of its own (see ``_LOCAL_PARTITION_ERRORS``).
    """
    if isinstance(err, BaseException):
        if not (isinstance(err, KafkaException) and err.args and isinstance(err.args[0], KafkaError)):
            return type(err).__name__
        err = err.args[0]
    code = err.code()
    if list_offsets and code in _LOCAL_PARTITION_ERRORS:
        return _LOCAL_PARTITION_ERRORS[code]
    if code in KAFKA_ERROR_NAMES:
        return KAFKA_ERROR_NAMES[code]
    name = str(err.name())
    return name.lstrip("_") if name.startswith("_") else name


def config_error(settings: ClientSettings, e: KafkaException, redact: Redact) -> ConfigError:
    """A client librdkafka refused to create, with the place the offending property came from."""
    msg = str(e.args[0].str() if e.args and isinstance(e.args[0], KafkaError) else e)
    m = re.search(r'(No such|Invalid value(?: "[^"]*")? for) configuration property:? "([^"]+)"', msg)
    if m is not None:
        key = m.group(2)
        where = settings.source_of(key)
        if m.group(1) == "No such":
            return ConfigError(
                f"{where}: unknown client property {key!r} "
                "(not a librdkafka setting: see librdkafka's CONFIGURATION.md)"
            )
        value = settings.librdkafka_config().get(key)
        shown = f" {value!r}" if value is not None and not is_secret(key) else ""
        return ConfigError(f"{where}: invalid value{shown} for client property {key!r}")
    return ConfigError(redact(f"invalid client configuration: {msg}"))


def auth_failure(
    reports: Sequence[KafkaError], settings: ClientSettings, redact: Redact
) -> AuthenticationFailed | None:
    """The first authentication or TLS handshake failure among librdkafka's reports, as the tool's error."""
    errs = [e for e in reports if e.code() in _AUTH_CODES or _tls_alert_pattern().search(e.str())]
    if not errs:
        return None
    e = errs[0]
    tls = e.code() == KafkaError._SSL or _tls_alert_pattern().search(e.str())
    kind = "TLS handshake" if tls else "authentication"
    # "sasl_ssl://host:port/bootstrap: SSL handshake failed: ... (after 4ms in state SSL_HANDSHAKE)"
    detail = re.sub(r"^\S+://\S+?: ", "", _short(e.str()))
    detail = re.sub(r"\s*\(after \d+ms in state \w+\)$", "", detail)
    return AuthenticationFailed(
        redact(f"{kind} failed with {settings.bootstrap_servers}: {detail}"),
        hint="check the credentials and TLS settings (--command-config, -X)",
    )


def cluster_unreachable(
    what: str, cause: BaseException | None, settings: ClientSettings, redact: Redact
) -> ClusterUnreachable:
    """``what`` got no answer from the cluster within ``--timeout`` (``cause``: the failure seen)."""
    secs = settings.timeout_ms / 1000
    detail = ""
    if cause is not None and isinstance(cause, KafkaException) and cause.args:
        err = cause.args[0]
        if isinstance(err, KafkaError) and err.code() not in (
            KafkaError._TIMED_OUT,
            KafkaError._TRANSPORT,
        ):
            detail = f": {_short(err.str())}"
    return ClusterUnreachable(
        redact(f"{what}: no answer from {settings.bootstrap_servers} within {secs:g}s{detail}"),
        hint="check --bootstrap-server, the network, and security settings (--command-config)",
    )


@functools.cache  # compiled on first use: only a failed connection is matched
def _connect_failed_pattern() -> re.Pattern[str]:
    """A broker connection that failed before it was up, as librdkafka's FAIL log lines and error
    reports word it: "[thrd:...]: HOST:PORT/bootstrap: DETAIL (after 0ms in state CONNECT)"."""
    return re.compile(
        r"^(?:\[thrd:[^\]]*\]: )?(?P<broker>\S+?)/(?P<id>\w+): (?P<detail>.*?)"
        r"\s*\(after \d+ms in state (?P<state>\w+)[^)]*\)\s*$"
    )


#: States of a broker connection that is up: a failure there is a broken connection, not a failed connect.
_UP_STATES = frozenset({"UP", "UPDATE"})

#: Why a connection to a plaintext client was closed unanswered, as users need to read it.
_CLOSED_UNANSWERED = "the server closed the connection without answering (a TLS or SASL listener? not Kafka?)"


def connect_failed(text: str) -> tuple[str, str] | None:
    """``(broker, cause)`` when librdkafka's message ``text`` says a connection failed before it was up.

    ``broker`` is ``host:port`` (``host:port (broker 1)`` for a broker the cluster named);
    ``cause`` is one short phrase: ``Connection refused``, ``host name not found (...)``,
    a connection closed unanswered. Timeouts are not failures here: a slow or frozen broker
    is given ``--timeout``. ``None`` for every other message.
    """
    m = _connect_failed_pattern().match(text.strip())
    if m is None or m.group("state") in _UP_STATES or "timed out" in m.group("detail").lower():
        return None
    broker = (
        m.group("broker") if m.group("id") == "bootstrap" else f"{m.group('broker')} (broker {m.group('id')})"
    )
    detail = m.group("detail")
    if r := re.match(r"Connect to \S+ failed: (.+)", detail):
        detail = r.group(1)
    elif r := re.match(r"Failed to resolve '[^']*': (.+)", detail):
        detail = f"host name not found ({r.group(1)})"
    elif m.group("state") == "APIVERSION_QUERY" and detail.startswith("Disconnected"):
        detail = _CLOSED_UNANSWERED
    return broker, detail


def connect_failure(
    causes: Mapping[str, str], settings: ClientSettings, redact: Redact
) -> ClusterUnreachable:
    """No broker could be connected to: each one's ``causes`` (from :func:`connect_failed`) in one line."""
    if len(causes) == 1:
        ((broker, cause),) = causes.items()
        message = f"cannot connect to {broker}: {cause}"
    else:
        message = "cannot connect to any broker: " + "; ".join(f"{b}: {c}" for b, c in causes.items())
    if any(c == _CLOSED_UNANSWERED for c in causes.values()):
        hint = "check --bootstrap-server and security.protocol (--command-config, -X security.protocol=SSL)"
    else:
        hint = f"check --bootstrap-server ({settings.bootstrap_servers}) and the network"
    return ClusterUnreachable(redact(message), hint=redact(hint))


def _short(text: str) -> str:
    return text.splitlines()[0][:400] if text else ""


def require_group_ids(groups: Iterable[str]) -> None:
    """Refuse (exit 2) group ids the C client cannot take: empty, or not UTF-8 (:func:`require_utf8`)."""
    groups = list(groups)
    if any(not g for g in groups):
        raise UsageError("a group id cannot be empty")
    require_utf8("group id", groups)


def require_utf8_settings(conf: Mapping[str, Any]) -> None:
    """:func:`require_utf8` for client settings, naming the setting and never its value."""
    for key, value in conf.items():
        if isinstance(value, str) and not is_utf8(value):
            raise ConfigError(f"the value of {key} is not valid UTF-8")
