"""Client connection settings: bootstrap servers, Java properties files, ``-X`` overrides.

Kafka's Java tools take ``--command-config FILE`` with Java client properties.
librdkafka shares most key names; the ones it does not are translated here
(``sasl.jaas.config`` to ``sasl.username``/``sasl.password``, PEM trust stores
to ``ssl.ca.location``…) and Java-only keys that have no meaning for a
read-only admin client are dropped. Anything else is passed on, and a key
librdkafka does not know is reported by the client with the place it came
from (``FILE:LINE`` or ``-X``).

Secrets never leave this module unmasked: :func:`mask` is the one way settings
are shown.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError, UsageError
from .models import Isolation

#: Environment variable read when ``--bootstrap-server`` is not given.
BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS"

_SECRET_KEY = re.compile(r"(password|secret|jaas|token|credential|\.key\.pem|ssl\.key\b|private)", re.I)

#: Java client keys that are meaningless for this tool (serialisation, producer or
#: consumer tuning); they are accepted and ignored so shared client files work.
JAVA_ONLY_IGNORED = frozenset(
    {
        "key.deserializer",
        "value.deserializer",
        "key.serializer",
        "value.serializer",
        "default.api.timeout.ms",
        "request.timeout.ms",
        "retries",
        "metadata.max.age.ms",
        "connections.max.idle.ms",
        "sasl.login.class",
        "sasl.login.callback.handler.class",
        "sasl.client.callback.handler.class",
        "ssl.truststore.type",
        "ssl.keystore.type",
        "ssl.protocol",
        "ssl.trustmanager.algorithm",
        "ssl.keymanager.algorithm",
        "ssl.engine.factory.class",
        "security.providers",
        "exclude.internal.topics",
        "auto.offset.reset",
        "enable.auto.commit",
        "isolation.level",
    }
)

#: Java keys renamed for librdkafka.
JAVA_RENAMED = {
    "sasl.mechanism": "sasl.mechanisms",
    "ssl.enabled.protocols": "ssl.protocols",
    "ssl.cipher.suites": "ssl.cipher.suites",
    "ssl.keystore.certificate.chain": "ssl.certificate.pem",
    "ssl.keystore.key": "ssl.key.pem",
    "ssl.truststore.certificates": "ssl.ca.pem",
}

_JAAS = re.compile(
    r"""^\s*(?P<module>[\w.$]+)\s+(?P<flag>required|requisite|sufficient|optional)\s*(?P<opts>.*?)\s*;?\s*$""",
    re.S,
)
_JAAS_OPT = re.compile(r"""(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|(\S+?))(?=\s|;|$)""")


@dataclass(frozen=True)
class Setting:
    """A librdkafka property with the place it came from (for error messages)."""

    value: str
    source: str


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


def parse_properties(text: str, source: str) -> list[tuple[str, str, int]]:
    """Parse Java ``.properties`` text into ``(key, value, line)`` triples.

    Supports ``=``, ``:`` and whitespace separators, ``#``/``!`` comments,
    backslash line continuations and the common escapes.
    """
    out: list[tuple[str, str, int]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = i + 1
        line = lines[i].lstrip()
        i += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line) and i < len(lines):
            line = line[:-1] + lines[i].lstrip()
            i += 1
        if _continues(line):
            line = line[:-1]
        m = re.match(r"((?:[^\s=:\\]|\\.)*)\s*[=:\s]\s*(.*)$", line, re.S)
        if m is None:
            key, value = line.strip(), ""
        else:
            key, value = m.group(1), m.group(2)
        key, value = _unescape(key), _unescape(value)
        if not key:
            raise ConfigError(f"{source}:{start}: missing property name")
        out.append((key, value, start))
    return out


def _continues(line: str) -> bool:
    n = len(line) - len(line.rstrip("\\"))
    return n % 2 == 1


def _unescape(s: str) -> str:
    def rep(m: re.Match[str]) -> str:
        c = m.group(1)
        return {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(c, c)

    return re.sub(r"\\(.)", rep, s)


def parse_jaas(value: str, source: str) -> dict[str, str]:
    """Translate a ``sasl.jaas.config`` value into librdkafka's SASL properties.

    PLAIN and SCRAM login modules give ``sasl.username`` and ``sasl.password``.
    """
    m = _JAAS.match(value)
    if m is None:
        raise ConfigError(f"{source}: sasl.jaas.config is not a JAAS login module entry")
    module = m.group("module")
    opts = {
        k: (q if q is not None and q != "" else (u or "")) for k, q, u in _JAAS_OPT.findall(m.group("opts"))
    }
    opts = {k: v.replace('\\"', '"').replace("\\\\", "\\") for k, v in opts.items()}
    if module.endswith(("PlainLoginModule", "ScramLoginModule")):
        if "username" not in opts or "password" not in opts:
            raise ConfigError(f"{source}: sasl.jaas.config needs username and password")
        return {"sasl.username": opts["username"], "sasl.password": opts["password"]}
    if module.endswith("OAuthBearerLoginModule"):
        # unsecured JWS used in tests; anything else needs librdkafka's OIDC keys
        return {"sasl.oauthbearer.config": " ".join(f"{k}={v}" for k, v in opts.items())}
    raise ConfigError(
        f"{source}: sasl.jaas.config login module {module} is not supported (use PLAIN or SCRAM)"
    )


def translate_java(entries: Iterable[tuple[str, str, int]], path: str) -> dict[str, Setting]:
    """Translate Java client properties into librdkafka settings with their sources."""
    out: dict[str, Setting] = {}
    pending_truststore: tuple[str, str] | None = None
    truststore_type = "JKS"
    for key, value, line in entries:
        src = f"{path}:{line}"
        if key == "ssl.truststore.type":
            truststore_type = value.upper()
        if key in JAVA_ONLY_IGNORED:
            continue
        if key == "sasl.jaas.config":
            for k, v in parse_jaas(value, src).items():
                out[k] = Setting(v, src)
        elif key == "ssl.truststore.location":
            pending_truststore = (value, src)
        elif key == "ssl.truststore.password":
            continue  # only meaningful for JKS/PKCS12 stores, which librdkafka cannot read
        elif key in JAVA_RENAMED:
            out[JAVA_RENAMED[key]] = Setting(value, src)
        else:
            out[key] = Setting(value, src)
    if pending_truststore is not None:
        value, src = pending_truststore
        if truststore_type != "PEM" and not value.endswith((".pem", ".crt")):
            raise ConfigError(
                f"{src}: ssl.truststore.location must be a PEM file for librdkafka "
                f"(convert the {truststore_type} store with keytool/openssl, or set ssl.ca.location)"
            )
        out["ssl.ca.location"] = Setting(value, src)
    return out


def load_command_config(path: str | Path) -> dict[str, Setting]:
    """Read a Java client properties file (``--command-config``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such file") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: not a text properties file") from None
    except ValueError:  # a NUL byte or a lone surrogate (from a YAML escape) in the file name
        raise ConfigError(f"{str(p)!r}: not a usable file name") from None
    return translate_java(parse_properties(text, str(p)), str(p))


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
    environ: Mapping[str, str] | None = None,
) -> ClientSettings:
    """Merge flags, environment and profile into :class:`ClientSettings`, recording each value's source.

    Precedence: flags (``-b``, ``--command-config``, ``-X``), then the environment
    (``KAFKA_BOOTSTRAP_SERVERS``), then the cluster profile (``profile_name``, for
    the source of its bootstrap servers).
    """
    env = os.environ if environ is None else environ
    props: dict[str, Setting] = dict(profile or {})
    if command_config:
        props.update(load_command_config(command_config))
    props.update(parse_overrides(overrides))
    file_bootstrap = props.pop("bootstrap.servers", None)
    candidates = (
        (bootstrap, "-b/--bootstrap-server"),
        (file_bootstrap.value if file_bootstrap else None, file_bootstrap.source if file_bootstrap else ""),
        (env.get(BOOTSTRAP_ENV), BOOTSTRAP_ENV),
        (profile_bootstrap, f"cluster profile {profile_name!r}" if profile_name else "the cluster profile"),
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
