"""What the work units need besides themselves: the files and the secrets of cluster settings.

A cluster's settings may name files (``ssl.ca.location``, client certificates and keys, key
stores, a Kerberos keytab). Those are driver paths; on a cluster each one is copied (under a
name unique to the run) into the session's directory and shipped with ``SparkContext.addFile``;
the work unit carries ``spark-file:NAME``, which the task turns into ``SparkFiles.get(NAME)``
(:func:`localized`). A local master's tasks read the driver's paths. A file that is missing
or unreadable is an error before anything runs (:func:`check_files`), naming the cluster, the
setting, the path and where it was set.

Secret values (passwords, JAAS strings, tokens: :func:`kafka_offsets_cli.connection.settings.is_secret`)
are taken out of the work units before they are pickled into tasks: the units carry an empty
value, the values travel in one broadcast variable (fetched by executors over Spark's RPC, which
a non-local master authenticates and encrypts, and kept in memory or, encrypted, on local disk),
and :func:`localized` puts them back inside the task. Neither the task payloads nor Spark's
event log hold them.

On Spark Connect (``--remote``, :mod:`.connect`) there is no SparkContext: files go as session
artifacts (``addArtifacts(file=True)``, resolved by ``SparkFiles`` the same way) and the secrets
as one more session file (:class:`SecretsFile`, mode 600 on the driver) instead of a broadcast:
over the Connect channel, then Spark's own RPC, never in the pickled functions or the plan; the
server deletes the session's files when the session is released. A channel in cleartext to
another machine would carry them readable: :func:`check_channel` refuses that before anything
runs. :func:`ship_units` is the one entry point for either runtime.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from secrets import token_hex
from typing import Any

from ..check.plan import WorkUnit
from ..check.spec import CheckSpec
from ..connection.properties import Setting
from ..connection.settings import is_secret
from ..errors import ConfigError, UsageError

__all__ = [
    "FILE_KEYS",
    "SHIPPED",
    "SecretsFile",
    "check_channel",
    "check_files",
    "localized",
    "localized_units",
    "ship_units",
    "strip_units",
]

#: librdkafka settings whose value is a file the client opens.
FILE_KEYS = (
    "ssl.ca.location",
    "ssl.certificate.location",
    "ssl.key.location",
    "ssl.keystore.location",
    "ssl.crl.location",
    "sasl.kerberos.keytab",
)
#: Prefix of a file setting's value once the file is shipped (the rest: its SparkFiles name).
SHIPPED = "spark-file:"

Secrets = Mapping[str, Mapping[str, str]]


def _files(props: Mapping[str, Setting]) -> Iterator[tuple[str, Setting]]:
    for key in FILE_KEYS:
        s = props.get(key)
        # librdkafka: "probe" finds the system's CA store; a PEM string is not a path
        if s is not None and s.value and s.value != "probe" and not s.value.startswith("-----BEGIN"):
            yield key, s


def check_files(spec: CheckSpec) -> None:
    """:class:`ConfigError` naming the first file a cluster's settings name that cannot be read."""
    for name, cluster in spec.clusters.items():
        for key, s in _files(cluster.settings.properties):
            p = Path(s.value)
            if not p.is_file() or not os.access(p, os.R_OK):
                why = "no such file" if not p.exists() else "not a readable file"
                raise ConfigError(f"cluster {name!r}: {key} {s.value} ({s.source}): {why}")


def strip_units(
    units: Iterable[WorkUnit], *, ship_to: Path | None, add_file: object = None
) -> tuple[list[WorkUnit], dict[str, dict[str, str]]]:
    """The units without secret values (and, with ``ship_to``, with shipped files); the secrets.

    ``ship_to``: a directory of the driver where each distinct file is copied under a unique name
    and handed to ``add_file`` (``SparkContext.addFile``); ``None`` (a local master): paths stay.
    """
    secrets: dict[str, dict[str, str]] = {}
    shipped: dict[str, str] = {}
    out = []
    for u in units:
        props = dict(u.settings.properties)
        if ship_to is not None:
            for key, s in _files(props):
                if s.value not in shipped:
                    target = ship_to / f"{len(shipped)}-{Path(s.value).name}"
                    shutil.copyfile(s.value, target)
                    target.chmod(0o600)
                    add_file(str(target))  # type: ignore[operator]
                    shipped[s.value] = target.name
                props[key] = Setting(SHIPPED + shipped[s.value], s.source)
        for key, s in list(props.items()):
            if is_secret(key) and key not in FILE_KEYS:
                secrets.setdefault(u.cluster, {})[key] = s.value
                props[key] = Setting("", s.source)
        out.append(replace(u, settings=replace(u.settings, properties=props)))
    return out, secrets


