"""Java client properties files (``--command-config``) read and translated for librdkafka.

Kafka's Java tools take ``--command-config FILE`` with Java client properties.
librdkafka shares most key names; the ones it does not are translated here
(``sasl.jaas.config`` to ``sasl.username``/``sasl.password``, PEM trust stores
to ``ssl.ca.location``…) and Java-only keys that have no meaning for a
read-only admin client are dropped. Anything else is passed on, and a key
librdkafka does not know is reported by the client with the place it came
from (:class:`Setting`: ``FILE:LINE`` or ``-X``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from .files import FileTooLarge, NotARegularFile, read_regular_file

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
