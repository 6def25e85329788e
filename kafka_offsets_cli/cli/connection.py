"""The shared connection options of a command, resolved by the one resolver.

Every command declares the connection options for typer (``BootstrapOpt``,
``ClusterOpt``… in :mod:`.options`); ``lag``, ``liveness``, ``list`` and ``tiering`` pass
their parameters to :func:`connection_of`, shell completion (and the commands not moved yet)
read them from the context, by option name (:func:`connection_options`); all resolve them with
:func:`kafka_offsets_cli.connection.resolver.resolve_connection`, so ``config show`` reports
what a command would use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import typer

from ..connection.resolver import Connection, ConnectionOptions, resolve_connection
from ..connection.settings import ClientSettings
from ..models.offsets import Isolation
from .output import warn

#: the names of the bootstrap option (one option, its aliases)
_BOOTSTRAP = ("-b", "--bootstrap-server", "--broker-list")


def connection_options(ctx: typer.Context, *, timeout: str | None = None) -> ConnectionOptions:
    """The shared connection options of the command in ``ctx``, read once by option name.

    Commands declare them for typer (``BootstrapOpt``, ``ClusterOpt``…) and read
    them here, by option name (:func:`context_connection`), as shell completion
    does, so that both resolve the same options the same way. ``timeout`` replaces
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


def context_connection(ctx: Any) -> dict[str, Any]:
    """The connection options parsed so far (click's resilient parsing), found by option name.

    By name, not by parameter: each command declares its own; shell completion reads them here too,
    from a context typer gives it while the command line is still being typed.
    """
    found: dict[str, Any] = {"bootstrap": None, "cluster": None, "command_config": None, "overrides": []}
    while ctx is not None:
        for param in getattr(ctx.command, "params", ()):
            opts = set(getattr(param, "opts", ()))
            value = ctx.params.get(param.name) if param.name else None
            if value is None or value == ():
                continue
            if opts & set(_BOOTSTRAP):
                found["bootstrap"] = found["bootstrap"] or value
            elif "--cluster" in opts:
                found["cluster"] = found["cluster"] or value
            elif "--command-config" in opts:
                found["command_config"] = found["command_config"] or value
            elif "-X" in opts:
                found["overrides"].extend(value)
        ctx = ctx.parent
    return found


def connect(options: ConnectionOptions, environ: Mapping[str, str] | None = None) -> Connection:
    """The options resolved by :func:`~kafka_offsets_cli.connection.resolver.resolve_connection`.

    Warnings go to stderr.
    """
    return resolve_connection(options, environ, warn=warn)


def settings_from(options: ConnectionOptions, environ: Mapping[str, str] | None = None) -> ClientSettings:
    """The client settings of the options (see :func:`connect`)."""
    return connect(options, environ).settings


def connection_of(
    bootstrap_server: str | None,
    cluster: str | None,
    command_config: str | None,
    x: Sequence[str] | None,
    timeout: str,
    isolation: Isolation = Isolation.READ_UNCOMMITTED,
) -> ConnectionOptions:
    """The connection options a command was given, from its parameters: the one route of each
    (``--isolation`` too: the client's setting, which every ListOffsets it sends uses)."""
    return ConnectionOptions(
        bootstrap=bootstrap_server,
        command_config=command_config,
        overrides=tuple(x or ()),
        timeout=timeout,
        isolation=isolation,
        cluster=cluster,
    )
