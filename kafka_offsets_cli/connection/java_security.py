"""Java clients' security settings in librdkafka's terms: JAAS login modules, key and trust stores.

What Kafka's Java tools read from ``--command-config`` and librdkafka spells
differently or cannot do at all:

* ``sasl.jaas.config``: PLAIN and SCRAM give ``sasl.username``/``sasl.password``;
  OAUTHBEARER's unsecured options (``unsecuredLoginStringClaim_sub``…) give
  librdkafka's unsecured JWT (``sasl.oauthbearer.config``), its OIDC client
  credentials (``clientId``, ``clientSecret``, ``scope``, ``extension_NAME``)
  librdkafka's ``sasl.oauthbearer.method=oidc`` settings;
* key stores: PKCS12 is what librdkafka reads as ``ssl.keystore.location``, a PEM
  key store is a certificate and key file, JKS cannot be read (one line with the
  ``keytool`` conversion);
* trust stores: PEM becomes ``ssl.ca.location``; JKS and PKCS12 cannot be read.

Error messages name keys, JAAS option names, classes and file paths, never a value
that could be a secret.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from ..errors import ConfigError

# The JAAS patterns are compiled on first use: only a sasl.jaas.config is parsed with them.


@functools.cache
def _jaas_pattern() -> re.Pattern[str]:
    """A JAAS line: login module, control flag, options."""
    return re.compile(
        r"""^\s*(?P<module>[\w.$]+)\s+(?P<flag>required|requisite|sufficient|optional)\s*(?P<opts>.*?)\s*;?\s*$""",
        re.S,
    )


@functools.cache
def _jaas_opt_pattern() -> re.Pattern[str]:
    """One ``key=value`` (or ``key="value"``) of a JAAS line's options."""
    return re.compile(r"""(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|(\S+?))(?=\s|;|$)""")


#: Kafka's own OAUTHBEARER login callback handlers: what they do, librdkafka does itself.
KAFKA_LOGIN_HANDLERS = frozenset(
    {
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
        "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler",
        "org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredLoginCallbackHandler",
    }
)

#: Java's unsecured OAUTHBEARER options librdkafka's unsecured JWT has (``sasl.oauthbearer.config``).
_UNSECURED = {
    "unsecuredLoginStringClaim_sub": "principal",
    "unsecuredLoginLifetimeSeconds": "lifeSeconds",
    "unsecuredLoginScopeClaimName": "scopeClaimName",
    "unsecuredLoginPrincipalClaimName": "principalClaimName",
}
_UNSECURED_EXTENSION = "unsecuredLoginExtension_"

#: JAAS options of Kafka's OIDC client-credentials login, in librdkafka's names.
_OIDC = {
    "clientId": "sasl.oauthbearer.client.id",
    "clientSecret": "sasl.oauthbearer.client.secret",
    "scope": "sasl.oauthbearer.scope",
}


def parse_jaas(value: str, source: str) -> dict[str, str]:
    """Translate a ``sasl.jaas.config`` value into librdkafka's SASL properties.

    PLAIN and SCRAM login modules give ``sasl.username`` and ``sasl.password``;
    OAUTHBEARER see :func:`oauthbearer`. Any other module is a :class:`ConfigError`.
    """
    m = _jaas_pattern().match(value)
    if m is None:
        raise ConfigError(f"{source}: sasl.jaas.config is not a JAAS login module entry")
    module = m.group("module")
    found = _jaas_opt_pattern().findall(m.group("opts"))
    opts = {k: (q if q is not None and q != "" else (u or "")) for k, q, u in found}
    opts = {k: v.replace('\\"', '"').replace("\\\\", "\\") for k, v in opts.items()}
    if module.endswith(("PlainLoginModule", "ScramLoginModule")):
        if "username" not in opts or "password" not in opts:
            raise ConfigError(f"{source}: sasl.jaas.config needs username and password")
        return {"sasl.username": opts["username"], "sasl.password": opts["password"]}
    if module.endswith("OAuthBearerLoginModule"):
        return oauthbearer(opts, source)
    raise ConfigError(
        f"{source}: sasl.jaas.config login module {module} is not supported (use PLAIN, SCRAM or OAUTHBEARER)"
    )


