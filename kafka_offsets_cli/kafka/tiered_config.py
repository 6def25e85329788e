"""The tool's client settings (librdkafka's keys) as kafka-python configuration, for the tiered specs.

The tiered specs need ListOffsets v8-v11, which librdkafka does not send; kafka-python
does (:mod:`.tiered`). Both clients must reach the cluster the same way, so the
librdkafka settings the tool builds from ``-X``, ``--command-config`` and profiles are
translated here, once: bootstrap servers, client id, ``security.protocol``, SASL
PLAIN, SCRAM-SHA-256/512 and OAUTHBEARER (librdkafka's unsecured JWT, and OIDC client
credentials), TLS trust, client certificate and key (with its password), CRL and
endpoint identification. A security setting that cannot be carried over (a PKCS12 key
store, inline PEM, GSSAPI, turning certificate verification off…) is refused in one
line naming it, never dropped. Settings that only tune librdkafka itself (timeouts,
backoffs, ``debug``) do not apply and are left out. Pure: kafka-python is not
imported here, and no value is ever put in a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..connection.settings import ClientSettings
from ..errors import ConfigError

#: librdkafka keys carried over, by the kafka-python setting they become.
_DIRECT = {
    "client.id": "client_id",
    "sasl.username": "sasl_plain_username",
    "sasl.password": "sasl_plain_password",
    "ssl.ca.location": "ssl_cafile",
    "ssl.certificate.location": "ssl_certfile",
    "ssl.key.location": "ssl_keyfile",
    "ssl.key.password": "ssl_password",
    "ssl.crl.location": "ssl_crlfile",
}

#: Keys read to build the translation (the OAUTHBEARER token, the protocol, hostname checks).
_HANDLED = {
    "bootstrap.servers",
    "security.protocol",
    "sasl.mechanism",
    "sasl.mechanisms",
    "ssl.endpoint.identification.algorithm",
    "sasl.oauthbearer.config",
    "enable.sasl.oauthbearer.unsecure.jwt",
    "sasl.oauthbearer.method",
    "sasl.oauthbearer.client.id",
    "sasl.oauthbearer.client.secret",
    "sasl.oauthbearer.scope",
    "sasl.oauthbearer.extensions",
    "sasl.oauthbearer.token.endpoint.url",
    "enable.ssl.certificate.verification",
}

#: Prefixes of the settings that decide how the cluster is reached: one not translated is refused.
_SECURITY_PREFIXES = ("ssl.", "sasl.", "enable.ssl.", "enable.sasl.", "https.")

_PROTOCOLS = {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}
_MECHANISMS = {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}


@dataclass(frozen=True, kw_only=True)
class OAuthToken:
    """How to get an OAUTHBEARER token: an unsecured JWT, or OIDC client credentials."""

    #: ``unsecured``: a JWT with ``alg: none`` made locally; ``oidc``: a client-credentials grant
    method: str
    principal: str = ""
    scope: str = ""
    life_seconds: int = 3600
    client_id: str = ""
    client_secret: str = field(default="", repr=False)
    token_endpoint: str = ""
    extensions: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TieredConfig:
    """kafka-python's configuration (secrets included: never printed) and the OAUTHBEARER token source."""

    config: Mapping[str, Any] = field(repr=False)
    oauth: OAuthToken | None = field(default=None, repr=False)


