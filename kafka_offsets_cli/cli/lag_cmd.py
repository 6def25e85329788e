"""``kafka-offsets lag``: consumer group lag per partition, in offsets and (``--time-lag``) in time."""

from __future__ import annotations

from functools import partial

import typer

from ..errors import MonitoringStatus, PartialFailure, UsageError
from ..gcpause import gc_paused
from ..lag.run import checked_query, query, request_of, require_rows
from ..lag.summary import SortKey
from ..models.offsets import Isolation
from ..parse.durations import parse_duration
from ..render.lag_compat import parse_compat
from ..render.lag_metrics import SERVICE
from . import lag_options as lag_opts
from . import lag_view
from . import options as opts
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import FROM_OPTIONS, NO_LIMITS, NO_PUSH, LagLimits, Push, Target, targeted
from .families import lag_monitors
from .lag_notes import failure_summary, notes, shown_with_notes
from .lag_setup import lag_view_of, with_bootstrap
from .metric_labels import MetricsCompatOpt, PrometheusFileOpt
from .monitor_run import monitored_run, published, read_once
from .monitor_run import watch as watch_run
from .monitor_series import LAG as SERIES


def register(app: typer.Typer) -> None:
    """Add the ``lag`` command to ``app``."""
    app.command("lag", help=command_help("lag"), epilog=lag_opts.EXAMPLES)(lag_cmd)


@targeted()
def lag_cmd(
    ctx: typer.Context,
    group: opts.GroupOpt = None,
    group_regex: opts.GroupRegexOpt = None,
    spark_checkpoint: lag_opts.SparkCheckpointOpt = None,
    target: Target = FROM_OPTIONS,
    group_type: lag_opts.GroupTypeOpt = None,
    exclude_internal_topics: opts.ExcludeInternalOpt = False,
    time_lag: lag_opts.TimeLagOpt = False,
    marker_check: lag_opts.MarkerCheckOpt = True,
    isolation: opts.IsolationOpt = Isolation.READ_UNCOMMITTED,
    limits: LagLimits = NO_LIMITS,
    only_lagging: lag_opts.OnlyLaggingOpt = False,
    min_lag: lag_opts.MinLagOpt = None,
    min_time_lag: lag_opts.MinTimeLagOpt = None,
    sort: lag_opts.SortOpt = SortKey.name,
    summary: lag_opts.SummaryOpt = False,
    by_partition: lag_opts.ByPartitionOpt = False,
    members: lag_opts.MembersOpt = False,
    output: opts.LagOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    push: Push = NO_PUSH,
    metrics_compat: MetricsCompatOpt = None,
    label: opts.LabelOpt = None,
    no_headers: opts.NoHeadersOpt = False,
    columns: opts.ColumnsOpt = None,
    watch: opts.WatchOpt = None,
) -> None:
    """Consumer group lag per partition; with thresholds, a monitoring check."""
    debug, env = is_debug(ctx), environment_of(ctx)
    # a monitoring run: exit status 0-3, usage errors UNKNOWN (docs/reference.md), records with a status
    delivers = prometheus_file is not None or push.endpoint is not None  # metrics to a file or a receiver
    monitor = lag_monitors(thresholds=limits.given, prometheus_file=delivers, output=output)
    with boundary(debug, monitoring=monitor, nagios=SERVICE if output == opts.Format.nagios else None):
        thresholds = limits.thresholds()
        compat = parse_compat(metrics_compat, delivers or output == opts.Format.prometheus)
        fmt, screen = opts.OUTPUTS["lag"].select(output, env)
        interval = opts.watch_interval(watch)
        if summary and by_partition:
            raise UsageError("--summary and --by-partition contradict each other")
        min_time_lag_ms = parse_duration(min_time_lag) if min_time_lag is not None else None
        request = request_of(
            groups=group,
            regexes=group_regex,
            **target.selection(),
            exclude_internal_topics=exclude_internal_topics,
            time_lag=time_lag,
            marker_check=marker_check,
            thresholds=thresholds,
            min_time_lag_ms=min_time_lag_ms,
            # the summary's TYPE and --members: each group's members and protocol
            members=members or summary or (fmt is opts.Format.table and not group and not by_partition),
            clock=env.now_ms,
            types=lag_opts.group_types(group_type),
            loss_eta=limits.loss_eta,
            sort=sort,
            staleness=limits.staleness,
            checkpoints=spark_checkpoint,
        )
        mon = monitored_run(
            ctx, target.connection(isolation), SERIES, fmt, prometheus_file, label, monitoring=monitor,
            push_to=push,
        )  # fmt: skip
        request = with_bootstrap(request, mon.settings.bootstrap_servers)  # staleness's key without an id
        # the measures a threshold or --sort turned on are the request's (LOSS-ETA, STALE and their fields)
        view = lag_view_of(
            request, fmt=fmt, columns=columns, watching=interval is not None, monitor=monitor,
            members=members, summary=summary, by_partition=by_partition,
            named=bool(group or spark_checkpoint), labels=mon.labels, now_ms=env.now_ms, compat=compat,
            no_headers=no_headers, only_lagging=only_lagging, sort=sort, min_lag=min_lag,
            min_time_lag_ms=min_time_lag_ms, thresholds=thresholds,
        )  # fmt: skip
        if interval is not None:  # the file rewritten after every refresh; the first one's notes once
            loop = partial(lag_view.watch, interval=interval, view=view, screen=screen)
            read = partial(checked_query, request=request)
            first = partial(notes, view=view)
            watch_run(mon, read, lambda c, each: loop(c, fetch=each), text=view.prometheus, first=first)
            return
        # one pause of the collector over the read and its output, to the exit: the rows stay alive
        # throughout, and a collection after the pause would scan them all (gcpause.py)
        with gc_paused(to_exit=True):
            report = read_once(
                mon, lambda c, update: require_rows(query(c, request, update)), "Reading consumer groups…"
            )
            # one text for the file and stdout (one clock); the file is written first (stdout may be closed)
            wanted = prometheus_file or mon.otlp is not None or fmt is opts.Format.prometheus
            metrics = view.prometheus(report) if wanted else ""
            published(mon, lambda: metrics, partial(shown_with_notes, report, view, screen, metrics))
        if not monitor and report.failed:
            raise PartialFailure(failure_summary(report))
        status = view.status(report).status if monitor else MonitoringStatus.OK
    raise typer.Exit(int(status))
