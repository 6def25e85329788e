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
