"""Does declaring the rules as data pay? The per-record rules and roll-ups, each way, on the same data.

    python -m bench.rules [--rows 200000] [--reps 5] [--spark-rows 200000] [--no-spark] [--no-local]

No cluster: synthetic samples (half liveness answers, half lag rows, in every state, with
thresholds that put records on both sides of every edge). Each case checks that its variants
give the same results, then times them alternately (the order flips every round) and prints the
median and min–max of each. The cases:

* ``liveness``: a partition's state, status and age
  (:func:`~kafka_offsets_cli.measures.liveness.liveness_row`, as shipped) against the same
  rule written as a plain Python function (:func:`plain_liveness`);
* ``lag-status``: a lag row's status (:func:`~kafka_offsets_cli.measures.lag.rule.lag_status`)
  against :func:`plain_lag_status`;
* ``totals``: a group's totals (:func:`kafka_offsets_cli.lag.summary.totals`'s tally of
  ``TOTAL_STATS``) against one plain loop (:func:`plain_totals`);
* ``spark-records``: ``local[2]``: the records of the samples (one liveness and one lag check)
  through the pipeline's records stage (:func:`kafka_offsets_cli.spark.stages.records_frame`,
  as shipped), through plain Spark column expressions written by hand, and through the plain
  Python rules in Python tasks (``mapInArrow`` of
  :func:`kafka_offsets_cli.check.evaluate.evaluate_sample`, a pass of its own over the
  samples): each written to Spark's ``noop`` sink, so the whole frame is computed.

What it showed (``bench/results/RULES.md``): on the Spark path the rules compiled to SQL pay
(a Python pass over the samples took about 7x as long) and cost what hand-written column
expressions cost; on the local path the compiled closures are 1.2-3x slower than plain functions.

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from kafka_offsets_cli.check.collect import LagSample, LiveSample, Sample  # noqa: E402
from kafka_offsets_cli.check.spec import LagCheck, LivenessCheck  # noqa: E402
from kafka_offsets_cli.errors import MonitoringStatus  # noqa: E402
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState  # noqa: E402
from kafka_offsets_cli.measures.liveness import LiveRow, LiveState  # noqa: E402
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec  # noqa: E402
from kafka_offsets_cli.plan.settle import PENDING  # noqa: E402

NOW = 1_800_000_000_000
WARN_MS, CRIT_MS, TOL_MS = 60_000, 300_000, 60_000
WARN_LAG, CRIT_LAG, WARN_T, CRIT_T = 100, 1000, 60_000, 600_000


# --- the rules, written plainly -----------------------------------------------------------------


def plain_liveness(r: OffsetResult, now: int, warn: int, crit: int, tol: int) -> tuple[Any, ...]:
    """(state, status, age_ms, error) of one max-timestamp answer, as plain Python."""
    if r.error == PENDING:
        return LiveState.PENDING, MonitoringStatus.UNKNOWN, None, None
    if r.error is not None:
        return LiveState.ERROR, MonitoringStatus.UNKNOWN, None, r.error
    if r.offset is None:
        return LiveState.EMPTY, MonitoringStatus.OK, None, None
    ts = r.timestamp
    if ts is None:
        return LiveState.ERROR, MonitoringStatus.UNKNOWN, None, "NO_TIMESTAMP"
    age = now - ts
    if age < -tol:
        return LiveState.FUTURE, MonitoringStatus.WARNING, age, None
    age = max(age, 0)
    if age > crit:
        return LiveState.CRITICAL, MonitoringStatus.CRITICAL, age, None
    if age > warn:
        return LiveState.WARNING, MonitoringStatus.WARNING, age, None
    return LiveState.OK, MonitoringStatus.OK, age, None


_BY_STATE = {
    LagState.ERROR: MonitoringStatus.UNKNOWN,
    LagState.BELOW_START: MonitoringStatus.CRITICAL,
    LagState.NO_COMMIT: MonitoringStatus.WARNING,
    LagState.AHEAD: MonitoringStatus.WARNING,
    LagState.MARKER: MonitoringStatus.OK,
}


def _over(v: int | None, limit: int | None) -> bool:
    return v is not None and limit is not None and v > limit


def plain_lag_status(
    row: LagRow, warn: int | None, crit: int | None, warn_t: int | None, crit_t: int | None
) -> MonitoringStatus:
    """A lag row's status, as plain Python."""
    fixed = _BY_STATE.get(row.state)
    if fixed is not None:
        return fixed
    if _over(row.lag, crit) or _over(row.time_lag_ms, crit_t):
        return MonitoringStatus.CRITICAL
    if _over(row.lag, warn) or _over(row.time_lag_ms, warn_t):
        return MonitoringStatus.WARNING
    return MonitoringStatus.OK


