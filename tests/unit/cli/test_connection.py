"""One connection resolver: commands, completion and `config show` resolve the same options the same way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main

from kafka_offsets_cli.cli.app import app
from kafka_offsets_cli.cli.connection import connection_options
from kafka_offsets_cli.connection.resolver import ConnectionOptions, resolve_connection
from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.models.offsets import Isolation
from tests.cli_runner import cli


@pytest.fixture
def cfg(tmp_path: Path) -> dict[str, str]:
    p = tmp_path / "config.toml"
    p.write_text('default = "dev"\n[clusters.dev]\nbootstrap_servers = "dev:1"\n')
    return {"KAFKA_OFFSETS_CONFIG": str(p)}


def test_each_bootstrap_source_is_recorded_where_it_wins(tmp_path: Path, cfg: dict[str, str]) -> None:
    props = tmp_path / "c.properties"
    props.write_text("bootstrap.servers=file:1\n")

    def source(env: dict[str, str], **given: object) -> tuple[str, str]:
        s = resolve_connection(ConnectionOptions(**given), {**cfg, **env}).settings  # type: ignore[arg-type]
        return s.bootstrap_servers, s.bootstrap_source

    assert source({}) == ("dev:1", "cluster profile 'dev'")
    assert source({"KAFKA_BOOTSTRAP_SERVERS": "env:1"}) == ("env:1", "KAFKA_BOOTSTRAP_SERVERS")
    assert source({}, command_config=str(props)) == ("file:1", f"{props}:1")
    assert source({}, overrides=("bootstrap.servers=x:1",)) == ("x:1", "-X bootstrap.servers")
    assert source({}, bootstrap="flag:1", overrides=("bootstrap.servers=x:1",)) == (
        "flag:1",
        "-b/--bootstrap-server",
    )
    with pytest.raises(UsageError, match="must be positive"):
        resolve_connection(ConnectionOptions(bootstrap="h:1", timeout="0s"), cfg)
    with pytest.raises(
        UsageError, match=r"--timeout 1500: give a unit, e.g. 1500ms or 1500s \(Kafka's tools"
    ):
        resolve_connection(ConnectionOptions(bootstrap="h:1", timeout=" 1500 "), cfg)


def test_config_show_reports_the_source_that_was_used(cfg: dict[str, str]) -> None:
    # an -X bootstrap.servers wins over the default profile: shown as such, not as the profile
    r = cli("config", "show", "-X", "bootstrap.servers=x:1", "-o", "json", env=cfg)
    doc = json.loads(r.stdout)
    assert (doc["bootstrap_servers"], doc["bootstrap_source"]) == ("x:1", "-X bootstrap.servers")


def test_commands_read_their_connection_options_from_the_context() -> None:
    root = typer.main.get_command(app)
    ctx = root.make_context("kafka-offsets", ["list"], resilient_parsing=True)
    cmd = root.get_command(ctx, "list")  # type: ignore[attr-defined]
    words = ["-b", "h:1", "--cluster", "c", "-X", "a=b", "--timeout", "5s", "--isolation", "READ_COMMITTED"]
    sub = cmd.make_context("list", words, parent=ctx)
    assert connection_options(sub) == ConnectionOptions(
        bootstrap="h:1", overrides=("a=b",), timeout="5s", isolation=Isolation.READ_COMMITTED, cluster="c"
    )
    assert connection_options(sub, timeout="2s").timeout == "2s"
