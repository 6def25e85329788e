"""Java client properties files (``--command-config``) read and translated for librdkafka.

Kafka's Java tools take ``--command-config FILE`` with Java client properties.
librdkafka shares most key names; the ones it does not are translated here
(``sasl.jaas.config`` to ``sasl.username``/``sasl.password``, PEM trust stores
to ``ssl.ca.location``…; the security ones in :mod:`.java_security`) and
Java-only keys that have no meaning for a read-only admin client are dropped.
Anything else is passed on, and a key librdkafka does not know is reported by
the client with the place it came from (:class:`Setting`: ``FILE:LINE`` or ``-X``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from .files import FileTooLarge, NotARegularFile, read_regular_file
from .java_security import keystore, login_callback_handler, parse_jaas, store_type, truststore

__all__ = [
    "JAVA_ONLY_IGNORED",
    "JAVA_RENAMED",
    "Setting",
    "load_command_config",
    "parse_jaas",
    "parse_properties",
    "translate_java",
]

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
        "sasl.client.callback.handler.class",
        # token refresh and validation settings of Java's login handlers (librdkafka refreshes itself)
        "sasl.login.refresh.window.factor",
        "sasl.login.refresh.window.jitter",
        "sasl.login.refresh.min.period.seconds",
        "sasl.login.refresh.buffer.seconds",
        "sasl.login.connect.timeout.ms",
        "sasl.login.read.timeout.ms",
        "sasl.login.retry.backoff.ms",
        "sasl.login.retry.backoff.max.ms",
        "sasl.oauthbearer.scope.claim.name",
        "sasl.oauthbearer.sub.claim.name",
        "sasl.oauthbearer.clock.skew.seconds",
        "sasl.oauthbearer.expected.audience",
        "sasl.oauthbearer.expected.issuer",
        "sasl.oauthbearer.jwks.endpoint.url",
        "sasl.oauthbearer.jwks.endpoint.refresh.ms",
        "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
        "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
        "ssl.truststore.password",  # only opens JKS/PKCS12 trust stores, which librdkafka cannot read
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
    # Kafka 4.1+ (KIP-1139) names of the OIDC client credentials
    "sasl.oauthbearer.client.credentials.client.id": "sasl.oauthbearer.client.id",
    "sasl.oauthbearer.client.credentials.client.secret": "sasl.oauthbearer.client.secret",
}


@dataclass(frozen=True)
class Setting:
    """A librdkafka property with the place it came from (for error messages)."""

    value: str
    source: str


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


#: Java keys whose empty value means "not set" (blank lines in a template): dropped.
_EMPTY_IS_UNSET = frozenset(
    {
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.truststore.type",
        "ssl.keystore.location",
        "ssl.keystore.password",
        "ssl.keystore.type",
        "ssl.key.password",
    }
)


def translate_java(entries: Iterable[tuple[str, str, int]], path: str) -> dict[str, Setting]:
    """Translate Java client properties into librdkafka settings with their sources.

    Beyond the renames: ``ssl.endpoint.identification.algorithm=`` (empty: how Java
    clients turn hostname verification off) is librdkafka's ``none``; an empty store
    location, password or type is not set; stores, JAAS and OAUTHBEARER settings are
    translated by :mod:`.java_security`; ``sasl.oauthbearer.token.endpoint.url``
    selects librdkafka's OIDC login (``sasl.oauthbearer.method=oidc``).
    """
    out: dict[str, Setting] = {}
    stores: dict[str, tuple[str, str]] = {}  # ssl.{key,trust}store.{location,type} -> (value, source)
    for key, value, line in entries:
        src = f"{path}:{line}"
        if key in _EMPTY_IS_UNSET and not value.strip():
            continue
        if key == "sasl.login.callback.handler.class":
            login_callback_handler(value, src)
            continue
        if key in JAVA_ONLY_IGNORED:
            continue
        if key in _STORE_KEYS:
            stores[key] = (value.strip(), src)
        elif key == "sasl.jaas.config":
            for k, v in parse_jaas(value, src).items():
                out[k] = Setting(v, src)
        elif key == "ssl.endpoint.identification.algorithm":
            out[key] = Setting(value.strip().lower() or "none", src)
        elif key == "sasl.oauthbearer.token.endpoint.url":
            out[key] = Setting(value, src)
            out["sasl.oauthbearer.method"] = Setting("oidc", src)
        elif key in JAVA_RENAMED:
            out[JAVA_RENAMED[key]] = Setting(value, src)
        else:
            out[key] = Setting(value, src)
    for k, (v, src) in _stores(stores).items():
        out[k] = Setting(v, src)
    return out


_STORE_KEYS = frozenset(
    {"ssl.truststore.location", "ssl.truststore.type", "ssl.keystore.location", "ssl.keystore.type"}
)


def _stores(given: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """librdkafka settings (with sources) for the key and trust stores named in ``given``."""
    out: dict[str, tuple[str, str]] = {}
    for which, translate in (("keystore", keystore), ("truststore", truststore)):
        loc = given.get(f"ssl.{which}.location")
        if loc is None:
            continue
        explicit = given.get(f"ssl.{which}.type", ("", ""))[0]
        kind = store_type(explicit, loc[0], trust=which == "truststore")
        out.update({k: (v, loc[1]) for k, v in translate(loc[0], kind, loc[1]).items()})
    return out


def load_command_config(path: str | Path) -> dict[str, Setting]:
    """Read a Java client properties file (``--command-config``)."""
    p = Path(path)
    try:
        text = read_regular_file(p).decode("utf-8")  # a FIFO or /dev/zero would never end
    except NotARegularFile as e:
        raise ConfigError(f"{p}: is {e.kind}, expected a properties file") from None
    except FileTooLarge as e:
        limit = f"a properties file may have at most {e.limit // 1024} KiB"
        raise ConfigError(f"{p}: the file is too large ({limit})") from None
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such file") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: not a text properties file") from None
    except ValueError:  # a NUL byte or a lone surrogate (from a YAML escape) in the file name
        raise ConfigError(f"{str(p)!r}: not a usable file name") from None
    return translate_java(parse_properties(text, str(p)), str(p))
