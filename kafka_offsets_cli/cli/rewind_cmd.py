"""``kafka-offsets rewind``: plan (and with ``--execute`` commit) a consumer group's new offsets.

The options become one :class:`~kafka_offsets_cli.rewind.request.RewindRequest`; the use case is
:func:`kafka_offsets_cli.rewind.run.run`, shown through :class:`.rewind_io.TerminalIO`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer

from ..models.offsets import Isolation
from . import rewind_options as ro
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .command_options import AS_ASKED, AS_GIVEN, FROM_OPTIONS, Layout, Target, targeted
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
    reset: Mapping[str, Any] = AS_ASKED,
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
            **reset,
            **target.selection(),
            exclude_internal=exclude_internal_topics,
            isolation=isolation,
            tz=layout.tz,
            debug=debug,
            now=now,
        )
        run(request, io)
