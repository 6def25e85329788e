"""ListOffsets answers that also know themselves by spec and partition (the answers' own index).

A route that keeps its answers per spec and partition as they arrive (the kafka-python route's
``Answers``) hands that index on with the list, so a consumer that would index 100,000 answers
by partition again (the snapshot check, lag's rows) takes it instead. Any change to the list
drops the index: it would no longer describe the list, and a consumer then indexes the list
itself, as it does for any other sequence of answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, SupportsIndex

from .offsets import OffsetResult, OffsetSpec
from .topics import TopicPartition

__all__ = ["OffsetResults", "SpecIndex", "index_of"]

#: each spec's answers by partition (specs equal by value are one key)
SpecIndex = Mapping[OffsetSpec, Mapping[TopicPartition, OffsetResult]]


class OffsetResults(list[OffsetResult]):
    """A list of answers, one per query, with :attr:`by_spec`: the same answers by spec, then partition."""

    __slots__ = ("_index",)

    def __init__(self, results: Iterable[OffsetResult], index: SpecIndex) -> None:
        super().__init__(results)
        self._index: SpecIndex | None = index

    @property
    def by_spec(self) -> SpecIndex | None:
        """The answers by spec and partition; ``None`` once the list was changed."""
        return self._index

    # every change of the answers drops the index (sort and reverse keep them, and the index with them)
    def append(self, item: OffsetResult) -> None:
        self._index = None
        super().append(item)

    def extend(self, items: Iterable[OffsetResult]) -> None:
        self._index = None
        super().extend(items)

    def insert(self, at: SupportsIndex, item: OffsetResult) -> None:
        self._index = None
        super().insert(at, item)

    def pop(self, at: SupportsIndex = -1) -> OffsetResult:
        self._index = None
        return super().pop(at)

    def remove(self, item: OffsetResult) -> None:
        self._index = None
        super().remove(item)

    def clear(self) -> None:
        self._index = None
        super().clear()

    def __setitem__(self, at: Any, value: Any) -> None:
        self._index = None
        super().__setitem__(at, value)

    def __delitem__(self, at: Any) -> None:
        self._index = None
        super().__delitem__(at)

    def __iadd__(self, items: Iterable[OffsetResult]) -> OffsetResults:  # type: ignore[override,misc]
        self._index = None
        super().__iadd__(items)
        return self

    def __imul__(self, n: SupportsIndex) -> OffsetResults:  # type: ignore[override]
        self._index = None
        super().__imul__(n)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (a Spark task's answers) as the plain list it is
        return (list, (list(self),))


def index_of(results: Iterable[OffsetResult]) -> SpecIndex | None:
    """``results``' own index by spec and partition, when they carry one (else ``None``)."""
    return results.by_spec if isinstance(results, OffsetResults) else None
