"""Start-up stays light: ``--help`` imports no command, a command imports only itself.

Each case runs in a fresh interpreter (this test process has imported everything already)
and reports which modules the run left in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import cast

import pytest
import typer.main
from typer.core import TyperGroup

from kafka_offsets_cli.cli import app as app_module

PROBE = textwrap.dedent(
    """
    import json, sys
    sys.argv = ["kafka-offsets", *json.loads(sys.argv[1])]
    from kafka_offsets_cli.__main__ import main
    try:
        main()
    except SystemExit:
        pass
    sys.stdout.flush()
    print(json.dumps(sorted(sys.modules)), file=sys.stderr)
    """
)

COMMAND_MODULES = {f"kafka_offsets_cli.cli.{e.module}" for e in app_module.COMMANDS.values()}
HEAVY = ("confluent_kafka", "rich", "pyspark", "py4j", "pyarrow", "yaml", "regex")


def imported(*args: str) -> set[str]:
    """The modules a fresh ``kafka-offsets ARGS`` run imported."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(list(args))], capture_output=True, text=True, timeout=60
    )
    return set(json.loads(out.stderr.strip().splitlines()[-1]))


def test_root_help_imports_no_command_and_no_heavy_library() -> None:
    mods = imported("--help")
    assert not mods & COMMAND_MODULES
    assert not {m.split(".")[0] for m in mods} & set(HEAVY)


@pytest.mark.parametrize("name", sorted(app_module.COMMANDS))
def test_a_command_imports_only_its_own_module(name: str) -> None:
    mods = imported(name, "--help")
    entry = app_module.COMMANDS[name]
    assert f"kafka_offsets_cli.cli.{entry.module}" in mods
    assert not (mods & COMMAND_MODULES) - {f"kafka_offsets_cli.cli.{entry.module}"}
    assert not {m.split(".")[0] for m in mods} & {"pyspark", "py4j", "pyarrow"}


def test_the_help_table_matches_each_commands_own_help() -> None:
    """``kafka-offsets --help`` lists COMMANDS' one-liners: each must be what the command itself says."""
    root = cast(TyperGroup, typer.main.get_command(app_module.app))
    ctx = root.make_context("kafka-offsets", [], resilient_parsing=True)
    assert root.list_commands(ctx) == list(app_module.COMMANDS)
    for name, entry in app_module.COMMANDS.items():
        cmd = root.get_command(ctx, name)
        assert cmd is not None and cmd.name == name
        assert (cmd.help or "").strip().splitlines()[0] == entry.help


def test_unknown_command_suggests_the_close_one() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", "lsit"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    assert "No such command 'lsit'" in out.stderr
    assert "Did you mean 'list'?" in out.stderr


#: what ``lag`` with a machine format never uses, each imported where it is used: the table layout,
#: the decision-list compiler (rules rate rows only in a monitoring run or a table), staleness's rules
#: and share and streams groups' descriptions
LAG_DEFERRED = (
    "kafka_offsets_cli.render.fit",
    "kafka_offsets_cli.render.fitted",
    "kafka_offsets_cli.decide",
    "kafka_offsets_cli.measures.lag.stale",
    "kafka_offsets_cli.models.group_descriptions",
)


def test_lag_loads_its_command_without_what_a_machine_format_never_uses() -> None:
    mods = imported("lag", "--help")
    assert {
        "kafka_offsets_cli.cli.lag_cmd",
        "kafka_offsets_cli.cli.lag_view",
        "kafka_offsets_cli.lag.run",
    } <= mods
    assert not mods & set(LAG_DEFERRED)
