"""The one connection resolver: command-line options, environment and cluster profile -> client settings.

Commands, shell completion and ``config show`` all call :func:`resolve_connection`, so
the source ``config show`` reports is the one a command uses.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..errors import UsageError
from ..models.offsets import Isolation
from ..parse.durations import parse_duration
from .profiles import Profile, select
from .settings import BOOTSTRAP_ENV, ClientSettings, build_settings


@dataclass(frozen=True, kw_only=True)
class ConnectionOptions:
    """The shared connection options as given on the command line (``None``: not given)."""

    bootstrap: str | None = None
    command_config: str | None = None
    overrides: tuple[str, ...] = ()
    timeout: str = "30s"
    isolation: Isolation = Isolation.READ_UNCOMMITTED
    cluster: str | None = None


@dataclass(frozen=True, kw_only=True)
class Connection:
    """Resolved connection options: the client settings (each value with its source) and the profile used."""

    settings: ClientSettings
    profile: Profile | None


def resolve_connection(
    options: ConnectionOptions,
    environ: Mapping[str, str] | None = None,
    *,
    warn: Callable[[str], None] | None = None,
) -> Connection:
    """Client settings from the options, the environment and the cluster profile.

    ``warn`` hears what the user should know before the settings are built (an
    environment variable overriding the chosen profile's bootstrap servers).

    Precedence per setting: flags (``-b``, ``--command-config``, ``-X``), then the
    environment (``KAFKA_BOOTSTRAP_SERVERS``), then the profile (``--cluster`` or
    ``KAFKA_OFFSETS_CLUSTER``, else the config file's ``default`` when no bootstrap
    servers are given otherwise), then the defaults.
    """
    env = os.environ if environ is None else environ
    timeout_ms = parse_duration(options.timeout)
    if timeout_ms <= 0:
        raise UsageError(f"--timeout {options.timeout!r}: must be positive")
    given = bool(options.bootstrap or options.command_config or env.get(BOOTSTRAP_ENV))
    profile = select(options.cluster, bootstrap_given=given, environ=env)
    env_wins = bool(env.get(BOOTSTRAP_ENV)) and not options.bootstrap
    if profile is not None and profile.bootstrap_servers and env_wins and warn is not None:
        warn(f"{BOOTSTRAP_ENV} overrides bootstrap_servers of cluster profile {profile.name!r}")
    settings = build_settings(
        options.bootstrap,
        command_config=options.command_config,
        overrides=options.overrides,
        timeout_ms=timeout_ms,
        isolation=options.isolation,
        profile=profile.properties if profile else None,
        profile_bootstrap=profile.bootstrap_servers if profile else None,
        profile_name=profile.name if profile else None,
        environ=env,
    )
    return Connection(settings=settings, profile=profile)
