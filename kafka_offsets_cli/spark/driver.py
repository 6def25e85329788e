"""The ``check`` driver: the request's options checked together, then plan on the driver and run
the Spark pipeline (or report without data). Any front end (the CLI, a future server) calls
:func:`prepared`, then :func:`run`, and shows the report itself.

Imported once the options are read (never at start-up); pyspark loads only when Spark starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from ..check.evaluate import check_result
from ..check.plan import plan_checks
from ..check.report import CheckReport
from ..errors import KafkaOffsetsError, SpecFileError, UsageError, interrupted
from ..parse.times import now_ms
from ..severity import worst
from .checkpoint_fs import opener

if TYPE_CHECKING:
    from ..check.plan import CheckPlan
    from ..check.spec import CheckSpec
    from .progress import StageProgress
    from .runtime import SparkRuntime

__all__ = ["CheckRequest", "CheckRun", "prepared", "refuse_tiering", "run", "task_slots"]


@dataclass(frozen=True, kw_only=True)
class CheckRequest:
    """What ``check`` was told about running (before the options are checked together)."""

    master: str
    #: ``--master`` (or its variable) was given, not defaulted: refused with ``--remote``
    master_given: bool = False
    remote: str | None = None
    #: ``--conf KEY=VALUE`` as given
    conf: Sequence[str] = ()
    ui: bool = False
    history: str | None = None
    #: ``--write``'s format by name (parquet, csv), and ``--write-dir``: both or neither
    write: str | None = None
    write_dir: str | None = None
    #: every partition record is kept (json, prometheus): not only the worst
    everything: bool = False
    worst: int
    debug: bool = False


@dataclass(frozen=True, kw_only=True)
class CheckRun(CheckRequest):
    """How to run one check: the request, checked, with ``--conf`` parsed into ``settings``."""

    settings: tuple[tuple[str, str], ...] = ()


def prepared(
    req: CheckRequest, *, warn: Callable[[str], None], outputs: Callable[[], None] = lambda: None
) -> CheckRun:
    """The request checked (a :class:`UsageError` for the first option that does not fit), before any
    cluster or Spark: ``outputs()`` checks the front end's own output files, between the options and
    the directories."""
    if (req.write is None) != (req.write_dir is None):
        raise UsageError("--write FORMAT and --write-dir DIR go together")
    conf = _parse_conf(req.conf)
    if req.remote is not None:
        _remote_alone(req.remote, req.master_given)
        if req.ui:
            warn("--spark-ui has no effect with --remote: a Spark Connect server's web UI is its own")
    outputs()
    if req.write_dir is not None:
        from .write import check_write_dir

        check_write_dir(req.write_dir)
    if req.history is not None:
        from .deploy import is_local
        from .history_store import check_dir, require_shared

        require_shared(req.history, req.remote is None and is_local(req.master))
        check_dir(req.history)
    return CheckRun(**{f.name: getattr(req, f.name) for f in fields(req)}, settings=tuple(conf))


def _remote_alone(remote: str, master_given: bool) -> None:
    """``--remote`` (or SPARK_REMOTE) is a valid URL and comes without ``--master`` (else a usage error)."""
    from .connect import parse_remote

    parse_remote(remote)
    if master_given:
        raise UsageError(
            "--remote (or SPARK_REMOTE) and --master (or KAFKA_OFFSETS_SPARK_MASTER) cannot be used "
            "together: a Spark Connect server has its own master"
        )


def _parse_conf(items: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--conf {item!r}: expected KEY=VALUE")
        out.append((key.strip(), value))
    return out


def run(spec: CheckSpec, how: CheckRun, *, console: Any = None) -> CheckReport:
    """Plan on the driver, then run the Spark pipeline (or report without data); timings added.
    ``console``: the rich console the stages' progress is shown on (``None``: not shown)."""
    from .progress import StageProgress
    from .ship import check_channel, check_files

    refuse_tiering(spec)  # before any client or Spark: never skipped unsaid
    check_files(spec)  # a CA file or keytab a cluster names must exist: one line, before any client
    if how.remote is not None:
        from .connect import parse_remote

        check_channel(spec, parse_remote(how.remote))  # no secret over cleartext to another host
    progress = StageProgress(console=console)
    t0 = time.monotonic()
    slots = task_slots(how.master if how.remote is None else None, dict(how.settings))
    with progress.shown():
        # Planned before Spark starts: a spec with nothing reachable (a cluster down or frozen)
        # is reported within its timeout, without paying a session start it would not use.
        progress.set("planning")
        plan = _plan(spec, how.debug, slots)
        plan_s = time.monotonic() - t0
        if not plan.units and all(r.cluster in plan.down for r in plan.records):
            report = _without_data(spec, plan)
        else:
            progress.set("starting Spark" if how.remote is None else "connecting to Spark Connect")
            runtime = _start(how, progress.set)
            try:
                report = _spark(spec, plan, progress, how, runtime)
            finally:
                progress.set("stopping Spark")
                runtime.stop()
            report = replace(report, timings={"session": round(runtime.started_s, 3), **report.timings})
    times = {"plan": round(plan_s, 3), **report.timings, "total": round(time.monotonic() - t0, 3)}

    return replace(report.with_group_types(plan.group_types), timings=times)


