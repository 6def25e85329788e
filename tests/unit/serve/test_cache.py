"""serve's single-flight cache, on an injected clock: one collection however many ask at once, none
sooner than the interval, a failure shared with its waiters and not cached."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from kafka_offsets_cli.serve.cache import Served, SingleFlight


class Clock:
    """Monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Gate:
    """A collect function that counts its calls and, when closed, blocks until opened."""

    def __init__(self, *, closed: bool = False) -> None:
        self.calls = 0
        self.entered = threading.Event()
        self.open = threading.Event()
        if not closed:
            self.open.set()
        self.fail: BaseException | None = None

    def __call__(self) -> int:
        self.calls += 1
        self.entered.set()
        assert self.open.wait(10), "the test never opened the gate"
        if self.fail is not None:
            raise self.fail
        return self.calls


def until(condition: Callable[[], bool]) -> None:
    """Wait (briefly) for another thread to get somewhere; fails after 10 s."""
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_a_result_younger_than_the_interval_is_served_from_the_cache() -> None:
    clock, gate = Clock(), Gate()
    cache = SingleFlight(gate, min_interval_s=15, clock=clock)
    assert cache.get() == Served(1, 0.0)
    clock.now += 14.5
    assert cache.get() == Served(1, 14.5)
    assert (gate.calls, cache.collections) == (1, 1)
    clock.now += 0.5  # as old as the interval: read again
    assert cache.get() == Served(2, 0.0)
    assert (gate.calls, cache.collections) == (2, 2)


def test_concurrent_callers_share_the_collection_in_flight() -> None:
    clock, gate = Clock(), Gate(closed=True)
    cache = SingleFlight(gate, min_interval_s=0, clock=clock)  # no caching: only the flight is shared
    got: list[Served[int]] = []
    lock = threading.Lock()

    def scrape() -> None:
        served = cache.get()
        with lock:
            got.append(served)

    first = threading.Thread(target=scrape)
    first.start()
    assert gate.entered.wait(10)
    others = [threading.Thread(target=scrape) for _ in range(8)]
    for t in others:
        t.start()
    until(lambda: cache.waiting == 8)
    clock.now += 3  # the collection took 3 s
    gate.open.set()
    for t in [first, *others]:
        t.join(10)
    assert gate.calls == 1 and cache.collections == 1
    assert sorted(s.value for s in got) == [1] * 9
    assert cache.waiting == 0
    assert cache.get().value == 2  # the interval (0) is over: the next caller reads again


def test_a_failed_collection_is_raised_to_its_waiters_and_not_cached() -> None:
    clock, gate = Clock(), Gate(closed=True)
    gate.fail = RuntimeError("boom")
    cache = SingleFlight(gate, min_interval_s=15, clock=clock)
    errors: list[BaseException] = []

    def scrape() -> None:
        try:
            cache.get()
        except RuntimeError as e:
            errors.append(e)

    threads = [threading.Thread(target=scrape) for _ in range(3)]
    threads[0].start()
    assert gate.entered.wait(10)
    for t in threads[1:]:
        t.start()
    until(lambda: cache.waiting == 2)
    gate.open.set()
    for t in threads:
        t.join(10)
    assert [str(e) for e in errors] == ["boom"] * 3
    assert gate.calls == 1 and cache.collections == 0
    gate.fail = None
    assert cache.get() == Served(2, 0.0)  # tried again at once: a failure is not cached


def test_a_caller_after_the_flight_within_the_interval_gets_its_result() -> None:
    clock, gate = Clock(), Gate()
    cache = SingleFlight(gate, min_interval_s=15, clock=clock)
    cache.get()
    clock.now += 16
    cache.get()
    clock.now += 1
    assert cache.get() == Served(2, 1.0)
    assert gate.calls == 2


@pytest.mark.parametrize("interval", [0.0, 15.0])
def test_many_sequential_callers_cost_one_collection_per_interval(interval: float) -> None:
    clock, gate = Clock(), Gate()
    cache = SingleFlight(gate, min_interval_s=interval, clock=clock)
    for _ in range(10):
        cache.get()
        clock.now += 1
    assert gate.calls == (10 if interval == 0 else 1)
