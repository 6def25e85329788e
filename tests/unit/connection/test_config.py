"""Unit tests of client settings: Java properties, JAAS translation, -X, masking."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_offsets_cli.connection.properties import load_command_config, parse_jaas, parse_properties
from kafka_offsets_cli.connection.settings import build_settings, mask, parse_overrides, redact
from kafka_offsets_cli.errors import ConfigError, UsageError


def test_properties_syntax_comments_continuations_escapes() -> None:
    text = (
        "# comment\n! also\nalpha=1\nbeta : two words\ngamma three\nlong=a\\\n   b\\\n  c\nesc=tab\\there\n"
    )
    got = {k: (v, line) for k, v, line in parse_properties(text, "f")}
    assert got["alpha"] == ("1", 3)
    assert got["beta"] == ("two words", 4)
    assert got["gamma"] == ("three", 5)
    assert got["long"] == ("abc", 6)
    assert got["esc"] == ("tab\there", 9)


def test_scram_jaas_translates_to_username_password() -> None:
    v = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        'username="alice" password="s3cr\\"et";'
    )
    assert parse_jaas(v, "f:1") == {"sasl.username": "alice", "sasl.password": 's3cr"et'}


def test_jaas_unknown_module_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="not supported"):
        parse_jaas("com.example.Kerberos required;", "f:1")


def test_command_config_translates_and_records_sources(tmp_path: Path) -> None:
    p = tmp_path / "client.properties"
    p.write_text(
        "security.protocol=SASL_SSL\n"
        "sasl.mechanism=SCRAM-SHA-512\n"
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="u" password="pw";\n'
        "ssl.truststore.type=PEM\n"
        "ssl.truststore.location=/etc/ca.pem\n"
        "key.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n"
    )
    s = load_command_config(p)
    assert s["security.protocol"].value == "SASL_SSL"
    assert s["sasl.mechanisms"].value == "SCRAM-SHA-512"
    assert s["sasl.username"].value == "u"
    assert s["sasl.password"].source == f"{p}:3"
    assert s["ssl.ca.location"].value == "/etc/ca.pem"
    assert "key.deserializer" not in s


def test_jks_truststore_is_rejected_with_advice(tmp_path: Path) -> None:
    p = tmp_path / "c.properties"
    p.write_text("ssl.truststore.location=/etc/truststore.jks\nssl.truststore.password=changeit\n")
    with pytest.raises(ConfigError, match=r"c.properties:1: .*PEM"):
        load_command_config(p)


def test_missing_command_config_file() -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_command_config("/nonexistent/x.properties")


def test_overrides_need_key_value() -> None:
    assert parse_overrides(["socket.timeout.ms=100"])["socket.timeout.ms"].value == "100"
    with pytest.raises(UsageError, match="key=value"):
        parse_overrides(["nokey"])


def test_precedence_flag_then_env() -> None:
    s = build_settings("a:1", environ={"KAFKA_BOOTSTRAP_SERVERS": "b:2"})
    assert s.bootstrap_servers == "a:1"
    s = build_settings(None, environ={"KAFKA_BOOTSTRAP_SERVERS": "b:2"})
    assert s.bootstrap_servers == "b:2"
    with pytest.raises(UsageError, match="bootstrap"):
        build_settings(None, environ={})
    with pytest.raises(UsageError, match="HOST:PORT"):
        build_settings("nohostport", environ={})


def test_secrets_are_masked_and_redacted() -> None:
    conf = {"sasl.password": "hunter2", "ssl.key.password": "k", "sasl.username": "bob", "ssl.key.pem": "PEM"}
    m = mask(conf)
    assert m["sasl.password"] == "***" and m["ssl.key.password"] == "***" and m["ssl.key.pem"] == "***"
    assert m["sasl.username"] == "bob"
    assert redact("auth failed for hunter2 here", ["hunter2"]) == "auth failed for *** here"
