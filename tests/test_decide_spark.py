"""The per-record rules compiled to JVM expressions give the records the Python rules give.

``check`` decides its records in one ``select`` (:func:`kafka_offsets_cli.spark.stages.records_frame`:
the rules of :mod:`kafka_offsets_cli.decide` as SQL, :mod:`kafka_offsets_cli.spark.decide`); the
direct commands and :func:`kafka_offsets_cli.check.evaluate.evaluate_sample` run the same rules
in Python. On random samples and on the edges (a timestamp exactly at now - crit, now - warn,
now + tolerance and one off, nulls, every state, ages below zero, ``time_lag: false``), spread
over several Spark partitions, the records must be the same; so must a random decision list's
outputs.

Under CI=true a Spark session that cannot start fails the tests.
"""

from __future__ import annotations

import random
from collections import Counter
from operator import itemgetter
from typing import Any

import pytest

from kafka_offsets_cli.check.collect import LagSample, LiveSample, Sample
from kafka_offsets_cli.check.evaluate import EvalContext, RouteIndex, check_rules, evaluate_sample
from kafka_offsets_cli.check.spec import CheckDefinition, LagCheck, LivenessCheck
from kafka_offsets_cli.decide import Arm, Const, Field, Minus, Rule, compile_rule, decide
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.plan.settle import PENDING
from kafka_offsets_cli.spark.decide import sql_rule
from kafka_offsets_cli.spark.frames import RECORD_COLUMNS, SAMPLE_DDL, record_row, sample_batches
from kafka_offsets_cli.spark.stages import records_frame
from kafka_offsets_cli.tally import Pred, PredOp

pytestmark = pytest.mark.spark

NOW = 1_700_000_000_000
MIN = 60_000
CHECKS: list[CheckDefinition] = [
    LivenessCheck(name="alive", clusters=("c",), topics=("t.*",), warn_ms=5 * MIN, crit_ms=15 * MIN),
    LivenessCheck(name="same", clusters=("c",), topics=("t.*",), warn_ms=5 * MIN, crit_ms=15 * MIN),
    LivenessCheck(name="zero", clusters=("c",), topics=("t1",), warn_ms=0, crit_ms=0, future_tolerance_ms=0),
    LivenessCheck(
        name="it's", clusters=("d",), topics=("t.*",), warn_ms=MIN, crit_ms=MIN, future_tolerance_ms=5
    ),
    LagCheck(name="lag", clusters=("c", "d"), groups=("g.*",), warn_lag=10, crit_lag=100),
    LagCheck(
        name="timed",
        clusters=("c",),
        groups=("g.*",),
        warn_lag=10,
        warn_time_lag_ms=MIN,
        crit_time_lag_ms=10 * MIN,
        time_lag=True,
    ),
    LagCheck(
        name="untimed", clusters=("c",), groups=("g1",), crit_lag=0, crit_time_lag_ms=MIN, time_lag=False
    ),
    LagCheck(name="bare", clusters=("d",), groups=("g.*",)),
    LagCheck(
        name="losing",
        clusters=("c",),
        groups=("g.*",),
        warn_loss_eta_ms=10 * MIN,
        crit_loss_eta_ms=MIN,
        loss_eta=True,
        time_lag=True,
    ),
]
LIVE_ROUTES = {
    ("c", "t1"): ("alive", "same", "zero"),
    ("c", "t2"): ("alive", "same"),
    ("d", "t1"): ("it's",),
    ("d", "t2"): ("it's",),
}
LAG_ROUTES = {
    ("c", "g1", "t1"): ("lag", "timed", "untimed", "losing"),
    ("c", "g2", "t1"): ("lag", "timed", "losing"),
    ("d", "g1", "t1"): ("lag", "bare"),
    ("d", "g2", "t2"): (),
}
CTX = EvalContext({c.name: c for c in CHECKS}, LIVE_ROUTES, LAG_ROUTES, NOW)
NO_TIME_LAG = [c.name for c in CHECKS if isinstance(c, LagCheck) and not c.time_lag]
NO_LOSS_ETA = [c.name for c in CHECKS if isinstance(c, LagCheck) and not c.loss_eta]


def _edges() -> list[int | None]:
    """Timestamps on and next to every boundary of the liveness checks."""
    out: list[int | None] = [None, NOW, 0, -5]
    for c in CHECKS:
        if isinstance(c, LivenessCheck):
            for t in (NOW - c.crit_ms, NOW - c.warn_ms, NOW + c.future_tolerance_ms):
                out += [t - 1, t, t + 1]
    return out