def localized(unit: WorkUnit, secrets: Secrets) -> WorkUnit:
    """In a task: the unit's secrets put back and its shipped files at their executor paths."""
    props = dict(unit.settings.properties)
    for key, value in secrets.get(unit.cluster, {}).items():
        props[key] = Setting(value, props[key].source if key in props else "?")
    for key, s in list(props.items()):
        if s.value.startswith(SHIPPED):
            from pyspark import SparkFiles

            path = SparkFiles.get(s.value[len(SHIPPED) :])
            if not os.path.isfile(path):
                where = f"cluster {unit.cluster!r}: {key} ({s.source})"
                raise ConfigError(f"{where}: {path} did not reach the executor")
            props[key] = Setting(path, s.source)
    return replace(unit, settings=replace(unit.settings, properties=props))


def localized_units(units: Iterable[WorkUnit], secrets: Secrets) -> Iterator[WorkUnit]:
    """:func:`localized` for each unit of a Spark partition."""
    for u in units:
        yield localized(u, secrets)


@dataclass(frozen=True)
class SecretsFile:
    """The secrets as a Spark Connect session file; ``.value`` (read in a task) as a broadcast's."""

    name: str

    @property
    def value(self) -> Secrets:
        """The secrets, read from the executor's copy of the file."""
        from pyspark import SparkFiles

        with open(SparkFiles.get(self.name), encoding="utf-8") as f:
            loaded: dict[str, dict[str, str]] = json.load(f)
        return loaded

    def unpersist(self) -> None:
        """Nothing to release here: the server deletes the file with the session."""


def ship_units(runtime: Any, units: Iterable[WorkUnit]) -> tuple[list[WorkUnit], Any]:
    """The units to pickle into tasks, and where their secrets come from (``.value`` in a task).

    A local master: paths stay, the secrets in a broadcast. A cluster master: files shipped with
    ``addFile``, secrets in a broadcast. Spark Connect: files and secrets as session files.
    """
    if runtime.local:
        out, found = strip_units(units, ship_to=None)
        return out, runtime.sc.broadcast(found)
    ship_to = _ship_dir(runtime)
    if not runtime.connect:
        out, found = strip_units(units, ship_to=ship_to, add_file=runtime.sc.addFile)
        return out, runtime.sc.broadcast(found)

    def add_artifact(path: str) -> None:
        runtime.spark.addArtifacts(path, file=True)

    out, found = strip_units(units, ship_to=ship_to, add_file=add_artifact)
    secrets_file = ship_to / f"secrets-{token_hex(8)}.json"
    secrets_file.touch(0o600)  # readable by this user only from the start
    secrets_file.write_text(json.dumps(found), encoding="utf-8")
    add_artifact(str(secrets_file))
    return out, SecretsFile(secrets_file.name)


def _ship_dir(runtime: Any) -> Path:
    """The driver directory shipped files are copied to (removed when the session stops)."""
    import tempfile

    if runtime.workdir is None:
        runtime.workdir = Path(tempfile.mkdtemp(prefix="kafka-offsets-spark-"))
    d: Path = runtime.workdir / "files"
    d.mkdir(mode=0o700, exist_ok=True)
    return d


def check_channel(spec: CheckSpec, remote: Any) -> None:
    """:class:`UsageError` when secrets would cross a cleartext Spark Connect channel to another host.

    ``remote``: a :class:`.connect.Remote`. TLS (``use_ssl=true``) or a server on this machine is fine.
    """
    if remote.tls or remote.loopback:
        return
    for name, cluster in spec.clusters.items():
        keys = sorted(k for k in cluster.settings.properties if is_secret(k) and k not in FILE_KEYS)
        if keys:
            raise UsageError(
                f"cluster {name!r}: {keys[0]} would travel in cleartext to the Spark Connect server "
                f"{remote.shown}: add ;use_ssl=true to the --remote URL (TLS) or run the server here",
            )
