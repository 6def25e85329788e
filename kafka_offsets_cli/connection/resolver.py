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
from ..parse.durations import BARE_NUMBER, parse_duration
from .profiles import CLUSTER_ENV, Profile, select
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

    Precedence is command line, then environment, then config file, as in kubectl, kafkactl
    and rpk. The bootstrap servers are the first of: ``-b``; ``bootstrap.servers`` of
    ``--command-config`` or ``-X``; the profile named by ``--cluster``;
    ``KAFKA_BOOTSTRAP_SERVERS``; the profile named by ``KAFKA_OFFSETS_CLUSTER`` or the
    config file's ``default`` (the default only when no bootstrap servers are given
    otherwise). A profile's values rank with what chose it: ``--cluster`` is the command
    line, so its servers beat the environment's. Other properties: ``-X``, then
    ``--command-config``, then the profile.

    ``warn`` hears, one line each, every value given that lost to another (an environment
    variable overridden by the command line, a profile's servers overridden): a run never
    silently picks one cluster over another it was told about.
    """
    env = os.environ if environ is None else environ
    if BARE_NUMBER.fullmatch(options.timeout.strip()):
        # Kafka's tools read --timeout 5000 as 5 s, a duration here as 5000 s: neither is guessed
        raise UsageError(
            f"--timeout {options.timeout.strip()}: give a unit, e.g. {options.timeout.strip()}ms or "
            f"{options.timeout.strip()}s (Kafka's tools read a bare --timeout as milliseconds)"
        )
    timeout_ms = parse_duration(options.timeout)
    if timeout_ms <= 0:
        raise UsageError(f"--timeout {options.timeout!r}: must be positive")
    env_servers = (env.get(BOOTSTRAP_ENV) or "").strip() or None
    given = bool(options.bootstrap or options.command_config or env_servers)
    profile = select(options.cluster, bootstrap_given=given, environ=env)
    settings = build_settings(
        options.bootstrap,
        command_config=options.command_config,
        overrides=options.overrides,
        timeout_ms=timeout_ms,
        isolation=options.isolation,
        profile=profile.properties if profile else None,
        profile_bootstrap=profile.bootstrap_servers if profile else None,
        profile_name=profile.name if profile else None,
        profile_on_command_line=options.cluster is not None,
        environ=env,
    )
    if warn is not None:
        for line in overridden(options, profile, settings, env):
            warn(line)
    return Connection(settings=settings, profile=profile)


def overridden(
    options: ConnectionOptions, profile: Profile | None, settings: ClientSettings, env: Mapping[str, str]
) -> list[str]:
    """One line for each connection value given that the resolution did not use."""
    used = settings.bootstrap_servers
    out = []
    env_servers = (env.get(BOOTSTRAP_ENV) or "").strip()
    if env_servers and settings.bootstrap_source != BOOTSTRAP_ENV and env_servers != used:
        out.append(f"{BOOTSTRAP_ENV}={env_servers} is overridden by {_named(settings, options)}")
    env_cluster = env.get(CLUSTER_ENV) or ""
    if env_cluster and options.cluster is not None and env_cluster != options.cluster:
        out.append(f"{CLUSTER_ENV}={env_cluster} is overridden by --cluster {options.cluster}")
    theirs = profile.bootstrap_servers if profile else None
    if profile is not None and theirs and theirs.strip() != used:
        out.append(
            f"{settings.bootstrap_source} overrides bootstrap_servers of cluster profile {profile.name!r} "
            f"({theirs.strip()}): using {used}"
        )
    return out


def _named(settings: ClientSettings, options: ConnectionOptions) -> str:
    """Where the servers in use came from, as the user wrote it."""
    if options.cluster is not None and settings.bootstrap_source.startswith("cluster profile"):
        return f"--cluster {options.cluster} ({settings.bootstrap_servers})"
    return f"{settings.bootstrap_source} ({settings.bootstrap_servers})"