def kafka_python_config(settings: ClientSettings) -> TieredConfig:
    """Translate ``settings`` for kafka-python; a security setting it cannot honour is a ConfigError."""
    conf = settings.librdkafka_config()
    out: dict[str, Any] = {
        "bootstrap_servers": [s.strip() for s in conf["bootstrap.servers"].split(",") if s.strip()],
        "client_id": "kafka-offsets",
    }
    for key, value in conf.items():
        if key in _DIRECT:
            out[_DIRECT[key]] = value
        elif key not in _HANDLED and key.startswith(_SECURITY_PREFIXES):
            raise _refuse(settings, key)
    protocol = conf.get("security.protocol", "plaintext").upper()
    if protocol not in _PROTOCOLS:
        raise _refuse(settings, "security.protocol")
    out["security_protocol"] = protocol
    verify = conf.get("enable.ssl.certificate.verification", "true").strip().lower()
    if verify not in ("true", "1"):
        raise _refuse(settings, "enable.ssl.certificate.verification")
    identification = conf.get("ssl.endpoint.identification.algorithm", "https").strip().lower()
    out["ssl_check_hostname"] = identification == "https"
    oauth = None
    if protocol.startswith("SASL_"):
        mechanism = (conf.get("sasl.mechanism") or conf.get("sasl.mechanisms") or "GSSAPI").upper()
        if mechanism not in _MECHANISMS:
            raise _refuse(settings, "sasl.mechanism" if "sasl.mechanism" in conf else "sasl.mechanisms")
        out["sasl_mechanism"] = mechanism
        if mechanism == "OAUTHBEARER":
            oauth = _oauth(settings, conf)
    return TieredConfig(out, oauth)


def _oauth(settings: ClientSettings, conf: Mapping[str, str]) -> OAuthToken:
    extensions = _pairs(conf.get("sasl.oauthbearer.extensions", ""), ",")
    if conf.get("sasl.oauthbearer.method", "default").lower() == "oidc":
        for key in ("sasl.oauthbearer.client.id", "sasl.oauthbearer.token.endpoint.url"):
            if not conf.get(key):
                raise ConfigError(f"{settings.source_of('sasl.oauthbearer.method')}: OIDC needs {key}")
        return OAuthToken(
            method="oidc",
            scope=conf.get("sasl.oauthbearer.scope", ""),
            client_id=conf["sasl.oauthbearer.client.id"],
            client_secret=conf.get("sasl.oauthbearer.client.secret", ""),
            token_endpoint=conf["sasl.oauthbearer.token.endpoint.url"],
            extensions=extensions,
        )
    if conf.get("enable.sasl.oauthbearer.unsecure.jwt", "false").lower() not in ("true", "1"):
        raise ConfigError(
            f"{settings.source_of('sasl.mechanism')}: OAUTHBEARER needs an unsecured JWT "
            "(sasl.oauthbearer.config) or sasl.oauthbearer.method=oidc for the tiered specs"
        )
    # librdkafka's unsecured JWT: "principal=SUB [scope=S1,S2] [lifeSeconds=N] [extension_K=V]..."
    opts = _pairs(conf.get("sasl.oauthbearer.config", ""), " ")
    if not opts.get("principal"):
        raise ConfigError(
            f"{settings.source_of('sasl.oauthbearer.config')}: sasl.oauthbearer.config needs principal="
        )
    ext = {k[len("extension_") :]: v for k, v in opts.items() if k.startswith("extension_")}
    return OAuthToken(
        method="unsecured",
        principal=opts["principal"],
        scope=opts.get("scope", ""),
        life_seconds=int(opts.get("lifeSeconds", "3600") or 3600),
        extensions={**extensions, **ext},
    )


def _pairs(text: str, sep: str) -> dict[str, str]:
    """``k=v`` items separated by ``sep`` (empty items skipped)."""
    out: dict[str, str] = {}
    for item in text.split(sep):
        key, eq, value = item.strip().partition("=")
        if key and eq:
            out[key] = value
    return out


def _refuse(settings: ClientSettings, key: str) -> ConfigError:
    """The one refusal: names the setting and where it was set, never its value."""
    return ConfigError(
        f"{settings.source_of(key)}: {key} cannot be carried over to the client that asks for the tiered "
        "specs (earliest-local, latest-tiered, earliest-pending-upload; kafka-python); supported: "
        "PLAINTEXT, SSL, SASL PLAIN/SCRAM-SHA-256/SCRAM-SHA-512/OAUTHBEARER, PEM CA/certificate/key files"
    )
