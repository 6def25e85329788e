"""``kafka-offsets rewind``: plan (and with ``--execute`` commit) a consumer group's new offsets."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..errors import UsageError
from ..models.offsets import Isolation
from ..parse.time_words import future_note, time_notes
from ..parse.times import depends_on_now, format_time, now_ms, parse_tz
from ..rewind.plan import COLUMNS, TargetKind
from ..rewind.planfile import SEEN_SUFFIX
from .app import command_help, is_debug
from .boundary import boundary
from .connection import connect, connection_options
from .emit import parse_columns
from .options import (
    OUTPUTS,
    SEL,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ExcludeInternalOpt,
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
from .output import err_console, warn
from .rewind_run import Groups, RunOptions, cutover_from, run
from .rewind_target import parse_target
from .textfile import check_writable

RESET = "Reset"


EXAMPLES = """Examples:


  # reconsume the last 6 hours (dry run: prints the plan, changes nothing)
  kafka-offsets rewind -b localhost:9092 --group billing --to '6h ago'


  # approve a plan, then apply exactly that plan (refused if the group moved since)
  kafka-offsets rewind -b localhost:9092 --group billing --to PT6H --export billing.csv
  kafka-offsets rewind -b localhost:9092 --from-file billing.csv --execute


  # roll back: every --execute writes the previous offsets as a plan and prints its path
  kafka-offsets rewind -b localhost:9092 --from-file ~/.local/state/kafka-offsets/rewind-undo-….csv --execute


  # other modes: an offset, the committed offsets, a shift; several groups at once
  kafka-offsets rewind -b localhost:9092 --group new-reader --topic orders --to-offset 0
  kafka-offsets rewind -b localhost:9092 --group-regex 'billing-.*' --shift-by -100


  # DR cutover: each partition where the group stopped on the primary (a cluster profile)
  kafka-offsets rewind --cluster dr -g billing --from-cluster primary --remote-topic-prefix primary.

Groups: -g (repeatable), --group-regex, --all-groups; with --from-file the file's groups
(narrowed by -g / --group-regex). Partitions: the selection (--topic, --partitions,
--topic-partitions), or every partition each group has committed offsets for. --to TIME
takes the earliest offset whose timestamp is >= TIME (relative times are resolved once, and
the instant is printed); a partition without such a record gets its end offset, with a
warning. --to-offset, --shift-by and --from-file offsets are clamped to [log start, end], as
kafka-consumer-groups clamps them. --export FILE writes the plan as the CSV that
kafka-consumer-groups --reset-offsets --from-file reads, and FILE.seen beside it; a partition
that could not be planned is left out of it, named on stderr, and the command exits 1.

