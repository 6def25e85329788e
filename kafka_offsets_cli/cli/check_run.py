"""Running ``kafka-offsets check``: plan on the driver, run the Spark pipeline, show the report.

Imported by :mod:`.check_cmd` once the options are read (never at start-up).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import tzinfo
from typing import TYPE_CHECKING

from ..check.evaluate import check_result
from ..check.plan import plan_checks
from ..check.report import CheckReport
from ..errors import KafkaOffsetsError, MonitoringStatus, interrupted
from ..parse.times import now_ms
from ..render.check import json_chunks, rich_summary
from ..render.check_monitoring import SERVICE, nagios, prometheus_chunks, prometheus_down
from ..render.monitoring import nagios_line
from ..severity import worst
from .options import Format
from .output import err_console, print_renderable, stderr_is_tty, write, write_chunks
from .textfile import write_down

if TYPE_CHECKING:
    from ..check.plan import CheckPlan
    from ..check.spec import CheckSpec
    from ..spark.progress import StageProgress
    from ..spark.runtime import SparkRuntime

__all__ = ["CheckRun", "run", "show", "show_timings", "unknown", "validated"]


@dataclass(frozen=True, kw_only=True)
class CheckRun:
    """How to run one check: Spark's master and settings, and what to keep and show."""

    master: str
    #: a Spark Connect server (``sc://…``) instead of ``master``
    remote: str | None = None
    conf: tuple[tuple[str, str], ...] = ()
    ui: bool = False
    history: str | None = None
    #: ``--write``'s format by name (parquet, csv), as the pipeline takes it; the option's enum stays
    #: the command's (typing it here made check_run import check_cmd: a cycle)
    write: str | None = None
    write_dir: str | None = None
    everything: bool = False
    worst: int
    debug: bool = False


def validated(spec: CheckSpec) -> None:
    """``--validate``: say on stderr what the valid spec holds, and what a run will still need."""
    kinds = {t: sum(1 for c in spec.checks if c.type == t) for t in ("liveness", "lag")}
    err_console().print(
        f"{spec.source}: valid: {len(spec.checks)} check(s) "
        f"({kinds['liveness']} liveness, {kinds['lag']} lag) on {len(spec.clusters)} cluster(s)",
        highlight=False,
        soft_wrap=True,
    )
    for note in spec.notes:  # a secret's variable: set where the checks run, not where the file is edited
        err_console().print(f"note: {note}: a run needs it", highlight=False, soft_wrap=True)


def run(spec: CheckSpec, how: CheckRun) -> CheckReport:
    """Plan on the driver, then run the Spark pipeline (or report without data); timings added."""
    from ..spark.progress import StageProgress
    from ..spark.ship import check_channel, check_files

    check_files(spec)  # a CA file or keytab a cluster names must exist: one line, before any client
    if how.remote is not None:
        from ..spark.connect import parse_remote

        check_channel(spec, parse_remote(how.remote))  # no secret over cleartext to another host
    progress = StageProgress(console=err_console() if stderr_is_tty() else None)
    t0 = time.monotonic()
    slots = task_slots(how.master if how.remote is None else None, dict(how.conf))
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
            runtime = _start(how)
            try:
                report = _spark(spec, plan, progress, how, runtime)
            finally:
                progress.set("stopping Spark")
                runtime.stop()
            report = replace(report, timings={"session": round(runtime.started_s, 3), **report.timings})
    times = {"plan": round(plan_s, 3), **report.timings, "total": round(time.monotonic() - t0, 3)}

    return replace(report, timings=times)


def _start(how: CheckRun) -> SparkRuntime:
    from ..spark.runtime import SessionOptions
    from ..spark.session import start_session

    return start_session(
        SessionOptions(master=how.master, remote=how.remote, debug=how.debug, ui=how.ui, conf=how.conf)
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
        return plan_checks(spec, connect, parallelism=slots)
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
    from ..spark.failure import job_failure
    from ..spark.pipeline import RunOptions, run_check

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


def unknown(
    err: KafkaOffsetsError,
    fmt: Format,
    prometheus_file: str | None,
    clusters: tuple[str, ...] = (),
    labels: Mapping[str, str] | None = None,
) -> None:
    """When the check could not run: the UNKNOWN nagios line or ``up 0`` metrics, an ``up 0`` textfile."""
    if fmt is Format.nagios:
        write(nagios_line(SERVICE, MonitoringStatus.UNKNOWN, err.message))
    down = prometheus_down(MonitoringStatus.UNKNOWN, now_ms(), clusters, labels)
    if fmt is Format.prometheus:
        write(down)
    if prometheus_file:
        write_down(prometheus_file, down, err)


def show_timings(report: CheckReport) -> None:
    """``--timings``: each stage's seconds on stderr."""
    text = ", ".join(f"{k} {v:.2f}s" for k, v in report.timings.items())
    err_console().print(f"kafka-offsets: timings: {text}", highlight=False, soft_wrap=True)


def show(
    report: CheckReport, fmt: Format, zone: object, worst: int, labels: Mapping[str, str] | None = None
) -> None:
    """The report on stdout in ``fmt`` (``labels``: the constant labels of prometheus series)."""
    assert isinstance(zone, tzinfo)
    if fmt is Format.table:
        print_renderable(rich_summary(report, zone, worst=worst))
    elif fmt is Format.nagios:
        write(nagios(report))
    elif fmt is Format.json:
        write_chunks(json_chunks(report))  # the partition records a slice at a time, never one string
    elif fmt is Format.prometheus:
        write_chunks(prometheus_chunks(report, labels))  # a slice of partitions at a time
