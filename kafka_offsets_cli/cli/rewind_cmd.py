"""``kafka-offsets rewind``: plan (and with ``--execute`` commit) a consumer group's new offsets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import PartialFailure, UsageError
from ..models.offsets import Isolation, SpecKind
from ..parse.specs import parse_spec
from ..parse.times import format_time, now_ms, parse_tz
from ..render import rewind as r
from ..render.rewind import summary
from ..rewind.execute import build_plan
from ..rewind.execute import execute as commit
from ..rewind.plan import COLUMNS, Note, Target, export_csv, left_out
from .app import command_help, is_debug
from .boundary import boundary
from .connection import connection_settings
from .emit import parse_columns, records_text, show
from .options import (
    OUTPUTS,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ExcludeInternalOpt,
    Format,
    GroupOpt,
    IsolationOpt,
    NoHeadersOpt,
    PartitionsOpt,
    RewindOutputOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    TzOpt,
    XOpt,
    optional_selection_from,
)
from .output import err_console, progress, warn
from .textfile import write_atomic

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..connection.settings import ClientSettings
    from ..parse.selection import Selection
    from ..rewind.plan import Plan, Target

RESET = "Reset"


EXAMPLES = """Examples:


  # reconsume the last 6 hours (dry run: prints the plan, changes nothing)
  kafka-offsets rewind -b localhost:9092 --group billing --to '6h ago'


  # do it (the group's consumers must be stopped)
  kafka-offsets rewind -b localhost:9092 --group billing --to '6h ago' --execute


  # move a group to a disaster-recovery cluster by time, keeping the plan for kafka-consumer-groups
  kafka-offsets rewind -b dr-kafka:9092 --group billing --topic orders \\
      --to 2026-11-21T06:00:00Z --export billing.csv --execute


  # start a new group 10 minutes back; skip 100 offsets per partition
  kafka-offsets rewind -b localhost:9092 --group new-reader --topic orders --to 10m --execute
  kafka-offsets rewind -b localhost:9092 --group billing --shift-by 100

Partitions: the selection (--topic, --partitions, --topic-partitions), or without one every
partition the group has committed offsets for. --to TIME takes the earliest offset whose
timestamp is >= TIME; a partition without such a record gets its end offset, with a warning
(as kafka-consumer-groups --reset-offsets --to-datetime). --shift-by results are clamped to
[log start, end]. --export FILE writes the plan as headerless topic,partition,offset CSV, which
`kafka-consumer-groups --reset-offsets --from-file FILE --group G` accepts; a partition that
could not be planned is left out of it, named on stderr, and the command exits 1.

--execute commits only when every partition was planned and the group has no active members
(else exit 6, nothing changed; also when a consumer joins before the commit and Kafka rejects
it), then reads the offsets back and checks them against the plan.
"""


def register(app: typer.Typer) -> None:
    """Add the ``rewind`` command to ``app``."""
    app.command(
        "rewind",
        help=command_help("rewind"),
        epilog=EXAMPLES,
    )(rewind_cmd)


def rewind_cmd(
    ctx: typer.Context,
    group: GroupOpt = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="TIME|earliest|latest",
            help="Target: a time (epoch ms, ISO-8601, '6h ago', -30m…), earliest or latest.",
            rich_help_panel=RESET,
            show_default=False,
        ),
    ] = None,
    shift_by: Annotated[
        int | None,
        typer.Option(
            "--shift-by",
            metavar="N",
            help="Target: the committed offset plus N (negative: back), clamped to the log.",
            rich_help_panel=RESET,
            show_default=False,
        ),
    ] = None,
    execute: Annotated[
        bool,
        typer.Option(
            "--execute",
            help="Commit the plan (only if the group has no active members). Default: dry run.",
            rich_help_panel=RESET,
        ),
    ] = False,
    export: Annotated[
        str | None,
        typer.Option(
            "--export",
            metavar="FILE",
            help="Write the plan as kafka-consumer-groups --reset-offsets --from-file CSV.",
            rich_help_panel=RESET,
            show_default=False,
        ),
    ] = None,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    exclude_internal_topics: ExcludeInternalOpt = False,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: RewindOutputOpt = None,
    tz: TzOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Reset a consumer group's offsets (dry run by default)."""
    debug = is_debug(ctx)
    with boundary(debug):
        groups = list(dict.fromkeys(group or ()))
        if len(groups) != 1:
            raise UsageError("name exactly one consumer group with --group")
        zone = parse_tz(tz)
        target = _target(to, shift_by, now_ms(), zone)
        fmt = OUTPUTS["rewind"].choose(output)
        cols = parse_columns(columns, COLUMNS)
        selection = optional_selection_from(topic, partitions, topic_partitions, exclude_internal_topics)
        settings = connection_settings(ctx)
        _run(
            settings,
            groups[0],
            target,
            selection=selection,
            execute=execute,
            export=export,
            fmt=fmt,
            zone=zone,
            cols=cols,
            no_headers=no_headers,
            debug=debug,
        )


