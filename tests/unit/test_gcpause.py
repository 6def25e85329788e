"""gcpause.py: the collector off inside the block, then as it was found (kept off to the exit only in a
process that ends with its command), and no last full collection when the process ends."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from kafka_offsets_cli import gcpause
from kafka_offsets_cli.gcpause import gc_paused


@pytest.fixture(autouse=True)
def _restore_gc() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_off_inside_and_back_on_after() -> None:
    gc.enable()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_exception_in_the_block_still_turns_it_back_on() -> None:
    gc.enable()
    with pytest.raises(KeyError), gc_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_a_caller_that_disabled_it_keeps_it_off() -> None:
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_a_pause_to_the_exit_is_lifted_when_the_process_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a test runner or a server (no entry said the process ends with the command) the collector
    comes back on; after ``command_ends_process`` it stays off."""
    monkeypatch.setattr(gcpause, "_ENDS_WITH_COMMAND", [False])
    gc.enable()
    with gc_paused(to_exit=True):
        assert not gc.isenabled()
    assert gc.isenabled()
    gcpause.command_ends_process()
    with gc_paused(to_exit=True):
        pass
    assert not gc.isenabled()
    with gc_paused():  # a pause without to_exit is lifted as ever
        pass
    assert not gc.isenabled()  # (it found the collector off)
    gc.enable()
    with gc_paused():
        pass
    assert gc.isenabled()


#: A process that runs the CLI's main and reports on stderr each collection that starts after the
#: package's exit handlers ran (the first handler registered runs last); ``{patch}``: run before main.
_EXIT_PROBE = """
import atexit, gc, os, sys
exiting = []
atexit.register(lambda: exiting.append(1))
def probe(phase, info):
    if exiting and phase == "start":
        os.write(2, b"collection at exit\\n")
gc.callbacks.append(probe)
garbage = [[i] for i in range(50_000)]  # live objects for a last pass to scan
from kafka_offsets_cli import gcpause
{patch}
sys.argv = ["kafka-offsets", "--version"]
from kafka_offsets_cli.__main__ import main
main()
"""


@pytest.mark.parametrize(("patch", "collections"), [("", 0), ("gcpause.no_final_pass = lambda: None", 1)])
def test_the_process_ends_without_a_last_full_collection(patch: str, collections: int) -> None:
    """The CLI's exit leaves the collector off, so the interpreter's finalization does not scan every
    live object once more; with that switched off (the control) the probe sees the last pass."""
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_PROBE.format(patch=patch)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "kafka-offsets" in done.stdout
    assert done.stderr.count("collection at exit") == collections, done.stderr
