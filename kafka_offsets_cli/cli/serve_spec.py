"""``serve --spec FILE``: several clusters at once, from a ``check`` spec file.

Each cluster of the spec is one job of the exporter (one client a collection, its ``kafka_offsets_up``)
and each check on it one measure, named after the check: a ``lag`` check is served as ``lag -o
prometheus`` prints it, a ``liveness`` check as ``liveness -o prometheus`` does and a ``tiering``
check as ``tiering -o prometheus`` does (its request run by the command's ``tiering.run``), with the
spec's groups (a plain name as ``-g``, anything else a pattern as ``--group-regex``:
:func:`~kafka_offsets_cli.parse.java_regex.names_and_patterns`, the rule ``check`` uses), topics
(:func:`~kafka_offsets_cli.check.plan.check_selection`, ``check``'s; a tiering check without topics:
every topic, ``tiering``'s own selection without ``--topic``), thresholds and ``exclude_internal``.
Every series carries ``cluster`` (the spec's name for it) and ``check`` (the check's name), so two
checks never write the same series. ``check``'s history rules are its own (``check --history``) and
are not served.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import typer

from ..check.plan import check_selection
from ..check.spec import CheckSpec, ClusterSpec, LagCheck, LivenessCheck, TieringCheck
from ..errors import UsageError
from ..lag.monitor import LagThresholds
from ..lag.run import request_of as lag_request
from ..liveness.collect import LivenessRequest
from ..parse.command_selection import monitored_selection
from ..parse.java_regex import names_and_patterns
from ..render.lag_compat import Compat
from ..render.monitoring import constant_labels
from ..serve.collect import ClusterJob, Measure
from ..serve.metrics import MEASURE_LABEL
from ..spark.checkpoint_fs import opener
from ..tiering.rules import Thresholds
from ..tiering.run import TieringRequest
from .app import environment_of, is_debug
from .monitor_run import MonitoredRun, Series, kafka_client
from .monitor_series import LAG, LIVENESS, TIERING
from .options import Format
from .serve_measures import Requests, lag_measure, liveness_measure, tiering_measure

__all__ = ["CHECK_LABEL", "refuse_beside_spec", "spec_jobs"]

#: The label naming the spec's check on every series it serves (a ``--label`` may not take it).
CHECK_LABEL = "check"
#: each check type's series
SERIES = {"lag": LAG, "liveness": LIVENESS, "tiering": TIERING}


#: serve's parameters that a spec file replaces: given with --spec, they would be ignored
BESIDE_SPEC = (
    "bootstrap_server", "cluster", "topic", "partitions", "topic_partitions", "command_config", "x",
    "timeout", "group", "group_regex", "group_type", "exclude_internal_topics", "include_internal",
    "time_lag", "isolation", "lag", "liveness", "tiering", "warn_lag", "crit_lag", "warn_time_lag",
    "crit_time_lag", "warn", "crit", "min_alive", "future_tolerance", "empty_status", "future_status",
    "warn_records", "crit_records", "warn_age", "crit_age", "warn_stale", "crit_stale", "loss_eta",
    "warn_loss_eta", "crit_loss_eta",
)  # fmt: skip


def refuse_beside_spec(ctx: typer.Context) -> None:
    """A usage error naming the options given beside ``--spec`` that the spec file replaces (its
    clusters, checks and thresholds), never one silently ignored."""
    given = [
        p.opts[0]
        for p in ctx.command.params
        if p.name in BESIDE_SPEC and _source(ctx, p.name) in ("COMMANDLINE", "ENVIRONMENT")
    ]
    if given:
        raise UsageError(
            f"--spec takes the clusters, checks and thresholds from the file: not with {', '.join(given)}"
        )


def _source(ctx: typer.Context, name: str) -> str:
    """Where a parameter's value came from (click's ParameterSource, by name: typer ships its own click)."""
    source = ctx.get_parameter_source(name)
    return source.name if source is not None else "DEFAULT"


def spec_jobs(
    ctx: typer.Context,
    spec: CheckSpec,
    label: list[str] | None,
    *,
    members: bool,
    staleness: bool,
    staleness_file: bool,
    compat: tuple[Compat, ...],
) -> list[ClusterJob]:
    """One job per cluster of ``spec`` that a check names, each check on it a measure; ``--label``
    checked against every series' labels first (a usage error before anything listens)."""
    reserved = {*(r for s in SERIES.values() for r in s.reserved), CHECK_LABEL, MEASURE_LABEL}
    every = sorted((*spec.checks, *spec.tiering_checks), key=lambda c: c.line)  # in file order
    jobs = []
    for name, cluster in spec.clusters.items():
        checks = [c for c in every if name in c.clusters]
        if not checks:
            continue
        labels = constant_labels(name, label or (), reserved=reserved)
        runs = {c.name: _run(ctx, cluster, SERIES[c.type], labels, c.name) for c in checks}
        common = Requests(lag_members=members, lag_staleness_file=staleness_file, lag_compat=compat)
        measures = tuple(_measure(c, runs[c.name], common, staleness=staleness) for c in checks)
        first = next(iter(runs.values()))
        jobs.append(ClusterJob(labels=labels, connect=partial(kafka_client, first), measures=measures))
    if not jobs:
        raise UsageError(f"{spec.source}: no lag, liveness or tiering check to serve")
    return jobs


