"""Every command's Prometheus output, from real runs, passes ``promtool check metrics``, with ``cluster``.

promtool is Debian's (``prometheus`` package; ``bash dev/system-deps.sh`` installs it): under CI=true a
missing promtool fails these tests. Each command that offers ``-o prometheus`` must appear in
:data:`RUNS` (a test fails when a new one does not), so no command's series escape the lint.
"""

from __future__ import annotations

import shutil
import subprocess
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.cli.options import OUTPUTS, Format
from kafka_offsets_cli.errors import MonitoringStatus
from kafka_offsets_cli.liveness.report import build_report
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.render import check_monitoring
from kafka_offsets_cli.render import liveness_metrics as lm
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.availability import unavailable
from tests.cli_runner import Run, cli

KEEP = {"retention.ms": "-1"}


def promtool() -> str:
    """The promtool binary, or fail (CI) / skip (locally) with how to get it."""
    path = shutil.which("promtool")
    if path is None:
        unavailable("promtool not found: `bash dev/system-deps.sh` installs Debian's prometheus package")
    return path


def lint(text: str) -> None:
    """``promtool check metrics`` accepts ``text`` without a single lint remark."""
    assert text.strip(), "no metrics"
    p = subprocess.run(
        [promtool(), "check", "metrics"], input=text, capture_output=True, text=True, timeout=60
    )
    assert (p.returncode, p.stdout + p.stderr) == (0, ""), text


def series_labels(text: str) -> list[dict[str, str]]:
    """The labels of every sample in ``text``."""
    return [labels for samples in parse_prometheus_text(text).values() for labels, _ in samples]


def uid() -> str:
    return uuid.uuid4().hex[:8]


# ----------------------------------------------------------------------------- pure renderers


def test_promtool_accepts_the_renderers_with_hostile_label_values() -> None:
    m = OffsetSpec.max_timestamp()
    now = 1_800_000_000_000
    results = [
        OffsetResult('we"ird\\topic', 0, m, 4, now - 1000),
        OffsetResult("orders", 1, m, None),
        OffsetResult("orders", 2, m, 9, now + 3_600_000),
        OffsetResult("orders", 3, m, None, error="NOT_LEADER_OR_FOLLOWER"),
    ]
    report = build_report(results, now, 300_000, 900_000, timestamp_types={"orders": "CreateTime"})
    labels = {"cluster": "kafka-1:9092,kafka-2:9092", "env": "pröd\nline", "team": 'a"b'}
    lint(lm.prometheus(report, labels))
    lint(lm.prometheus_down(MonitoringStatus.UNKNOWN, now, labels))
    lint(check_monitoring.prometheus_down(MonitoringStatus.UNKNOWN, now, ["b", "a"], {"env": "x"}))


# ----------------------------------------------------------------------------- real runs


@pytest.fixture(scope="module")
def data(bootstrap: str) -> dict[str, str]:
    """A topic with records (and a group committed on it) and an empty topic."""
    full, empty, group = f"prom-full-{uid()}", f"prom-empty-{uid()}", f"prom-g-{uid()}"
    create_topic(bootstrap, full, 2, config=KEEP)
    create_topic(bootstrap, empty, 1, config=KEEP)
    produce(bootstrap, full, [(p, None, None, b"x") for p in (0, 1) for _ in range(5)])
    commit_group_offsets(bootstrap, group, {(full, 0): 2, (full, 1): 5})
    return {"bootstrap": bootstrap, "full": full, "empty": empty, "group": group}


def _liveness(d: dict[str, str], *extra: str) -> Run:
    return cli("liveness", "-b", d["bootstrap"], "-t", f"{d['full']}|{d['empty']}", *extra)


def _lag(d: dict[str, str], *extra: str) -> Run:
    return cli("lag", "-b", d["bootstrap"], "-g", d["group"], *extra)


def _tiering(d: dict[str, str], *extra: str) -> Run:
    # topics without tiered storage here; tests/test_tiering_cmd.py lints tiered ones
    return cli("tiering", "-b", d["bootstrap"], "-t", f"{d['full']}|{d['empty']}", *extra)


#: How to run each command that offers ``-o prometheus`` (the check command has its own test: Spark).
RUNS: dict[str, Callable[..., Run]] = {"liveness": _liveness, "lag": _lag, "tiering": _tiering}

