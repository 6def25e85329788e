"""``kafka-offsets lag``: consumer group lag per partition, in offsets and (``--time-lag``) in time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import NotFound, PartialFailure, UsageError
from ..lag.collect import LagReport, collect, resolve_groups
from ..lag.rows import COLUMNS
from ..lag.summary import SortKey
from ..models.offsets import Isolation
from ..render.lag import time_lag_note
from . import lag_view
from .app import command_help, is_debug
from .boundary import boundary
from .connection import connection_settings
from .emit import parse_columns
from .lag_view import RATE_FIELDS, LagView, show
from .options import (
    OUT,
    OUTPUTS,
    SEL,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ExcludeInternalOpt,
    Format,
    GroupOpt,
    IsolationOpt,
    LagOutputOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    WatchOpt,
    XOpt,
    optional_selection_from,
    watch_interval,
)
from .output import err_console, progress, warn

if TYPE_CHECKING:
    from ..connection.settings import ClientSettings
    from ..kafka import KafkaClient
    from ..parse.selection import Selection


EXAMPLES = """Examples:


  kafka-offsets lag -b localhost:9092 --group billing


  kafka-offsets lag -b localhost:9092 --group-regex 'billing-.*' --topic orders --time-lag --sort lag


  kafka-offsets lag -b localhost:9092 -g billing --isolation read_committed --only-lagging -o json

States: ok; no-commit (no committed offset); below-start (committed offset below the log start:
retention passed it, lag not shown); ahead (committed offset beyond the end); marker (the only
offset left is a transaction marker: lag 1, nothing to consume); error.

Time lag (--time-lag) = now - the newest record timestamp among the records up to and including
the first unconsumed one, found by bisection with ListOffsets timestamp lookups (Describe
permission is enough; no record is read); exact to 1 ms. With in-order timestamps it is the age
of the first unconsumed record.

--watch 5s redraws the table every 5 seconds until Ctrl-C (exit 0), with IN/S (records/s
appended, from the log end offsets) and CONSUMED/S (records/s committed by the group) per
partition; json, jsonl and csv get one block per refresh with in_per_s and consumed_per_s.
"""


def register(app: typer.Typer) -> None:
    """Add the ``lag`` command to ``app``."""
    app.command("lag", help=command_help("lag"), epilog=EXAMPLES)(lag_cmd)


def lag_cmd(
    ctx: typer.Context,
    group: GroupOpt = None,
    group_regex: Annotated[
        list[str] | None,
        typer.Option(
            "--group-regex",
            metavar="REGEX",
            help="Consumer groups whose whole id matches (repeatable).",
            rich_help_panel=SEL,
            show_default=False,
        ),
    ] = None,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    exclude_internal_topics: ExcludeInternalOpt = False,
    time_lag: Annotated[
        bool,
        typer.Option(
            "--time-lag",
            help="Also compute each lagging partition's time lag (bisection with batched ListOffsets).",
        ),
    ] = False,
    marker_check: Annotated[
        bool,
        typer.Option(
            "--marker-check/--no-marker-check",
            help="For partitions with lag 1, fetch the one remaining offset to see whether it is a "
            "transaction marker (needs READ on the topic); off: lag 1 stays state ok.",
        ),
    ] = True,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    only_lagging: Annotated[
        bool,
        typer.Option(
            "--only-lagging",
            help="Only partitions with records left to consume (or below the log start).",
            rich_help_panel=OUT,
        ),
    ] = False,
    sort: Annotated[
        SortKey,
        typer.Option(
            "--sort",
            help="Row order: name (group, topic, partition), lag or time-lag (largest first).",
            rich_help_panel=OUT,
            case_sensitive=False,
        ),
    ] = SortKey.name,
    output: LagOutputOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    watch: WatchOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Consumer group lag per partition."""
    debug = is_debug(ctx)
    with boundary(debug):
        if not group and not group_regex:
            raise UsageError("name the consumer groups: --group GROUP and/or --group-regex REGEX")
        fmt = OUTPUTS["lag"].choose(output)
        cols = parse_columns(columns, (*COLUMNS, *RATE_FIELDS) if watch is not None else COLUMNS)
        interval = watch_interval(watch)
        selection = optional_selection_from(topic, partitions, topic_partitions, exclude_internal_topics)
        settings = connection_settings(ctx)
        view = LagView(fmt, tuple(cols) if cols else None, no_headers, only_lagging, sort)
        query = _Query(
            groups=list(group or ()),
            regexes=list(group_regex or ()),
            selection=selection,
            isolation=isolation,
            time_lag=time_lag,
            marker_check=marker_check,
        )
        if interval is not None:
            _watch(settings, query, view, interval, debug)
            return
        report = _collect(settings, query, debug)
        _require_rows(report)
        show(report, view)
        _notes(report, fmt)
        if report.failed:
            raise PartialFailure(_failure_summary(report))


