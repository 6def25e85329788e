"""Cluster profiles: named clusters in an XDG config file, chosen with ``--cluster``.

The file is ``$XDG_CONFIG_HOME/kafka-offsets/config.toml`` (``~/.config/...`` when
``XDG_CONFIG_HOME`` is unset), or the file named by ``KAFKA_OFFSETS_CONFIG``::

    default = "local"                  # optional: used when nothing else names a cluster

    [clusters.local]
    bootstrap_servers = "localhost:9092"

    [clusters.prod]
    bootstrap_servers = ["kafka-1.prod:9093", "kafka-2.prod:9093"]
    command_config = "~/kafka/prod.properties"   # optional Java client properties file
    [clusters.prod.properties]                   # client properties (Java or librdkafka names)
    "security.protocol" = "SASL_SSL"
    "sasl.mechanism" = "SCRAM-SHA-512"
    "sasl.username" = "ops"
    "sasl.password_env" = "PROD_KAFKA_PASSWORD"  # secret from an environment variable
    "ssl.key.password_file" = "~/.secrets/key"   # secret from a file (trailing newline dropped)

A property whose key ends in ``_env`` takes its value from that environment
variable, one ending in ``_file`` from that file; secrets need not be written in
the config file. References are resolved only for the profile in use.

Which profile: ``--cluster NAME``, else ``KAFKA_OFFSETS_CLUSTER``, else the file's
``default`` -- but the default only when no bootstrap servers are given by
``-b``, ``--command-config`` or ``KAFKA_BOOTSTRAP_SERVERS``. The command line wins
over the environment, which wins over the config file; a profile's values rank with
what chose it (``--cluster``: the command line), see
:func:`kafka_offsets_cli.connection.resolver.resolve_connection`. The one place this
precedence is applied is :func:`kafka_offsets_cli.connection.resolver.resolve_connection`:
commands, shell completion and ``config show`` all use it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, UsageError
from .files import FileTooLarge, NotARegularFile, read_regular_file
from .properties import Setting, load_command_config, translate_java

#: Environment variable naming the profile when ``--cluster`` is not given.
CLUSTER_ENV = "KAFKA_OFFSETS_CLUSTER"
#: Environment variable naming another config file.
CONFIG_ENV = "KAFKA_OFFSETS_CONFIG"
#: Directory under the XDG config home.
APP_DIR = "kafka-offsets"
#: File name in that directory.
CONFIG_NAME = "config.toml"

_CLUSTER_KEYS = frozenset({"bootstrap_servers", "command_config", "properties"})
_TOP_KEYS = frozenset({"default", "clusters"})


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the config file is read from (it need not exist)."""
    env = os.environ if environ is None else environ
    explicit = env.get(CONFIG_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_CONFIG_HOME")
    base = Path(xdg).expanduser() if xdg and Path(xdg).is_absolute() else _home(env) / ".config"
    return base / APP_DIR / CONFIG_NAME


def _home(env: Mapping[str, str]) -> Path:
    home = env.get("HOME")
    return Path(home) if home else Path.home()


@dataclass(frozen=True)
class ProfileFile:
    """The parsed config file; cluster tables are kept raw until one is used."""

    path: Path
    clusters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    default: str | None = None
    exists: bool = True

    def names(self) -> list[str]:
        """Profile names, sorted."""
        return sorted(self.clusters)


@dataclass(frozen=True)
class Profile:
    """One resolved cluster profile (secret references already read)."""

    name: str
    source: str
    bootstrap_servers: str | None
    properties: Mapping[str, Setting] = field(default_factory=dict)
    #: properties whose values came from ``*_env``/``*_file`` references (always masked)
    referenced: frozenset[str] = frozenset()


def load_file(path: Path | None = None, environ: Mapping[str, str] | None = None) -> ProfileFile:
    """Read and validate the config file; a missing file is an empty one."""
    p = config_path(environ) if path is None else path
    try:
        raw = read_regular_file(p)  # a FIFO or /dev/zero would never end
    except FileNotFoundError:
        return ProfileFile(p, exists=False)
    except NotARegularFile as e:
        raise ConfigError(f"{p}: is {e.kind}, expected a TOML config file") from None
    except FileTooLarge as e:
        kib = e.limit // 1024
        raise ConfigError(f"{p}: the file is too large (a config file may have at most {kib} KiB)") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read: {e.strerror}") from None
    if sys.version_info >= (3, 11):  # imported here: most runs have no config file to parse
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: invalid TOML: {e}") from None
    except RecursionError:  # tomllib recurses per nested array or table: 500 '[' were a 3,000-line traceback
        raise ConfigError(f"{p}: invalid TOML: nested too deeply") from None
    return _validate(p, doc)


def _validate(p: Path, doc: Mapping[str, Any]) -> ProfileFile:
    unknown = sorted(set(doc) - _TOP_KEYS)
    if unknown:
        raise ConfigError(f"{p}: unknown key {unknown[0]!r} (expected 'default' and [clusters.NAME] tables)")
    clusters = doc.get("clusters", {})
    if not isinstance(clusters, dict):
        raise ConfigError(f"{p}: 'clusters' must be a table of [clusters.NAME] tables")
    for name, table in clusters.items():
        where = f"{p}: [clusters.{name}]"
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: must be a table")
        bad = sorted(set(table) - _CLUSTER_KEYS)
        if bad:
            raise ConfigError(
                f"{where}: unknown key {bad[0]!r} (expected {', '.join(sorted(_CLUSTER_KEYS))})",
                hint="client properties go in the [clusters.NAME.properties] table",
            )
        if "properties" in table and not isinstance(table["properties"], dict):
            raise ConfigError(f"{where}: 'properties' must be a table")
    default = doc.get("default")
    if default is not None and not isinstance(default, str):
        raise ConfigError(f"{p}: 'default' must be a cluster name (a string)")
    if default is not None and default not in clusters:
        raise ConfigError(f"{p}: default cluster {default!r} is not defined (no [clusters.{default}] table)")
    return ProfileFile(p, clusters, default)


def _scalar(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return ",".join(str(v) for v in value)
    raise ConfigError(f"{where}: expected a string, number, boolean or list of strings")


def _dereference(key: str, ref: str, where: str, env: Mapping[str, str]) -> tuple[str, str]:
    """Resolve a ``KEY_env``/``KEY_file`` reference into ``(KEY, secret)``."""
    if key.endswith("_env"):
        if ref not in env:
            raise ConfigError(f"{where}: environment variable {ref} is not set")
        return key[: -len("_env")], env[ref]
    path = Path(ref).expanduser()
    try:
        # bounded as the config file is: a FIFO nobody writes to blocked for ever, /dev/zero ran out of memory
        text = read_regular_file(path).decode("utf-8")
    except NotARegularFile as e:
        raise ConfigError(f"{where}: {path} is {e.kind}, expected a file holding the secret") from None
    except FileTooLarge as e:
        raise ConfigError(
            f"{where}: {path} is too large (a secret file may have at most {e.limit // 1024} KiB)"
        ) from None
    except OSError as e:
        raise ConfigError(f"{where}: cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{where}: {path} is not a text file") from None
    except ValueError:  # a NUL byte in the name
        raise ConfigError(f"{where}: {str(path)!r} is not a usable file name") from None
    return key[: -len("_file")], text.rstrip("\r\n")


def resolve(pfile: ProfileFile, name: str, environ: Mapping[str, str] | None = None) -> Profile:
    """The named profile with its secret references read; UsageError for an unknown name."""
    env = os.environ if environ is None else environ
    if name not in pfile.clusters:
        known = ", ".join(pfile.names()) or "none defined"
        where = str(pfile.path) if pfile.exists else f"{pfile.path} (no such file)"
        raise UsageError(f"--cluster {name!r}: no such cluster profile in {where}", hint=f"profiles: {known}")
    table = pfile.clusters[name]
    src = f"{pfile.path} [clusters.{name}]"
    props: dict[str, Setting] = {}
    if "command_config" in table:
        cc = _scalar(table["command_config"], f"{src} command_config")
        props.update(load_command_config(Path(cc).expanduser()))
    where = f"{pfile.path} [clusters.{name}.properties]"
    table_props, referenced = _properties(table.get("properties", {}), where, env)
    props.update(table_props)
    bootstrap: str | None = None
    if "bootstrap_servers" in table:
        bootstrap = _scalar(table["bootstrap_servers"], f"{src} bootstrap_servers").strip() or None
    file_bootstrap = props.pop("bootstrap.servers", None)
    if bootstrap is None and file_bootstrap is not None:
        bootstrap = file_bootstrap.value
    return Profile(name, str(pfile.path), bootstrap, props, frozenset(referenced))


def _properties(
    table: Mapping[str, Any], where: str, env: Mapping[str, str]
) -> tuple[dict[str, Setting], set[str]]:
    """Translate a properties table (Java or librdkafka names) with per-key sources.

    Also returns the (translated) keys whose values came from references.
    """
    entries: list[tuple[str, str, int]] = []
    origin: dict[int, str] = {}
    refs: set[int] = set()
    for i, (key, raw) in enumerate(table.items(), start=1):
        here = f"{where} {key}"
        value = _scalar(raw, here)
        origin[i] = key
        if key.endswith("_env"):
            origin[i] = f"{key} (${value})"
        elif key.endswith("_file"):
            origin[i] = f"{key} ({value})"
        if key.endswith(("_env", "_file")):
            key, value = _dereference(key, value, here, env)
            refs.add(i)
        entries.append((key, value, i))
    out: dict[str, Setting] = {}
    referenced: set[str] = set()
    for key, s in translate_java(entries, where).items():
        line = int(s.source.rsplit(":", 1)[1])
        out[key] = Setting(s.value, f"{where} {origin[line]}")
        if line in refs:
            referenced.add(key)
    return out, referenced


def select(
    cluster: str | None,
    *,
    bootstrap_given: bool,
    environ: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> Profile | None:
    """The profile to use: ``--cluster``, else ``KAFKA_OFFSETS_CLUSTER``, else the file's default.

    The default applies only when ``bootstrap_given`` is false (no ``-b``,
    ``--command-config`` or ``KAFKA_BOOTSTRAP_SERVERS``). The file is not read
    when no profile can apply.
    """
    env = os.environ if environ is None else environ
    name = cluster or env.get(CLUSTER_ENV) or None
    if name is None and bootstrap_given:
        return None
    pfile = load_file(path, env)
    if name is None:
        if pfile.default is None:
            return None
        name = pfile.default
    return resolve(pfile, name, env)
