"""kafka_offsets_cli/ahead.py: work on a thread of its own, waited for on errors, never on Ctrl-C."""

from __future__ import annotations

import threading
import time

import pytest

from kafka_offsets_cli.ahead import Ahead


def test_the_work_runs_beside_the_caller_and_its_value_or_error_comes_back() -> None:
    started = threading.Event()
    release = threading.Event()

    def work() -> int:
        started.set()
        release.wait(5)
        return 42

    ahead = Ahead(work)
    assert started.wait(5)  # running before the caller asks for it
    release.set()
    assert ahead.result() == 42

    def fails() -> int:
        raise ValueError("no metadata")

    with pytest.raises(ValueError, match="no metadata"):
        Ahead(fails).result()


def test_leaving_by_an_error_waits_for_the_work_and_keeps_the_callers_error() -> None:
    done: list[float] = []

    def slow() -> None:
        time.sleep(0.3)
        done.append(time.monotonic())
        raise RuntimeError("its own error, dropped")

    with pytest.raises(KeyError), Ahead(slow):
        raise KeyError("the caller's")
    assert done  # finished before the block was left: nothing runs on a client about to close


def test_leaving_by_ctrl_c_does_not_wait() -> None:
    release = threading.Event()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Ahead(lambda: release.wait(10)):
        raise KeyboardInterrupt
    assert time.monotonic() - t0 < 1
    release.set()


def test_ready_never_waits_and_leaves_an_error_to_result() -> None:
    # lag makes its rows with the configs read ahead only if they are in: a look that never waits
    release = threading.Event()

    def work() -> int:
        release.wait(5)
        return 42

    ahead = Ahead(work)
    assert ahead.ready() is None  # still running: no wait
    release.set()
    assert ahead.result() == 42 and ahead.ready() == 42

    def fails() -> int:
        raise ValueError("no configs")

    failed = Ahead(fails)
    with pytest.raises(ValueError, match="no configs"):
        failed.result()
    assert failed.ready() is None  # the error is raised where the caller waits, not here