@dataclass(frozen=True, kw_only=True)
class _Query:
    """What to ask the cluster on each run (or refresh)."""

    groups: list[str]
    regexes: list[str]
    selection: Selection | None
    isolation: Isolation
    time_lag: bool
    marker_check: bool

    def run(self, client: KafkaClient, update: Callable[[str], None] | None = None) -> LagReport:
        """Resolve the groups (regexes again on every call) and collect their lag."""
        names = resolve_groups(client, self.groups, self.regexes)
        if update is not None:
            update(f"Reading {len(names)} group(s)…")
        return collect(
            client,
            names,
            self.selection,
            isolation=self.isolation,
            time_lag=self.time_lag,
            marker_check=self.marker_check,
            named=set(self.groups),
        )


def _require_rows(report: LagReport) -> None:
    if not report.rows and not report.failed:
        names = ", ".join(p.group for p in report.problems) or "the matched groups"
        raise NotFound(f"no committed offsets for {names} in the selection")


def _collect(settings: ClientSettings, query: _Query, debug: bool) -> LagReport:
    from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

    with progress("Reading consumer groups…") as update, KafkaClient(settings, debug=debug) as client:
        return query.run(client, update)


def _watch(settings: ClientSettings, query: _Query, view: LagView, interval: float, debug: bool) -> None:
    """Refresh until Ctrl-C; the notes (warnings) of the first refresh are printed once."""
    from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

    first = True

    def fetch(client: KafkaClient) -> LagReport:
        nonlocal first
        report = query.run(client)
        _require_rows(report)
        if first:
            first = False
            _notes(report, view.fmt)
        return report

    with KafkaClient(settings, debug=debug) as client:
        lag_view.watch(client, interval, fetch, view)


def _notes(report: LagReport, fmt: Format) -> None:
    for m in report.missing:
        warn(f"{m}")
    for p in report.problems:
        if p.error:
            warn(f"group {p.group}: {p.error}")
        else:
            warn(f"group {p.group} has no committed offsets or assignments in the selection")
    if report.marker_unchecked:
        why = ", ".join(f"{n} x {e}" for e, n in sorted(report.marker_unchecked.items()))
        warn(f"could not check if the last offset is a transaction marker ({why}); shown as lag 1, state ok")
    if fmt is Format.table:
        c = err_console()
        if report.marker_checked:
            c.print(
                f"checked {report.marker_checked} partition(s) with lag 1 for a transaction marker",
                style="dim",
                highlight=False,
            )
        for g, d in sorted(report.groups.items()):
            if d.error is None:
                c.print(
                    f"group {g}: {d.state or 'unknown state'}, {d.members} member(s)",
                    style="dim",
                    highlight=False,
                )
    if report.time_lag:
        err_console().print(
            time_lag_note(report.time_lag_rounds, report.time_lag_searched, report.time_lag_failed),
            style="dim",
            highlight=False,
        )


def _failure_summary(report: LagReport) -> str:
    by: dict[str, int] = {}
    for m in report.missing:
        by[m.error] = by.get(m.error, 0) + 1
    for p in report.problems:
        if p.error:
            by[p.error] = by.get(p.error, 0) + 1
    for row in report.rows:
        if row.error:
            by[row.error] = by.get(row.error, 0) + 1
    parts = ", ".join(f"{n} x {e}" for e, n in sorted(by.items(), key=lambda kv: -kv[1]))
    return f"some groups or partitions failed: {parts}"
