"""The client's rules that need no broker: config errors, error names, budgets, secrets masked in logs."""

from __future__ import annotations

import logging
from concurrent.futures import TimeoutError as FutureTimeout

import pytest
from confluent_kafka import KafkaError, KafkaException

from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.errors import ClusterUnreachable, ConfigError
from kafka_offsets_cli.kafka import KafkaClient
from kafka_offsets_cli.kafka.deadline import (
    ANSWER_GRACE_S,
    ANSWER_SLACK_S,
    MIN_REQUEST_S,
    Deadline,
    answer_wait,
)
from kafka_offsets_cli.kafka.errors import error_name
from kafka_offsets_cli.kafka.session import Session
from kafka_offsets_cli.kafka.settings import rdlog

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
    def named(err: KafkaError) -> str:  # as one partition's ListOffsets answer
        return error_name(err, list_offsets=True)

    # librdkafka reports a partition without a leader as "No such entry" (after a metadata refresh)
    assert named(KafkaError(KafkaError._NOENT)) == "LEADER_NOT_AVAILABLE"
    assert named(KafkaError(KafkaError._UNKNOWN_PARTITION)) == "UNKNOWN_TOPIC_OR_PARTITION"
    assert named(KafkaError(6)) == "NOT_LEADER_OR_FOLLOWER"  # librdkafka: NOT_LEADER_FOR_PARTITION
    assert named(KafkaError(KafkaError.TOPIC_AUTHORIZATION_FAILED)) == "TOPIC_AUTHORIZATION_FAILED"


def test_errors_outside_list_offsets_keep_librdkafkas_local_names_and_exceptions_are_named() -> None:
    assert error_name(KafkaError(KafkaError._NOENT)) == "NOENT"
    assert error_name(KafkaError(KafkaError._UNKNOWN_TOPIC)) == "UNKNOWN_TOPIC"
    assert error_name(KafkaException(KafkaError(KafkaError.REQUEST_TIMED_OUT))) == "REQUEST_TIMED_OUT"
    assert (
        error_name(KafkaException(KafkaError(KafkaError._NOENT)), list_offsets=True) == "LEADER_NOT_AVAILABLE"
    )
    assert error_name(FutureTimeout()) == "TimeoutError"  # no Kafka error: named by its type
    assert error_name(KafkaException("no error object")) == "KafkaException"


def test_a_request_gets_what_remains_of_the_budget_within_its_floor_and_cap() -> None:
    d = Deadline(30.0)
    assert 29.0 < d.request_timeout() <= 30.0
    assert d.request_timeout(5.0) == 5.0
    spent = Deadline(0.0)
    assert spent.remaining() == 0.0
    assert spent.request_timeout() == MIN_REQUEST_S  # a request is still worth sending
    assert spent.request_timeout(0.1) == 0.1
    assert answer_wait(2.0) == 2.0 + ANSWER_SLACK_S


def test_no_wait_runs_more_than_the_grace_past_the_whole_timeout() -> None:
    now = [100.0]
    d = Deadline(3.0, clock=lambda: now[0])
    # a short request early on is waited for past its own end, but not past --timeout and the grace
    assert d.answer_by(0.5) == 103.0 + ANSWER_GRACE_S < 100.0 + 0.5 + ANSWER_SLACK_S
    assert Deadline(60.0, clock=lambda: now[0]).answer_by(0.5) == 100.0 + 0.5 + ANSWER_SLACK_S
    # the request that spends all of --timeout waits only the grace after it
    assert d.answer_by(d.request_timeout()) == 103.0 + ANSWER_GRACE_S
    now[0] = 102.8  # two requests waited on at once, the second sent late: the same bound
    assert d.answer_by(d.request_timeout()) == 102.8 + MIN_REQUEST_S + ANSWER_GRACE_S
    now[0] = 101.0
    assert d.answer_by(d.request_timeout()) == 103.0 + ANSWER_GRACE_S


def test_an_item_failing_because_the_cluster_did_not_answer_fails_the_whole_request() -> None:
    session = Session(build_settings(NOWHERE, timeout_ms=2000))
    try:
        denied = KafkaException(KafkaError(KafkaError.GROUP_AUTHORIZATION_FAILED))
        assert session.item_error(denied, "describe consumer groups") == "GROUP_AUTHORIZATION_FAILED"
        for down in (KafkaException(KafkaError(KafkaError._TRANSPORT)), FutureTimeout()):
            with pytest.raises(ClusterUnreachable) as info:
                session.item_error(down, "describe consumer groups")
            assert info.value.message.startswith(
                f"describe consumer groups: no answer from {NOWHERE} within 2s"
            )
        with pytest.raises(ClusterUnreachable), session.failing_as("group listing"):
            raise KafkaException(KafkaError(KafkaError._TIMED_OUT))
    finally:
        session.close()


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
