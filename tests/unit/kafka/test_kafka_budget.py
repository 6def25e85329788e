"""The request budget's limits and the rules that keep bad input away from the C client (no broker)."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.errors import ClusterUnreachable, ConfigError, UsageError
from kafka_offsets_cli.kafka.deadline import FIRST_ATTEMPT_S, MAX_REQUEST_S, Deadline
from kafka_offsets_cli.kafka.errors import require_group_ids, require_utf8_settings
from kafka_offsets_cli.kafka.session import Session
from kafka_offsets_cli.parse.selection import parse_selection
from kafka_offsets_cli.parse.text import require_utf8

NOWHERE = "127.0.0.1:9"


def test_no_request_is_given_more_than_librdkafka_accepts() -> None:
    assert Deadline(7200.0).request_timeout() == MAX_REQUEST_S
    assert Deadline(100 * 86400.0).request_timeout(10.0) == 10.0


def test_names_that_are_not_utf8_are_refused_with_the_byte_shown() -> None:
    require_utf8("group id", ["ops", "caf\u00e9", ""])
    with pytest.raises(UsageError, match=r"group id 'ops\\xff' is not valid UTF-8"):
        require_utf8("group id", ["fine", "ops\udcff"])
    with pytest.raises(UsageError, match=r"topic 't\\ud800' is not valid UTF-8"):
        require_utf8("topic", ["t\ud800"])  # a surrogate no byte stands for


def test_a_topic_regex_that_is_not_utf8_is_refused_when_parsed() -> None:
    with pytest.raises(UsageError, match=r"topic regex 'caf\\xe9' is not valid UTF-8"):
        parse_selection(topics=["caf\udce9"])


def test_group_ids_must_be_utf8_and_not_empty() -> None:
    require_group_ids(["a", "b"])
    with pytest.raises(UsageError, match="a group id cannot be empty"):
        require_group_ids(["a", ""])
    with pytest.raises(UsageError, match="not valid UTF-8"):
        require_group_ids(["\udcff"])


def test_a_setting_that_is_not_utf8_is_named_without_its_value() -> None:
    require_utf8_settings({"sasl.username": "ops", "retries": 3})
    with pytest.raises(ConfigError) as info:
        require_utf8_settings({"sasl.password": "p\udcffss"})
    assert info.value.message == "the value of sasl.password is not valid UTF-8"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_read_with_no_answer_is_asked_again_with_a_growing_share() -> None:
    clock = Clock()
    session = Session(build_settings(NOWHERE, timeout_ms=60_000), clock=clock)
    given: list[float] = []

    def frozen_then_fine(timeout: float) -> str:
        given.append(timeout)
        if len(given) < 3:
            clock.now += timeout  # the whole attempt went unanswered
            raise ClusterUnreachable("no answer")
        return "answer"

    try:
        assert session.asked_again(frozen_then_fine) == "answer"
        assert given == [FIRST_ATTEMPT_S, 2 * FIRST_ATTEMPT_S, 4 * FIRST_ATTEMPT_S]
    finally:
        session.close()


def test_a_quick_failure_is_final(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session(build_settings(NOWHERE, timeout_ms=60_000))
    calls: list[float] = []

    def refused(timeout: float) -> str:
        calls.append(timeout)
        raise ClusterUnreachable("connection refused")

    try:
        with pytest.raises(ClusterUnreachable):
            session.asked_again(refused)
        assert len(calls) == 1
    finally:
        session.close()
