"""Decision lists (:mod:`kafka_offsets_cli.decide`) and the rules declared with them.

The liveness and lag rules are declared once as data; here they are compared with the plain
if-chains they replaced (written out below as the specification), on every boundary, and the
compiled Python function with the plain reference evaluation.
"""

from __future__ import annotations

import random
from operator import itemgetter

import pytest

from kafka_offsets_cli.check.collect import LagSample, LiveSample
from kafka_offsets_cli.check.evaluate import EvalContext, RouteIndex
from kafka_offsets_cli.decide import Arm, Const, Field, Minus, Rule, compile_rule, decide
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState, error_row
from kafka_offsets_cli.measures.lag.rule import lag_rule, lag_status
from kafka_offsets_cli.measures.liveness import LiveState, liveness_row, row_status
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.settle import PENDING
from kafka_offsets_cli.tally import Pred

NOW = 1_000_000
S = MonitoringStatus


def _spec_live(
    error: str | None, offset: int | None, ts: int | None, warn: int, crit: int, tol: int
) -> tuple[LiveState, int | None, str | None]:
    """Liveness as the hand-written chain said it."""
    if error == PENDING:
        return LiveState.PENDING, None, None
    if error is not None:
        return LiveState.ERROR, None, error
    if offset is None:
        return LiveState.EMPTY, None, None
    if ts is None:
        return LiveState.ERROR, None, "NO_TIMESTAMP"
    age = NOW - ts
    if age < -tol:
        return LiveState.FUTURE, age, None
    age = max(0, age)
    if age > crit:
        return LiveState.CRITICAL, age, None
    if age > warn:
        return LiveState.WARNING, age, None
    return LiveState.OK, age, None


@pytest.mark.parametrize(
    ("warn", "crit", "tol"), [(300, 900, 60), (0, 0, 0), (5, 5, -10), (-1, 10, 0), (-5, -2, 3), (10, -1, 1)]
)
def test_liveness_rule_is_the_chain_on_every_boundary(warn: int, crit: int, tol: int) -> None:
    """Including negative thresholds (max(0, age) > crit always) and a negative tolerance."""
    spec = OffsetSpec.max_timestamp()
    stamps: list[int | None] = [None, NOW, 0, -NOW, 2 * NOW]
    for t in (NOW - crit, NOW - warn, NOW + tol, NOW):
        stamps += [t - 1, t, t + 1]
    for error in (None, PENDING, "X"):
        for offset in (None, 3):
            for ts in stamps:
                r = OffsetResult("t", 0, spec, offset, ts, None, error)
                row = liveness_row(r, NOW, warn, crit, tol)
                assert (row.state, row.age_ms, row.error) == _spec_live(error, offset, ts, warn, crit, tol)
                assert (row.topic, row.partition, row.offset, row.timestamp) == ("t", 0, offset, ts)


def test_row_status_is_the_state_table() -> None:
    want = {
        LiveState.OK: S.OK,
        LiveState.WARNING: S.WARNING,
        LiveState.CRITICAL: S.CRITICAL,
        LiveState.ERROR: S.UNKNOWN,
        LiveState.PENDING: S.UNKNOWN,
    }
    r = liveness_row(OffsetResult("t", 0, OffsetSpec.max_timestamp(), 1, NOW), NOW, 1, 2)
    for state, status in want.items():
        assert row_status(type(r)(**{**r.__dict__, "state": state})) is status
    for empty in S:
        for future in S:
            e = type(r)(**{**r.__dict__, "state": LiveState.EMPTY})
            f = type(r)(**{**r.__dict__, "state": LiveState.FUTURE})
            assert row_status(e, empty=empty, future=future) is empty
            assert row_status(f, empty=empty, future=future) is future


def _spec_lag(row: LagRow, wl: int | None, cl: int | None, wt: int | None, ct: int | None) -> S:
    """Lag status as the hand-written chain said it."""
    if row.state is LagState.ERROR:
        return S.UNKNOWN
    if row.state is LagState.BELOW_START:
        return S.CRITICAL
    if row.state in (LagState.NO_COMMIT, LagState.AHEAD):
        return S.WARNING
    if row.state is LagState.MARKER:
        return S.OK

    def over(v: int | None, limit: int | None) -> bool:
        return v is not None and limit is not None and v > limit

    if over(row.lag, cl) or over(row.time_lag_ms, ct):
        return S.CRITICAL
    if over(row.lag, wl) or over(row.time_lag_ms, wt):
        return S.WARNING
    return S.OK


