"""Install as documented: the README's install commands, ``completion``, ``check --example``, and
spec-file clusters that name a profile of the config file.

The built wheel, installed as each README line says in a clean venv, is tests/test_install_matrix.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from dev.kafka_data import create_topic, produce
from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.errors import SpecFileError
from tests import doc_pages
from tests.availability import unavailable
from tests.cli_runner import subprocess_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "kafka_offsets_cli" / "examples" / "check-spec.example.yaml"
COMPLETIONS = {
    "bash": "completions/kafka-offsets.bash",
    "zsh": "completions/_kafka-offsets",
    "fish": "completions/kafka-offsets.fish",
}


@pytest.mark.parametrize("shell", sorted(COMPLETIONS))
def test_completion_prints_the_committed_script(shell: str) -> None:
    run = subprocess_cli("completion", shell)
    assert run.code == 0, run.stderr
    assert run.stdout == (ROOT / COMPLETIONS[shell]).read_text(encoding="utf-8")


def test_completion_of_an_unknown_shell_is_a_usage_error() -> None:
    run = subprocess_cli("completion", "tcsh")
    assert run.code == 2 and run.stdout == ""
    assert "'tcsh' is not one of 'bash', 'zsh', 'fish'" in run.stderr


def readme_lines(*starts: str) -> list[str]:
    """The documentation's command lines (README.md, then docs/*.md) starting with each of ``starts``
    (comments cut), in that order."""
    readme = doc_pages.text().splitlines()
    found = []
    for start in starts:
        lines = [line.split("  #")[0].strip() for line in readme if line.startswith(start)]
        assert lines, f"the README no longer shows {start!r}"
        found.append(lines[0])
    return found


def test_the_readme_example_validates_as_shipped(tmp_path: Path) -> None:
    """Issue 26 item 9: the README's two lines exited 2, the example needing $KAFKA_DR_PASSWORD.

    ``--validate`` checks the file where the secrets are not (an editor, CI): an unset secret
    variable is a note there, exit 0; the run itself still refuses it.
    """
    lines = readme_lines(
        "kafka-offsets check --example > fleet.yaml", "kafka-offsets check fleet.yaml --validate"
    )
    assert lines == [
        "kafka-offsets check --example > fleet.yaml",
        "kafka-offsets check fleet.yaml --validate",
    ]
    shim = tmp_path / "bin" / "kafka-offsets"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m kafka_offsets_cli "$@"\n')
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_DR_PASSWORD", "KAFKA_OFFSETS_CLUSTER")}
    env.update(PATH=f"{shim.parent}:{env['PATH']}", PYTHONPATH=str(ROOT), NO_COLOR="1")
    p = subprocess.run(
        ["bash", "-c", "set -e; " + "; ".join(lines)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p
    example = EXAMPLE.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(example, 1) if "sasl_password_env: KAFKA_DR_PASSWORD" in text)
    unset = f"environment variable KAFKA_DR_PASSWORD is not set (line {line})"
    assert (tmp_path / "fleet.yaml").read_text(encoding="utf-8") == EXAMPLE.read_text(encoding="utf-8")
    assert p.stderr.splitlines() == [
        "fleet.yaml: valid: 4 check(s) (2 liveness, 2 lag) on 2 cluster(s)",
        f"note: clusters.dr.sasl_password_env: {unset}: a run needs it",
    ], p
    run = subprocess.run(
        ["bash", "-c", "kafka-offsets check fleet.yaml -o nagios"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 3 and unset in run.stderr, run  # the run itself still needs the secret: UNKNOWN
    assert run.stdout.startswith("KAFKA CHECK UNKNOWN - fleet.yaml: clusters.dr.sasl_password_env: "), run


def test_check_example_prints_the_documented_spec_which_validates(tmp_path: Path) -> None:
    run = subprocess_cli("check", "--example")
    assert run.code == 0, run.stderr
    assert run.stdout == EXAMPLE.read_text(encoding="utf-8")
    fleet = tmp_path / "fleet.yaml"
    fleet.write_text(run.stdout)
    ok = subprocess_cli("check", str(fleet), "--validate", env={"KAFKA_DR_PASSWORD": "x"})
    assert ok.code == 0, ok.stderr
    assert "valid: 4 check(s)" in ok.stderr


def readme_blocks(section: str) -> str:
    """The shell code blocks of the README section titled ``section``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"```sh\n(.*?)```", body, re.S))


