"""The Spark stages of ``kafka-offsets check``: collect, evaluate, history, roll up, write.

Input: a validated spec, a plan (:mod:`.plan`, made on the driver) and a running
session. Stages, each timed (``--timings``):

0. on a cluster, a preflight job (:mod:`.preflight`): can the executors' Python import the
   executor side? Secrets and files of cluster settings leave the units (:mod:`.ship`);
1. collect: one task per work unit (:func:`.collect.run_units`), samples cached;
   the run's clock is read when the answers are in (ages never look fresher);
2. history (``--history DIR``): append this run's lag samples to the Parquet
   dataset, read each partition's last N samples back; Burrow's verdicts are
   joined to the records (computed in the next stage's tasks);
3. evaluate: every sample through the shared rules
   (:func:`.evaluate.evaluate_sample`) and, in the same job, one shuffle that
   rolls records up per liveness topic and per lag group (Spark groups, the
   shared rules decide);
4. rollup: per check on the driver (the worst status is the exit code), and the
   partition records brought back (all of them, or the worst N for a table);
5. write (``--write parquet|csv DIR``): the full per-partition table (:mod:`.write`: by the
   driver, or by Spark to a shared URI and read back).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..check.collect import run_units
from ..check.evaluate import EvalContext, check_result, evaluate_sample, group_rollup, topic_rollup
from ..check.history import PartitionHistory
from ..check.plan import CheckPlan
from ..check.report import CheckReport, GroupResult, PartitionRecord, TopicResult
from ..check.spec import CheckSpec, LagCheck, LivenessCheck
from ..errors import MonitoringStatus
from ..liveness.rules import severity, worst
from ..parse.times import now_ms
from .history_stage import join_history
from .preflight import preflight
from .progress import StageProgress
from .ship import localized_units, strip_units
from .write import RECORD_SCHEMA, is_uri, write_table

__all__ = ["RECORD_SCHEMA", "RunOptions", "run_check"]


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """What the run produces besides the verdict."""

    history_dir: str | None = None
    write_format: str | None = None
    write_dir: str | None = None
    all_records: bool = True
    worst: int = 20
    debug: bool = False


@dataclass
class _Clock:
    timings: dict[str, float] = field(default_factory=dict)
    _t: float = field(default_factory=time.monotonic)

    def lap(self, name: str) -> None:
        t = time.monotonic()
        self.timings[name] = round(self.timings.get(name, 0.0) + t - self._t, 3)
        self._t = t


def _row(r: PartitionRecord) -> tuple[Any, ...]:
    return (
        r.check,
        r.kind,
        r.cluster,
        r.topic,
        r.partition,
        r.group,
        r.committed,
        r.end,
        r.lag,
        r.time_lag_ms,
        r.timestamp,
        r.age_ms,
        r.state,
        r.status.name,
        r.log_start,
        r.offset,
        r.history,
        r.error,
    )


def _worst_key(r: PartitionRecord) -> tuple[int, int, int, str, str, str, int]:
    return (
        -severity(r.status),
        -(r.lag or 0),
        -(r.age_ms or 0),
        r.check,
        r.cluster,
        r.topic,
        -1 if r.partition is None else r.partition,
    )


def run_check(
    runtime: Any,
    spec: CheckSpec,
    plan: CheckPlan,
    options: RunOptions,
    progress: StageProgress | None = None,
    *,
    clock_ms: Callable[[], int] = now_ms,
) -> CheckReport:
    """Run the Spark stages for ``plan`` and return the report (the session is not stopped here)."""
    from pyspark import StorageLevel

    sc = runtime.sc
    spark = runtime.spark
    prog = progress or StageProgress(sc)
    prog.attach(sc)
    clock = _Clock()
    debug = options.debug
    checks = {c.name: c for c in spec.checks}

    # 0. the executors' Python, the units' files and secrets ----------------------------------
    if not runtime.local:
        prog.set("checking the executors")
        preflight(sc)
        clock.lap("preflight")
    ship_dir = None if runtime.local else _ship_dir(runtime)
    units, secrets = strip_units(plan.units, ship_to=ship_dir, add_file=sc.addFile)
    secrets_bc = sc.broadcast(secrets)

    # 1. collect -------------------------------------------------------------------------
    prog.set("collecting offsets")
    samples_rdd = sc.parallelize(units, max(1, len(units))).mapPartitions(
        lambda it: run_units(localized_units(it, secrets_bc.value), debug)
    )
    samples_rdd.persist(StorageLevel.MEMORY_ONLY)
    samples_rdd.count()
    clock.lap("collect")
    run_ms = clock_ms()

    # 2. evaluate (history, then per-record rules and roll-ups in one shuffle) -------------
    prog.set("evaluating")
    ctx = sc.broadcast(EvalContext(checks, plan.live_routes, plan.lag_routes, run_ms))
    records = samples_rdd.flatMap(lambda s: evaluate_sample(s, ctx.value))
    if plan.records:
        records = records.union(sc.parallelize(list(plan.records), 1))
    lag_checks = [c for c in spec.checks if isinstance(c, LagCheck)]
    trends: dict[tuple[str, str], list[int | None]] = {}
    history_runs: int | None = None
    with_history = bool(options.history_dir and lag_checks)
    if with_history:
        assert options.history_dir is not None
        prog.set("updating history")
        pairs, trends, history_runs = join_history(
            spark,
            sc,
            options.history_dir,
            samples_rdd=samples_rdd,
            records=records,
            plan=plan,
            lag_checks=lag_checks,
            run_ms=run_ms,
            partitions=_parallelism(sc),
        )
        clock.lap("history")
        prog.set("evaluating")
    else:
        pairs = records.map(lambda r: (r, None))
    pairs.persist(StorageLevel.MEMORY_ONLY)
    types = dict(plan.timestamp_types)
    window_of = {c.name: c.history.window for c in lag_checks}

    def rollup(
        kv: tuple[tuple[str, str, str, str], Iterable[tuple[PartitionRecord, PartitionHistory | None]]],
    ) -> Any:
        (_kind, check, cluster, name), items = kv
        got = list(items)
        recs = [r for r, _ in got]
        states: dict[str, int] = {}
        for r in recs:
            states[r.state] = states.get(r.state, 0) + 1
        c = checks[check]
        if isinstance(c, LivenessCheck):
            return topic_rollup(c, cluster, name, recs, types.get((cluster, name))), states
        assert isinstance(c, LagCheck)
        hist = [h for _, h in got if h is not None] if with_history else None
        trend = trends.get((cluster, name), [])[-window_of.get(check, 10) :]
        return group_rollup(c, cluster, name, recs, hist, trend), states

    rolled: list[tuple[TopicResult | GroupResult, dict[str, int]]] = (
        pairs.map(lambda p: (_rollup_key(p[0]), p)).groupByKey(_parallelism(sc)).map(rollup).collect()
    )
    clock.lap("evaluate")

    # 3. per check (driver) and the partition records --------------------------------------
    prog.set("rolling up")
    counts: dict[str, dict[str, int]] = {}
    topics: list[TopicResult] = []
    groups: list[GroupResult] = []
    for result, states in rolled:
        per = counts.setdefault(result.check, {})
        for state, n in states.items():
            per[state] = per.get(state, 0) + n
        if isinstance(result, TopicResult):
            topics.append(result)
        else:
            groups.append(result)
    results = []
    for c in spec.checks:
        st = counts.get(c.name, {})
        results.append(
            check_result(
                c,
                plan.problems.get(c.name, ()),
                st,
                sum(st.values()),
                [t for t in topics if t.check == c.name],
                [g for g in groups if g.check == c.name],
            )
        )
    status = worst(r.status for r in results) if results else MonitoringStatus.UNKNOWN
    final = pairs.map(_with_history)
    total = sum(sum(v.values()) for v in counts.values())
    if options.all_records:
        parts = sorted(final.collect(), key=lambda r: r.key)
    else:
        parts = final.takeOrdered(options.worst, key=_worst_key)
    clock.lap("rollup")

    # 5. write ---------------------------------------------------------------------------
    if options.write_format and options.write_dir:
        prog.set(f"writing {options.write_format}")
        if is_uri(options.write_dir):
            table: Any = final.map(_row)
        elif options.all_records:
            table = [_row(r) for r in parts]
        else:
            table = final.map(_row).collect()
        write_table(spark, table, options.write_format, options.write_dir)
        clock.lap("write")
    samples_rdd.unpersist()
    pairs.unpersist()
    ctx.unpersist()
    secrets_bc.unpersist()
    return CheckReport(
        status=status,
        checks=tuple(results),
        partitions=tuple(parts),
        now_ms=run_ms,
        total_partitions=total,
        complete=options.all_records,
        timings=dict(clock.timings),
        history_runs=history_runs,
        clusters=tuple(spec.clusters),
        down=plan.down,
    )


def _rollup_key(r: PartitionRecord) -> tuple[str, str, str, str]:
    """Liveness records roll up per (check, cluster, topic), lag records per (check, cluster, group)."""
    if r.kind == "liveness":
        return ("liveness", r.check, r.cluster, r.topic)
    return ("lag", r.check, r.cluster, r.group or "")


def _with_history(pair: tuple[PartitionRecord, PartitionHistory | None]) -> PartitionRecord:
    r, h = pair
    return replace(r, history=h.status.value) if h is not None else r


def _parallelism(sc: Any) -> int:
    return max(1, min(int(sc.defaultParallelism), 64))


def _ship_dir(runtime: Any) -> Path:
    """The driver directory the shipped files are copied to (removed when the session stops)."""
    import tempfile

    if runtime.workdir is None:
        runtime.workdir = Path(tempfile.mkdtemp(prefix="kafka-offsets-spark-"))
    d: Path = runtime.workdir / "files"
    d.mkdir(exist_ok=True)
    return d
