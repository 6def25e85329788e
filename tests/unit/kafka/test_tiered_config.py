"""The tiered specs' client settings: librdkafka's keys translated for kafka-python, secrets never shown."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.errors import ConfigError
from kafka_offsets_cli.kafka.tiered_config import kafka_python_config

SECRET = "s3cr3t-value"


def translate(*overrides: str) -> dict[str, object]:
    settings = build_settings("h1:9092, h2:9093", overrides=overrides, environ={})
    return dict(kafka_python_config(settings).config)


def test_plaintext_defaults() -> None:
    conf = translate()
    assert conf["bootstrap_servers"] == ["h1:9092", "h2:9093"]
    assert conf["security_protocol"] == "PLAINTEXT"
    assert conf["ssl_check_hostname"] is True
    assert "sasl_mechanism" not in conf


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_sasl_username_password(mechanism: str) -> None:
    conf = translate(
        "security.protocol=sasl_ssl",
        f"sasl.mechanism={mechanism}",
        "sasl.username=svc",
        f"sasl.password={SECRET}",
        "ssl.ca.location=/ca.pem",
    )
    assert conf["security_protocol"] == "SASL_SSL"
    assert conf["sasl_mechanism"] == mechanism
    assert (conf["sasl_plain_username"], conf["sasl_plain_password"]) == ("svc", SECRET)
    assert conf["ssl_cafile"] == "/ca.pem"


def test_mutual_tls_and_endpoint_identification() -> None:
    conf = translate(
        "security.protocol=SSL",
        "ssl.ca.location=/ca.pem",
        "ssl.certificate.location=/c.pem",
        "ssl.key.location=/k.pem",
        f"ssl.key.password={SECRET}",
        "ssl.crl.location=/crl.pem",
        "ssl.endpoint.identification.algorithm=none",
    )
    assert (conf["ssl_certfile"], conf["ssl_keyfile"], conf["ssl_password"]) == ("/c.pem", "/k.pem", SECRET)
    assert conf["ssl_crlfile"] == "/crl.pem"
    assert conf["ssl_check_hostname"] is False


def test_oauthbearer_unsecured_jwt_makes_a_token() -> None:
    settings = build_settings(
        "h:1",
        overrides=[
            "security.protocol=SASL_PLAINTEXT",
            "sasl.mechanism=OAUTHBEARER",
            "enable.sasl.oauthbearer.unsecure.jwt=true",
            "sasl.oauthbearer.config=principal=alice scope=a,b extension_traceId=7",
        ],
        environ={},
    )
    tc = kafka_python_config(settings)
    assert tc.config["sasl_mechanism"] == "OAUTHBEARER"
    assert tc.oauth is not None and tc.oauth.principal == "alice"
    assert dict(tc.oauth.extensions) == {"traceId": "7"}
    from kafka_offsets_cli.kafka.kafka_python import _Token

    token = _Token(tc.oauth).token()
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))) == {"alg": "none"}
    assert claims["sub"] == "alice" and claims["scope"] == ["a", "b"] and signature == ""


def test_oauthbearer_oidc_asks_its_token_endpoint() -> None:
    # the client-credentials grant, over HTTP to a token endpoint on loopback (urllib.request is
    # imported only here: no other run pays for http.client and email)
    import http.server
    import threading
    import urllib.parse

    from kafka_offsets_cli.kafka.kafka_python import _Token
    from kafka_offsets_cli.kafka.tiered_config import OAuthToken

    seen: list[tuple[str, dict[str, list[str]]]] = []

    class Endpoint(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
            seen.append((self.headers["Authorization"], form))
            body = json.dumps({"access_token": "tok-1", "expires_in": 600}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/token"
        token = _Token(
            OAuthToken(method="oidc", scope="s1", client_id="app", client_secret=SECRET, token_endpoint=url)
        )
        assert token.token() == "tok-1" and token.token() == "tok-1"  # the second from the cache
    finally:
        server.shutdown()
        server.server_close()
    basic = base64.b64encode(f"app:{SECRET}".encode()).decode()
    assert seen == [(f"Basic {basic}", {"grant_type": ["client_credentials"], "scope": ["s1"]})]


def test_oauthbearer_oidc_needs_its_endpoint() -> None:
    with pytest.raises(ConfigError, match=r"token\.endpoint\.url"):
        translate(
            "security.protocol=SASL_SSL",
            "sasl.mechanism=OAUTHBEARER",
            "sasl.oauthbearer.method=oidc",
            "sasl.oauthbearer.client.id=app",
            f"sasl.oauthbearer.client.secret={SECRET}",
        )


@pytest.mark.parametrize(
    ("override", "key"),
    [
        ("ssl.keystore.location=/ks.p12", "ssl.keystore.location"),
        ("ssl.certificate.pem=-----BEGIN", "ssl.certificate.pem"),
        ("enable.ssl.certificate.verification=false", "enable.ssl.certificate.verification"),
        ("sasl.kerberos.service.name=kafka", "sasl.kerberos.service.name"),
        ("security.protocol=TLS", "security.protocol"),
    ],
)
def test_what_cannot_be_carried_over_is_refused_by_name(override: str, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        translate(override, f"sasl.password={SECRET}")
    message = str(info.value)
    assert key in message and "-X" in message and SECRET not in message


def test_gssapi_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"sasl\.mechanism"):
        translate("security.protocol=SASL_PLAINTEXT", "sasl.mechanism=GSSAPI")


def test_librdkafka_tuning_does_not_apply_and_secrets_stay_out_of_repr() -> None:
    settings = build_settings(
        "h:1", overrides=["socket.timeout.ms=100", f"sasl.password={SECRET}"], environ={}
    )
    tc = kafka_python_config(settings)
    assert "socket.timeout.ms" not in tc.config and "socket_timeout_ms" not in tc.config
    assert SECRET not in repr(tc)


def test_kafka_python_is_imported_only_for_a_tiered_spec() -> None:
    """Parsing every spec, and the tiered specs' config, leaves kafka-python unimported."""
    probe = (
        "import sys\n"
        "from datetime import timezone\n"
        "from kafka_offsets_cli.parse.specs import parse_specs\n"
        "import kafka_offsets_cli.kafka, kafka_offsets_cli.kafka.tiered_config\n"
        "parse_specs(['-4', 'latest-tiered', '-6', 'earliest'], now_ms=0, tz=timezone.utc)\n"
        "print('kafka' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "False"


def test_kafka_pythons_log_is_masked_and_stops_at_its_own_logger() -> None:
    import logging

    from kafka_offsets_cli.kafka.kafka_python import _RELAY

    class Keep(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.DEBUG)
            self.lines: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.lines.append(record.getMessage())

    keep = Keep()
    out = logging.getLogger("kafka_offsets.kafka_python")
    out.addHandler(keep)
    source = logging.getLogger("kafka")
    levels = out.level, source.level
    out.setLevel(logging.DEBUG)
    source.setLevel(logging.DEBUG)  # as --debug's root logger does
    try:
        _RELAY.secrets.add(SECRET)
        logging.getLogger("kafka.admin.client").debug("Starting with configuration: %s", {"pw": SECRET})
    finally:
        out.removeHandler(keep)
        out.setLevel(levels[0])
        source.setLevel(levels[1])
    assert keep.lines == ["kafka.admin.client: Starting with configuration: {'pw': '***'}"]
    # the raw record goes no further: without --debug nothing reaches Python's last-resort stderr handler
    assert logging.getLogger("kafka").propagate is False


def test_javas_pem_key_store_and_key_password_become_kafka_pythons_cert_key_and_password(
    tmp_path: Path,
) -> None:
    """A --command-config for Java's mTLS (PEM key store + ssl.key.password) reaches kafka-python whole:
    the one file is both certificate chain and key, the key password is ssl_password, never shown."""
    props = tmp_path / "client-mtls.properties"
    props.write_text(
        "security.protocol=SSL\n"
        "ssl.truststore.type=PEM\n"
        "ssl.truststore.location=/etc/kafka/ca.pem\n"
        "ssl.keystore.type=PEM\n"
        "ssl.keystore.location=/etc/kafka/client-keystore.pem\n"
        f"ssl.key.password={SECRET}\n"
    )
    settings = build_settings("h:9093", command_config=str(props), environ={})
    tc = kafka_python_config(settings)
    conf = dict(tc.config)
    assert conf["security_protocol"] == "SSL"
    assert conf["ssl_cafile"] == "/etc/kafka/ca.pem"
    assert conf["ssl_certfile"] == conf["ssl_keyfile"] == "/etc/kafka/client-keystore.pem"
    assert conf["ssl_password"] == SECRET
    assert SECRET not in repr(tc) and SECRET not in str(tc)


def test_a_pkcs12_key_store_is_refused_by_name_without_its_password(tmp_path: Path) -> None:
    """librdkafka reads PKCS12 (ssl.keystore.location), kafka-python cannot: one line naming the key."""
    props = tmp_path / "client.properties"
    props.write_text(
        "security.protocol=SSL\n"
        "ssl.keystore.location=/etc/kafka/client.p12\n"
        f"ssl.keystore.password={SECRET}\n"
    )
    settings = build_settings("h:9093", command_config=str(props), environ={})
    with pytest.raises(ConfigError) as info:
        kafka_python_config(settings)
    message = str(info.value)
    assert "ssl.keystore" in message and str(props) in message and SECRET not in message
    assert "\n" not in message