def refuse_tiering(spec: CheckSpec) -> None:
    """A spec error naming the spec's tiering checks: ``check`` runs its lag and liveness checks on
    Spark; a tiering check is served by ``serve --spec`` and run by ``tiering``."""
    if spec.tiering_checks:
        raise SpecFileError(
            spec.source,
            [
                f"check {c.name!r}: tiering checks are served by 'serve --spec' and run by 'tiering', "
                f"not by check (line {c.line})"
                for c in spec.tiering_checks
            ],
        )


def _start(how: CheckRun, step: Callable[[str], None]) -> SparkRuntime:
    from .runtime import SessionOptions
    from .session import start_session

    return start_session(
        SessionOptions(master=how.master, remote=how.remote, debug=how.debug, ui=how.ui, conf=how.settings),
        step=step,
    )


def task_slots(master: str | None, conf: dict[str, str]) -> int | None:
    """How many tasks the executors run at once, as far as the settings tell before Spark starts.

    ``spark.default.parallelism`` when set; ``local[N]`` / ``local[*]``; executors x cores
    when both are set. ``None`` (the planner then uses this machine's cores) for a cluster
    or Connect server whose size the settings do not give: planning runs before the session
    starts, so a failing cluster is reported without paying Spark's start-up.
    """
    import os
    import re

    def number(key: str) -> int | None:
        value = conf.get(key, "").strip()
        return int(value) if value.isdigit() and int(value) > 0 else None

    if (given := number("spark.default.parallelism")) is not None:
        return given
    if master is not None and (m := re.fullmatch(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?", master.strip())):
        cores = m.group(1)
        if cores is None:
            return 1
        return (os.cpu_count() or 1) if cores == "*" else max(1, int(cores))
    executors, cores = number("spark.executor.instances"), number("spark.executor.cores")
    return executors * cores if executors is not None and cores is not None else None


def _plan(spec: CheckSpec, debug: bool, slots: int | None) -> CheckPlan:
    from ..kafka import KafkaClient

    clients: list[KafkaClient] = []

    def connect(name: str) -> KafkaClient:
        c = KafkaClient(spec.clusters[name].settings, debug=debug)
        clients.append(c)
        return c

    try:
        return plan_checks(spec, connect, parallelism=slots, opener=opener("spark_checkpoints:"))
    finally:
        for c in clients:
            c.close()


def _without_data(spec: CheckSpec, plan: CheckPlan) -> CheckReport:
    """Nothing reachable or selected: every check is UNKNOWN with its problems (no Spark needed);
    the records are those of the clusters that could not be reached (one per check on each)."""
    results = tuple(check_result(c, plan.problems.get(c.name, ()), {}, 0) for c in spec.checks)
    return CheckReport(
        status=worst(r.status for r in results),
        checks=results,
        partitions=plan.records,
        now_ms=now_ms(),
        total_partitions=0,
        complete=True,
        timings={},
        history_runs=None,
        clusters=tuple(spec.clusters),
        down=plan.down,
    )


def _spark(
    spec: CheckSpec, plan: CheckPlan, progress: StageProgress, how: CheckRun, runtime: SparkRuntime
) -> CheckReport:
    """Run the pipeline on the started session; a failed job is one line."""
    from .failure import job_failure
    from .pipeline import RunOptions, run_check

    options = RunOptions(
        history_dir=how.history,
        write_format=how.write,
        write_dir=how.write_dir,
        all_records=how.everything,
        worst=how.worst,
        debug=how.debug,
    )
    try:
        return run_check(runtime, spec, plan, options, progress)
    except Exception as e:
        if isinstance(e, KafkaOffsetsError) or interrupted(e):
            raise  # the boundary's: a tool error, or a Ctrl-C that surfaced as a py4j error
        raise job_failure(e) from e  # a failed Spark job (Py4JJavaError, PySparkException…): one line
