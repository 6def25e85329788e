"""``kafka-offsets tiering``: is tiered storage keeping up? Local and remote spans and the upload backlog."""

from __future__ import annotations

from dataclasses import asdict
from functools import partial

import typer

from ..errors import MonitoringStatus
from ..parse.times import parse_tz
from ..render import tiering as render
from ..tiering.rules import COLUMNS
from ..tiering.run import request_of, run
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import (
    AS_GIVEN,
    FROM_OPTIONS,
    NO_PUSH,
    NO_TIER_LIMITS,
    Layout,
    Push,
    Target,
    targeted,
)
from .emit import parse_columns
from .liveness_options import IncludeInternalOpt, ProblemsOpt
from .metric_labels import MetricsCompatOpt, PrometheusFileOpt, compat_of
from .monitor_limits import TierLimits
from .monitor_run import monitored_run, published, read_once
from .monitor_series import TIERING as SERIES
from .options import (
    OUTPUTS,
    Format,
    LabelOpt,
    TieringOutputOpt,
)
from .tiering_options import EXAMPLES
from .tiering_view import show


def register(app: typer.Typer) -> None:
    """Add the ``tiering`` command to ``app``."""
    app.command("tiering", help=command_help("tiering"), epilog=EXAMPLES)(tiering_cmd)


@targeted()
def tiering_cmd(
    ctx: typer.Context,
    target: Target = FROM_OPTIONS,
    include_internal: IncludeInternalOpt = False,
    tier_limits: TierLimits = NO_TIER_LIMITS,
    output: TieringOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    metrics_compat: MetricsCompatOpt = None,
    push: Push = NO_PUSH,
    problems: ProblemsOpt = False,
    label: LabelOpt = None,
    layout: Layout = AS_GIVEN,
) -> None:
    """Local and remote spans and the upload backlog of tiered topics, as a monitoring check."""
    debug, env = is_debug(ctx), environment_of(ctx)
    status = MonitoringStatus.UNKNOWN
    with boundary(debug, monitoring=True, nagios=render.SERVICE if output == Format.nagios else None):
        request = request_of(**target.selection(), include_internal=include_internal, **asdict(tier_limits))
        zone = parse_tz(layout.tz)
        fmt, screen = OUTPUTS["tiering"].select(output, env)
        cols = parse_columns(layout.columns, COLUMNS)
        compat = compat_of(metrics_compat, fmt, prometheus_file, push)
        mon = monitored_run(ctx, target.connection(), SERIES, fmt, prometheus_file, label, push_to=push)
        report = read_once(mon, lambda c, _update: run(c, request), "Listing tiered offsets…")
        metrics = partial(render.prometheus, report, mon.labels, compat)
        shown = partial(
            show, report, fmt, zone, cols, layout.no_headers, problems, mon.labels, screen, compat
        )
        published(mon, metrics, shown)
        status = report.status
    raise typer.Exit(int(status))
