"""Withheld max-timestamp/timestamp answers: proven none, asked again, or PENDING (no broker)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.liveness.report import build_report
from kafka_offsets_cli.measures.liveness import LiveState
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest
from kafka_offsets_cli.plan.settle import PENDING, settle, unsettled, verdict

TP = TopicPartition("t", 0)
E, L, M = OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.max_timestamp()
AT = OffsetSpec.at(1_000)


def res(
    spec: OffsetSpec, offset: int | None, ts: int | None = None, error: str | None = None
) -> OffsetResult:
    """A result for the test partition."""
    return OffsetResult(TP.topic, TP.partition, spec, offset, ts, None, error)


def keyed(*results: OffsetResult) -> dict[tuple[TopicPartition, OffsetSpec], OffsetResult]:
    """Answers of one probe round, keyed as :func:`verdict` reads them."""
    return {(r.tp, r.spec): r for r in results}


class Log:
    """A fake partition: ``answer(spec, round)`` says what the broker answers in each probe round."""

    def __init__(self, answer: Callable[[OffsetSpec, int], OffsetResult]) -> None:
        self.answer = answer
        self.rounds = 0
        self.calls: list[int] = []

    def metadata(self, *a: object, **k: object) -> object:  # pragma: no cover - unused
        raise NotImplementedError

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        self.rounds += 1
        self.calls.append(len(requests))
        return [self.answer(spec, self.rounds) for r in requests for _tp, spec in r.queries]


def run(log: Log, first: list[OffsetResult]) -> list[OffsetResult]:
    return settle(log, first, sleep=lambda _s: None)  # type: ignore[arg-type]


def test_only_lookups_without_record_or_error_are_unsettled() -> None:
    assert unsettled(res(M, None))
    assert unsettled(res(AT, None))
    assert not unsettled(res(M, 5, 9))
    assert not unsettled(res(M, None, error="REQUEST_TIMED_OUT"))
    assert not unsettled(res(L, None))  # latest/earliest never come back "no record"


def test_empty_partition_is_a_true_none() -> None:
    log = Log(lambda s, _r: res(s, 7) if s in (E, L) else res(s, None))
    assert run(log, [res(M, None)]) == [res(M, None)]
    assert log.rounds == 1  # one probe round proves it


def test_withheld_answer_is_asked_again_until_visible() -> None:
    # records 0..9; the newest (by timestamp) is above the high watermark for two rounds
    log = Log(lambda s, r: res(s, {E: 0, L: 10}[s]) if s in (E, L) else res(s, 9 if r >= 3 else None, 50))
    assert run(log, [res(E, 0), res(M, None)]) == [res(E, 0), res(M, 9, 50)]
    assert log.rounds == 3


def test_still_withheld_after_every_pause_is_pending_never_empty() -> None:
    log = Log(lambda s, _r: res(s, {E: 0, L: 10}[s]) if s in (E, L) else res(s, None))
    (out,) = run(log, [res(M, None)])
    assert out == res(M, None, error=PENDING)
    assert log.rounds == 7
    report = build_report([out], now_ms=10_000, warn_ms=1_000, crit_ms=2_000)
    assert report.rows[0].state is LiveState.PENDING
    assert report.status is MonitoringStatus.UNKNOWN


def test_timestamp_after_newest_visible_record_is_a_true_none() -> None:
    answers = keyed(res(E, 0), res(L, 10), res(M, 4, 999), res(AT, None))
    assert verdict((TP, AT), answers) == res(AT, None)
    # the newest record is at or after the target: a none must be a withheld answer
    assert verdict((TP, AT), {**answers, **keyed(res(M, 4, 1_000))}) is None
    # and if the newest record itself is withheld, nothing is proven
    assert verdict((TP, AT), {**answers, **keyed(res(M, None))}) is None


def test_an_error_on_the_second_look_is_reported() -> None:
    answers = keyed(res(E, 0), res(L, 10), res(M, None, error="NOT_LEADER_OR_FOLLOWER"))
    assert verdict((TP, M), answers) == res(M, None, error="NOT_LEADER_OR_FOLLOWER")


def test_probe_rounds_are_one_request_per_spec_not_per_partition() -> None:
    tps = [TopicPartition("t", p) for p in range(50)]

    class Many(Log):
        def list_offsets(
            self,
            requests: Sequence[OffsetRequest],
            *,
            isolation: Isolation | None = None,
            progress: Callable[[int], None] | None = None,
        ) -> list[OffsetResult]:
            self.calls.append(len(requests))
            return [
                OffsetResult(tp.topic, tp.partition, s, 3 if s in (E, L) else None)
                for r in requests
                for tp, s in r.queries
            ]

    log = Many(lambda s, r: res(s, None))
    first = [OffsetResult(tp.topic, tp.partition, M, None) for tp in tps]
    out = settle(log, first, sleep=lambda _s: None)  # type: ignore[arg-type]
    assert [r.error for r in out] == [None] * 50 and [r.tp for r in out] == tps
    assert log.calls == [3]  # earliest, latest, max-timestamp: one request each for 50 partitions