def _samples(seed: int) -> list[Sample]:
    rnd, etas = random.Random(seed), random.Random(-seed)
    spec = OffsetSpec.max_timestamp()
    edges = _edges()
    out: list[Sample] = []
    for i in range(400):
        cluster = rnd.choice(["c", "d", "x"])
        topic = rnd.choice(["t1", "t2", "t3"])
        if rnd.random() < 0.5:
            error = rnd.choice([None, None, None, None, PENDING, "NOT_LEADER_OR_FOLLOWER", "é'\\"])
            offset = rnd.choice([None, 0, 7])
            ts = rnd.choice(edges) if rnd.random() < 0.5 else NOW - rnd.randint(-2 * MIN, 30 * MIN)
            out.append(
                LiveSample(cluster, OffsetResult(topic, i, spec, offset, ts, rnd.choice([None, 3]), error))
            )
        else:
            state = rnd.choice([*[LagState.OK] * 5, *LagState])
            out.append(
                LagSample(
                    cluster,
                    LagRow(
                        group=rnd.choice(["g1", "g2"]),
                        group_type=rnd.choice([None, "classic", "consumer", "share", "streams"]),
                        topic=topic,
                        partition=i,
                        committed=rnd.choice([None, 5]),
                        log_start=rnd.choice([None, 0]),
                        end=rnd.choice([None, 50]),
                        lag=rnd.choice([None, 0, 1, 10, 11, 100, 101, 2**40]),
                        time_lag_ms=rnd.choice([None, 0, MIN, MIN + 1, 10 * MIN, 10 * MIN + 1]),
                        state=state,
                        error=rnd.choice([None, "GROUP_AUTHORIZATION_FAILED"]),
                        resume_timestamp=rnd.choice([None, NOW]),
                        taken_at_ms=rnd.choice([None, NOW]),
                    ),
                    # on and next to the loss-ETA thresholds (an ETA at or below one alerts); a draw
                    # of its own, so the seeds' other draws stay as they were
                    etas.choice([None, 0, MIN - 1, MIN, MIN + 1, 10 * MIN, 10 * MIN + 1]),
                )
            )
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_jvm_records_equal_the_python_ones(spark_runtime: Any, seed: int) -> None:
    spark = spark_runtime.spark
    samples = _samples(seed)
    routes = RouteIndex.of(CTX.live_routes, CTX.lag_routes)
    rows = [
        tuple(d.values()) for b in sample_batches(samples, size=97, route=routes.route) for d in b.to_pylist()
    ]
    frame = spark.createDataFrame(rows, SAMPLE_DDL).repartition(3)
    got = records_frame(frame, routes, check_rules(CHECKS, NOW), NO_TIME_LAG, NO_LOSS_ETA).collect()
    want = [record_row(r) for s in samples for r in evaluate_sample(s, CTX)]
    assert {r[0] for r in want} == {c.name for c in CHECKS}  # every check has records
    names = [n for n, _ in RECORD_COLUMNS]
    assert {r[names.index("state")] for r in want} >= {
        "ok", "warning", "critical", "empty", "pending", "future", "error",
    }  # fmt: skip
    assert {r[names.index("group_type")] for r in want} == {None, "classic", "consumer", "share", "streams"}
    losing = [r for r in want if r[0] == "losing" and r[names.index("state")] == "ok"]
    assert {r[names.index("status")] for r in losing} == {"OK", "WARNING", "CRITICAL"}
    assert {r[names.index("loss_eta_ms")] for r in want if r[0] != "losing"} == {None}
    assert Counter(tuple(r) for r in got) == Counter(want)


def test_no_samples_no_routes(spark_runtime: Any) -> None:
    spark = spark_runtime.spark
    empty = RouteIndex.of({}, {})
    frame = spark.createDataFrame([], SAMPLE_DDL)
    assert records_frame(frame, empty, {}, []).collect() == []


FIELDS = ("a", "b", "s")


def _pred(rnd: random.Random) -> Pred:
    field = rnd.choice(FIELDS)
    ops: list[PredOp] = ["present", "absent", "in", "not_in", "nonzero", "gt", "lt"]
    op = rnd.choice(ops)
    pool: list[Any] = ["x", "y", "é"] if field == "s" else [-3, 0, 2, 5]
    if op in ("gt", "lt"):
        return Pred(field, op, (rnd.choice(pool),))
    if op in ("in", "not_in"):
        return Pred(field, op, tuple(rnd.sample(pool, rnd.randint(1, 3))))
    return Pred(field, "present" if field == "s" and op == "nonzero" else op)


def _rule(rnd: random.Random) -> Rule:
    def value() -> Any:
        return rnd.choice(
            [
                Const(rnd.choice([None, 1, -7, 2**40])),
                Field(rnd.choice(["a", "b"])),
                Minus(rnd.choice([0, 10, NOW]), rnd.choice(["a", "b"])),
                Minus(rnd.choice([0, 10]), rnd.choice(["a", "b"]), floor=rnd.choice([0, 3])),
            ]
        )

    arms = tuple(
        Arm(
            tuple(tuple(_pred(rnd) for _ in range(rnd.randint(0, 2))) for _ in range(rnd.randint(0, 2))),
            (value(), Const(rnd.choice(["p", "q'"]))),
        )
        for _ in range(rnd.randint(0, 5))
    )
    return Rule(("v", "w"), arms, (value(), Const("default")))


def test_random_decision_lists_agree(spark_runtime: Any) -> None:
    """Arbitrary rules (empty conditions, always-true arms, every test and value) in both places."""
    rnd = random.Random(7)
    rows = [
        (
            rnd.choice([None, -3, 0, 2, 5, 9]),
            rnd.choice([None, -3, 0, 2, 5]),
            rnd.choice([None, "x", "y", "é", "z"]),
        )
        for _ in range(300)
    ]
    frame = spark_runtime.spark.createDataFrame(rows, "a bigint, b bigint, s string").repartition(2)
    dicts = [dict(zip(FIELDS, r, strict=True)) for r in rows]
    for _ in range(40):
        rule = _rule(rnd)
        sql = sql_rule(rule)
        got = [tuple(r) for r in frame.selectExpr(*FIELDS, sql["v"], sql["w"]).collect()]
        run = compile_rule(rule, itemgetter)
        want = [(*r, *run(d)) for r, d in zip(rows, dicts, strict=True)]
        assert Counter(got) == Counter(want), rule
        assert all(run(d) == decide(rule, d.get) for d in dicts), rule
