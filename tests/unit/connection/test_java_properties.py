"""Java client properties that librdkafka spells differently or cannot do (``--command-config``)."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.connection.properties import parse_jaas, translate_java
from kafka_offsets_cli.errors import ConfigError

OAUTH = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"


def tr(text: str) -> dict[str, str]:
    """``key=value`` lines through translate_java, as librdkafka settings."""
    entries = [(k, v, i) for i, (k, _, v) in enumerate((ln.partition("=") for ln in text.splitlines()), 1)]
    return {k: s.value for k, s in translate_java(entries, "c.properties").items()}


def refused(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        tr(text)
    return str(info.value)


def test_empty_endpoint_identification_turns_hostname_checks_off() -> None:
    assert tr("ssl.endpoint.identification.algorithm=") == {"ssl.endpoint.identification.algorithm": "none"}
    assert tr("ssl.endpoint.identification.algorithm=HTTPS") == {
        "ssl.endpoint.identification.algorithm": "https"
    }


def test_empty_store_locations_passwords_and_types_are_unset() -> None:
    text = "\n".join(
        f"{k}="
        for k in (
            "ssl.truststore.location",
            "ssl.truststore.password",
            "ssl.truststore.type",
            "ssl.keystore.location",
            "ssl.keystore.password",
            "ssl.keystore.type",
            "ssl.key.password",
        )
    )
    assert tr(text) == {}


def test_pkcs12_keystore_is_librdkafkas_keystore() -> None:
    got = tr("ssl.keystore.type=PKCS12\nssl.keystore.location=/s/client.keystore\nssl.keystore.password=pw")
    assert got == {"ssl.keystore.location": "/s/client.keystore", "ssl.keystore.password": "pw"}
    # no type: a .p12 file (or any name but .jks) is read as PKCS12
    assert tr("ssl.keystore.location=/s/client.p12") == {"ssl.keystore.location": "/s/client.p12"}


def test_pem_keystore_is_certificate_and_key_file() -> None:
    got = tr("ssl.keystore.type=PEM\nssl.keystore.location=/s/client.pem\nssl.key.password=kp")
    assert got == {
        "ssl.certificate.location": "/s/client.pem",
        "ssl.key.location": "/s/client.pem",
        "ssl.key.password": "kp",
    }


def test_jks_keystore_is_one_clear_line_without_the_password() -> None:
    for text in ("ssl.keystore.location=/s/client.jks", "ssl.keystore.type=JKS\nssl.keystore.location=/s/ks"):
        msg = refused(text + "\nssl.keystore.password=s3cr3t-pw")
        assert "JKS" in msg and "PKCS12" in msg and "keytool" in msg and "\n" not in msg
        assert "s3cr3t-pw" not in msg


def test_truststores_pem_ok_jks_and_pkcs12_refused() -> None:
    assert tr("ssl.truststore.type=PEM\nssl.truststore.location=/s/ca") == {"ssl.ca.location": "/s/ca"}
    assert tr("ssl.truststore.location=/s/ca.crt") == {"ssl.ca.location": "/s/ca.crt"}
    assert "JKS" in refused("ssl.truststore.location=/s/truststore.jks\nssl.truststore.password=changeit")
    assert "PKCS12" in refused("ssl.truststore.type=PKCS12\nssl.truststore.location=/s/trust.p12")


def test_unsecured_oauthbearer_jaas_is_librdkafkas_unsecured_jwt() -> None:
    got = parse_jaas(
        f'{OAUTH} unsecuredLoginStringClaim_sub="alice" unsecuredLoginListClaim_scope=",read,write" '
        'unsecuredLoginLifetimeSeconds="600" unsecuredLoginExtension_traceId="t1";',
        "f:1",
    )
    assert got == {
        "sasl.oauthbearer.config": "principal=alice scope=read,write lifeSeconds=600 extension_traceId=t1",
        "enable.sasl.oauthbearer.unsecure.jwt": "true",
    }
    with pytest.raises(ConfigError, match="unsecuredLoginStringClaim_sub"):
        parse_jaas(f'{OAUTH} unsecuredLoginLifetimeSeconds="600";', "f:1")
    with pytest.raises(ConfigError, match="unsecuredLoginNumberClaim_exp"):
        parse_jaas(f'{OAUTH} unsecuredLoginStringClaim_sub="a" unsecuredLoginNumberClaim_exp="1";', "f:1")


def test_oidc_client_credentials_from_jaas_and_token_endpoint() -> None:
    got = tr(
        "sasl.mechanism=OAUTHBEARER\n"
        f'sasl.jaas.config={OAUTH} clientId="app" clientSecret="s3cr3t" scope="kafka" '
        'extension_logicalCluster="lkc-1";\n'
        "sasl.oauthbearer.token.endpoint.url=https://idp.example/token\n"
        "sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
    )
    assert got == {
        "sasl.mechanisms": "OAUTHBEARER",
        "sasl.oauthbearer.method": "oidc",
        "sasl.oauthbearer.client.id": "app",
        "sasl.oauthbearer.client.secret": "s3cr3t",
        "sasl.oauthbearer.scope": "kafka",
        "sasl.oauthbearer.extensions": "logicalCluster=lkc-1",
        "sasl.oauthbearer.token.endpoint.url": "https://idp.example/token",
    }


def test_kip1139_client_credentials_keys_and_bare_login_module() -> None:
    got = tr(
        f"sasl.jaas.config={OAUTH} ;\n"
        "sasl.oauthbearer.client.credentials.client.id=app\n"
        "sasl.oauthbearer.client.credentials.client.secret=s3cr3t\n"
        "sasl.oauthbearer.scope=kafka\n"
        "sasl.oauthbearer.token.endpoint.url=https://idp.example/token\n"
        "sasl.oauthbearer.sub.claim.name=sub\n"
        "sasl.login.refresh.buffer.seconds=300"
    )
    assert got == {
        "sasl.oauthbearer.client.id": "app",
        "sasl.oauthbearer.client.secret": "s3cr3t",
        "sasl.oauthbearer.scope": "kafka",
        "sasl.oauthbearer.token.endpoint.url": "https://idp.example/token",
        "sasl.oauthbearer.method": "oidc",
    }


def test_custom_login_callback_handler_is_refused_with_a_line() -> None:
    msg = refused("sasl.login.callback.handler.class=com.example.VaultLoginHandler")
    assert "com.example.VaultLoginHandler" in msg and "librdkafka cannot run" in msg and "\n" not in msg
    assert tr("sasl.login.callback.handler.class=") == {}


def test_secrets_never_appear_in_translation_errors() -> None:
    msg = refused(
        f'sasl.jaas.config={OAUTH} clientSecret="top-s3cret" unsecuredLoginStringClaim_sub="x" '
        'unsecuredLoginNumberClaim_iat="1";'
    )
    assert "top-s3cret" not in msg
