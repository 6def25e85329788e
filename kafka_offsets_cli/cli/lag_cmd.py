"""``kafka-offsets lag``: consumer group lag per partition, in offsets and (``--time-lag``) in time."""

from __future__ import annotations

from functools import partial

import typer

from ..errors import MonitoringStatus, PartialFailure, UsageError
from ..gcpause import gc_paused
from ..lag.monitor import parse_thresholds
from ..lag.run import checked_query, query, request_of, require_rows
from ..lag.summary import SortKey
from ..models.offsets import Isolation
from ..parse.durations import parse_duration
from ..render.lag_metrics import SERIES_LABELS, SERVICE, prometheus_down
from . import lag_options as lag_opts
from . import lag_view
from . import options as opts
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import FROM_OPTIONS, Target, targeted
from .emit import parse_columns
from .families import lag_monitors
from .lag_notes import failure_summary, notes
from .lag_view import LagView, record_fields, summary_fields
from .metric_labels import PrometheusFileOpt, settings_and_labels
from .monitor_failure import unknown_reported, watched
from .output import progress, write
from .textfile import check_writable, write_result


def register(app: typer.Typer) -> None:
    """Add the ``lag`` command to ``app``."""
    app.command("lag", help=command_help("lag"), epilog=lag_opts.EXAMPLES)(lag_cmd)


@targeted()
def lag_cmd(
    ctx: typer.Context,
    group: opts.GroupOpt = None,
    group_regex: lag_opts.GroupRegexOpt = None,
    target: Target = FROM_OPTIONS,
    exclude_internal_topics: opts.ExcludeInternalOpt = False,
    time_lag: lag_opts.TimeLagOpt = False,
    marker_check: lag_opts.MarkerCheckOpt = True,
    isolation: opts.IsolationOpt = Isolation.READ_UNCOMMITTED,
    warn_lag: lag_opts.WarnLagOpt = None,
    crit_lag: lag_opts.CritLagOpt = None,
    warn_time_lag: lag_opts.WarnTimeLagOpt = None,
    crit_time_lag: lag_opts.CritTimeLagOpt = None,
    only_lagging: lag_opts.OnlyLaggingOpt = False,
    min_lag: lag_opts.MinLagOpt = None,
    min_time_lag: lag_opts.MinTimeLagOpt = None,
    sort: lag_opts.SortOpt = SortKey.name,
    summary: lag_opts.SummaryOpt = False,
    by_partition: lag_opts.ByPartitionOpt = False,
    members: lag_opts.MembersOpt = False,
    output: opts.LagOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    label: opts.LabelOpt = None,
    no_headers: opts.NoHeadersOpt = False,
    columns: opts.ColumnsOpt = None,
    watch: opts.WatchOpt = None,
) -> None:
    """Consumer group lag per partition; with thresholds, a monitoring check."""
    debug, env = is_debug(ctx), environment_of(ctx)
    # a monitoring run: exit status 0-3, usage errors UNKNOWN (README "Exit codes"), records with a status
    given = (warn_lag, crit_lag, warn_time_lag, crit_time_lag)
    monitor = lag_monitors(
        thresholds=any(t is not None for t in given),
        prometheus_file=prometheus_file is not None,
        output=output,
    )
    with boundary(debug, monitoring=monitor, nagios=SERVICE if output == opts.Format.nagios else None):
        thresholds = parse_thresholds(warn_lag, crit_lag, warn_time_lag, crit_time_lag)
        fmt, screen = opts.OUTPUTS["lag"].select(output, env)
        interval = opts.watch_interval(watch)
        if summary and by_partition:
            raise UsageError("--summary and --by-partition contradict each other")
        fields = record_fields(monitor, interval is not None, members)
        cols = parse_columns(columns, tuple(dict.fromkeys((*fields, *summary_fields(interval is not None)))))
        min_time_lag_ms = parse_duration(min_time_lag) if min_time_lag is not None else None
        request = request_of(
            groups=group, regexes=group_regex, **target.selection(),
            exclude_internal_topics=exclude_internal_topics,
            time_lag=time_lag, marker_check=marker_check, thresholds=thresholds,
            min_time_lag_ms=min_time_lag_ms, clock=env.now_ms,
            # the summary's TYPE and --members: each group's members and protocol
            members=members or summary or (fmt is opts.Format.table and not group and not by_partition),
        )  # fmt: skip
        if prometheus_file:
            check_writable(prometheus_file)  # a usage error before anything is contacted
        settings, labels = settings_and_labels(target.connection(isolation), label, reserved=SERIES_LABELS)
        view = LagView(
            fmt=fmt, columns=tuple(cols) if cols else None, no_headers=no_headers, only_lagging=only_lagging,
            sort=sort, min_lag=min_lag, min_time_lag_ms=min_time_lag_ms, thresholds=thresholds,
            monitor=monitor, labels=labels, summary=True if summary else False if by_partition else None,
            named=bool(group), members=members, now_ms=env.now_ms,
        )  # fmt: skip
        failed = unknown_reported(
            fmt=fmt, service=SERVICE, down=prometheus_down, labels=labels,
            prometheus_file=prometheus_file, monitoring=monitor,
        )  # fmt: skip
        from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

        with failed:
            if interval is not None:  # the file rewritten after every refresh; the first one's notes once
                refresh = watched(
                    partial(checked_query, request=request), prometheus_file=prometheus_file,
                    text=view.prometheus, down=prometheus_down, labels=labels,
                    first=partial(notes, view=view),
                )  # fmt: skip
                with KafkaClient(settings, debug=debug) as client:
                    lag_view.watch(client, interval, refresh, view, screen)
                return
            with (
                gc_paused(),
                progress("Reading consumer groups…", env) as update,
                KafkaClient(settings, debug=debug) as cl,
            ):
                report = require_rows(query(cl, request, update))
        # one text for the file and stdout (one clock); the file is written before stdout, which may be closed
        metrics = view.prometheus(report) if prometheus_file or fmt is opts.Format.prometheus else ""
        unwritten = write_result(prometheus_file, metrics) if prometheus_file else None
        if fmt is opts.Format.prometheus:
            write(metrics, env)
        else:
            with gc_paused():
                lag_view.show(report, view, screen)
        notes(report, view)
        if unwritten is not None:
            raise unwritten
        if not monitor and report.failed:
            raise PartialFailure(failure_summary(report))
        status = view.status(report).status if monitor else MonitoringStatus.OK
    raise typer.Exit(int(status))
