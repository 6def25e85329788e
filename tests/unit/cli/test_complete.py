"""Shell completion without a cluster: typed options reach the callbacks; failures are silent."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

import pytest
import typer.main
from typer.core import TyperGroup

from kafka_offsets_cli.cli.app import app
from kafka_offsets_cli.cli.complete import complete_topic_partitions
from kafka_offsets_cli.cli.complete_shells import PATH_STATUS, path_kind
from kafka_offsets_cli.cli.connection import context_connection


def _context(*words: str) -> object:
    root = cast(TyperGroup, typer.main.get_command(app))
    ctx = root.make_context("kafka-offsets", list(words), resilient_parsing=True)
    sub = root.get_command(ctx, words[0])
    assert sub is not None
    return sub.make_context(words[0], list(words[1:]), parent=ctx, resilient_parsing=True)


def test_connection_options_are_read_from_the_parsed_context() -> None:
    words = ["--broker-list", "h:1", "--cluster", "prod", "-X", "a=b", "-Xc=d", "--command-config", "f.props"]
    ctx = _context("list", *words)
    assert context_connection(ctx) == {
        "bootstrap": "h:1",
        "cluster": "prod",
        "command_config": "f.props",
        "overrides": ["a=b", "c=d"],
    }
    assert context_connection(_context("lag", "-g", "x")) == {
        "bootstrap": None,
        "cluster": None,
        "command_config": None,
        "overrides": [],
    }


def complete(words: str, cword: int, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    full.update({"_KAFKA_OFFSETS_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)})
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli"], capture_output=True, text=True, env=full, timeout=60
    )


def test_unreachable_cluster_completes_nothing_quickly_and_silently() -> None:
    start = time.monotonic()
    p = complete("kafka-offsets list -b 127.0.0.1:1 -t ", 5)
    took = time.monotonic() - start
    assert (p.returncode, p.stdout.strip(), p.stderr) == (0, "", "")
    assert took < 30  # 2 s client limit plus interpreter start-up on a busy machine


def test_no_cluster_configured_completes_nothing_silently() -> None:
    p = complete("kafka-offsets lag --group ", 3)
    assert (p.returncode, p.stdout.strip(), p.stderr) == (0, "", "")


def test_bad_typed_options_complete_nothing_silently() -> None:
    p = complete("kafka-offsets list -b not-a-server -t ", 5)
    assert (p.returncode, p.stdout.strip(), p.stderr) == (0, "", "")


def test_commands_and_options_complete_without_a_cluster() -> None:
    assert complete("kafka-offsets con", 1).stdout.split() == ["config"]
    assert complete("kafka-offsets list --wa", 2).stdout.split() == ["--watch"]
    assert complete("kafka-offsets config s", 2).stdout.split() == ["show"]


def test_cluster_profile_names_complete_from_the_config_file(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("[clusters.prod]\nbootstrap_servers='p:1'\n[clusters.preprod]\n[clusters.dev]\n")
    p = complete("kafka-offsets list --cluster pr", 3, {"KAFKA_OFFSETS_CONFIG": str(cfg)})
    assert p.stdout.split() == ["preprod", "prod"]


def test_topic_partitions_completion_keeps_the_earlier_patterns(monkeypatch: pytest.MonkeyPatch) -> None:
    import kafka_offsets_cli.cli.complete as c

    # the cluster part is tested against a real broker (tests/test_completion_live.py)
    monkeypatch.setattr(c, "topic_names", lambda ctx: ["orders", "payments", "__consumer_offsets"])
    ctx = _context("list")
    assert complete_topic_partitions(ctx, [], "orders:0-2,pa") == ["orders:0-2,payments"]  # type: ignore[arg-type]
    assert complete_topic_partitions(ctx, [], "") == ["orders", "payments"]  # type: ignore[arg-type]
    assert complete_topic_partitions(ctx, [], "_") == ["__consumer_offsets"]  # type: ignore[arg-type]
    assert complete_topic_partitions(ctx, [], "orders:1") == []  # type: ignore[arg-type]


def answer(shell: str, words: str, **env: str) -> subprocess.CompletedProcess[str]:
    """What the program tells ``shell`` (zsh, fish) completing the end of ``words``."""
    full = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    full.update({"_KAFKA_OFFSETS_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": words, **env})
    return subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli"], capture_output=True, text=True, env=full, timeout=60
    )


NO_CLUSTER = ("lag -g ", "list -b 127.0.0.1:1 -t ", "list -s ", "rewind -g g --to ")


@pytest.mark.parametrize("words", NO_CLUSTER)
def test_bash_is_told_file_names_only_for_paths(words: str) -> None:
    # tests/test_completion_shells.py runs the script in bash; here the exit statuses it reads
    p = complete(f"kafka-offsets {words}", len(words.split()) + 1)
    assert (p.returncode, p.stdout.strip(), p.stderr) == (0, "", "")


def test_bash_is_told_where_a_file_or_a_directory_goes() -> None:
    assert complete("kafka-offsets lag --prometheus-file ", 3).returncode == PATH_STATUS["file"]
    assert complete("kafka-offsets check ", 2).returncode == PATH_STATUS["file"]  # check SPEC
    assert complete("kafka-offsets check --history ", 3).returncode == PATH_STATUS["dir"]


@pytest.mark.parametrize("words", NO_CLUSTER)
def test_zsh_and_fish_are_told_no_file_names_without_candidates(words: str) -> None:
    zsh = answer("zsh", f"kafka-offsets {words}")
    assert (zsh.returncode, zsh.stdout.strip(), zsh.stderr) == (0, "", "")  # Typer's answer: _files
    fish = answer("fish", f"kafka-offsets {words}", _TYPER_COMPLETE_FISH_ACTION="is-args")
    assert (fish.returncode, fish.stderr) == (0, "")  # 0: our (empty) arguments, fish adds no files


def test_zsh_and_fish_complete_file_names_for_paths() -> None:
    assert answer("zsh", "kafka-offsets lag --prometheus-file ").stdout.strip() == "_files"
    assert answer("zsh", "kafka-offsets check --history ").stdout.strip() == "_files -/"
    fish = answer("fish", "kafka-offsets rewind --export ", _TYPER_COMPLETE_FISH_ACTION="is-args")
    assert fish.returncode == 1  # fish's own file names
    names = answer("zsh", "kafka-offsets completion ").stdout
    assert names.startswith("_arguments") and '"fish"' in names
    got = answer("fish", "kafka-offsets completion f", _TYPER_COMPLETE_FISH_ACTION="get-args")
    assert got.stdout.split() == ["fish"]


def test_path_kind_reads_the_parameter() -> None:
    root = cast(TyperGroup, typer.main.get_command(app))
    ctx = root.make_context("kafka-offsets", ["rewind"], resilient_parsing=True)
    params = {p.name: p for p in root.get_command(ctx, "rewind").params}  # type: ignore[union-attr]
    assert path_kind(params["export"]) == "file"
    kinds = [path_kind(params[n]) for n in ("group", "topic", "to", "command_config")]
    assert kinds == [None, None, None, "file"]
    assert path_kind(root) is None  # a command: its option and subcommand names
