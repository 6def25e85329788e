"""Unit tests of the spinners' line (cli/output.py): the step, its seconds once past one, and the
connection a command still waits on; a fake clock given through the MockEnvironment."""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from typing import Any, cast

from kafka_offsets_cli.cli.output import Spinner, connecting, progress
from kafka_offsets_cli.connection.settings import ClientSettings
from tests.mock_environment import MockEnvironment


class Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Client:
    """What :func:`connecting` reads of a KafkaClient: its settings and whether a broker answered."""

    settings: ClientSettings
    answered: bool = False


def client(servers: str = "b1:9092", timeout_ms: int = 30_000) -> Any:
    return Client(ClientSettings(servers, {}, timeout_ms))


def spinner(message: str, clock: Clock, waiting: Any = None) -> Spinner:
    with progress(message, MockEnvironment(clock=clock), waiting=waiting) as s:
        return s


def test_a_step_shows_its_seconds_once_past_one() -> None:
    clock = Clock()
    s = spinner("Reading consumer groups…", clock)
    assert s.text() == "Reading consumer groups…"
    clock.now += 0.9
    assert s.text() == "Reading consumer groups…"
    clock.now += 3.2
    assert s.text() == "Reading consumer groups (4 s)…"
    s("Reading 3 group(s)…")  # a new step, its own clock
    assert s.text() == "Reading 3 group(s)…"
    clock.now += 2
    assert s.text() == "Reading 3 group(s) (2 s)…"


def test_a_count_within_a_step_keeps_its_clock() -> None:
    clock = Clock()
    s = spinner("Fetching metadata…", clock)
    s("ListOffsets", ": 10 queries answered")
    clock.now += 1.5
    s("ListOffsets", ": 20 queries answered")
    clock.now += 1
    assert s.text() == "ListOffsets: 20 queries answered (2 s)…"


def test_until_a_broker_answers_the_line_says_what_it_waits_on_and_what_ends_the_wait() -> None:
    clock, kafka = Clock(), client("b1:9092,b2:9092,b3:9092", timeout_ms=4_000)
    s = spinner("Reading consumer groups…", clock, waiting=connecting(kafka))
    assert s.text() == "Connecting to b1:9092 and 2 more…"
    clock.now += 4.5
    assert s.text() == "Connecting to b1:9092 and 2 more (4 s, --timeout 4 s)…"
    kafka.answered = True  # the work's step now, on a clock of its own
    assert s.text() == "Reading consumer groups…"
    clock.now += 1
    assert s.text() == "Reading consumer groups (1 s)…"


def test_the_timeout_is_said_as_given() -> None:
    kafka = client("localhost:9092", timeout_ms=1_500)
    assert connecting(kafka)() == ("Connecting to localhost:9092", "--timeout 1.5 s")
    kafka.answered = True
    assert connecting(kafka)() is None


def drawn_while(tty: bool, seen: str) -> str:
    """stderr of a spinner whose clock is 3 s on, once ``seen`` is drawn (rich redraws ten times a
    second on its own thread) or after 2 s (an empty ``seen``: at once)."""
    err, clock = io.StringIO(), Clock()
    env = MockEnvironment(stderr=err, stdout=io.StringIO(), stderr_isatty=tty, clock=clock)
    with progress("Reading consumer groups…", env, waiting=connecting(client("h:1"))) as s:
        clock.now += 3
        s("Reading 2 group(s)…")  # said while connecting: shown once a broker answers
        for _ in range(40):
            if seen in err.getvalue():
                break
            time.sleep(0.05)
    assert cast(io.StringIO, env.stdout).getvalue() == ""
    return err.getvalue()


def test_on_a_terminal_the_seconds_are_drawn_on_stderr() -> None:
    drawn = drawn_while(True, "(3 s")
    assert "Connecting to h:1 (3 s, --timeout 30 s)…" in drawn  # drawn by rich's thread as the clock moves
    assert "Reading" not in drawn  # the work's step waits for an answer


def test_off_a_terminal_stderr_stays_empty() -> None:
    assert drawn_while(False, "") == ""  # nothing is drawn off a terminal: no thread to wait for
