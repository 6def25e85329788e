"""The roll-up statistics computed by Spark in the JVM equal the Python tally, and so do the verdicts.

:mod:`kafka_offsets_cli.tally` declares what the roll-up rules read; ``check`` computes it with
one ``groupBy().agg`` (:mod:`kafka_offsets_cli.spark.tally`), the direct commands and the
pure roll-ups in Python. On random records (nulls, zeros, negative ages, every state and
status, non-ASCII errors, float rates whose sum depends on the order of addition) spread over
several Spark partitions, every statistic and every topic's and group's result must be the same.

Under CI=true a Spark session that cannot start fails the tests.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kafka_offsets_cli.check.history import HistoryStatus
from kafka_offsets_cli.check.records import PartitionRecord
from kafka_offsets_cli.check.report import TopicResult
from kafka_offsets_cli.check.rollups import group_rollup, rollup_stats, topic_rollup
from kafka_offsets_cli.check.spec import CheckDefinition, HistoryRules, LagCheck, LivenessCheck
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.measures.lag.rows import LagState
from kafka_offsets_cli.measures.liveness import LiveState
from kafka_offsets_cli.spark.frames import RECORD_COLUMNS, VERDICT_COLUMNS, ddl, record_row, verdicts
from kafka_offsets_cli.spark.stages import rollup_frame, rollup_results
from kafka_offsets_cli.tally import Pred, Stat, tally

pytestmark = pytest.mark.spark

CHECKS: dict[str, CheckDefinition] = {
    "alive": LivenessCheck(name="alive", clusters=("c",), topics=("t.*",), warn_ms=10, crit_ms=20),
    "alive3": LivenessCheck(
        name="alive3", clusters=("c",), topics=("t.*",), warn_ms=10, crit_ms=20, min_alive=3
    ),
    "lag": LagCheck(name="lag", clusters=("c",), groups=("g.*",), history=HistoryRules(window=2)),
}
H_COLUMNS = [n for n, _ in VERDICT_COLUMNS if n.startswith("h_")]
ERRORS = [None, None, None, "NOT_LEADER_OR_FOLLOWER", "TOPIC_AUTHORIZATION_FAILED", "é", "Z", "\U0001f600"]


def _record(rnd: random.Random, check: str, name: str, partition: int | None) -> tuple[Any, ...]:
    """A record of ``check`` on topic or group ``name`` as a row, with random ``h_*`` verdicts."""
    live = check != "lag"
    state = rnd.choice([s.value for s in (LiveState if live else LagState)])
    rec = PartitionRecord(
        check=check,
        kind="liveness" if live else "lag",
        cluster=rnd.choice(["c", "d"]),
        topic=name if live else rnd.choice(["t1", "t2"]),
        partition=partition,
        group=None if live else name,
        lag=None if live else rnd.choice([None, 0, 1, 7, 2**40]),
        time_lag_ms=None if live else rnd.choice([None, 0, 5, 86_400_000]),
        age_ms=rnd.choice([None, -5, 0, 3, 11, 25, 10**9]) if live else None,
        state=state,
        status=rnd.choice(list(MonitoringStatus)),
        error=rnd.choice(ERRORS[3:] if partition is None else ERRORS),
    )
    judged = not live and partition is not None and rnd.random() < 0.7
    verdict: tuple[Any, ...] = (
        rnd.choice([s.value for s in HistoryStatus]) if judged else None,
        rnd.randint(1, 5) if judged else None,
        "" if judged else None,
        rnd.choice([None, 0, 3, 2**33]) if judged else None,
        rnd.choice([None, 0.1, 1e-9, 3.3, 1e12, -0.7]) if judged else None,
        rnd.choice([None, 0.2, 7e-7, 1.1, 5e11]) if judged else None,
        rnd.choice([None, 1000]) if judged else None,
    )
    return (*record_row(rec), *verdict)


def _rows(seed: int) -> list[tuple[Any, ...]]:
    rnd = random.Random(seed)
    rows = []
    for check in CHECKS:
        for name in ("t1", "t2", "g1", "g2", "x"):
            for p in range(rnd.randint(0, 9)):
                rows.append(_record(rnd, check, name, p))
            for _ in range(rnd.choice([0, 1, 2, 3])):  # the topic or a named topic could not be read
                rows.append(_record(rnd, check, name, None))
    rnd.shuffle(rows)
    return rows


NAMES = [n for n, _ in RECORD_COLUMNS] + H_COLUMNS
DDL = ddl([*RECORD_COLUMNS, *[(n, t) for n, t in VERDICT_COLUMNS if n.startswith("h_")]])


def _groups(rows: list[tuple[Any, ...]]) -> dict[tuple[str, str, str, str], list[dict[str, Any]]]:
    """The rows (as dicts) of each roll-up: (kind, check, cluster, topic or group)."""
    out: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        d = dict(zip(NAMES, row, strict=True))
        name = d["topic"] if d["kind"] == "liveness" else (d["group"] or "")
        out.setdefault((d["kind"], d["check"], d["cluster"], name), []).append(d)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spark_statistics_and_verdicts_equal_the_python_ones(spark_runtime: Any, seed: int) -> None:
    spark = spark_runtime.spark
    rows = _rows(seed)
    stats = rollup_stats(CHECKS.values(), history=True)
    frame = spark.createDataFrame(rows, DDL).repartition(4)
    got = {
        (r["kind"], r["check"], r["cluster"], r["_name"]): r.asDict()
        for r in rollup_frame(frame, stats).collect()
    }
    groups = _groups(rows)
    assert set(got) == set(groups)
    for key, members in groups.items():
        cols = {n: [m[n] for m in members] for n in NAMES}
        want = tally(stats, cols)
        have = {s.name: got[key][s.name] for s in stats}
        have = {k: tuple(v) if isinstance(v, list) else v for k, v in have.items()}
        assert have == want, key

    trends: dict[tuple[str, str], list[int | None]] = {("c", "g1"): [5, None, 3], ("d", "g2"): [1]}
    decided = rollup_results(got.values(), CHECKS, timestamp_types={("c", "t1"): "CreateTime"}, trends=trends)
    for result, states in decided:
        kind = "liveness" if isinstance(result, TopicResult) else "lag"
        name = result.topic if isinstance(result, TopicResult) else result.group
        members = groups[(kind, result.check, result.cluster, name)]
        recs = [PartitionRecord.from_row(m) for m in members]
        check = CHECKS[result.check]
        if isinstance(check, LivenessCheck):
            assert result == topic_rollup(
                check,
                result.cluster,
                name,
                recs,
                "CreateTime" if (result.cluster, name) == ("c", "t1") else None,
            )
        else:
            judged = verdicts(m for m in members if m["h_status"] is not None)
            trend = trends.get((result.cluster, name), [])[-2:]
            assert result == group_rollup(check, result.cluster, name, recs, list(judged), trend)
        assert sum(states.values()) == len(members)


def test_every_operation_agrees_on_nulls_and_zeros(spark_runtime: Any) -> None:
    """Each predicate and statistic of the vocabulary, on columns with nulls and zeros, in both places."""
    from kafka_offsets_cli.spark.tally import aggregates

    xs = [None, 0, 3, -2, 0, None, 9, 3]
    ss = [None, "a", "b", None, "é", "a", "\U0001f600", "q'\\x"]
    fs = [None, 0.1, 1e16, -1e16, 1.0, None, 0.3, 2.5]
    tests = [
        Pred("x", "present"),
        Pred("x", "absent"),
        Pred("x", "nonzero"),
        Pred("s", "in", ("a", "é", "q'\\x")),  # quotes and backslashes in SQL literals
        Pred("s", "not_in", ("a", "é")),
        Pred("x", "gt", (0,)),  # the decision lists' thresholds (kafka_offsets_cli.decide)
        Pred("x", "lt", (3,)),
        Pred("s", "gt", ("b",)),  # strings by code point
    ]
    stats = []
    for i, t in enumerate(tests):
        where = ((t,),)
        stats += [
            Stat(f"count{i}", "count", where=where),
            Stat(f"sum{i}", "sum", "x", where),
            Stat(f"fsum{i}", "fsum", "f", where),
            Stat(f"min{i}", "min", "s", where),
            Stat(f"max{i}", "max", "x", where),
            Stat(f"smallest{i}", "smallest", "x", where, 2),
        ]
    either = ((tests[3], tests[0]), (tests[1],))  # (s in … and x present) or x absent
    stats += [Stat("either", "count", where=either), Stat("none", "smallest", "x", n=0)]
    frame = spark_runtime.spark.createDataFrame(
        list(zip(xs, ss, fs, strict=True)), "x bigint, s string, f double"
    )
    [row] = frame.repartition(3).agg(*aggregates(stats)).collect()
    have = {k: tuple(v) if isinstance(v, list) else v for k, v in row.asDict().items()}
    assert have == tally(stats, {"x": xs, "s": ss, "f": fs})
