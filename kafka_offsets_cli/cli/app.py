"""The Typer application: global options and command registration."""

from __future__ import annotations

import difflib
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from .boundary import ParserErrors, run_standalone

if TYPE_CHECKING:
    from .environment import Environment

HELP = """Kafka's AdminClient.listOffsets from the shell.

Offsets by spec (earliest, latest, max-timestamp, a time), consumer lag, partition
liveness and group rewinds, for people at a terminal and for scripts.
"""

EPILOG = (
    "Exit codes: 0 ok, 1 some partitions failed, 2 usage error, 3 cluster unreachable, "
    "4 authentication/TLS failure, 5 nothing matched, 6 refused, 7 output could not be written, "
    "130 interrupted. "
    "liveness, tiering, check (and lag with a threshold, -o nagios|prometheus or --prometheus-file): "
    "0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN, usage errors included."
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
    "tiering": CommandEntry(
        "tiering_cmd",
        "Tiered storage: local and remote spans, the upload backlog, as a monitoring check (exit 0/1/2/3).",
    ),
    "serve": CommandEntry(
        "serve_cmd",
        "A Prometheus endpoint: lag, liveness and tiering read on scrape, at most once per interval.",
    ),
    "rewind": CommandEntry(
        "rewind_cmd",
        "Reset groups' offsets to a time, an offset, a shift or a plan file (dry run by default).",
    ),
    "check": CommandEntry(
        "check_cmd",
        "Lag and liveness checks from a spec file, on Spark (exit 0/1/2/3).",
    ),
    "config": CommandEntry(
        "config_cmd",
        "The config file of cluster profiles and the effective client settings (secrets masked).",
    ),
    "completion": CommandEntry(
        "completion_cmd",
        "Print the shell completion script for bash, zsh or fish.",
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
    cmd = typer.main.get_group(holder).commands[name]
    cmd.help, cmd.epilog = verbatim_blocks(cmd.help), verbatim_blocks(cmd.epilog)
    return cmd


def verbatim_blocks(text: str | None) -> str | None:
    """``text`` with every indented paragraph (an example command line) marked to print as written.

    click re-flows help paragraphs to the terminal's width, which broke example commands over
    two lines where a copy-paste runs half of one; a paragraph after a ``\\b`` line is kept as is.
    """
    if not text:
        return text
    out = []
    for block in text.split("\n\n"):
        lines = [line for line in block.split("\n") if line.strip()]
        indented = bool(lines) and lines[0].strip() != "\b" and all(line[:1].isspace() for line in lines)
        out.append(f"\b\n{block.lstrip(chr(10))}" if indented else block)
    return "\n\n".join(out)


#: The root's flags that may also follow the command name (``kafka-offsets list --debug``).
ROOT_FLAGS = frozenset({"--debug", "-V", "--version"})

#: ``ctx.meta`` key set while the root group only lists its commands (help, completion of names).
_NAMES_ONLY = f"{__name__}.names_only"


@contextmanager
def _names_only(ctx: Any) -> Iterator[None]:
    ctx.meta[_NAMES_ONLY] = True
    try:
        yield
    finally:
        del ctx.meta[_NAMES_ONLY]


def _parser_errors() -> ParserErrors:
    """The parser's exception classes, from the click typer runs on (click, or typer's vendored copy)."""
    core = next(c.__module__ for c in TyperGroup.__mro__ if c.__module__.endswith("click.core"))
    exceptions = importlib.import_module(core.rsplit(".", 1)[0] + ".exceptions")
    abort = getattr(typer.core, "Abort", None) or exceptions.Abort  # typer 0.28 has its own
    return ParserErrors(exceptions.UsageError, exceptions.ClickException, abort)


class LazyGroup(TyperGroup):
    """The root command group, loading its subcommands on demand (click's "lazily loading subcommands").

    ``kafka-offsets list …`` imports only the ``list`` module (and what it needs); ``kafka-offsets
    --help`` and completing a command name import none. Only click's public ``Group`` API is used:
    older typers run on click itself and newer ones on a vendored copy (``typer._click``), so a
    reference to either breaks the other.
    """

    def list_commands(self, ctx: Any) -> list[str]:
        """The subcommands' names, in :data:`COMMANDS` order (nothing imported)."""
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """Subcommand ``cmd_name``, imported on first use.

        While the group only lists its commands (``--help``, completing a name) a stand-in with the
        one-line help of :data:`COMMANDS` is returned instead, so that listing imports nothing.
        """
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        if ctx.meta.get(_NAMES_ONLY):
            return TyperCommand(name=cmd_name, short_help=COMMANDS[cmd_name].help)
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None:
            cmd = load_command(cmd_name)
            self.add_command(cmd, cmd_name)
        return cmd

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The Commands section of ``--help``, without importing the commands."""
        with _names_only(ctx):
            super().format_commands(ctx, formatter)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """Complete command names (with their help) and the root's options, without importing commands."""
        with _names_only(ctx):
            return super().shell_complete(ctx, incomplete)

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None = None) -> None:
        """A completion (the scripts call the program back): answered by :mod:`.complete_shells`,
        which offers file names only where a value is a path."""
        from .complete_shells import register

        register()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the CLI; a bad command line is one line and a hint (:func:`~.boundary.run_standalone`).

        click's standalone mode would print its four-line usage block; the run goes through
        click's non-standalone mode instead and the house's one error boundary maps what escapes.
        """
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        given = kwargs.get("args", args[0] if args else None)
        argv = list(sys.argv[1:] if given is None else given)
        if any(a.startswith(("--install-completion", "--show-completion")) for a in argv):
            from .complete import use_our_scripts  # Typer's options write our scripts

            use_our_scripts()
        sys.exit(run_standalone(lambda: super(LazyGroup, self).main(*args, **kwargs), _parser_errors(), argv))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse the root's options, also taken after the command name (:data:`ROOT_FLAGS`)."""
        if not ctx.resilient_parsing:
            args = self._hoist_root_flags(ctx, args)
        return list(super().parse_args(ctx, args))

    def _hoist_root_flags(self, ctx: Any, args: list[str]) -> list[str]:
        """``args`` with the root's flags that follow the command name moved before it.

        ``kafka-offsets list --debug …`` is ``kafka-offsets --debug list …``, as users type them
        while editing a command line; a flag the command has itself (``list --version``, Kafka's
        tool's) stays the command's, and nothing after ``--`` moves.
        """
        at = next((i for i, a in enumerate(args) if not a.startswith("-")), None)
        if at is None or at + 1 >= len(args) or args[at] not in COMMANDS:
            return args
        tail = args[at + 1 :]
        end = tail.index("--") if "--" in tail else len(tail)
        wanted = [a for a in tail[:end] if a in ROOT_FLAGS]
        if not wanted:
            return args
        own = {o for p in getattr(self.get_command(ctx, args[at]), "params", ()) for o in p.opts}
        moved = [a for a in wanted if a not in own]
        if not moved:
            return args
        kept = [a for a in tail[:end] if a not in moved]
        return [*args[:at], *moved, args[at], *kept, *tail[end:]]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The subcommand ``args`` name; a mistyped name is told the close ones (``Did you mean 'list'?``).

        click and typer suggest only among the commands registered so far, which here are none.
        """
        name = args[0]
        if ctx.resilient_parsing or name.startswith("-") or self.get_command(ctx, name) is not None:
            return super().resolve_command(ctx, args)
        close = difflib.get_close_matches(name, self.list_commands(ctx))
        hint = f" Did you mean {', '.join(repr(m) for m in close)}?" if close else ""
        ctx.fail(f"No such command {name!r}.{hint}")


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
    from .environment import Environment  # loaded when a command runs, not for --help

    # the one Environment of the run: the process's, or the one a test invoked the app with (obj=)
    env = ctx.obj if isinstance(ctx.obj, Environment) else Environment.of_process()
    ctx.obj = {"debug": debug, "env": env}
    if debug:
        import logging

        logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(name)s %(message)s")


def is_debug(ctx: typer.Context) -> bool:
    """Whether ``--debug`` was given (before the command name or after it)."""
    obj = ctx.find_root().obj or {}
    return bool(obj.get("debug"))


def environment_of(ctx: typer.Context) -> Environment:
    """The run's :class:`~.environment.Environment`, made once at the entry (:func:`main`)."""
    from .environment import Environment

    obj = ctx.find_root().obj or {}
    env = obj.get("env") if isinstance(obj, dict) else obj
    return env if isinstance(env, Environment) else Environment.of_process()
