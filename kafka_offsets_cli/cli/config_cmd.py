"""``kafka-offsets config``: the config file and the effective client settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer

from ..connection.profiles import config_path, load_file
from ..connection.resolver import Connection
from ..connection.settings import is_secret
from ..models.offsets import Isolation
from ..render.formats import to_json_document
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .connection import connect, connection_of
from .emit import records_text
from .environment import Environment
from .options import (
    OUTPUTS,
    BootstrapOpt,
    ClusterOpt,
    CommandConfigOpt,
    ConfigOutputOpt,
    Format,
    IsolationOpt,
    TimeoutOpt,
    XOpt,
)
from .output import warn, write

HELP = command_help("config")

SHOW_EPILOG = """Examples:

  kafka-offsets config show --cluster prod

  kafka-offsets config show -b localhost:9092 -X security.protocol=SSL -o json
"""


config_app = typer.Typer(name="config", help=HELP, no_args_is_help=True, rich_markup_mode=None)


def register(app: typer.Typer) -> None:
    """Add the ``config`` command group to ``app``."""
    app.add_typer(config_app, name="config", help=HELP)


@config_app.command(
    "show", help="Effective client settings, secrets masked, with where each came from.", epilog=SHOW_EPILOG
)
def show_cmd(
    ctx: typer.Context,
    cluster: ClusterOpt = None,
    bootstrap_server: BootstrapOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: ConfigOutputOpt = Format.text,
) -> None:
    """Effective client settings."""
    with boundary(is_debug(ctx)):
        options = connection_of(bootstrap_server, cluster, command_config, x, timeout, isolation)
        env = environment_of(ctx)
        _print(doc=effective(connect(options)), fmt=OUTPUTS["config"].choose(output, env), env=env)


def effective(connection: Connection, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The resolved connection as a JSON-able document, secrets masked.

    Keys: ``config_file``, ``cluster`` (profile name or null), ``bootstrap_servers``
    with ``bootstrap_source``, ``properties`` (``{key: {"value", "source"}}``),
    ``timeout_ms`` and ``isolation``; the sources are those the resolver recorded.
    """
    settings, profile = connection.settings, connection.profile
    hidden = profile.referenced if profile else frozenset()
    props = {
        k: {"value": "***" if (is_secret(k) or k in hidden) else s.value, "source": s.source}
        for k, s in sorted(settings.properties.items())
    }
    return {
        "config_file": str(config_path(environ)),
        "cluster": profile.name if profile else None,
        "bootstrap_servers": settings.bootstrap_servers,
        "bootstrap_source": settings.bootstrap_source,
        "properties": props,
        "timeout_ms": settings.timeout_ms,
        "isolation": settings.isolation.value,
    }


def _print(*, doc: Mapping[str, Any], fmt: Format, env: Environment) -> None:
    if fmt is Format.json:
        write(to_json_document(doc), env)
        return
    lines = [
        f"# config file: {doc['config_file']}",
        f"# cluster profile: {doc['cluster'] or '(none)'}",
        f"bootstrap.servers = {doc['bootstrap_servers']}  # {doc['bootstrap_source']}",
    ]
    for key, v in doc["properties"].items():
        lines.append(f"{key} = {v['value']}  # {v['source']}")
    lines.append(f"# timeout: {doc['timeout_ms']} ms, isolation: {doc['isolation']}")
    write("\n".join(lines) + "\n", env)


@config_app.command("path", help="Print the config file's path (it need not exist).")
def path_cmd(ctx: typer.Context) -> None:
    """The config file's path."""
    with boundary(is_debug(ctx)):
        p = config_path()
        write(f"{p}\n")
        if not p.exists():
            warn(f"{p} does not exist yet")


@config_app.command("list", help="The cluster profiles of the config file.")
def list_profiles_cmd(ctx: typer.Context, output: ConfigOutputOpt = Format.text) -> None:
    """The cluster profiles (name, bootstrap servers; the default marked)."""
    with boundary(is_debug(ctx)):
        pfile = load_file()
        recs = []
        for name in pfile.names():
            raw = pfile.clusters[name].get("bootstrap_servers")
            servers = ",".join(map(str, raw)) if isinstance(raw, list) else raw if raw is None else str(raw)
            recs.append({"name": name, "bootstrap_servers": servers, "default": name == pfile.default})
        if OUTPUTS["config"].choose(output, environment_of(ctx)) is Format.json:
            write(records_text(recs, Format.json, ("name", "bootstrap_servers", "default")))
        else:
            lines = []
            for r in recs:
                mark = "\t(default)" if r["default"] else ""
                lines.append(f"{r['name']}\t{r['bootstrap_servers'] or '-'}{mark}\n")
            write("".join(lines))
