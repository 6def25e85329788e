"""The tool's client settings as librdkafka configuration, and librdkafka's log lines (secrets masked)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from ..connection.settings import ClientSettings, is_secret, redact

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

#: librdkafka's reconnect.backoff.ms unless the user sets it. Once the first metadata answer
#: names the brokers, librdkafka (2.10+) retires the bootstrap connection, failing the
#: application's request still in flight on it; the request is sent again only after the
#: "sparse connect" pause, half this backoff (the default 100 ms cost ~50 ms in a third of all
#: runs on loopback). Later reconnects still back off exponentially up to reconnect.backoff.max.ms.
RECONNECT_BACKOFF_MS = "10"

#: librdkafka's error callback (``error_cb``): reports that belong to no request.
ErrorCallback = Callable[[Any], None]


def admin_config(settings: ClientSettings, on_error: ErrorCallback, *, debug: bool) -> dict[str, Any]:
    """The admin client's configuration: the user's settings plus the tool's defaults and callbacks."""
    conf: dict[str, Any] = dict(settings.librdkafka_config())
    # librdkafka refuses a setup timeout below 1 s (a --timeout of 500ms failed as a config error)
    conf.setdefault("socket.connection.setup.timeout.ms", str(max(1000, min(settings.timeout_ms, 30_000))))
    # a metadata request for a topic by name must never create it (the admin client's default is true)
    conf.setdefault("allow.auto.create.topics", "false")
    conf.setdefault("reconnect.backoff.ms", RECONNECT_BACKOFF_MS)
    conf["error_cb"] = on_error
    conf["logger"] = rdlog
    if debug and "debug" not in conf:
        conf.setdefault("log_level", "7")
    return conf


def marker_consumer_config(settings: ClientSettings, on_error: ErrorCallback) -> dict[str, Any]:
    """The configuration of the consumer that reads single records to tell transaction markers.

    It joins no group and commits nothing; it is only ever assigned partitions.
    """
    conf: dict[str, Any] = dict(settings.librdkafka_config())
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
            "error_cb": on_error,
            "logger": rdlog,
        }
    )
    return conf


def mask_secrets_in_logs(conf: Mapping[str, Any]) -> list[str]:
    """The secret values of ``conf``, from now on masked in librdkafka's log lines; returns them."""
    secrets = [v for k, v in conf.items() if isinstance(v, str) and is_secret(k)]
    _REDACT.secrets.update(secrets)
    return secrets
