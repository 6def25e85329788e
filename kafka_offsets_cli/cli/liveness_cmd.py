"""``kafka-offsets liveness``: is data still arriving? A monitoring check on the newest records."""

from __future__ import annotations

from functools import partial
from typing import Any

import typer

from ..errors import MonitoringStatus
from ..liveness.run import LivenessSnapshot, request_of, run, snapshot
from ..measures.liveness import COLUMNS
from ..models.offsets import Isolation
from ..parse.times import parse_tz
from ..render.liveness import SERVICE
from ..render.liveness_metrics import prometheus
from . import liveness_view
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import (
    AS_GIVEN,
    FROM_OPTIONS,
    LIVE_DEFAULTS,
    NO_PUSH,
    Layout,
    Push,
    Target,
    targeted,
)
from .emit import REFRESHED_FIELD, parse_columns
from .liveness_options import (
    EXAMPLES,
    ExcludeInternalCompatOpt,
    IncludeInternalOpt,
    ProblemsOpt,
    StateOpt,
    parse_states,
)
from .liveness_view import RATE_FIELD, LivenessView
from .metric_labels import MetricsCompatOpt, PrometheusFileOpt, compat_of
from .monitor_limits import LiveLimits
from .monitor_run import monitored_run, published, read_once
from .monitor_run import watch as watch_run
from .monitor_series import LIVENESS as SERIES
from .options import (
    OUTPUTS,
    Format,
    IsolationOpt,
    LabelOpt,
    LivenessOutputOpt,
    WatchOpt,
    watch_interval,
)


def register(app: typer.Typer) -> None:
    """Add the ``liveness`` command to ``app``."""
    app.command("liveness", help=command_help("liveness"), epilog=EXAMPLES)(liveness_cmd)


@targeted()
def liveness_cmd(
    ctx: typer.Context,
    target: Target = FROM_OPTIONS,
    include_internal: IncludeInternalOpt = False,
    exclude_internal_topics: ExcludeInternalCompatOpt = False,
    live_limits: LiveLimits = LIVE_DEFAULTS,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: LivenessOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    metrics_compat: MetricsCompatOpt = None,
    push: Push = NO_PUSH,
    problems: ProblemsOpt = False,
    state: StateOpt = None,
    label: LabelOpt = None,
    layout: Layout = AS_GIVEN,
    watch: WatchOpt = None,
) -> None:
    """Age of each partition's newest record, as a monitoring check."""
    debug, env = is_debug(ctx), environment_of(ctx)
    status = MonitoringStatus.UNKNOWN
    with boundary(debug, monitoring=True, nagios=SERVICE if output == Format.nagios else None):
        request = request_of(
            **target.selection(),
            include_internal=include_internal,
            exclude_internal_topics=exclude_internal_topics,
            **live_limits.request_args(),
        )
        zone = parse_tz(layout.tz)
        fmt, screen = OUTPUTS["liveness"].select(output, env)
        cols = parse_columns(
            layout.columns, (*COLUMNS, RATE_FIELD, REFRESHED_FIELD) if watch is not None else COLUMNS
        )
        interval = watch_interval(watch)
        compat = compat_of(metrics_compat, fmt, prometheus_file, push)
        states = parse_states(state)
        mon = monitored_run(
            ctx, target.connection(isolation), SERIES, fmt, prometheus_file, label, push_to=push
        )
        view = LivenessView(
            fmt=fmt,
            zone=zone,
            columns=tuple(cols) if cols else None,
            no_headers=layout.no_headers,
            problems=problems,
            states=states,
            labels=mon.labels,
            compat=compat,
        )
        if interval is not None:  # the file rewritten after every refresh (up 0 when one fails)
            loop = partial(liveness_view.watch, interval=interval, view=view, screen=screen)
            read = partial(snapshot, request=request)
            watch_run(
                mon,
                read,
                lambda c, each: loop(c, fetch=each),
                text=lambda s: prometheus(s.report, mon.labels, s.ends, compat),
            )
            return  # Ctrl-C ends a watch normally: exit 0 (OK)

        # --metrics-compat: the latest offsets too, listed in the same ListOffsets round (as --watch does)
        def read_one(c: Any) -> LivenessSnapshot:
            return snapshot(c, request) if compat else LivenessSnapshot(run(c, request), {})

        snap = read_once(mon, lambda c, _update: read_one(c), "Listing max-timestamp offsets…")
        report = snap.report
        metrics = partial(prometheus, report, mon.labels, snap.ends, compat)
        published(mon, metrics, lambda: liveness_view.show(report, view, screen, snap.ends))
        status = report.status
    raise typer.Exit(int(status))
