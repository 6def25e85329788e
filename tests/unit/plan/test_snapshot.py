"""One snapshot per partition: answers beyond ``latest`` or below ``earliest`` are repaired (no broker)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_offsets_cli.models.offset_results import OffsetResults
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest
from kafka_offsets_cli.plan.snapshot import breaches, close_snapshot, needs_closing

E, L, M = OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.max_timestamp()
AT = OffsetSpec.at(1_000)


def res(spec: OffsetSpec, offset: int | None, p: int = 0, error: str | None = None) -> OffsetResult:
    """A result for partition ``p`` of topic ``t``."""
    return OffsetResult("t", p, spec, offset, None, None, error)


class Moving:
    """A log whose ends have moved since the first answers: what it answers now, and what was asked."""

    def __init__(self, answer: Callable[[OffsetSpec, int], OffsetResult]) -> None:
        self.answer = answer
        self.asked: list[list[tuple[int, OffsetSpec]]] = []

    def metadata(self, *a: object, **k: object) -> object:  # pragma: no cover - unused
        raise NotImplementedError

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        self.asked.append([(tp.partition, spec) for r in requests for tp, spec in r.queries])
        return [self.answer(spec, tp.partition) for r in requests for tp, spec in r.queries]


def close(log: Moving, first: list[OffsetResult]) -> list[OffsetResult]:
    return close_snapshot(log, first, sleep=lambda _s: None)  # type: ignore[arg-type]


def test_only_an_end_of_the_log_with_another_spec_can_disagree() -> None:
    assert needs_closing([E, M]) and needs_closing([L, AT]) and needs_closing([E, L])
    assert not needs_closing([L]) and not needs_closing([M, AT]) and not needs_closing([L, L])


def test_a_consistent_output_costs_no_request() -> None:
    log = Moving(lambda s, p: res(s, 99, p))
    first = [res(E, 0), res(L, 10), res(M, 9), res(AT, 3), res(E, 5, 1), res(L, 5, 1), res(M, None, 1)]
    assert close(log, first) == first
    assert log.asked == []


def test_a_record_at_or_beyond_latest_gets_a_closing_latest() -> None:
    # max-timestamp answered after latest: 12 and 10 lie at or beyond the output's latest 10
    log = Moving(lambda s, p: res(s, 13 if s == L else 99, p))
    first = [res(E, 0), res(L, 10), res(M, 12), res(E, 0, 1), res(L, 10, 1), res(AT, 10, 1), res(L, 4, 2)]
    assert breaches(first) == ([], {first[0].tp, first[3].tp})
    out = close(log, first)
    assert out == [
        res(E, 0),
        res(L, 13),
        res(M, 12),
        res(E, 0, 1),
        res(L, 13, 1),
        res(AT, 10, 1),
        res(L, 4, 2),
    ]
    assert log.asked == [[(0, L), (1, L)]]  # one request, the broken partitions' latest only


def test_a_lookup_below_earliest_is_asked_again_then_latest() -> None:
    # the log start moved to 20 after the time lookup answered 5: asked again, then latest last
    log = Moving(lambda s, p: res(s, {AT: 21, L: 40}.get(s, 99), p))
    out = close(log, [res(E, 20), res(L, 30), res(AT, 5), res(M, 29)])
    assert out == [res(E, 20), res(L, 40), res(AT, 21), res(M, 29)]
    assert log.asked == [[(0, AT)], [(0, L)]]


def test_errors_and_none_answers_hold_no_relation_and_a_failed_closing_answer_shows() -> None:
    first = [res(E, 0), res(L, 10), res(M, None, error="PENDING"), res(AT, None), res(M, 10, 1), res(L, 3, 1)]
    assert breaches(first) == ([], {first[4].tp})
    log = Moving(lambda s, p: res(s, None, p, error="NOT_LEADER_OR_FOLLOWER"))
    out = close(log, first)
    assert out[5] == res(L, None, 1, error="NOT_LEADER_OR_FOLLOWER")  # reported as it came, never invented
    assert out[:5] == first[:5]


def _plain_breaches(results: Sequence[OffsetResult]) -> tuple[list[tuple[object, OffsetSpec]], set[object]]:
    """breaches as two plain loops over every answer (the construction the comprehensions replace)."""
    starts: dict[tuple[str, int], int] = {}
    ends: dict[tuple[str, int], int] = {}
    for r in results:
        if r.offset is not None and r.error is None:
            if r.spec.kind is SpecKind.EARLIEST:
                starts[(r.topic, r.partition)] = r.offset
            elif r.spec.kind is SpecKind.LATEST:
                ends[(r.topic, r.partition)] = r.offset
    below: list[tuple[object, OffsetSpec]] = []
    beyond: set[object] = set()
    for r in results:
        kind, off, tp = r.spec.kind, r.offset, TopicPartition(r.topic, r.partition)
        if off is None or r.error is not None or kind is SpecKind.EARLIEST:
            continue
        start, end = starts.get((r.topic, r.partition)), ends.get((r.topic, r.partition))
        if kind is SpecKind.LATEST:
            if start is not None and off < start:
                beyond.add(tp)
            continue
        above = (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP, SpecKind.EARLIEST_LOCAL)
        if start is not None and off < start and kind in above:
            below.append((tp, r.spec))
        records = (SpecKind.MAX_TIMESTAMP, SpecKind.TIMESTAMP, SpecKind.LATEST_TIERED)
        if end is not None and (off > end or (off == end and kind in records)):
            beyond.add(tp)
    return below, beyond


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["t", "u"]),
            st.integers(0, 2),
            st.sampled_from(
                [E, L, E, L, M, AT, OffsetSpec(SpecKind.EARLIEST_LOCAL), OffsetSpec(SpecKind.LATEST_TIERED)]
            ),
            st.none() | st.integers(0, 12),
            st.none() | st.just("NOT_LEADER_OR_FOLLOWER"),
        ),
        max_size=30,
    )
)
def test_breaches_are_the_plain_loops(
    answers: list[tuple[str, int, OffsetSpec, int | None, str | None]],
) -> None:
    # lag's answers (earliest and latest only) take the short way; any other spec the whole check.
    # Repeated answers for one partition and spec, errors and "no record" answers included
    results = [OffsetResult(t, p, s, None if e else o, None, None, e) for t, p, s, o, e in answers]
    assert breaches(results) == _plain_breaches(results)
    lag_only = [r for r in results if r.spec in (E, L)]
    assert breaches(lag_only) == _plain_breaches(lag_only)
    # answers that carry their own index by spec and partition (the kafka-python route's: one answer a
    # query, the last one asked): lag's are read from it, any other spec takes the whole check
    for some in (results, lag_only):
        by_spec: dict[OffsetSpec, dict[TopicPartition, OffsetResult]] = {}
        for r in some:
            by_spec.setdefault(r.spec, {})[TopicPartition(r.topic, r.partition)] = r
        indexed = OffsetResults([r for got in by_spec.values() for r in got.values()], by_spec)
        assert breaches(indexed) == _plain_breaches(list(indexed))