def plain_totals(rows: Sequence[LagRow]) -> tuple[int, int, int, int | None, int]:
    """(partitions, lag, lagging, max time lag, problems) of rows, one plain loop."""
    lag = lagging = problems = 0
    max_t: int | None = None
    for r in rows:
        s = r.state
        if r.lag is not None:
            lag += r.lag
        if (s is LagState.OK and r.lag) or s is LagState.BELOW_START:
            lagging += 1
        if s is not LagState.OK and s is not LagState.MARKER:
            problems += 1
        if r.time_lag_ms is not None and (max_t is None or r.time_lag_ms > max_t):
            max_t = r.time_lag_ms
    return len(rows), lag, lagging, max_t, problems


# --- data --------------------------------------------------------------------------------------


def live_results(n: int, rng: random.Random) -> list[OffsetResult]:
    """``n`` answers: mostly timestamps around every threshold, some in every other state."""
    spec = OffsetSpec.max_timestamp()
    edges = [NOW - d for d in (0, WARN_MS, WARN_MS + 1, CRIT_MS, CRIT_MS + 1, -TOL_MS, -TOL_MS - 1)]
    out = []
    for i in range(n):
        k = rng.random()
        topic = f"t.{i % 50:02d}"
        if k < 0.02:
            out.append(OffsetResult(topic, i, spec, None, error=PENDING))
        elif k < 0.04:
            out.append(OffsetResult(topic, i, spec, None, error="NOT_LEADER_OR_FOLLOWER"))
        elif k < 0.08:
            out.append(OffsetResult(topic, i, spec, None, None))
        elif k < 0.10:
            out.append(OffsetResult(topic, i, spec, 5, None))
        elif k < 0.3:
            out.append(OffsetResult(topic, i, spec, 5, rng.choice(edges)))
        else:
            out.append(OffsetResult(topic, i, spec, 5, NOW - rng.randrange(-2 * TOL_MS, 2 * CRIT_MS)))
    return out


def lag_rows(n: int, rng: random.Random) -> list[LagRow]:
    """``n`` rows in every state, lags and time lags around every threshold."""
    states = [LagState.OK] * 14 + [LagState.MARKER, LagState.NO_COMMIT, LagState.AHEAD]
    states += [LagState.BELOW_START, LagState.ERROR]
    out = []
    for i in range(n):
        s = rng.choice(states)
        lag = rng.choice([0, WARN_LAG, WARN_LAG + 1, CRIT_LAG, CRIT_LAG + 1, rng.randrange(0, 3000)])
        t = rng.choice([None, 0, WARN_T, WARN_T + 1, CRIT_T, CRIT_T + 1, rng.randrange(0, 10**6)])
        ok = s in (LagState.OK, LagState.MARKER)
        out.append(
            LagRow(
                group=f"g.{i % 20:02d}",
                topic=f"t.{i % 50:02d}",
                partition=i,
                committed=10 if s is not LagState.NO_COMMIT else None,
                log_start=0,
                end=10 + (lag if ok else 0),
                lag=(lag if s is LagState.OK else 0) if ok else None,
                time_lag_ms=(t if s is LagState.OK else 0) if ok else None,
                state=s,
                error="UNKNOWN_SERVER_ERROR" if s is LagState.ERROR else None,
                taken_at_ms=NOW,
            )
        )
    return out


# --- timing ------------------------------------------------------------------------------------


