"""Unit tests of cluster profiles: the XDG config file, secret references, choice and precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_offsets_cli.cli.connection import settings_from
from kafka_offsets_cli.connection import profiles
from kafka_offsets_cli.connection.resolver import ConnectionOptions
from kafka_offsets_cli.errors import ConfigError, UsageError

CONFIG = """\
default = "local"

[clusters.local]
bootstrap_servers = "localhost:9092"

[clusters.prod]
bootstrap_servers = ["kafka-1.prod:9093", "kafka-2.prod:9093"]
[clusters.prod.properties]
"security.protocol" = "SASL_SSL"
"sasl.mechanism" = "SCRAM-SHA-512"
"sasl.username" = "ops"
"sasl.password_env" = "PROD_PW"
"ssl.key.password_file" = "{keyfile}"
"socket.keepalive.enable" = true
"""


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    key = tmp_path / "key.txt"
    key.write_text("k3y-secret\n")
    p = tmp_path / "config.toml"
    p.write_text(CONFIG.format(keyfile=key))
    return p


def env(cfg: Path, **extra: str) -> dict[str, str]:
    return {"KAFKA_OFFSETS_CONFIG": str(cfg), "PROD_PW": "pr0d-pw", **extra}


def test_config_path_follows_xdg_and_override() -> None:
    assert profiles.config_path({"HOME": "/home/u"}) == Path("/home/u/.config/kafka-offsets/config.toml")
    assert profiles.config_path({"HOME": "/home/u", "XDG_CONFIG_HOME": "/x"}) == Path(
        "/x/kafka-offsets/config.toml"
    )
    # a relative XDG_CONFIG_HOME is invalid per the spec and ignored
    assert profiles.config_path({"HOME": "/h", "XDG_CONFIG_HOME": "rel"}) == Path(
        "/h/.config/kafka-offsets/config.toml"
    )
    assert profiles.config_path({"KAFKA_OFFSETS_CONFIG": "/etc/ko.toml", "XDG_CONFIG_HOME": "/x"}) == Path(
        "/etc/ko.toml"
    )


def test_profile_resolves_lists_references_and_java_names(cfg: Path) -> None:
    p = profiles.select("prod", bootstrap_given=False, environ=env(cfg))
    assert p is not None
    assert p.bootstrap_servers == "kafka-1.prod:9093,kafka-2.prod:9093"
    conf = {k: s.value for k, s in p.properties.items()}
    assert conf == {
        "security.protocol": "SASL_SSL",
        "sasl.mechanisms": "SCRAM-SHA-512",  # Java name translated for librdkafka
        "sasl.username": "ops",
        "sasl.password": "pr0d-pw",
        "ssl.key.password": "k3y-secret",  # trailing newline dropped
        "socket.keepalive.enable": "true",
    }
    assert p.referenced == frozenset({"sasl.password", "ssl.key.password"})
    assert "[clusters.prod.properties] sasl.password_env ($PROD_PW)" in p.properties["sasl.password"].source


def test_missing_secret_variable_is_a_config_error_only_for_the_profile_in_use(cfg: Path) -> None:
    e = env(cfg)
    del e["PROD_PW"]
    assert profiles.select("local", bootstrap_given=False, environ=e) is not None
    with pytest.raises(ConfigError, match="PROD_PW is not set"):
        profiles.select("prod", bootstrap_given=False, environ=e)


def test_choice_flag_then_variable_then_default(cfg: Path) -> None:
    p = profiles.select(None, bootstrap_given=False, environ=env(cfg, KAFKA_OFFSETS_CLUSTER="prod"))
    assert p is not None and p.name == "prod"
    p = profiles.select("local", bootstrap_given=False, environ=env(cfg, KAFKA_OFFSETS_CLUSTER="prod"))
    assert p is not None and p.name == "local"
    p = profiles.select(None, bootstrap_given=False, environ=env(cfg))
    assert p is not None and p.name == "local"
    # the default never applies when bootstrap servers come from elsewhere
    assert profiles.select(None, bootstrap_given=True, environ=env(cfg)) is None


def test_unknown_profile_names_the_known_ones(cfg: Path) -> None:
    with pytest.raises(UsageError) as ei:
        profiles.select("staging", bootstrap_given=False, environ=env(cfg))
    assert "no such cluster profile" in ei.value.message
    assert ei.value.hint == "profiles: local, prod"


def test_missing_file_is_empty_but_a_named_profile_is_an_error(tmp_path: Path) -> None:
    e = {"KAFKA_OFFSETS_CONFIG": str(tmp_path / "none.toml")}
    assert profiles.select(None, bootstrap_given=False, environ=e) is None
    with pytest.raises(UsageError, match="no such file"):
        profiles.select("prod", bootstrap_given=False, environ=e)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("clusters = [", "invalid TOML"),
        ("[clusters.a]\nbootstrap = 'x:1'\n", "unknown key 'bootstrap'"),
        ("[cluster.a]\n", "unknown key 'cluster'"),
        ("default = 'b'\n[clusters.a]\n", "default cluster 'b' is not defined"),
        ("[clusters.a]\nproperties = 3\n", "'properties' must be a table"),
        ("[clusters.a.properties]\n'x' = {y = 1}\n", "expected a string"),
    ],
)
def test_invalid_files_are_config_errors_with_the_path(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "config.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as ei:
        profiles.select("a", bootstrap_given=False, environ={"KAFKA_OFFSETS_CONFIG": str(p)})
    assert str(p) in ei.value.message and message in ei.value.message


def test_precedence_command_line_then_environment_then_config_file(cfg: Path) -> None:
    e = env(cfg)
    s = settings_from(ConnectionOptions(cluster="prod"), e)
    assert s.bootstrap_servers == "kafka-1.prod:9093,kafka-2.prod:9093"
    assert s.librdkafka_config()["sasl.password"] == "pr0d-pw"
    # an explicit --cluster is the command line: it beats the environment's servers
    s = settings_from(ConnectionOptions(cluster="prod"), {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"})
    assert s.bootstrap_servers == "kafka-1.prod:9093,kafka-2.prod:9093"
    assert s.bootstrap_source == "cluster profile 'prod'"
    # a profile chosen in the environment (KAFKA_OFFSETS_CLUSTER) ranks as the config file: the
    # environment's servers win, the profile's properties still apply
    s = settings_from(
        ConnectionOptions(), {**e, "KAFKA_OFFSETS_CLUSTER": "prod", "KAFKA_BOOTSTRAP_SERVERS": "env:1"}
    )
    assert s.bootstrap_servers == "env:1"
    assert s.librdkafka_config()["security.protocol"] == "SASL_SSL"
    # flags beat both, key by key
    s = settings_from(
        ConnectionOptions(bootstrap="flag:2", overrides=("security.protocol=SSL",), cluster="prod"),
        {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"},
    )
    assert s.bootstrap_servers == "flag:2"
    assert s.librdkafka_config()["security.protocol"] == "SSL"
    assert s.source_of("security.protocol") == "-X security.protocol"
    assert s.librdkafka_config()["sasl.username"] == "ops"
    # the default profile is used only when nothing else names servers
    assert settings_from(ConnectionOptions(), e).bootstrap_servers == "localhost:9092"
    s = settings_from(ConnectionOptions(), {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"})
    assert s.bootstrap_servers == "env:1" and "security.protocol" not in s.librdkafka_config()


def _notes(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [" ".join(line.split()) for line in capsys.readouterr().err.splitlines()]


def test_every_value_that_loses_is_named_on_one_line(cfg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = env(cfg)
    servers = "kafka-1.prod:9093,kafka-2.prod:9093"
    warning = "kafka-offsets: warning: "
    settings_from(ConnectionOptions(cluster="prod"), {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"})
    assert _notes(capsys) == [
        f"{warning}KAFKA_BOOTSTRAP_SERVERS=env:1 is overridden by --cluster prod ({servers})"
    ]
    settings_from(
        ConnectionOptions(), {**e, "KAFKA_OFFSETS_CLUSTER": "prod", "KAFKA_BOOTSTRAP_SERVERS": "env:1"}
    )
    assert _notes(capsys) == [
        f"{warning}KAFKA_BOOTSTRAP_SERVERS overrides bootstrap_servers of cluster profile 'prod' "
        f"({servers}): using env:1"
    ]
    settings_from(ConnectionOptions(cluster="local"), {**e, "KAFKA_OFFSETS_CLUSTER": "prod"})
    assert _notes(capsys) == [f"{warning}KAFKA_OFFSETS_CLUSTER=prod is overridden by --cluster local"]
    # -b with --cluster: -b's servers, the profile's other settings (as kubectl --server with --context)
    settings_from(ConnectionOptions(bootstrap="flag:2", cluster="prod"), e)
    assert _notes(capsys) == [
        f"{warning}-b/--bootstrap-server overrides bootstrap_servers of cluster profile 'prod' ({servers}): "
        "using flag:2"
    ]
    settings_from(ConnectionOptions(bootstrap="flag:2"), {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"})
    assert _notes(capsys) == [
        f"{warning}KAFKA_BOOTSTRAP_SERVERS=env:1 is overridden by -b/--bootstrap-server (flag:2)"
    ]
    # nothing lost, nothing said: the same servers twice, or one source only
    settings_from(ConnectionOptions(bootstrap="env:1"), {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"})
    settings_from(ConnectionOptions(cluster="prod"), e)
    settings_from(ConnectionOptions(), {**e, "KAFKA_BOOTSTRAP_SERVERS": "env:1"})
    assert _notes(capsys) == []


def test_command_config_of_a_profile_is_loaded_and_may_carry_servers(tmp_path: Path) -> None:
    props = tmp_path / "client.properties"
    props.write_text("bootstrap.servers=fromfile:9092\nsecurity.protocol=SSL\n")
    p = tmp_path / "config.toml"
    p.write_text(f"[clusters.f]\ncommand_config = '{props}'\n[clusters.f.properties]\n'client.id' = 'me'\n")
    prof = profiles.select("f", bootstrap_given=False, environ={"KAFKA_OFFSETS_CONFIG": str(p)})
    assert prof is not None
    assert prof.bootstrap_servers == "fromfile:9092"
    assert {k: s.value for k, s in prof.properties.items()} == {"security.protocol": "SSL", "client.id": "me"}
