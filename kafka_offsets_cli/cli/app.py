"""The Typer application: global options and command registration."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Annotated, Any, NamedTuple

import typer
from typer.core import TyperGroup

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


class CommandEntry(NamedTuple):
    """A subcommand: the module under ``kafka_offsets_cli.cli`` that registers it, and its one-line help."""

    module: str
    help: str


#: The subcommands, in the order ``--help`` lists them. The one-line help lives here (the
#: modules' ``register`` functions take it from this table) so that ``kafka-offsets --help``
#: can list every command without importing any of them.
COMMANDS: dict[str, CommandEntry] = {
    "list": CommandEntry(
        "list_cmd",
        "Offsets of partitions by spec: earliest, latest, max-timestamp, a time.",
    ),
    "lag": CommandEntry(
        "lag_cmd",
        "Consumer group lag per partition, in offsets and in time.",
    ),
    "liveness": CommandEntry(
        "liveness_cmd",
        "Age of each partition's newest record, as a monitoring check (exit 0/1/2/3).",
    ),
    "rewind": CommandEntry(
        "rewind_cmd",
        "Reset a group's offsets to a time, earliest, latest or by a shift (dry run by default).",
    ),
    "check": CommandEntry(
        "check_cmd",
        "Lag and liveness checks from a spec file, on Spark (exit 0/1/2/3).",
    ),
    "config": CommandEntry(
        "config_cmd",
        "The config file of cluster profiles and the effective client settings (secrets masked).",
    ),
}


def command_help(name: str) -> str:
    """The one-line help of subcommand ``name`` (used by the modules' ``register``)."""
    return COMMANDS[name].help


def load_command(name: str) -> Any:
    """Import the module of subcommand ``name`` and build its click command."""
    import typer.main

    module = importlib.import_module(f"{__package__}.{COMMANDS[name].module}")
    holder = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)
    module.register(holder)
    return typer.main.get_group(holder).commands[name]


class _LazyCommands(MutableMapping[str, Any]):
    """The root group's commands: known by name up front, imported on first use.

    ``kafka-offsets list …`` imports only the ``list`` module (and what it needs);
    ``kafka-offsets --help`` imports none.
    """

    def __init__(self) -> None:
        self._loaded: dict[str, Any] = {}
        self._names = list(COMMANDS)

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in COMMANDS:
                raise KeyError(name)
            self._loaded[name] = load_command(name)
        return self._loaded[name]

    def __setitem__(self, name: str, cmd: Any) -> None:
        self._loaded[name] = cmd
        if name not in self._names:
            self._names.append(name)

    def __delitem__(self, name: str) -> None:
        self._loaded.pop(name, None)
        self._names.remove(name)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)


class LazyGroup(TyperGroup):
    """The root command group: subcommands load on demand, ``--help`` lists them from :data:`COMMANDS`."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        lazy = _LazyCommands()
        for name, cmd in self.commands.items():
            lazy[name] = cmd
        self.commands = lazy

    def list_commands(self, ctx: Any) -> list[str]:
        """The subcommands' names, in :data:`COMMANDS` order (nothing imported)."""
        return list(self.commands)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The Commands section of ``--help``, without importing the commands."""
        rows = [(name, COMMANDS[name].help if name in COMMANDS else "") for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """Complete command names (with their help) without importing the commands."""
        from typer._click.shell_completion import CompletionItem

        items = [
            CompletionItem(name, help=COMMANDS[name].help)
            for name in self.list_commands(ctx)
            if name.startswith(incomplete) and name in COMMANDS
        ]
        # the root group's own options, as TyperGroup adds them after the commands
        items.extend(super(TyperGroup, self).shell_complete(ctx, incomplete))
        return items


app = typer.Typer(
    name="kafka-offsets",
    cls=LazyGroup,
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
        from ..kafka import library_versions

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
