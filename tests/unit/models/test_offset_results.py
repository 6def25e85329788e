"""Answers that carry their own index by spec and partition: the index holds only while the list does."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from kafka_offsets_cli.models.offset_results import OffsetResults, index_of
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition

E, L = OffsetSpec.earliest(), OffsetSpec.latest()
A, B = OffsetResult("t", 0, E, 3), OffsetResult("t", 0, L, 9)


def _answers() -> OffsetResults:
    return OffsetResults([A, B], {E: {TopicPartition("t", 0): A}, L: {TopicPartition("t", 0): B}})


def test_the_answers_are_a_list_with_their_index() -> None:
    got = _answers()
    assert got == [A, B] and isinstance(got, list)
    assert index_of(got) is got.by_spec and got.by_spec is not None
    assert got.by_spec[E][TopicPartition("t", 0)] is A
    assert got.index(B) == 1  # still a list's index()
    assert index_of([A, B]) is None and index_of(iter([A, B])) is None  # any other answers: no index


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.append(A),
        lambda r: r.extend([A]),
        lambda r: r.insert(0, A),
        lambda r: r.pop(),
        lambda r: r.remove(A),
        lambda r: r.clear(),
        lambda r: r.__setitem__(0, B),
        lambda r: r.__setitem__(slice(0, 1), [B]),
        lambda r: r.__delitem__(0),
        lambda r: r.__iadd__([A]),
        lambda r: r.__imul__(2),
    ],
)
def test_any_change_of_the_answers_drops_the_index(change: Callable[[OffsetResults], object]) -> None:
    got = _answers()
    change(got)
    assert got.by_spec is None and index_of(got) is None


def test_augmented_assignment_keeps_the_list_and_drops_the_index() -> None:
    got = _answers()
    same = got
    got += [A]
    assert got is same and got == [A, B, A] and got.by_spec is None


def test_a_reorder_keeps_the_answers_and_their_index() -> None:
    got = _answers()
    got.reverse()
    got.sort(key=lambda r: r.offset or 0)
    assert got.by_spec is not None and sorted(got) == sorted([A, B])


def test_a_pickled_copy_is_the_plain_list() -> None:
    copy = pickle.loads(pickle.dumps(_answers()))
    assert type(copy) is list and copy == [A, B]