def test_lag_rule_is_the_chain() -> None:
    rnd = random.Random(3)
    limits = [None, 0, 10, 100]
    for _ in range(3000):
        row = LagRow(
            group="g",
            topic="t",
            partition=0,
            committed=None,
            log_start=None,
            end=None,
            lag=rnd.choice([None, 0, 9, 10, 11, 100, 101]),
            time_lag_ms=rnd.choice([None, 0, 10, 11, 100, 101]),
            state=rnd.choice(list(LagState)),
        )
        t = tuple(rnd.choice(limits) for _ in range(4))
        assert lag_status(row, *t) is _spec_lag(row, *t)


def test_rule_as_plain_strings_for_sql() -> None:
    """The lag rule compares states as their values (what the JVM's column holds)."""
    rule = lag_rule(crit_lag=5)
    assert decide(rule, {"state": "below-start", "lag": None, "time_lag_ms": None}.get) == (S.CRITICAL,)
    assert decide(rule, {"state": "ok", "lag": 6, "time_lag_ms": None}.get) == (S.CRITICAL,)
    assert decide(rule, {"state": "ok", "lag": 5, "time_lag_ms": None}.get) == (S.OK,)


def test_compiled_equals_reference_and_first_arm_wins() -> None:
    rule = Rule(
        ("v",),
        (
            Arm(((Pred("s", "in", ("a", "b")),),), (Const(1),)),
            Arm(((Pred("s", "in", ("b", "c")),),), (Const(2),)),  # "b": the first arm's
            Arm(((Pred("n", "gt", (5,)), Pred("n", "lt", (9,))),), (Minus(10, "n"),)),
            Arm(((Pred("n", "lt", (0,)),), (Pred("s", "absent"),)), (Minus(0, "n", floor=3),)),
            Arm(((),), (Field("n"),)),  # always: the default is never reached
        ),
        (Const("never"),),
    )
    run = compile_rule(rule, itemgetter)
    for s in (None, "a", "b", "c", "d"):
        for n in (None, -4, 0, 5, 6, 8, 9):
            d = {"s": s, "n": n}
            assert run(d) == decide(rule, d.get)
    assert run({"s": "b", "n": 0}) == (1,)
    assert run({"s": "c", "n": 0}) == (2,)
    assert run({"s": "d", "n": 7}) == (3,)
    assert run({"s": None, "n": 1}) == (3,)  # max(3, 0 - 1)
    assert run({"s": None, "n": None}) == (None,)  # a null field: a null value
    assert run({"s": "d", "n": 1}) == (1,)


def test_rule_shape_is_checked() -> None:
    with pytest.raises(ValueError, match="outputs"):
        Rule(("a", "b"), (Arm(((),), (Const(1),)),), (Const(1), Const(2)))


def test_route_index_numbers_each_set_of_checks_once() -> None:
    ctx = EvalContext(
        {}, {("c", "t"): ("a", "b"), ("c", "u"): ("a", "b"), ("d", "t"): ()}, {("c", "g", "t"): ("x",)}, 0
    )
    idx = RouteIndex.of(ctx.live_routes, ctx.lag_routes)
    assert idx.names[0] == () and sorted(idx.names[1:]) == [("a", "b"), ("x",)]
    spec = OffsetSpec.max_timestamp()
    live = [
        LiveSample(c, OffsetResult(t, 0, spec, 1, 1))
        for c, t in (("c", "t"), ("c", "u"), ("d", "t"), ("e", "t"))
    ]
    assert [idx.names[idx.route(s)] for s in live] == [("a", "b"), ("a", "b"), (), ()]
    lag = LagSample("c", error_row("g", TopicPartition("t", 0), "X"))
    assert idx.names[idx.route(lag)] == ("x",)