def _target(to: str | None, shift_by: int | None, now: int, zone: tzinfo) -> Target:
    if (to is None) == (shift_by is None):
        raise UsageError("give one target: --to TIME|earliest|latest or --shift-by N")
    if shift_by is not None:
        return Target.shift_by(shift_by)
    assert to is not None
    spec = parse_spec(to, now_ms=now, tz=zone)
    if spec.kind is SpecKind.MAX_TIMESTAMP:
        raise UsageError("--to max-timestamp is not a reset target; use a time, earliest or latest")
    return Target.from_spec(spec)


def _run(
    settings: ClientSettings,
    group: str,
    target: Target,
    *,
    selection: Selection | None,
    execute: bool,
    export: str | None,
    fmt: Format,
    zone: tzinfo,
    cols: list[str] | None,
    no_headers: bool,
    debug: bool,
) -> None:
    from ..kafka import KafkaClient

    with KafkaClient(settings, debug=debug) as client:
        with progress(f"Planning the reset of group {group}…"):
            plan = build_plan(client, group, target, selection)
        _show(plan, fmt, cols, no_headers)
        _warnings(plan, zone)
        if export:
            write_atomic(export, export_csv(plan))
            _export_gaps(plan, export)
        if execute:
            with progress(f"Committing {len(plan.planned)} offset(s)…"):
                commit(client, plan)
    err_console().print(summary(plan, zone, executed=execute), highlight=False, soft_wrap=True)
    if execute:
        err_console().print("Verified: the group's committed offsets equal the plan.", highlight=False)
    elif not plan.complete:
        what = [f"{len(plan.problems)} partition(s) could not be planned"] if plan.problems else []
        what += [f"topic {t}: {e}" for t, e in plan.missing_topics]
        if export:
            what.append(f"{export} holds only the {len(plan.planned)} planned offset(s)")
        raise PartialFailure("; ".join(what))


def _export_gaps(plan: Plan, export: str) -> None:
    """Name, on one line, every topic and partition the exported plan file leaves out.

    The CSV can only hold planned offsets; a plan file is a change ticket, so a partial one
    says so (and the command exits non-zero: 1 for a dry run, 6 with --execute).
    """

    gaps = left_out(plan)
    if gaps:
        warn(f"{export} leaves out what could not be planned: {', '.join(gaps)}")


def _show(plan: Plan, fmt: Format, cols: list[str] | None, no_headers: bool) -> None:

    if fmt is Format.table:
        show(r.rich_table(plan, header=not no_headers))
    else:
        show(records_text(r.records(plan), fmt, COLUMNS, cols, header=not no_headers))


def _warnings(plan: Plan, zone: tzinfo) -> None:

    for topic, err in plan.missing_topics:
        warn(f"{topic}: {err}; not planned")
    for row in plan.rows:
        if row.note is Note.NO_RECORD_AT_TIME:
            when = format_time(plan.target.time_ms, zone)
            warn(f"{row.topic}:{row.partition}: no record at or after {when}; using end offset {row.target}")
        elif row.note is Note.NO_COMMIT:
            warn(f"{row.topic}:{row.partition}: no committed offset to shift; not planned")
        elif row.error is not None:
            warn(f"{row.topic}:{row.partition}: {row.error}; not planned")
