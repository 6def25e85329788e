"""A dead address fails within seconds with its cause (exit 3), not after --timeout with "no answer".

Real sockets throughout: a port nobody listens on (refused), a name that cannot resolve (``.invalid``
is reserved, RFC 2606) and the TLS listener of a real secure broker (dev/secure.py) spoken to in
plaintext. A run that has had an answer is never ended this way, and neither is one whose bootstrap
list names a live broker beside a dead one.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from concurrent.futures import Future

import pytest
from confluent_kafka import KafkaError

from dev import kafka as dev_kafka
from dev import secure
from dev.kafka_data import create_topic
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.errors import ClusterUnreachable
from kafka_offsets_cli.kafka.errors import connect_failed
from kafka_offsets_cli.kafka.session import Session
from tests.availability import unavailable
from tests.fault_helpers import assert_one_error_line, run_timed

#: librdkafka's words for a refused connection (a log line and an error_cb report carry the same text).
REFUSED_LINE = (
    "[thrd:127.0.0.1:9/bootstrap]: 127.0.0.1:9/bootstrap: Connect to ipv4#127.0.0.1:9 failed: "
    "Connection refused (after 0ms in state CONNECT)"
)


def closed_port() -> int:
    """A loopback port that was just free: connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_refused_port_fails_with_its_cause() -> None:
    port = closed_port()
    run = run_timed("list", "-b", f"127.0.0.1:{port}", "--timeout", "60s", timeout=120)
    assert run.code == 3, run
    assert_one_error_line(run.stderr, contains=f"cannot connect to 127.0.0.1:{port}: Connection refused")
    assert run.seconds < 30, run  # well before the --timeout it was given


def test_an_unresolvable_name_fails_with_its_cause() -> None:
    run = run_timed("lag", "-b", "nonexistent.invalid:9092", "-g", "g", "--timeout", "60s", timeout=120)
    assert run.code == 3, run
    assert_one_error_line(
        run.stderr, contains="cannot connect to nonexistent.invalid:9092: host name not found"
    )
    assert run.seconds < 30, run


def test_every_dead_bootstrap_server_is_named() -> None:
    port = closed_port()
    servers = f"127.0.0.1:{port},nonexistent.invalid:9092"
    run = run_timed("liveness", "-b", servers, "-t", "t", "--timeout", "60s", "-o", "nagios", timeout=120)
    assert run.code == 3, run  # UNKNOWN
    line = assert_one_error_line(run.stderr, contains="cannot connect to any broker: ")
    assert f"127.0.0.1:{port}: Connection refused" in line and "nonexistent.invalid:9092: host name" in line
    assert run.seconds < 30, run


def test_a_short_timeout_still_names_the_cause() -> None:
    run = run_timed("list", "-b", f"127.0.0.1:{closed_port()}", "--timeout", "500ms")
    assert run.code == 3, run
    assert_one_error_line(run.stderr, contains="Connection refused")


def test_a_dead_server_beside_a_live_one_does_not_fail_the_run(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)
    servers = f"127.0.0.1:{closed_port()},{bootstrap}"
    run = run_timed("list", "-b", servers, "-t", topic_name, "-o", "plain")
    assert run.code == 0, run
    assert run.stdout == f"{topic_name}:0:0\n", run


def test_debug_after_the_command_name_is_the_same_as_before_it() -> None:
    port = closed_port()
    before = run_timed("--debug", "list", "-b", f"127.0.0.1:{port}", "--timeout", "5s")
    after = run_timed("list", "-b", f"127.0.0.1:{port}", "--timeout", "5s", "--debug")
    for run in (before, after):
        assert run.code == 3, run
        assert "kafka_offsets.librdkafka" in run.stderr and "Connection refused" in run.stderr, run


def test_version_after_the_command_name() -> None:
    run = run_timed("lag", "-V")
    assert run.code == 0 and run.stdout.startswith("kafka-offsets "), run
    own = run_timed("list", "--version")  # list's own --version (Kafka's tool has one) is kept
    assert own.code == 0 and "kafka-get-offsets.sh" in own.stdout, own


# ----------------------------------------------------------------------------- the rule itself


def answered(session: Session) -> None:
    """Have ``session`` receive one answer (a completed request)."""
    done: Future[int] = Future()
    done.set_result(1)
    assert session.wait(done, 1.0) == 1


def all_down(session: Session) -> None:
    """What librdkafka reports when the only broker refuses: a failed connection, then all brokers down."""
    session.on_error(KafkaError(KafkaError._TRANSPORT, REFUSED_LINE.split("]: ", 1)[1]))
    session.on_error(KafkaError(KafkaError._ALL_BROKERS_DOWN, "1/1 brokers are down"))


def test_a_session_that_had_an_answer_never_fails_for_a_broker_going_down() -> None:
    fresh, healthy = (Session(build_settings("127.0.0.1:9", timeout_ms=1000)) for _ in range(2))
    try:
        answered(healthy)
        for s in (fresh, healthy):
            all_down(s)
        time.sleep(0.6)  # past the grace (half of --timeout here)
        failure = fresh.connect_failure()
        assert isinstance(failure, ClusterUnreachable)
        assert failure.message == "cannot connect to 127.0.0.1:9: Connection refused"
        assert healthy.connect_failure() is None  # a broker restarting under a run that had answers
    finally:
        fresh.close()
        healthy.close()


def test_only_failed_connects_count() -> None:
    assert connect_failed(REFUSED_LINE) == ("127.0.0.1:9", "Connection refused")
    up = "h:1/2: Disconnected: connection closed by peer: receive 0 after POLLIN (after 9ms in state UP)"
    assert connect_failed(up) is None  # a broker going away, not a dead address
    slow = "h:1/bootstrap: Connection setup timed out in state CONNECT (after 30030ms in state CONNECT)"
    assert connect_failed(slow) is None  # a slow or frozen broker gets --timeout
    named = "h:1/2: Connect to ipv4#10.0.0.1:1 failed: Connection refused (after 0ms in state CONNECT)"
    assert connect_failed(named) == ("h:1 (broker 2)", "Connection refused")


# ----------------------------------------------------------------------------- a TLS listener in plaintext


@pytest.fixture(scope="module")
def tls_listener() -> Iterator[str]:
    """The TLS listener of a real secure broker (its own, started for this module)."""
    dev_kafka.reap_orphans()
    name = f"pytest-tlsplain-{os.getpid()}"
    try:
        info = secure.up(name, sasl=False, tls=True, heap="384m", owner_pid=os.getpid())
    except Exception as exc:  # no java/openssl, timeout: skip locally, fail under CI=true
        with contextlib.suppress(Exception):
            dev_kafka.down(name, grace=0)
        unavailable(f"secure Kafka cluster could not be started: {exc}")
    try:
        yield info.tls_bootstrap.split(",")[0]
    finally:
        dev_kafka.down(name, grace=0)


@pytest.mark.broker
def test_a_tls_listener_spoken_to_in_plaintext_fails_with_its_cause(tls_listener: str) -> None:
    run = run_timed("list", "-b", tls_listener, "--timeout", "60s", timeout=120)
    assert run.code == 3, run
    line = assert_one_error_line(run.stderr, contains=f"cannot connect to {tls_listener}: ")
    assert "closed the connection without answering (a TLS or SASL listener?" in line, run
    assert "security.protocol" in run.stderr, run  # the hint names the setting to fix
    assert run.seconds < 30, run