def _run(
    ctx: typer.Context, cluster: ClusterSpec, series: Series, labels: dict[str, str], check: str
) -> MonitoredRun:
    with_check = {"cluster": labels["cluster"], CHECK_LABEL: check, **labels}
    return MonitoredRun(
        series=series,
        fmt=Format.prometheus,
        prometheus_file=None,
        settings=cluster.settings,
        labels=with_check,
        debug=is_debug(ctx),
        env=environment_of(ctx),
    )


def _measure(
    check: LagCheck | LivenessCheck | TieringCheck, run: MonitoredRun, common: Requests, *, staleness: bool
) -> Measure:
    if isinstance(check, TieringCheck):  # tiering's request of the check's topics and thresholds
        tiering = TieringRequest(
            selection=check_selection(check.topics, check.exclude_internal)
            if check.topics
            else monitored_selection(None, None, None, include_internal=not check.exclude_internal),
            thresholds=Thresholds(**check.thresholds()),
        )
        return tiering_measure(run, tiering, name=check.name, compat=common.lag_compat)
    if isinstance(check, LivenessCheck):
        request = LivenessRequest(
            selection=check_selection(check.topics, check.exclude_internal),
            warn_ms=check.warn_ms,
            crit_ms=check.crit_ms,
            min_alive=check.min_alive,
            tolerance_ms=check.future_tolerance_ms,
        )
        return liveness_measure(run, request, name=check.name, compat=common.lag_compat)
    names, patterns = names_and_patterns(check.groups)
    thresholds = LagThresholds(**check.thresholds())
    lag = lag_request(
        groups=names, regexes=patterns, topics=None, partitions=None, topic_partitions=None,
        exclude_internal_topics=False, time_lag=check.time_lag, marker_check=True, thresholds=thresholds,
        min_time_lag_ms=None, members=common.lag_members, clock=run.env.now_ms, staleness=staleness,
        checkpoints=check.spark_checkpoints or None,  # Spark queries in the groups' place, as in `lag`
        checkpoint_opener=opener("spark_checkpoints:"),
        loss_eta=check.loss_eta,
    )  # fmt: skip
    if check.topics:  # check's topic rule; without topics, the groups' own partitions as in `lag`
        lag = replace(lag, selection=check_selection(check.topics, check.exclude_internal))
    return lag_measure(run, lag, replace(common, lag=lag, lag_thresholds=thresholds), name=check.name)
