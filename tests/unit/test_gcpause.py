"""gc_paused (kafka_offsets_cli/gcpause.py): the collector off inside the block, then as it was found."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

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


def test_frozen_moves_what_the_block_kept_out_of_the_collectors_scans() -> None:
    gc.enable()
    before = gc.get_freeze_count()
    try:
        with gc_paused(frozen=True):
            kept = [{"row": i} for i in range(1000)]
            assert not gc.isenabled()
        assert gc.isenabled()
        frozen = gc.get_freeze_count()
        assert frozen >= before + len(kept)  # in the permanent generation now
        assert gc.get_count()[0] < 100  # resuming leaves nothing young to scan
        with gc_paused():  # without frozen, nothing more is frozen
            young = [{"row": i} for i in range(1000)]
        assert gc.get_freeze_count() == frozen and young
    finally:
        gc.unfreeze()


def test_frozen_freezes_nothing_when_the_caller_had_the_collector_off() -> None:
    gc.disable()
    before = gc.get_freeze_count()
    with gc_paused(frozen=True):
        _ = [{"row": i} for i in range(1000)]
    assert not gc.isenabled() and gc.get_freeze_count() == before
