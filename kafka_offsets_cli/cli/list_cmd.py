"""``kafka-offsets list``: offsets of partitions by spec (GetOffsetShell compatible)."""

from __future__ import annotations

from functools import partial

import typer

from ..errors import PartialFailure
from ..listing.run import failure_summary, fetch, request_of, table
from ..listing.spark_offsets import Missing
from ..models.offsets import Isolation
from ..parse.times import parse_tz
from ..render.list_tiering import FIELDS as TIERING_FIELDS
from ..render.list_tiering import failed as tiering_failed
from ..render.offsets import COLUMNS
from ..render.order import SortKey
from . import list_options as list_opts
from . import list_view
from . import options as opts
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import AS_GIVEN, FROM_OPTIONS, Layout, Target, targeted
from .connection import settings_from
from .emit import REFRESHED_FIELD, parse_columns
from .list_view import RATE_FIELD, ListView
from .output import connecting, progress, warn


def register(app: typer.Typer) -> None:
    """Add the ``list`` command to ``app``."""
    app.command("list", help=command_help("list"), epilog=list_opts.EXAMPLES)(list_cmd)


@targeted(trailing=("version",))
def list_cmd(
    ctx: typer.Context,
    target: Target = FROM_OPTIONS,
    exclude_internal_topics: opts.ExcludeInternalOpt = False,
    spec: list_opts.SpecOpt = None,
    isolation: opts.IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: opts.ListOutputOpt = None,
    layout: Layout = AS_GIVEN,
    sort: list_opts.SortOpt = SortKey.TOPIC,
    reverse: list_opts.ReverseOpt = False,
    watch: opts.WatchOpt = None,
    tiering: list_opts.TieringOpt = False,
    spark_missing: list_opts.SparkMissingOpt = Missing.error,
    version: list_opts.VersionOpt = False,  # eager: its callback prints the versions and exits
) -> None:
    """Offsets of partitions by spec."""
    debug, env = is_debug(ctx), environment_of(ctx)
    with boundary(debug):
        zone = parse_tz(layout.tz)
        request = request_of(
            **target.selection(), exclude_internal_topics=exclude_internal_topics, specs=spec,
            now_ms=env.now_ms(), zone=zone,
        )  # fmt: skip
        for note in request.notes:
            warn(note, env)  # e.g. epoch seconds typed where Kafka reads milliseconds, or a time after now
        fmt, screen = opts.OUTPUTS["list"].select(output, env)
        request = list_view.fitted(
            request, fmt, tiering=tiering, watch=watch is not None, missing=spark_missing
        )
        known = (
            (*COLUMNS, RATE_FIELD, REFRESHED_FIELD)
            if watch is not None
            else (*COLUMNS, *(TIERING_FIELDS if tiering else ()))
        )
        cols = parse_columns(layout.columns, known)
        interval = opts.watch_interval(watch)
        settings = settings_from(target.connection(isolation))
        view = ListView(
            fmt=fmt,
            zone=zone,
            no_headers=layout.no_headers,
            columns=tuple(cols) if cols else None,
            sort=sort,
            reverse=reverse,
            group_digits=env.stdout_isatty,
            missing=spark_missing,
        )
        from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

        if interval is not None:
            with KafkaClient(settings, debug=debug) as client:
                list_view.watch(client, interval, partial(table, request=request), view, screen)
            return
        if tiering:  # the tiering view: the tiering feature's collector, loaded only when asked
            from ..tiering.collect import list_and_collect

        with (
            KafkaClient(settings, debug=debug) as client,
            progress("Fetching metadata…", env, waiting=connecting(client)) as update,
        ):
            answered = 0

            def tick(n: int) -> None:
                nonlocal answered
                answered += n
                update("ListOffsets", f": {answered} queries answered")  # one step: its clock runs on

            offsets, report = fetch(
                client, request, progress=tick, with_view=list_and_collect if tiering else None
            )
        list_view.show(offsets, view, screen, report)
        failed = tiering_failed(report) if report is not None else []
        if offsets.failed or failed:
            raise PartialFailure(failure_summary(offsets, failed))
