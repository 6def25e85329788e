"""The shared connection options of a command: read once from its context, resolved by the one resolver.

Every command declares the connection options for typer (``BootstrapOpt``,
``ClusterOpt``… in :mod:`.options`) and reads them here; shell completion reads
them the same way; all resolve them with
:func:`kafka_offsets_cli.connection.resolver.resolve_connection`, so ``config show`` reports
what a command would use.
"""

from __future__ import annotations

from collections.abc import Mapping

import typer

from ..connection.resolver import Connection, ConnectionOptions, resolve_connection
from ..connection.settings import ClientSettings
from ..models.offsets import Isolation
from .complete import context_connection
from .output import warn


def connection_options(ctx: typer.Context, *, timeout: str | None = None) -> ConnectionOptions:
    """The shared connection options of the command in ``ctx``, read once by option name.

    Commands declare them for typer (``BootstrapOpt``, ``ClusterOpt``…) and read
    them here, as shell completion does (:func:`.complete.context_connection`),
    so that both resolve the same options the same way. ``timeout`` replaces
    ``--timeout`` (completion has its own short limit).
    """
    typed = context_connection(ctx)
    given = ctx.params
    return ConnectionOptions(
        bootstrap=typed["bootstrap"],
        command_config=typed["command_config"],
        overrides=tuple(typed["overrides"]),
        timeout=timeout or given.get("timeout") or ConnectionOptions.timeout,
        isolation=Isolation(given.get("isolation") or ConnectionOptions.isolation),
        cluster=typed["cluster"],
    )


def connect(options: ConnectionOptions, environ: Mapping[str, str] | None = None) -> Connection:
    """The options resolved by :func:`~kafka_offsets_cli.connection.resolver.resolve_connection`.

    Warnings go to stderr.
    """
    return resolve_connection(options, environ, warn=warn)


def settings_from(options: ConnectionOptions, environ: Mapping[str, str] | None = None) -> ClientSettings:
    """The client settings of the options (see :func:`connect`)."""
    return connect(options, environ).settings


def connection_settings(ctx: typer.Context) -> ClientSettings:
    """The client settings of the command in ``ctx``: its connection options, resolved."""
    return settings_from(connection_options(ctx))
