"""A server's TLS alert (mutual TLS without a client certificate) is a TLS failure, exit 4, not "cannot
connect": librdkafka reports it as a transport error whose text carries the alert."""

from __future__ import annotations

from confluent_kafka import KafkaError

from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.errors import ExitCode
from kafka_offsets_cli.kafka.errors import auth_failure

ALERT = (
    "ssl://127.0.0.1:9093/bootstrap: Receive failed: error:0A000412:SSL routines::ssl/tls alert bad "
    "certificate: SSL alert number 42 (after 3ms in state APIVERSION_QUERY)"
)


def test_a_tls_alert_from_the_server_is_a_tls_handshake_failure() -> None:
    settings = build_settings("127.0.0.1:9093", environ={})
    failure = auth_failure([KafkaError(KafkaError._TRANSPORT, ALERT)], settings, lambda s: s)
    assert failure is not None and failure.exit_code is ExitCode.AUTH
    assert failure.message.startswith("TLS handshake failed with 127.0.0.1:9093: Receive failed")
    assert "bad certificate" in failure.message and "APIVERSION_QUERY" not in failure.message


def test_a_plain_transport_error_is_not_one() -> None:
    settings = build_settings("127.0.0.1:9093", environ={})
    refused = KafkaError(
        KafkaError._TRANSPORT, "127.0.0.1:9093/bootstrap: Connect to ipv4#127.0.0.1:9093 failed"
    )
    assert auth_failure([refused], settings, lambda s: s) is None
