"""kafka/bootstrap_race.py: which clients race, when they start, and who wins (issue 27).

A frozen bootstrap server (SIGSTOP: the kernel accepts the connection, nobody answers) held
kafka-python's bootstrap for whole attempts; the fake clients here stand for it with a ``make`` that
blocks until the test ends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

from kafka_offsets_cli.errors import AuthenticationFailed
from kafka_offsets_cli.kafka.bootstrap_race import NoWinner, due, race, racers
from kafka_offsets_cli.kafka.deadline import Deadline

SERVERS = ["a:1", "b:2", "c:3"]
HEAD_S = 0.2


class Lost(Exception):
    """A client that did not bootstrap (kafka-python's KafkaError in the product)."""


@pytest.fixture
def frozen() -> Iterator[threading.Event]:
    """Set at the end of a test: a frozen server's client returns (as lost) only then."""
    thaw = threading.Event()
    yield thaw
    thaw.set()


def test_the_client_given_every_server_starts_first_then_each_server_alone() -> None:
    assert racers(SERVERS) == [SERVERS, ["a:1"], ["b:2"], ["c:3"]]
    assert racers(["a:1"]) == [["a:1"]]


def test_the_others_start_after_the_head_start_or_once_every_started_one_failed() -> None:
    assert due(4, 0.0, False, 1.0) == 1
    assert due(4, 0.99, False, 1.0) == 1
    assert due(4, 1.0, False, 1.0) == 4  # the head start is over: every server alone, at once
    assert due(4, 0.1, True, 1.0) == 4  # the first failed (a refused or unsupported cluster): no wait
    assert due(1, 5.0, False, 1.0) == 1
    assert due(0, 0.0, False, 1.0) == 0


def _maker(behaviour: dict[str, Callable[[], str]], started: list[list[str]]) -> Callable[[list[str]], str]:
    lock = threading.Lock()

    def make(servers: list[str]) -> str:
        with lock:
            started.append(servers)
        return behaviour[",".join(servers)]()

    return make


def _hangs(thaw: threading.Event) -> Callable[[], str]:
    def hang() -> str:
        thaw.wait()
        raise Lost("frozen")

    return hang


def test_a_frozen_first_server_costs_the_head_start_only(frozen: threading.Event) -> None:
    # the random pick of the first client and the first server alone both land on the frozen one
    started: list[list[str]] = []
    behaviour = {
        ",".join(SERVERS): _hangs(frozen),
        "a:1": _hangs(frozen),
        "b:2": lambda: "b",
        "c:3": lambda: "c",
    }
    discarded: list[str] = []
    t0 = time.monotonic()
    won = race(
        _maker(behaviour, started),
        SERVERS,
        Deadline(20),
        head_start_s=HEAD_S,
        failure=Lost,
        discard=discarded.append,
    )
    took = time.monotonic() - t0
    assert won in ("b", "c") and HEAD_S <= took < HEAD_S + 2, took
    assert started[0] == SERVERS and sorted(started[1:]) == [["a:1"], ["b:2"], ["c:3"]]
    time.sleep(0.2)
    assert discarded == [{"b": "c", "c": "b"}[won]]  # the other healthy client, closed once made


def test_a_healthy_cluster_makes_one_client() -> None:
    started: list[list[str]] = []
    won = race(
        _maker({",".join(SERVERS): lambda: "all"}, started),
        SERVERS,
        Deadline(20),
        head_start_s=5.0,
        failure=Lost,
        discard=lambda _: None,
    )
    assert won == "all" and started == [SERVERS]


def test_a_timeout_of_years_waits_like_any_other() -> None:
    """--timeout 99999999999d (argv fuzz): the wait for the first client overflowed time_t."""

    def slow() -> str:
        time.sleep(0.1)
        return "all"

    won = race(  # one server: the first client is every client, waited for up to the deadline
        _maker({"a:1": slow}, []),
        ["a:1"],
        Deadline(99999999999 * 86400.0),
        head_start_s=5.0,
        failure=Lost,
        discard=lambda _: None,
    )
    assert won == "all"


def test_a_failed_first_client_starts_the_others_at_once() -> None:
    def refused() -> str:
        raise Lost("refused")

    started: list[list[str]] = []
    behaviour = {",".join(SERVERS): refused, "a:1": refused, "b:2": refused, "c:3": lambda: "c"}
    t0 = time.monotonic()
    won = race(
        _maker(behaviour, started), SERVERS, Deadline(20), head_start_s=5.0, failure=Lost, discard=_keep
    )
    assert won == "c" and time.monotonic() - t0 < 2


def test_every_client_lost_is_no_winner_with_the_last_failure() -> None:
    def refused() -> str:
        raise Lost("refused")

    behaviour = dict.fromkeys([",".join(SERVERS), *SERVERS], refused)
    with pytest.raises(NoWinner) as caught:
        race(_maker(behaviour, []), SERVERS, Deadline(20), head_start_s=5.0, failure=Lost, discard=_keep)
    assert isinstance(caught.value.cause, Lost)


def test_the_race_never_outlasts_the_deadline(frozen: threading.Event) -> None:
    behaviour = dict.fromkeys([",".join(SERVERS), *SERVERS], _hangs(frozen))
    t0 = time.monotonic()
    with pytest.raises(NoWinner) as caught:
        race(_maker(behaviour, []), SERVERS, Deadline(0.6), head_start_s=HEAD_S, failure=Lost, discard=_keep)
    assert caught.value.cause is None and 0.5 <= time.monotonic() - t0 < 1.5


def test_a_client_made_after_the_race_is_lost_is_discarded(frozen: threading.Event) -> None:
    late = threading.Event()

    def slow() -> str:
        late.wait()
        return "late"

    discarded: list[str] = []
    with pytest.raises(NoWinner):
        race(
            _maker({"a:1": slow}, []),
            ["a:1"],
            Deadline(0.3),
            head_start_s=HEAD_S,
            failure=Lost,
            discard=discarded.append,
        )
    late.set()
    time.sleep(0.2)
    assert discarded == ["late"]


def test_a_failure_that_is_not_a_lost_client_ends_the_race_at_once(frozen: threading.Event) -> None:
    def denied() -> str:
        raise AuthenticationFailed("authentication failed (kafka-python): SaslAuthenticationFailedError")

    behaviour = {",".join(SERVERS): denied, **dict.fromkeys(SERVERS, _hangs(frozen))}
    t0 = time.monotonic()
    with pytest.raises(AuthenticationFailed):
        race(_maker(behaviour, []), SERVERS, Deadline(20), head_start_s=5.0, failure=Lost, discard=_keep)
    assert time.monotonic() - t0 < 2


def test_the_elapsed_time_is_read_on_the_deadline_clock() -> None:
    # a clock already past the head start: every client starts with the first
    now = [0.0]

    def clock() -> float:
        now[0] += 10.0
        return now[0]

    started: list[list[str]] = []
    gate = threading.Event()

    def first() -> str:
        gate.wait(5)
        return "all"

    def alone() -> str:
        gate.wait(5)
        raise Lost("slow")

    behaviour = {",".join(SERVERS): first, **dict.fromkeys(SERVERS, alone)}
    make = _maker(behaviour, started)

    def release() -> None:
        time.sleep(0.3)
        gate.set()

    threading.Thread(target=release, daemon=True).start()
    won = race(make, SERVERS, Deadline(1000, clock=clock), head_start_s=HEAD_S, failure=Lost, discard=_keep)
    assert won == "all" and len(started) == 4


def _keep(_: str) -> None:
    """Discard nothing (the test looks at no lost client)."""
