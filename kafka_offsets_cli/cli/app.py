"""The Typer application: global options and command registration."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__

HELP = """Kafka's AdminClient.listOffsets from the shell.

Offsets by spec (earliest, latest, max-timestamp, a time), consumer lag, partition
liveness and group rewinds, for people at a terminal and for scripts.
"""

EPILOG = (
    "Exit codes: 0 ok, 1 some partitions failed, 2 usage error, 3 cluster unreachable, "
    "4 authentication/TLS failure, 5 nothing matched, 6 refused, 130 interrupted. "
    "liveness and check: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN."
)

app = typer.Typer(
    name="kafka-offsets",
    help=HELP,
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from ..client import library_versions

        ck, rd = library_versions()
        typer.echo(f"kafka-offsets {__version__}\nconfluent-kafka {ck}\nlibrdkafka {rd}")
        raise typer.Exit(0)


@app.callback()
def main(
    ctx: typer.Context,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show tracebacks and client debug logs on stderr.")
    ] = False,
    version: Annotated[
        bool | None,
        typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show versions and exit."),
    ] = None,
) -> None:
    """Kafka's AdminClient.listOffsets from the shell."""
    ctx.obj = {"debug": debug}
    if debug:
        import logging

        logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(name)s %(message)s")


def is_debug(ctx: typer.Context) -> bool:
    """Whether ``--debug`` was given before the command."""
    obj = ctx.find_root().obj or {}
    return bool(obj.get("debug"))


def _register() -> None:
    from . import list_cmd

    list_cmd.register(app)
    from . import config_cmd

    config_cmd.register(app)
    from . import lag_cmd

    lag_cmd.register(app)
    from . import liveness_cmd

    liveness_cmd.register(app)
    from . import rewind_cmd

    rewind_cmd.register(app)
    from . import check_cmd

    check_cmd.register(app)


_register()