def test_readme_installs_from_the_checkout_never_from_an_index() -> None:
    install = readme_blocks("Installing")
    assert "pipx install .  " in install and "pipx install '.[spark]'" in install
    everywhere = doc_pages.text()
    # not on a package index: an install by the bare name fails
    assert not re.search(r"pip[x]? install '?kafka-offsets", everywhere)
    for shell in COMPLETIONS:  # and completion with pipx is the completion command
        assert f"kafka-offsets completion {shell} > " in install


# ----------------------------------------------------------------------------- spec clusters by profile


def profiles(tmp_path: Path, bootstrap: str) -> dict[str, str]:
    """A config file with profile ``dev`` (and ``KAFKA_OFFSETS_CONFIG`` naming it)."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[clusters.dev]\nbootstrap_servers = "{bootstrap}"\n'
        '[clusters.dev.properties]\n"client.id" = "from-profile"\n"socket.timeout.ms" = "20000"\n'
    )
    return {"KAFKA_OFFSETS_CONFIG": str(config)}


def test_a_spec_cluster_takes_a_profile_and_overrides_it(tmp_path: Path) -> None:
    env = profiles(tmp_path, "k1:9092")
    spec = parse_spec_text(
        "clusters:\n"
        "  a: {profile: dev}\n"
        "  b: {profile: dev, bootstrap_servers: 'k2:9092', timeout: 5s, properties: {client.id: mine}}\n"
        "checks: [{name: x, type: liveness, clusters: [a, b], topics: [t], warn: 1m, crit: 2m}]\n",
        source="s.yaml",
        base_dir=tmp_path,
        environ=env,
    )
    a, b = spec.clusters["a"].settings, spec.clusters["b"].settings
    assert a.bootstrap_servers == "k1:9092" and b.bootstrap_servers == "k2:9092"
    assert a.librdkafka_config()["client.id"] == "from-profile"
    assert b.librdkafka_config()["client.id"] == "mine"  # the entry's own settings win
    assert b.librdkafka_config()["socket.timeout.ms"] == "20000"  # the rest is the profile's
    assert b.timeout_ms == 5000


def test_an_unknown_profile_is_a_problem_with_its_line(tmp_path: Path) -> None:
    env = profiles(tmp_path, "k1:9092")
    with pytest.raises(SpecFileError) as info:
        parse_spec_text(
            "clusters:\n  a: {profile: nope}\n"
            "checks: [{name: x, type: liveness, cluster: a, topics: [t], warn: 1m, crit: 2m}]\n",
            source="s.yaml",
            base_dir=tmp_path,
            environ=env,
        )
    assert info.value.problems == [
        f"clusters.a.profile: no such cluster profile in {tmp_path / 'config.toml'} (profiles: dev) (line 2)"
    ]


@pytest.mark.spark
def test_check_runs_on_a_cluster_named_by_profile(bootstrap: str, tmp_path: Path) -> None:
    topic = f"prof-{uuid.uuid4().hex[:6]}"
    create_topic(bootstrap, topic, 2)
    now = int(time.time() * 1000)
    produce(bootstrap, topic, [(p, now, None, b"x") for p in range(2)])
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "clusters: {k: {profile: dev}}\n"
        f"checks: [{{name: alive, type: liveness, cluster: k, topics: [{topic}], warn: 1h, crit: 2h}}]\n"
    )
    run = subprocess_cli(
        "check",
        str(spec),
        "-o",
        "json",
        "--master",
        "local[1]",
        env=profiles(tmp_path, bootstrap),
        timeout=300,
    )
    if run.code == 3 and "Spark" in run.stderr:
        unavailable(f"Spark could not start: {run.stderr[-500:]}")
    assert run.code == 0, run.stderr
    doc = run.json()
    assert doc["status"] == "OK"
    rows = {(r["cluster"], r["topic"], r["partition"]): r["offset"] for r in doc["partitions"]}
    assert rows == {("k", topic, 0): 0, ("k", topic, 1): 0}
