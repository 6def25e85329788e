"""`kafka-offsets config show|path|list` and `--version` (no cluster needed)."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from kafka_offsets_cli import __version__
from tests.cli_runner import cli

CONFIG = """\
default = "dev"

[clusters.dev]
bootstrap_servers = "localhost:9092"

[clusters.prod]
bootstrap_servers = ["k1:9093", "k2:9093"]
[clusters.prod.properties]
"security.protocol" = "SASL_SSL"
"sasl.username" = "ops"
"sasl.password_env" = "PROD_PW"
"client.secret.token_file" = "{tokfile}"
"sasl.oauthbearer.client.id_env" = "CLIENT_ID"
"""


@pytest.fixture
def cfg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tok = tmp_path / "token"
    tok.write_text("t0ken-value\n")
    p = tmp_path / "config.toml"
    p.write_text(CONFIG.format(tokfile=tok))
    monkeypatch.setenv("KAFKA_OFFSETS_CONFIG", str(p))
    monkeypatch.setenv("PROD_PW", "pr0d-secret")
    monkeypatch.setenv("CLIENT_ID", "client-1234")
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    return p


def test_show_masks_secrets_and_names_sources(cfg: Path) -> None:
    r = cli("config", "show", "--cluster", "prod", "-o", "json")
    assert r.code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["cluster"] == "prod"
    assert doc["config_file"] == str(cfg)
    assert doc["bootstrap_servers"] == "k1:9093,k2:9093"
    assert doc["bootstrap_source"] == "cluster profile 'prod'"
    props = doc["properties"]
    assert props["security.protocol"]["value"] == "SASL_SSL"
    assert props["sasl.username"]["value"] == "ops"
    # secret by name, and anything that came from a *_env/*_file reference
    assert props["sasl.password"]["value"] == "***"
    assert props["client.secret.token"]["value"] == "***"
    assert props["sasl.oauthbearer.client.id"]["value"] == "***"
    assert "sasl.password_env ($PROD_PW)" in props["sasl.password"]["source"]
    for secret in ("pr0d-secret", "t0ken-value", "client-1234"):
        assert secret not in r.stdout and secret not in r.stderr


def test_show_text_and_flags_over_profile(cfg: Path) -> None:
    r = cli("config", "show", "--cluster", "prod", "-b", "flag:1", "-X", "sasl.password=other-secret")
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "bootstrap.servers = flag:1  # -b/--bootstrap-server" in lines
    assert "sasl.password = ***  # -X sasl.password" in lines
    assert "other-secret" not in r.stdout


def test_show_uses_the_default_profile_and_environment(cfg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = json.loads(cli("config", "show", "-o", "json").stdout)
    assert (doc["cluster"], doc["bootstrap_servers"]) == ("dev", "localhost:9092")
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "env:9")
    doc = json.loads(cli("config", "show", "-o", "json").stdout)
    assert (doc["cluster"], doc["bootstrap_servers"], doc["bootstrap_source"]) == (
        None,
        "env:9",
        "KAFKA_BOOTSTRAP_SERVERS",
    )
    monkeypatch.setenv("KAFKA_OFFSETS_CLUSTER", "prod")
    r = cli("config", "show", "-o", "json")
    doc = json.loads(r.stdout)
    assert (doc["cluster"], doc["bootstrap_servers"]) == ("prod", "env:9")
    assert "overrides bootstrap_servers" in r.stderr


def test_unknown_profile_is_a_usage_error(cfg: Path) -> None:
    r = cli("config", "show", "--cluster", "nope")
    assert r.code == 2
    assert "no such cluster profile" in r.stderr and "profiles: dev, prod" in r.stderr


def test_broken_secret_reference_is_a_usage_error(cfg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROD_PW")
    r = cli("config", "show", "--cluster", "prod")
    assert r.code == 2 and "PROD_PW is not set" in r.stderr


def test_path_and_list(cfg: Path) -> None:
    r = cli("config", "path")
    assert (r.code, r.stdout) == (0, f"{cfg}\n")
    r = cli("config", "list")
    assert r.stdout == "dev\tlocalhost:9092\t(default)\nprod\tk1:9093,k2:9093\n"
    recs = json.loads(cli("config", "list", "-o", "json").stdout)
    assert recs == [
        {"name": "dev", "bootstrap_servers": "localhost:9092", "default": True},
        {"name": "prod", "bootstrap_servers": "k1:9093,k2:9093", "default": False},
    ]


def test_path_follows_xdg_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAFKA_OFFSETS_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    r = cli("config", "path")
    assert r.stdout == f"{tmp_path}/kafka-offsets/config.toml\n"
    assert "does not exist" in r.stderr


def test_version_prints_tool_client_and_librdkafka_versions() -> None:
    import confluent_kafka

    for flag in ("--version", "-V"):
        r = cli(flag)
        assert r.code == 0
        lines = r.stdout.splitlines()
        assert lines[0] == f"kafka-offsets {__version__}"
        assert lines[1] == f"confluent-kafka {version('confluent-kafka')}"
        lib = confluent_kafka.libversion()
        assert lines[2] == f"librdkafka {lib[0] if isinstance(lib, tuple) else lib}"
        assert re.fullmatch(r"librdkafka \d+\.\d+\.\d+\S*", lines[2])
    assert version("kafka-offsets") == __version__
