"""The client's error rules that need no broker: config errors, error names, secret redaction in logs."""

from __future__ import annotations

import logging

import pytest
from confluent_kafka import KafkaError

from kafka_offsets_cli.client import KafkaClient, _partition_error, rdlog
from kafka_offsets_cli.config import build_settings
from kafka_offsets_cli.errors import ConfigError

NOWHERE = "127.0.0.1:9"  # creating a client connects to nothing


def test_unknown_and_invalid_properties_name_their_source() -> None:
    with pytest.raises(ConfigError) as info:
        KafkaClient(build_settings(NOWHERE, overrides=["no.such.key=1"]))
    assert info.value.message.startswith("-X no.such.key: unknown client property 'no.such.key' ")
    assert "--help-config" not in info.value.message  # there is no such option

    with pytest.raises(ConfigError) as info:
        KafkaClient(build_settings(NOWHERE, overrides=["socket.timeout.ms=soon"]))
    assert (
        info.value.message
        == "-X socket.timeout.ms: invalid value 'soon' for client property 'socket.timeout.ms'"
    )


def test_partition_errors_use_kafka_names() -> None:
    # librdkafka reports a partition without a leader as "No such entry" (after a metadata refresh)
    assert _partition_error(KafkaError(KafkaError._NOENT)) == "LEADER_NOT_AVAILABLE"
    assert _partition_error(KafkaError(KafkaError._UNKNOWN_PARTITION)) == "UNKNOWN_TOPIC_OR_PARTITION"
    assert _partition_error(KafkaError(6)) == "NOT_LEADER_OR_FOLLOWER"  # librdkafka: NOT_LEADER_FOR_PARTITION
    assert _partition_error(KafkaError(KafkaError.TOPIC_AUTHORIZATION_FAILED)) == "TOPIC_AUTHORIZATION_FAILED"


def test_librdkafka_log_lines_are_redacted() -> None:
    secret = "s3cr3t-Pa55word-xyz"
    client = KafkaClient(
        build_settings(
            NOWHERE,
            overrides=[
                "security.protocol=SASL_PLAINTEXT",
                "sasl.mechanisms=PLAIN",
                "sasl.username=u",
                f"sasl.password={secret}",
            ],
        )
    )
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    keep = Keep()
    rdlog.addHandler(keep)
    try:
        rdlog.error("FAIL [rdkafka#producer-1] auth with password %s failed", secret)
    finally:
        rdlog.removeHandler(keep)
        client.close()
    assert records == ["FAIL [rdkafka#producer-1] auth with password *** failed"]
