"""``kafka-offsets serve``: a Prometheus endpoint serving lag, liveness and tiering, read on scrape."""

from __future__ import annotations

from dataclasses import asdict

import typer

from ..lag.run import request_of as lag_request
from ..liveness.run import request_of as liveness_request
from ..models.offsets import Isolation
from ..parse.durations import parse_duration
from ..render.lag_compat import parse_compat
from ..serve.exporter import Exporter
from ..serve.http import MetricsServer, parse_listen, serve_until_stopped
from ..tiering.run import request_of as tiering_request
from . import lag_options as lag_opts
from . import liveness_options as live_opts
from . import options as opts
from .app import command_help, environment_of, is_debug
from .boundary import PROG, boundary
from .command_options import (
    FROM_OPTIONS,
    LIVE_DEFAULTS,
    NO_LIMITS,
    NO_TIER_LIMITS,
    LagLimits,
    Target,
    targeted,
)
from .metric_labels import MetricsCompatOpt
from .monitor_limits import LiveLimits, TierLimits
from .serve_measures import Requests, cluster_job
from .serve_options import (
    EXAMPLES,
    LagOnOpt,
    ListenOpt,
    LivenessOnOpt,
    MinIntervalOpt,
    SpecOpt,
    StalenessFileOpt,
    TieringOnOpt,
)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve", help=command_help("serve"), epilog=EXAMPLES)(serve_cmd)


@targeted()
def serve_cmd(
    ctx: typer.Context,
    listen: ListenOpt = "127.0.0.1:9308",
    min_interval: MinIntervalOpt = "15s",
    spec: SpecOpt = None,
    lag: LagOnOpt = True,
    liveness: LivenessOnOpt = False,
    tiering: TieringOnOpt = False,
    group: opts.GroupOpt = None,
    group_regex: opts.GroupRegexOpt = None,
    target: Target = FROM_OPTIONS,
    group_type: lag_opts.GroupTypeOpt = None,
    exclude_internal_topics: opts.ExcludeInternalOpt = False,
    include_internal: live_opts.IncludeInternalOpt = False,
    time_lag: lag_opts.TimeLagOpt = False,
    marker_check: lag_opts.MarkerCheckOpt = True,
    isolation: opts.IsolationOpt = Isolation.READ_UNCOMMITTED,
    limits: LagLimits = NO_LIMITS,
    staleness_file: StalenessFileOpt = False,
    metrics_compat: MetricsCompatOpt = None,
    members: lag_opts.MembersOpt = False,
    live_limits: LiveLimits = LIVE_DEFAULTS,
    tier_limits: TierLimits = NO_TIER_LIMITS,
    label: opts.LabelOpt = None,
) -> None:
    """A Prometheus endpoint: lag, liveness and tiering read on scrape, at most once per interval."""
    debug, env = is_debug(ctx), environment_of(ctx)
    with boundary(debug):
        address = parse_listen(listen)
        interval_s = parse_duration(min_interval) / 1000
        compat = parse_compat(metrics_compat)
        if spec is not None:  # every cluster of the spec file at once (YAML and check's rules: loaded here)
            from ..check.load import load_spec
            from .serve_spec import refuse_beside_spec, spec_jobs

            refuse_beside_spec(ctx)
            jobs = spec_jobs(
                ctx, load_spec(spec), label, members=members, staleness=limits.staleness,
                staleness_file=staleness_file, compat=compat,
            )  # fmt: skip
        else:
            thresholds = limits.thresholds()
            selection = target.selection()
            requests = Requests(
                lag=lag_request(
                    groups=group, regexes=group_regex, **selection,
                    exclude_internal_topics=exclude_internal_topics,
                    time_lag=time_lag, marker_check=marker_check, thresholds=thresholds, min_time_lag_ms=None,
                    members=members, clock=env.now_ms, types=lag_opts.group_types(group_type),
                    staleness=limits.staleness, loss_eta=limits.loss_eta,
                ) if lag else None,
                lag_staleness_file=staleness_file,
                lag_thresholds=thresholds,
                lag_compat=compat,
                lag_members=members,
                liveness=liveness_request(
                    **selection, include_internal=include_internal, exclude_internal_topics=False,
                    **live_limits.request_args(),
                ) if liveness else None,
                tiering=tiering_request(
                    **selection, include_internal=include_internal, **asdict(tier_limits),
                ) if tiering else None,
            )  # fmt: skip
            jobs = [cluster_job(ctx, target.connection(isolation), label, requests)]

        def log(line: str) -> None:
            env.stderr.write(f"{PROG} serve: {line}\n")
            env.stderr.flush()

        exporter = Exporter(jobs, min_interval_s=interval_s, log=log, clock=env.clock)
        server = MetricsServer(address, exporter.metrics)
        log(f"listening on {server.url}")
        stopped_by = serve_until_stopped(server)
        log(f"{stopped_by}: stopped")
    raise typer.Exit(0)