def _alternate(variants: dict[str, Callable[[], object]], reps: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {k: [] for k in variants}
    names = list(variants)
    for rep in range(reps):
        for name in names if rep % 2 == 0 else names[::-1]:
            t = time.perf_counter()
            variants[name]()
            times[name].append(time.perf_counter() - t)
    return times


def _report(case: str, n: int, times: dict[str, list[float]]) -> None:
    base = statistics.median(next(iter(times.values())))
    for name, xs in times.items():
        med = statistics.median(xs)
        print(
            f"{case:14} {name:34} {med * 1000:9.1f} ms  ({min(xs) * 1000:.1f}–{max(xs) * 1000:.1f})"
            f"  {med / n * 1e9:7.0f} ns/record  {med / base:5.2f}×"
        )


def bench_local(n: int, reps: int) -> None:
    """The local cases: liveness, lag-status, totals."""
    from kafka_offsets_cli.lag.summary import lag_columns
    from kafka_offsets_cli.measures.lag.rows import TOTAL_STATS
    from kafka_offsets_cli.measures.lag.rule import lag_status
    from kafka_offsets_cli.measures.liveness import liveness_row
    from kafka_offsets_cli.tally import tally

    rng = random.Random(7)
    results, rows = live_results(n, rng), lag_rows(n, rng)

    def shipped_live() -> list[tuple[Any, ...]]:
        out = []
        for r in results:
            x = liveness_row(r, NOW, WARN_MS, CRIT_MS, TOL_MS)
            out.append((x.state, x.age_ms, x.error))
        return out

    def plain_live() -> list[tuple[Any, ...]]:
        out = []
        for r in results:
            st, _, age, err = plain_liveness(r, NOW, WARN_MS, CRIT_MS, TOL_MS)
            x = LiveRow(
                topic=r.topic,
                partition=r.partition,
                offset=r.offset,
                timestamp=r.timestamp,
                age_ms=age,
                state=st,
                error=err,
            )
            out.append((x.state, x.age_ms, x.error))
        return out

    assert shipped_live() == plain_live(), "liveness: the variants disagree"
    _report(
        "liveness", n, _alternate({"shipped (decide.py compiled)": shipped_live, "plain": plain_live}, reps)
    )

    def shipped_lag() -> list[MonitoringStatus]:
        return [lag_status(r, WARN_LAG, CRIT_LAG, WARN_T, CRIT_T) for r in rows]

    def plain_lag() -> list[MonitoringStatus]:
        return [plain_lag_status(r, WARN_LAG, CRIT_LAG, WARN_T, CRIT_T) for r in rows]

    assert shipped_lag() == plain_lag(), "lag-status: the variants disagree"
    _report(
        "lag-status", n, _alternate({"shipped (decide.py compiled)": shipped_lag, "plain": plain_lag}, reps)
    )

    groups: dict[str, list[LagRow]] = {}
    for r in rows:
        groups.setdefault(r.group, []).append(r)

    def shipped_totals() -> list[tuple[Any, ...]]:
        out = []
        for rs in groups.values():
            t = tally(TOTAL_STATS, lag_columns(rs))
            out.append((t["partitions"], t["lag"] or 0, t["lagging"], t["max_time_lag_ms"], t["problems"]))
        return out

    def plain() -> list[tuple[Any, ...]]:
        return [plain_totals(rs) for rs in groups.values()]

    assert shipped_totals() == plain(), "totals: the variants disagree"
    _report("totals", n, _alternate({"shipped (tally.py)": shipped_totals, "plain": plain}, reps))


def _samples(n: int) -> Iterator[Sample]:
    rng = random.Random(11)
    for r in live_results(n // 2, rng):
        yield LiveSample("c", r)
    for w in lag_rows(n - n // 2, rng):
        yield LagSample("c", w)


def _hand_columns(F: Any, live: LivenessCheck, lag: LagCheck) -> dict[str, Any]:
    """The records' decided columns as plain Spark column expressions, written by hand."""
    ts, err, kind = F.col("timestamp"), F.col("error"), F.col("kind")
    age = F.lit(NOW) - ts
    aged = F.greatest(F.lit(0), age)
    is_live = kind == "live"
    live_state = (
        F.when(err == PENDING, "pending")
        .when(err.isNotNull(), "error")
        .when(F.col("offset").isNull(), "empty")
        .when(ts.isNull(), "error")
        .when(age < -live.future_tolerance_ms, "future")
        .when(aged > live.crit_ms, "critical")
        .when(aged > live.warn_ms, "warning")
        .otherwise("ok")
    )
    live_status = (
        F.when(live_state.isin("pending", "error"), "UNKNOWN")
        .when(live_state.isin("empty", "ok"), "OK")
        .when(live_state == "critical", "CRITICAL")
        .otherwise("WARNING")
    )
    live_age = F.when(live_state == "future", age).when(live_state.isin("critical", "warning", "ok"), aged)
    no_ts = err.isNull() & F.col("offset").isNotNull() & ts.isNull()
    live_error = F.when(err == PENDING, F.lit(None)).when(no_ts, "NO_TIMESTAMP").otherwise(err)
    st, lag_col, t = F.col("state"), F.col("lag"), F.col("time_lag_ms")

    def over(c: Any, limit: int | None) -> Any:
        return F.lit(False) if limit is None else F.coalesce(c > limit, F.lit(False))

    lag_status = (
        F.when(st == "error", "UNKNOWN")
        .when(st == "below-start", "CRITICAL")
        .when(st.isin("no-commit", "ahead"), "WARNING")
        .when(st == "marker", "OK")
        .when(over(lag_col, lag.crit_lag) | over(t, lag.crit_time_lag_ms), "CRITICAL")
        .when(over(lag_col, lag.warn_lag) | over(t, lag.warn_time_lag_ms), "WARNING")
        .otherwise("OK")
    )
    return {
        "check": F.when(is_live, live.name).otherwise(lag.name),
        "kind": F.when(is_live, "liveness").otherwise("lag"),
        "state": F.when(is_live, live_state).otherwise(st),
        "status": F.when(is_live, live_status).otherwise(lag_status),
        "age_ms": F.when(is_live, live_age),
        "error": F.when(is_live, live_error).otherwise(err),
        "history": F.lit(None),
    }


def bench_spark(n: int, reps: int) -> None:
    """The ``spark-records`` case."""
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    from kafka_offsets_cli.check.evaluate import EvalContext, RouteIndex, check_rules, evaluate_sample
    from kafka_offsets_cli.spark.frames import (
        RECORD_COLUMNS,
        RECORD_DDL,
        batch_samples,
        record_batch,
        sample_batches,
    )
    from kafka_offsets_cli.spark.stages import records_frame

    live = LivenessCheck(name="live", clusters=("c",), topics=("t.*",), warn_ms=WARN_MS, crit_ms=CRIT_MS)
    lag = LagCheck(
        name="lag",
        clusters=("c",),
        groups=("g.*",),
        warn_lag=WARN_LAG,
        crit_lag=CRIT_LAG,
        warn_time_lag_ms=WARN_T,
        crit_time_lag_ms=CRIT_T,
        time_lag=True,
    )
    live_routes = {("c", f"t.{i:02d}"): ("live",) for i in range(50)}
    lag_routes = {("c", f"g.{g:02d}", f"t.{i:02d}"): ("lag",) for g in range(20) for i in range(50)}
    routes = RouteIndex.of(live_routes, lag_routes)
    ctx = EvalContext({"live": live, "lag": lag}, live_routes, lag_routes, NOW)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers import pyarrow and this package
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    with tempfile.TemporaryDirectory() as tmp:
        import pyarrow as pa
        import pyarrow.parquet as pq

        batches = list(sample_batches(_samples(n), route=routes.route))
        pq.write_table(pa.Table.from_batches(batches), f"{tmp}/s.parquet")
        samples = spark.read.parquet(f"{tmp}/s.parquet").repartition(2).localCheckpoint(eager=True)
        names = [c for c, _ in RECORD_COLUMNS]

        def shipped() -> Any:
            return records_frame(samples, routes, check_rules([live, lag], NOW), [])

        def hand() -> Any:
            decided = _hand_columns(F, live, lag)
            return samples.select(*[decided.get(c, F.col(c)).cast(t).alias(c) for c, t in RECORD_COLUMNS])

        def python() -> Any:
            def evaluate(batches: Iterator[Any]) -> Iterator[Any]:
                for b in batches:
                    yield record_batch(r for s in batch_samples(b) for r in evaluate_sample(s, ctx))

            return samples.mapInArrow(evaluate, RECORD_DDL)

        frames = {
            "shipped (SQL from decide.py)": shipped,
            "hand-written columns": hand,
            "Python tasks": python,
        }
        keyed = {k: sorted(map(tuple, f().select(*names).collect())) for k, f in frames.items()}
        first = next(iter(keyed.values()))
        for k, got in keyed.items():
            assert got == first, f"spark-records: {k} disagrees"

        def timed(f: Callable[[], Any]) -> Callable[[], None]:
            return lambda: f().write.format("noop").mode("overwrite").save()

        _report("spark-records", n, _alternate({k: timed(f) for k, f in frames.items()}, reps))
    spark.stop()


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print one line per variant."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=200_000, help="records per local case")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--spark-rows", type=int, default=200_000)
    p.add_argument("--no-spark", action="store_true")
    p.add_argument("--no-local", action="store_true")
    a = p.parse_args(argv)
    if not a.no_local:
        bench_local(a.rows, a.reps)
    if not a.no_spark:
        bench_spark(a.spark_rows, a.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
