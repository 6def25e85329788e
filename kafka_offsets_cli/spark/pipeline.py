"""The Spark stages of ``kafka-offsets check``: collect, evaluate, history, roll up, write.

Input: a validated spec, a plan (:mod:`.plan`, made on the driver) and a running
session, classic or Spark Connect: every stage is a DataFrame (:mod:`.stages`), so nothing
needs a SparkContext. Stages, each timed (``--timings``):

0. secrets and files of cluster settings leave the units (:mod:`.ship`); on a cluster, a
   failed job is diagnosed by the preflight (:mod:`.preflight`, :func:`run_check`);
1. collect: one task per work unit (:func:`.collect.run_units` in ``mapInArrow``), the samples
   flat Arrow rows, each once with the number of the checks that route it, checkpointed; the
   run's clock is read on the driver when the answers are in (ages never look fresher);
2. evaluate: the records in one JVM ``select`` (:func:`.stages.records_frame`): each sample
   once per check routing it, the check's per-record rule (:func:`.evaluate.check_rules`, the
   decision lists ``liveness`` and ``lag`` run in Python) compiled to SQL (:mod:`.decide`) at
   the run's clock: no Python pass over the samples;
3. history (``--history DIR``): append this run's lag samples (each once) to the Parquet
   dataset, read each partition's last N samples back, judge them (Burrow's rules in a
   grouped Arrow function) and join the verdicts to the records;
4. rollup: per liveness topic and lag group the statistics the shared roll-ups read
   (:func:`kafka_offsets_cli.check.rollups.rollup_stats`: one ``groupBy().agg`` in the JVM,
   :mod:`.tally`), its records' states counted among them (a check's state counts are their
   sums); each topic and group decided from its statistics by the shared rules, per check on
   the driver (the worst status is the exit code), and the
   partition records brought back (all of them, or the worst N for a table: ``orderBy`` + ``limit``);
5. write (``--write parquet|csv DIR``): the full per-partition table (:mod:`.write`: by the
   driver, or by Spark to a shared URI and read back).

Only aggregates (roll-ups, state counts, lag trends) and the records asked for reach the driver.

A history append or a write that fails (a disk that filled during the run) does not discard the
verdict: the report carries one line for it (``CheckReport.unwritten``), which ``check`` prints
after the verdict and exits UNKNOWN; without the appended history the window rules are left out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..check.evaluate import RouteIndex, check_result, check_rules
from ..check.plan import CheckPlan
from ..check.records import PartitionRecord, PartitionRecords
from ..check.report import CheckReport, GroupResult, TopicResult
from ..check.rollups import rollup_stats
from ..check.spec import CheckSpec, LagCheck
from ..errors import KafkaOffsetsError, MonitoringStatus, interrupted
from ..parse.times import now_ms
from ..severity import severity, worst
from .failure import job_failure
from .frames import RECORD_DDL, SAMPLE_DDL, record_row, records
from .history_stage import join_history
from .preflight import preflight
from .progress import StageProgress
from .records import collect_records
from .runtime import SparkUnavailable
from .ship import ship_units
from .stages import collect_frame, record_columns, records_frame, rollup_frame, rollup_results, worst_first
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
    """Run the Spark stages for ``plan`` and return the report (the session is not stopped here).

    On a cluster (or Spark Connect) a failed job is followed by the preflight
    (:mod:`.preflight`): when the executors' Python cannot import the executor side, that is
    the one line to show (:class:`.runtime.SparkUnavailable` naming the module, the python and
    the host); when the probe cannot run either, its failure (chained to the job's); otherwise
    the job's own failure. Run only then, it costs nothing on the runs that work (on a warm
    Spark Connect server it was 1.6 s of a 5 s run at 10,000 partitions).
    """
    try:
        return _stages(runtime, spec, plan, options, progress, clock_ms)
    except Exception as failed:
        if runtime.local:  # the driver's own interpreter: nothing to diagnose
            raise
        try:
            preflight(runtime)
        except SparkUnavailable:
            raise  # what the executors lack: the one line
        except Exception as probe:
            # not even the probe's trivial task runs there: that is the story (on Spark Connect
            # its error, a query's, carries the server's detail; the checkpoint's came without)
            raise probe from failed
        raise


def _stages(
    runtime: Any,
    spec: CheckSpec,
    plan: CheckPlan,
    options: RunOptions,
    progress: StageProgress | None,
    clock_ms: Callable[[], int],
) -> CheckReport:
    from pyspark import StorageLevel

    spark = runtime.spark
    sc = runtime.sc  # None on Spark Connect
    prog = progress or StageProgress(sc)
    prog.attach(sc)
    clock = _Clock()
    checks = {c.name: c for c in spec.checks}

    # 0. the units' files and secrets --------------------------------------------------------
    units, secrets = ship_units(runtime, plan.units)

    # 1. collect -------------------------------------------------------------------------
    prog.set("collecting offsets")
    lag_checks = [c for c in spec.checks if isinstance(c, LagCheck)]
    history_dir = options.history_dir if lag_checks else None  # a history holds lag samples only
    # A local checkpoint, not a cache: it materializes what the tasks read once (this job) and
    # cuts the lineage, so no later stage (an evicted block, a retried task, the write) can
    # re-query Kafka and answer differently from the verdict; a lost executor's blocks fail
    # the run instead. Blocks go to memory and disk. DataFrame.localCheckpoint is in both the
    # classic API and Spark Connect's.
    routes = RouteIndex.of(plan.live_routes, plan.lag_routes)
    if units:
        samples = collect_frame(spark, units, secrets, options.debug, routes).localCheckpoint(eager=True)
    else:
        samples = spark.createDataFrame([], SAMPLE_DDL)
    clock.lap("collect")
    run_ms = clock_ms()

    # 2. evaluate (per-record rules in the JVM, history, roll-ups) ----------------------------
    prog.set("evaluating")
    no_time_lag = [c.name for c in lag_checks if not c.time_lag]
    no_loss_eta = [c.name for c in lag_checks if not c.loss_eta]
    recs = records_frame(samples, routes, check_rules(spec.checks, run_ms), no_time_lag, no_loss_eta)
    if plan.records:
        recs = recs.unionByName(spark.createDataFrame([record_row(r) for r in plan.records], RECORD_DDL))
    trends: dict[tuple[str, str], list[int | None]] | None = None
    history_runs: int | None = None
    unwritten: list[str] = []  # outputs that failed: the verdict stands, the run ends UNKNOWN after it
    if history_dir is not None:
        prog.set("updating history")
        try:
            recs, trends, history_runs = join_history(
                spark,
                history_dir,
                samples=samples,
                records=recs,
                plan=plan,
                lag_checks=lag_checks,
                run_ms=run_ms,
            )
        except Exception as e:  # a full or read-only place: judged without the window rules
            if interrupted(e):
                raise
            unwritten.append(f"--history {history_dir}: this run's samples were not written: {_cause(e)}")
        clock.lap("history")
        prog.set("evaluating")
    # Read by the roll-ups, the records and the write. A projection of the collect's checkpoint
    # alone is computed again by each (no Kafka query: the samples are checkpointed): caching it
    # is one more job (Spark materializes a cached relation as a query stage of its own), which
    # cost more than the projection (10,000 partitions: 7.22 s against 7.92 s a run, medians of 5).
    # With history or the plan's own records the joined and unioned records are kept.
    bare = history_dir is None and not plan.records
    final = recs if bare else recs.persist(StorageLevel.MEMORY_AND_DISK)
    stats = rollup_stats(spec.checks, history=trends is not None)
    rolled = [row.asDict() for row in rollup_frame(final, stats).collect()]
    clock.lap("evaluate")

    # 3. per check (driver) and the partition records --------------------------------------
    prog.set("rolling up")
    topics: list[TopicResult] = []
    groups: list[GroupResult] = []
    counts: dict[str, dict[str, int]] = {}  # per check, the states of its records
    for result, states in rollup_results(
        rolled,
        checks,
        timestamp_types=plan.timestamp_types,
        trends=trends,
    ):
        if isinstance(result, TopicResult):
            topics.append(result)
        else:
            groups.append(result)
        per_check = counts.setdefault(result.check, {})
        for state, n in states.items():
            per_check[state] = per_check.get(state, 0) + n
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
    total = sum(sum(v.values()) for v in counts.values())
    table = final.select(*record_columns())
    parts: Sequence[PartitionRecord]
    if options.all_records:
        # one Arrow table and its report order (the driver holds no record objects)
        parts = collect_records(table)
    else:
        got = records(worst_first(table).limit(options.worst).toArrow().to_pylist())
        parts = tuple(sorted(got, key=_worst_key))
    clock.lap("rollup")

    # 5. write ---------------------------------------------------------------------------
    if options.write_format and options.write_dir:
        prog.set(f"writing {options.write_format}")
        try:
            if is_uri(options.write_dir):
                write_table(spark, table, options.write_format, options.write_dir)  # by Spark, in parallel
            else:
                every = parts if isinstance(parts, PartitionRecords) else collect_records(table)
                write_table(spark, every, options.write_format, options.write_dir)  # by the driver, pyarrow
        except Exception as e:  # a disk that filled up during the run: the verdict is still the verdict
            if interrupted(e):
                raise
            unwritten.append(f"--write-dir {options.write_dir}: the table was not written: {_cause(e)}")
        clock.lap("write")
    if not bare:
        final.unpersist()
    secrets.unpersist()
    return CheckReport(
        status=status,
        checks=tuple(results),
        partitions=parts,
        now_ms=run_ms,
        total_partitions=total,
        complete=options.all_records,
        timings=dict(clock.timings),
        history_runs=history_runs,
        clusters=tuple(spec.clusters),
        down=plan.down,
        unwritten=tuple(unwritten),
    )


def _cause(e: BaseException) -> str:
    """One line for a failed write: the tool's message, the OS's words, or the Spark job's cause."""
    if isinstance(e, KafkaOffsetsError):
        return e.message
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return job_failure(e).message
