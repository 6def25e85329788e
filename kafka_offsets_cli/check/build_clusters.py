"""The spec file's ``clusters`` section: each name to the client settings that reach it.

Secrets never come inline: a secret-looking property is refused; ``sasl_password_env`` and
``secrets_env`` name environment variables, ``command_config`` a Java client properties file.
``profile`` names a cluster profile of the config file (``config.toml``, as ``--cluster`` takes):
its bootstrap servers and properties are the base, which the entry's own settings override.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ..connection.profiles import load_file, resolve
from ..connection.properties import Setting, load_command_config, translate_java
from ..connection.settings import build_settings, is_secret
from ..errors import ConfigError, UsageError
from ..models.offsets import Isolation
from .document import Node
from .problems import child
from .spec import CLUSTER_KEYS, ClusterSpec
from .values import INLINE_SECRET, Validator, kind_of

__all__ = ["ClusterReader"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")


class ClusterReader:
    """Reads ``clusters``; ``source`` names the file in settings, ``base_dir`` anchors relative paths."""

    def __init__(
        self, v: Validator, *, source: str, base_dir: Path, environ: Mapping[str, str], timeout_ms: int
    ) -> None:
        self.v = v
        self.p = v.p
        self.source = source
        self.base_dir = base_dir
        self.env = environ
        self.timeout_ms = timeout_ms

    def clusters(self, node: Node) -> tuple[dict[str, ClusterSpec], set[str]]:
        """The valid clusters by name, and every well-formed name (checks may refer to those)."""
        m = self.v.mapping(node, "clusters", "of cluster name to connection settings")
        if m is None:
            return {}, set()
        if not m:
            self.p.add("clusters", "name at least one cluster", node.line)
        out: dict[str, ClusterSpec] = {}
        names: set[str] = set()
        for name, cnode in m.items():
            path = child("clusters", name)
            if not _NAME.fullmatch(name):
                self.p.add(path, "cluster names use letters, digits and . _ : -", node.key_lines.get(name))
                continue
            names.add(name)
            spec = self._cluster(name, cnode, path)
            if spec is not None:
                out[name] = spec
        return out, names

    def _cluster(self, name: str, node: Node, path: str) -> ClusterSpec | None:
        m = self.v.mapping(node, path, "with bootstrap_servers")
        if m is None:
            return None
        self.v.keys(node, path, CLUSTER_KEYS)
        start = len(self.p)
        bootstrap, props = self._connection(m, path)
        timeout = self._timeout(m, path)
        isolation = self._isolation(m, path)
        if len(self.p) > start:
            return None
        if bootstrap is None and "bootstrap.servers" not in props:
            self.p.add(
                child(path, "bootstrap_servers"),
                "missing (or name a profile, or set bootstrap.servers in the command_config file)",
                node.line,
            )
            return None
        try:
            settings = build_settings(
                bootstrap, profile=props, timeout_ms=timeout, isolation=isolation, environ={}
            )
        except (UsageError, ConfigError) as e:
            self.p.add(child(path, "bootstrap_servers"), str(e), (m.get("bootstrap_servers") or node).line)
            return None
        return ClusterSpec(name, settings)

    def _connection(self, m: dict[str, Node], path: str) -> tuple[str | None, dict[str, Setting]]:
        """The bootstrap servers and the client properties, secrets resolved (later keys win)."""
        props: dict[str, Setting] = {}
        bootstrap: str | None = None
        if "profile" in m:
            bootstrap, props = self._profile(m["profile"], child(path, "profile"))
        if "bootstrap_servers" in m:
            bootstrap = self._bootstrap(m["bootstrap_servers"], child(path, "bootstrap_servers"))
        if "command_config" in m:
            props.update(self._command_config(m["command_config"], child(path, "command_config")))
        if "properties" in m:
            props.update(self._properties(m["properties"], child(path, "properties")))
        if "sasl_username" in m:
            user = self.v.string(m["sasl_username"], child(path, "sasl_username"))
            if user is not None:
                props["sasl.username"] = Setting(user, f"{self.source}:{m['sasl_username'].line}")
        if "sasl_password_env" in m:
            pw = self.v.env_var(m["sasl_password_env"], child(path, "sasl_password_env"), self.env)
            if pw is not None:
                props["sasl.password"] = Setting(pw, f"{self.source}:{m['sasl_password_env'].line}")
        if "secrets_env" in m:
            props.update(self._secrets_env(m["secrets_env"], child(path, "secrets_env")))
        return bootstrap, props

    def _profile(self, node: Node, path: str) -> tuple[str | None, dict[str, Setting]]:
        """The bootstrap servers and properties of the config file's profile named at ``path``."""
        name = self.v.string(node, path, what="a cluster profile name")
        if name is None:
            return None, {}
        try:
            profile = resolve(load_file(environ=self.env), name, self.env)
        except (ConfigError, UsageError) as e:
            message = str(e).replace(f"--cluster {name!r}: ", "")  # the spec's key, not the flag
            self.p.add(path, f"{message}{f' ({e.hint})' if e.hint else ''}", node.line)
            return None, {}
        return profile.bootstrap_servers, dict(profile.properties)

    def _timeout(self, m: dict[str, Node], path: str) -> int:
        if "timeout" not in m:
            return self.timeout_ms
        t = self.v.duration(m["timeout"], child(path, "timeout"))
        if t is not None and t <= 0:
            self.p.add(child(path, "timeout"), "must be positive", m["timeout"].line)
        elif t is not None:
            return t
        return self.timeout_ms

    def _isolation(self, m: dict[str, Node], path: str) -> Isolation:
        if "isolation" in m:
            s = self.v.string(m["isolation"], child(path, "isolation"))
            if s is not None:
                try:
                    return Isolation(s.lower())
                except ValueError:
                    self.p.add(
                        child(path, "isolation"),
                        f"expected read_uncommitted or read_committed, got {s!r}",
                        m["isolation"].line,
                    )
        return Isolation.READ_UNCOMMITTED

    def _bootstrap(self, node: Node, path: str) -> str | None:
        items = self.v.string_list(node, path, what="host:port strings", item="host:port")
        if items is None:
            return None
        servers: list[str] = []
        for value, pth, line in items:
            for part in value.split(","):
                part = part.strip()
                if not re.fullmatch(r"(?:[\w.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}", part) and "://" not in part:
                    self.p.add(pth, f"bootstrap server {part!r}: expected HOST:PORT", line)
                    return None
                servers.append(part)
        return ",".join(servers)

    def _command_config(self, node: Node, path: str) -> dict[str, Setting]:
        s = self.v.string(node, path, what="a file path")
        if s is None:
            return {}
        p = Path(os.path.expanduser(s))
        if not p.is_absolute():
            p = self.base_dir / p
        try:
            return load_command_config(p)
        except (ConfigError, UsageError) as e:
            self.p.add(path, str(e), node.line)
            return {}

    def _properties(self, node: Node, path: str) -> dict[str, Setting]:
        m = self.v.mapping(node, path, "of client property to value")
        if m is None:
            return {}
        entries: list[tuple[str, str, int]] = []
        for key, vnode in m.items():
            kpath = child(path, key)
            if is_secret(key):
                self.p.add(kpath, INLINE_SECRET, node.key_lines.get(key))
                continue
            if key == "bootstrap.servers":
                self.p.add(kpath, "use bootstrap_servers on the cluster instead", node.key_lines.get(key))
                continue
            v = vnode.value
            if vnode.kind != "scalar" or v is None:
                self.p.add(kpath, f"expected a string, number or boolean, got {kind_of(vnode)}", vnode.line)
                continue
            text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            entries.append((key, text, vnode.line))
        try:
            return translate_java(entries, self.source)
        except ConfigError as e:
            self.p.add(path, str(e), node.line)
            return {}

    def _secrets_env(self, node: Node, path: str) -> dict[str, Setting]:
        m = self.v.mapping(node, path, "of client property to environment variable")
        if m is None:
            return {}
        out: dict[str, Setting] = {}
        for key, vnode in m.items():
            value = self.v.env_var(vnode, child(path, key), self.env)
            if value is None:
                continue
            if key == "sasl.jaas.config":
                try:
                    for k, v in translate_java([(key, value, vnode.line)], self.source).items():
                        out[k] = v
                except ConfigError as e:
                    self.p.add(child(path, key), str(e), vnode.line)
                continue
            out[key] = Setting(value, f"{self.source}:{vnode.line}")
        return out
