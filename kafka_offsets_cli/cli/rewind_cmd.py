"""``kafka-offsets rewind``: plan (and with ``--execute`` commit) a consumer group's new offsets.

The options become one :class:`~kafka_offsets_cli.rewind.request.RewindRequest`; the use case is
:func:`kafka_offsets_cli.rewind.run.run`, shown through :class:`.rewind_io.TerminalIO`."""

from __future__ import annotations

import typer

from ..models.offsets import Isolation
from . import rewind_options as ro
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import AS_GIVEN, FROM_OPTIONS, Layout, Target, targeted
from .options import (
    ExcludeInternalOpt,
    GroupOpt,
    GroupRegexOpt,
    IsolationOpt,
    RewindOutputOpt,
)


def register(app: typer.Typer) -> None:
    """Add the ``rewind`` command to ``app``."""
    app.command(
        "rewind",
        cls=ro.KafkaFlagsCommand,
        help=command_help("rewind"),
        epilog=ro.EXAMPLES,
    )(rewind_cmd)


@targeted()
def rewind_cmd(
    ctx: typer.Context,
    group: GroupOpt = None,
    group_regex: GroupRegexOpt = None,
    all_groups: ro.AllGroupsOpt = False,
    to: ro.ToOpt = None,
    to_offset: ro.ToOffsetOpt = None,
    to_current: ro.ToCurrentOpt = False,
    shift_by: ro.ShiftByOpt = None,
    from_file: ro.FromFileOpt = None,
    from_cluster: ro.FromClusterOpt = None,
    from_lag_file: ro.FromLagFileOpt = None,
    remote_topic_prefix: ro.RemoteTopicPrefixOpt = "",
    delete_offsets: ro.DeleteOffsetsOpt = False,
    to_group: ro.ToGroupOpt = None,
    execute: ro.ExecuteOpt = False,
    allow_future: ro.AllowFutureOpt = False,
    allow_other_cluster: ro.AllowOtherClusterOpt = False,
    force: ro.ForceOpt = False,
    export: ro.ExportOpt = None,
    undo_file: ro.UndoFileOpt = None,
    target: Target = FROM_OPTIONS,
    exclude_internal_topics: ExcludeInternalOpt = False,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: RewindOutputOpt = None,
    layout: Layout = AS_GIVEN,
) -> None:
    """Reset consumer groups' offsets (dry run by default)."""
    from ..rewind.request import RewindRequest
    from ..rewind.run import run
    from .rewind_io import TerminalIO

    debug, env = is_debug(ctx), environment_of(ctx)
    with boundary(debug):
        now = env.now_ms()  # the one "now" of this invocation: every relative time is resolved against it
        io = TerminalIO(output=output, columns=layout.columns, header=not layout.no_headers, env=env)
        request = RewindRequest(
            connection=target.connection(isolation),
            names=tuple(dict.fromkeys(group or ())),
            regexes=tuple(group_regex or ()),
            all_groups=all_groups,
            to=to,
            to_offset=to_offset,
            to_current=to_current,
            shift_by=shift_by,
            from_file=from_file,
            from_cluster=from_cluster,
            from_lag_file=from_lag_file,
            remote_topic_prefix=remote_topic_prefix,
            delete_offsets=delete_offsets,
            to_group=to_group,
            **target.selection(),
            exclude_internal=exclude_internal_topics,
            isolation=isolation,
            execute=execute,
            allow_future=allow_future,
            allow_other_cluster=allow_other_cluster,
            force=force,
            export=export,
            undo_file=undo_file,
            tz=layout.tz,
            debug=debug,
            now=now,
        )
        run(request, io)