--execute commits only when every partition was planned and no group has active members
(else exit 6, nothing changed; also when a consumer joins before the commit and Kafka rejects
it), with --from-file only when the groups' committed offsets are still those in FILE.seen
(--force overrides), writes the previous offsets as an undo plan first, then reads the
offsets back and checks them against the plan.
"""


def register(app: typer.Typer) -> None:
    """Add the ``rewind`` command to ``app``."""
    app.command(
        "rewind",
        help=command_help("rewind"),
        epilog=EXAMPLES,
    )(rewind_cmd)


def _opt(flag: str, metavar: str, text: str) -> Any:
    return typer.Option(flag, metavar=metavar, help=text, rich_help_panel=RESET, show_default=False)


def rewind_cmd(
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
    all_groups: Annotated[
        bool, typer.Option("--all-groups", help="Every consumer group of the cluster.", rich_help_panel=SEL)
    ] = False,
    to: Annotated[
        str | None,
        _opt(
            "--to",
            "TIME|earliest|latest|PT…",
            "Target: a time (ISO-8601, '6h ago', -30m…), a duration back (PT30M), earliest or latest.",
        ),
    ] = None,
    to_offset: Annotated[
        int | None, _opt("--to-offset", "N", "Target: offset N on every partition, clamped to the log.")
    ] = None,
    to_current: Annotated[
        bool,
        typer.Option(
            "--to-current",
            help="Target: the committed offset (the end offset where none is).",
            rich_help_panel=RESET,
        ),
    ] = False,
    shift_by: Annotated[
        int | None,
        _opt("--shift-by", "N", "Target: the committed offset plus N (negative: back), clamped to the log."),
    ] = None,
    from_file: Annotated[
        str | None,
        _opt(
            "--from-file", "FILE", "Target: the offsets of a plan file (kafka-consumer-groups CSV, --export)."
        ),
    ] = None,
    from_cluster: Annotated[
        str | None,
        _opt(
            "--from-cluster",
            "PROFILE",
            "Target, DR cutover: per partition, where the group stopped on this cluster profile (primary).",
        ),
    ] = None,
    from_lag_file: Annotated[
        str | None,
        _opt(
            "--from-lag-file",
            "FILE",
            "Target, DR cutover with the primary down: --from-cluster's plan from a saved "
            "`lag -o json --time-lag` of the primary.",
        ),
    ] = None,
    remote_topic_prefix: Annotated[
        str,
        _opt(
            "--remote-topic-prefix",
            "PREFIX",
            "With --from-cluster/--from-lag-file: DR topic = PREFIX + primary topic.",
        ),
    ] = "",
    execute: Annotated[
        bool,
        typer.Option(
            "--execute",
            help="Commit the plan (only if the group has no active members). Default: dry run.",
            rich_help_panel=RESET,
        ),
    ] = False,
    allow_future: Annotated[
        bool,
        typer.Option(
            "--allow-future",
            help="With --to: plan a time after now (every partition goes to its end). Default: refused.",
            rich_help_panel=RESET,
        ),
    ] = False,
    allow_other_cluster: Annotated[
        bool,
        typer.Option(
            "--allow-other-cluster",
            help="With --from-file: apply a plan made on another cluster (its FILE.seen names it). "
            "Default: refused.",
            rich_help_panel=RESET,
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="With --from-file: commit even if the group's offsets moved since the plan was made.",
            rich_help_panel=RESET,
        ),
    ] = False,
    export: Annotated[
        str | None,
        _opt("--export", "FILE", "Write the plan as kafka-consumer-groups --reset-offsets --from-file CSV."),
    ] = None,
    undo_file: Annotated[
        str | None,
        _opt(
            "--undo-file",
            "FILE",
            "Where --execute writes the previous offsets [default: $XDG_STATE_HOME/kafka-offsets/].",
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
    """Reset consumer groups' offsets (dry run by default)."""
    debug = is_debug(ctx)
    with boundary(debug):
        now = now_ms()  # the one "now" of this invocation: every relative time is resolved against it
        names = list(dict.fromkeys(group or ()))
        regexes = list(group_regex or ())
        if not names and not regexes and not all_groups and from_file is None:
            raise UsageError("name the consumer groups: --group, --group-regex or --all-groups")
        if all_groups and (names or regexes):
            raise UsageError("--all-groups selects every group: leave out --group and --group-regex")
        if force and from_file is None:
            raise UsageError(
                "--force only applies to --from-file (it skips the check that the group has not moved)"
            )
        if allow_future and to is None:
            raise UsageError("--allow-future only applies to --to TIME")
        if allow_other_cluster and from_file is None:
            raise UsageError("--allow-other-cluster only applies to --from-file")
        zone = parse_tz(tz)
        others = to or to_offset is not None or to_current or shift_by is not None or from_file
        if (from_cluster or from_lag_file) and others:
            flag = "--from-cluster" if from_cluster else "--from-lag-file"
            raise UsageError(f"{flag} is the target: leave out --to, --to-offset, --to-current, ...")
        cutover = cutover_from(from_cluster, remote_topic_prefix, timeout, isolation, from_lag_file)
        target = (
            cutover.target
            if cutover
            else parse_target(
                to=to,
                to_offset=to_offset,
                to_current=to_current,
                shift_by=shift_by,
                from_file=from_file,
                now=now,
                zone=zone,
                allow_future=allow_future,
            )
        )
        fmt = OUTPUTS["rewind"].choose(output)
        cols = parse_columns(columns, COLUMNS)
        selection = optional_selection_from(topic, partitions, topic_partitions, exclude_internal_topics)
        if from_file is not None and selection is not None:
            raise UsageError(
                "--from-file takes its partitions from the file: leave out the selection options"
            )
        conn = connect(connection_options(ctx))
        if export is not None:  # refused before the cluster is asked and the plan shown, not after
            check_writable(export)
            if export != "-":
                check_writable(export + SEEN_SUFFIX)

        def announce() -> None:
            """Said once every option is valid (a usage error comes alone), for a time read against now."""
            if target.kind is not TargetKind.TIME or target.text is None:
                return
            if depends_on_now(target.text, now_ms=now, tz=zone):
                err_console().print(
                    f"--to {target.text!r} = {format_time(target.time_ms, zone)} (resolved once, now)",
                    highlight=False,
                    soft_wrap=True,
                )
            for note in time_notes(target.text, now, zone):
                warn(note)  # as list does: a clock time still to come today is yesterday's
            ahead = future_note(target.text, target.time_ms or 0, now, zone)  # --allow-future: said
            if ahead is not None:
                warn(ahead)

        run(
            conn.settings,
            Groups(names=names, regexes=regexes, all_groups=all_groups),
            target,
            RunOptions(
                selection=selection,
                isolation=isolation,
                execute=execute,
                force=force,
                export=export,
                undo_file=undo_file,
                fmt=fmt,
                zone=zone,
                cols=cols,
                no_headers=no_headers,
                debug=debug,
                now=now,
                profile=conn.profile.name if conn.profile else None,
                allow_other_cluster=allow_other_cluster,
            ),
            cutover,
            announce=announce,
        )
