"""``kafka-offsets lag``: consumer group lag per partition, in offsets and (``--time-lag``) in time."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import NotFound, PartialFailure, UsageError
from ..lag import COLUMNS, SortKey
from ..models import Isolation
from .app import is_debug
from .boundary import boundary
from .options import (
    OUT,
    SEL,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ConnectionArgs,
    ExcludeInternalOpt,
    GroupOpt,
    IsolationOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    XOpt,
)

if TYPE_CHECKING:
    from ..config import ClientSettings
    from ..lag import LagReport
    from ..selection import Selection


class LagOutput(str, Enum):
    """Output formats of ``lag``."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


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
"""


def register(app: typer.Typer) -> None:
    """Add the ``lag`` command to ``app``."""
    app.command("lag", help="Consumer group lag per partition, in offsets and in time.", epilog=EXAMPLES)(
        lag_cmd
    )


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
    output: Annotated[
        LagOutput | None,
        typer.Option(
            "--output",
            "-o",
            help="table (default on a TTY), json, jsonl (default otherwise) or csv.",
            rich_help_panel=OUT,
            show_default=False,
            case_sensitive=False,
        ),
    ] = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Consumer group lag per partition."""
    debug = is_debug(ctx)
    with boundary(debug):
        from ..selection import parse_selection
        from .emit import default_format, parse_columns
        from .options import settings_from

        if not group and not group_regex:
            raise UsageError("name the consumer groups: --group GROUP and/or --group-regex REGEX")
        fmt = LagOutput(output.value if output else default_format("table", "jsonl"))
        cols = parse_columns(columns, COLUMNS)
        given = topic or partitions is not None or topic_partitions is not None or exclude_internal_topics
        selection = (
            parse_selection(
                topics=topic or (),
                partitions=partitions,
                topic_partitions=topic_partitions,
                exclude_internal=exclude_internal_topics,
            )
            if given
            else None
        )
        settings = settings_from(
            ConnectionArgs(bootstrap_server, command_config, tuple(x or ()), timeout, isolation, cluster)
        )
        report = _collect(
            settings,
            list(group or ()),
            list(group_regex or ()),
            selection,
            isolation,
            time_lag,
            marker_check,
            debug,
        )
        if not report.rows and not report.failed:
            names = ", ".join(p.group for p in report.problems) or "the matched groups"
            raise NotFound(f"no committed offsets for {names} in the selection")
        _show(report, fmt, cols, no_headers, only_lagging, sort)
        _notes(report, fmt)
        if report.failed:
            raise PartialFailure(_failure_summary(report))


def _collect(
    settings: ClientSettings,
    groups: list[str],
    regexes: list[str],
    selection: Selection | None,
    isolation: Isolation,
    time_lag: bool,
    marker_check: bool,
    debug: bool,
) -> LagReport:
    from ..client import KafkaClient
    from ..lag import collect, resolve_groups
    from .output import progress

    with progress("Reading consumer groups…") as update, KafkaClient(settings, debug=debug) as client:
        names = resolve_groups(client, groups, regexes)
        update(f"Reading {len(names)} group(s)…")
        return collect(
            client,
            names,
            selection,
            isolation=isolation,
            time_lag=time_lag,
            marker_check=marker_check,
            named=set(groups),
        )


def _show(
    report: LagReport,
    fmt: LagOutput,
    cols: list[str] | None,
    no_headers: bool,
    only_lagging: bool,
    sort: SortKey,
) -> None:
    from ..lag import sort_rows
    from ..render import lag as r
    from .emit import records_text
    from .output import print_renderable, write

    rows = sort_rows(report.rows, sort)
    if only_lagging:
        rows = [row for row in rows if row.lagging]
    if fmt is LagOutput.table:
        print_renderable(r.rich_table(rows, header=not no_headers, time_lag=report.time_lag))
        return
    recs = report.missing_records() + [p.to_record() for p in report.problems] + r.records(rows)
    write(records_text(recs, fmt.value, COLUMNS, cols, header=not no_headers))


def _notes(report: LagReport, fmt: LagOutput) -> None:
    from ..render.lag import time_lag_note
    from .output import err_console, warn

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
    if fmt is LagOutput.table:
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