def oauthbearer(opts: Mapping[str, str], source: str) -> dict[str, str]:
    """OAUTHBEARER's JAAS options in librdkafka's terms.

    ``unsecuredLogin*`` options (Kafka's unsecured tokens, for tests) become
    librdkafka's unsecured JWT: ``principal=``, ``scope=``, ``lifeSeconds=``,
    ``extension_NAME=`` in ``sasl.oauthbearer.config`` and
    ``enable.sasl.oauthbearer.unsecure.jwt=true``; other claims have no
    librdkafka counterpart and are refused. ``clientId``/``clientSecret``/``scope``
    and ``extension_NAME`` (OIDC client credentials) become
    ``sasl.oauthbearer.method=oidc`` with the client id, secret, scope and
    ``sasl.oauthbearer.extensions``; the token endpoint is the separate
    ``sasl.oauthbearer.token.endpoint.url`` property, as in Java. No options: the
    module only names the mechanism.
    """
    unsecured = [k for k in opts if k.startswith("unsecuredLogin")]
    if unsecured:
        parts: list[str] = []
        for k in unsecured:
            v = opts[k]
            if k in _UNSECURED:
                parts.append(f"{_UNSECURED[k]}={v}")
            elif k == "unsecuredLoginListClaim_scope":
                # Java's list claims start with their own delimiter: ",a,b" or " a b"
                items = v[1:].split(v[0]) if v else []
                parts.append("scope=" + ",".join(s for s in items if s))
            elif k.startswith(_UNSECURED_EXTENSION):
                parts.append(f"extension_{k[len(_UNSECURED_EXTENSION) :]}={v}")
            else:
                raise ConfigError(
                    f"{source}: sasl.jaas.config option {k} has no librdkafka counterpart "
                    "(its unsecured tokens take sub, scope, lifetime and extensions only)"
                )
        if "unsecuredLoginStringClaim_sub" not in opts:
            raise ConfigError(
                f"{source}: sasl.jaas.config unsecured OAUTHBEARER needs unsecuredLoginStringClaim_sub"
            )
        return {"sasl.oauthbearer.config": " ".join(parts), "enable.sasl.oauthbearer.unsecure.jwt": "true"}
    out = {_OIDC[k]: v for k, v in opts.items() if k in _OIDC}
    extensions = [f"{k[len('extension_') :]}={v}" for k, v in opts.items() if k.startswith("extension_")]
    if extensions:
        out["sasl.oauthbearer.extensions"] = ",".join(extensions)
    if out:
        out["sasl.oauthbearer.method"] = "oidc"
    return out


def login_callback_handler(value: str, source: str) -> None:
    """Accept Kafka's own OAUTHBEARER login handlers (librdkafka does their work); refuse other classes."""
    if value.strip() and value.strip() not in KAFKA_LOGIN_HANDLERS:
        raise ConfigError(
            f"{source}: sasl.login.callback.handler.class {value.strip()} is Java code librdkafka cannot run "
            "(for OIDC set sasl.oauthbearer.token.endpoint.url and the client credentials)"
        )


def store_type(explicit: str | None, location: str, *, trust: bool) -> str:
    """A key or trust store's type: ``ssl.*.type`` if given, else guessed from the file name.

    Java's default is JKS; a ``.p12``/``.pfx`` key store or a ``.pem``/``.crt`` file is
    taken for what its name says (Java reads a PKCS12 file as "JKS" too).
    """
    if explicit:
        return explicit.upper()
    lower = location.lower()
    if lower.endswith((".pem", ".crt")):
        return "PEM"
    if lower.endswith((".p12", ".pfx")) or (not trust and not lower.endswith(".jks")):
        return "PKCS12"
    return "JKS"


def keystore(location: str, kind: str, src: str) -> dict[str, str]:
    """librdkafka's settings for a Java key store (``ssl.keystore.location`` of type ``kind``)."""
    if kind == "PKCS12":
        return {"ssl.keystore.location": location}
    if kind == "PEM":  # one file with the certificate chain and the private key
        return {"ssl.certificate.location": location, "ssl.key.location": location}
    if kind == "JKS":
        raise ConfigError(
            f"{src}: ssl.keystore.location is a JKS key store, which librdkafka cannot read; convert it "
            "(keytool -importkeystore -deststoretype PKCS12 -destkeystore client.p12) and set "
            "ssl.keystore.type=PKCS12"
        )
    raise ConfigError(f"{src}: ssl.keystore.type {kind} is not supported (PKCS12 or PEM)")


def truststore(location: str, kind: str, src: str) -> dict[str, str]:
    """librdkafka's settings for a Java trust store: a PEM file is ``ssl.ca.location``."""
    if kind == "PEM" or location.lower().endswith((".pem", ".crt")):
        return {"ssl.ca.location": location}
    raise ConfigError(
        f"{src}: ssl.truststore.location must be a PEM file for librdkafka "
        f"(convert the {kind} store with keytool/openssl, or set ssl.ca.location)"
    )
