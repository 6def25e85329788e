"""Client connection settings: bootstrap servers, ``-X`` overrides, Java properties merged.

The Java properties files themselves are read by :mod:`.properties`.

Secrets never leave this module unmasked: :func:`mask` is the one way settings
are shown.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..errors import UsageError
from ..models.offsets import Isolation
from .properties import Setting, load_command_config

#: Environment variable read when ``--bootstrap-server`` is not given.
BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS"

_SECRET_KEY = re.compile(r"(password|secret|jaas|token|credential|\.key\.pem|ssl\.key\b|private)", re.I)


@dataclass(frozen=True)
class ClientSettings:
    """Everything needed to talk to one cluster."""

    bootstrap_servers: str
    properties: Mapping[str, Setting] = field(default_factory=dict)
    timeout_ms: int = 30_000
    isolation: Isolation = Isolation.READ_UNCOMMITTED
    #: where ``bootstrap_servers`` came from (each property's source is in its :class:`Setting`)
    bootstrap_source: str = "?"

    def librdkafka_config(self) -> dict[str, str]:
        """The plain ``{key: value}`` configuration for librdkafka."""
        conf = {k: s.value for k, s in self.properties.items()}
        conf["bootstrap.servers"] = self.bootstrap_servers
        return conf

    def source_of(self, key: str) -> str:
        """Where a property was set, for error messages."""
        s = self.properties.get(key)
        return s.source if s else "the defaults"

    def masked(self) -> dict[str, str]:
        """Settings with every secret replaced by ``***``."""
        return mask(self.librdkafka_config())


def is_secret(key: str) -> bool:
    """True for keys whose values must never be printed."""
    return bool(_SECRET_KEY.search(key))


def mask(conf: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``conf`` with secret values masked."""
    return {k: ("***" if is_secret(k) else v) for k, v in conf.items()}


def redact(text: str, secrets: Iterable[str]) -> str:
    """Remove every occurrence of the given secret values from ``text``."""
    for s in sorted({s for s in secrets if s and len(s) >= 3}, key=len, reverse=True):
        text = text.replace(s, "***")
    return text


def parse_overrides(items: Iterable[str]) -> dict[str, Setting]:
    """Parse ``-X key=value`` librdkafka overrides."""
    out: dict[str, Setting] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"-X {item.split('=')[0]!r}: expected key=value")
        out[key] = Setting(value, f"-X {key}")
    return out


def build_settings(
    bootstrap: str | None,
    *,
    command_config: str | None = None,
    overrides: Iterable[str] = (),
    timeout_ms: int = 30_000,
    isolation: Isolation = Isolation.READ_UNCOMMITTED,
    profile: Mapping[str, Setting] | None = None,
    profile_bootstrap: str | None = None,
    profile_name: str | None = None,
    profile_on_command_line: bool = False,
    environ: Mapping[str, str] | None = None,
) -> ClientSettings:
    """Merge flags, environment and profile into :class:`ClientSettings`, recording each value's source.

    Bootstrap servers: ``-b``, then ``bootstrap.servers`` of ``--command-config`` or ``-X``,
    then the environment (``KAFKA_BOOTSTRAP_SERVERS``), then the cluster profile
    (``profile_name``, for the source of its servers); a profile chosen on the command line
    (``profile_on_command_line``: ``--cluster``) comes before the environment. Other
    properties: ``-X``, then ``--command-config``, then the profile.
    """
    env = os.environ if environ is None else environ
    props: dict[str, Setting] = dict(profile or {})
    if command_config:
        props.update(load_command_config(command_config))
    props.update(parse_overrides(overrides))
    file_bootstrap = props.pop("bootstrap.servers", None)
    chosen = (
        profile_bootstrap,
        f"cluster profile {profile_name!r}" if profile_name else "the cluster profile",
    )
    environment = (env.get(BOOTSTRAP_ENV), BOOTSTRAP_ENV)
    candidates = (
        (bootstrap, "-b/--bootstrap-server"),
        (file_bootstrap.value if file_bootstrap else None, file_bootstrap.source if file_bootstrap else ""),
        *((chosen, environment) if profile_on_command_line else (environment, chosen)),
    )
    servers, source = next(((v, src) for v, src in candidates if v), (None, "?"))
    if not servers:
        raise UsageError(
            "no bootstrap servers: pass -b/--bootstrap-server HOST:PORT, "
            f"set {BOOTSTRAP_ENV}, or choose a profile with --cluster"
        )
    for part in servers.split(","):
        m = re.fullmatch(r"\s*(?:[\w.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*", part)
        if m is None and "://" not in part:
            raise UsageError(f"bootstrap server {part.strip()!r}: expected HOST:PORT")
        if m is not None and not 0 < int(m.group(1)) < 65536:
            raise UsageError(f"bootstrap server {part.strip()!r}: port must be 1-65535")
    return ClientSettings(servers.strip(), props, timeout_ms, isolation, bootstrap_source=source)