#: Every command offering ``-o prometheus`` but check (each must have a way to run in RUNS).
OFFERING = sorted(n for n, out in OUTPUTS.items() if Format.prometheus in out.formats and n != "check")


def test_liveness_is_among_the_commands_linted() -> None:
    assert "liveness" in OFFERING


@pytest.mark.parametrize("command", OFFERING)
def test_prometheus_stdout_passes_promtool_and_names_the_cluster(command: str, data: dict[str, str]) -> None:
    assert command in RUNS, f"{command} offers -o prometheus: add how to run it to RUNS"
    run = RUNS[command](data, "-o", "prometheus", "--label", "env=test", "--label", "dc=eu-1")
    assert run.code in (0, 1, 2), run.stderr
    lint(run.stdout)
    labels = series_labels(run.stdout)
    assert labels and all(lab["cluster"] == data["bootstrap"] for lab in labels)
    assert all(lab["env"] == "test" and lab["dc"] == "eu-1" for lab in labels)
    assert run.stdout.split("{", 2)[1].startswith(f'cluster="{data["bootstrap"]}",env="test",dc="eu-1"')


def test_liveness_file_and_profile_name_as_cluster(data: dict[str, str], tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[clusters.east]\nbootstrap_servers = "{data["bootstrap"]}"\n')
    out = tmp_path / "live.prom"
    env = {"KAFKA_OFFSETS_CONFIG": str(cfg)}
    run = cli(
        "liveness",
        "--cluster",
        "east",
        "-t",
        data["full"],
        "-o",
        "nagios",
        "--prometheus-file",
        str(out),
        env=env,
    )
    assert run.code == 0, run.stderr
    text = out.read_text()
    lint(text)
    assert {lab["cluster"] for lab in series_labels(text)} == {"east"}


def test_liveness_down_metrics_carry_the_cluster(tmp_path: Path) -> None:
    out = tmp_path / "down.prom"
    run = cli(
        "liveness", "-b", "127.0.0.1:1", "--timeout", "3s", "-o", "prometheus", "--prometheus-file", str(out)
    )
    assert run.code == 3
    for text in (run.stdout, out.read_text()):
        lint(text)
        got = parse_prometheus_text(text)
        assert got["kafka_offsets_liveness_up"] == [({"cluster": "127.0.0.1:1"}, 0.0)]


@pytest.mark.parametrize(("given", "message"), [("topic=x", "already use label"), ("bad", "NAME=VALUE")])
def test_bad_label_is_a_usage_error_before_connecting(given: str, message: str) -> None:
    run = cli("liveness", "-b", "127.0.0.1:1", "-o", "prometheus", "--label", given)
    assert run.code == 3 and message in run.stderr and run.stdout == ""  # UNKNOWN: a monitoring check


# ----------------------------------------------------------------------------- check (Spark)


@pytest.fixture(scope="module")
def spark(spark_runtime: Any) -> Any:
    """The module's Spark runtime (conftest.spark_runtime)."""
    return spark_runtime


def test_check_prints_prometheus_on_stdout_and_it_passes_promtool(
    data: dict[str, str], spark: Any, tmp_path: Path
) -> None:
    spec = tmp_path / "spec.yaml"
    full, group = data["full"], data["group"]
    spec.write_text(
        "clusters:\n"
        f"  east: {{bootstrap_servers: '{data['bootstrap']}'}}\n"
        "checks:\n"
        f"  - {{name: alive, type: liveness, cluster: east, topics: ['{full}'], warn: 5m, crit: 1h}}\n"
        f"  - {{name: lag, type: lag, cluster: east, groups: ['{group}'], warn_lag: 1, crit_lag: 99}}\n"
    )
    out = tmp_path / "check.prom"
    run = cli(
        "check", str(spec), "--master", "local[1]", "-o", "prometheus", "--label", "env=test",
        "--prometheus-file", str(out),
    )  # fmt: skip
    assert run.code == 1, run.stderr  # the group lags 3 > warn 1
    lint(run.stdout)
    assert run.stdout == out.read_text()  # the same metrics on stdout and in the file
    labels = series_labels(run.stdout)
    assert labels and all(lab["cluster"] == "east" and lab["env"] == "test" for lab in labels)
    got = parse_prometheus_text(run.stdout)
    assert got["kafka_offsets_check_status"] == [({"env": "test", "cluster": "east"}, 1.0)]
