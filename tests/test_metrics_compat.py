"""``lag -o prometheus --metrics-compat`` on a real broker (issue 31.2): Debian's promtool accepts the
alias families (but for kafka_exporter's own ``*_sum`` gauges, see :data:`UPSTREAM_REMARKS`), and
every alias value equals ``lag -o json`` (the pure rules: tests/unit/render/test_lag_compat.py)."""

from __future__ import annotations

import json
import subprocess
import uuid

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli
from tests.test_prometheus_lint import lint, promtool
from tests.test_serve import scrape, serve

#: promtool's lint remark on gauges named ``*_sum`` (a histogram's suffix): kafka_exporter's own names,
#: kept as dashboards use them; the only remarks the aliases may draw.
UPSTREAM_REMARKS = {
    f'{name} non-histogram and non-summary metrics should not have "_sum" suffix'
    for name in ("kafka_consumergroup_current_offset_sum", "kafka_consumergroup_lag_sum")
}


@pytest.fixture(scope="module")
def committed(bootstrap: str) -> dict[str, str]:
    """Topic T (2 partitions, 5 and 3 records), group G committed at 2 and 3 (lag 3 and 0)."""
    u = uuid.uuid4().hex[:8]
    t, g = f"compat-t-{u}", f"compat-g-{u}"
    create_topic(bootstrap, t, 2, config={"retention.ms": "-1"})
    produce(
        bootstrap, t, [(0, None, None, b"x") for _ in range(5)] + [(1, None, None, b"x") for _ in range(3)]
    )
    commit_group_offsets(bootstrap, g, {(t, 0): 2, (t, 1): 3})
    return {"b": bootstrap, "t": t, "g": g}


def test_aliases_pass_promtool_and_equal_lag_json(committed: dict[str, str]) -> None:
    b, t, g = committed["b"], committed["t"], committed["g"]
    common = ("lag", "-b", b, "-g", g, "--time-lag")
    run = cli(
        *common,
        "-o",
        "prometheus",
        "--metrics-compat",
        "kafka_exporter",
        "--metrics-compat",
        "kafka-lag-exporter",
    )
    assert run.code == 0, run.stderr
    lint = subprocess.run(
        [promtool(), "check", "metrics"], input=run.stdout, capture_output=True, text=True, timeout=60
    )
    remarks = {line.strip() for line in (lint.stdout + lint.stderr).splitlines() if line.strip()}
    assert remarks == UPSTREAM_REMARKS, run.stdout  # promtool exits 1 on exactly these, nothing else
    got = parse_prometheus_text(run.stdout)

    records = json.loads(cli(*common, "-o", "json").stdout)
    rows = {(r["topic"], str(r["partition"])): r for r in records}
    assert {k: (r["committed"], r["lag"]) for k, r in rows.items()} == {(t, "0"): (2, 3), (t, "1"): (3, 0)}

    def by_partition(name: str) -> dict[tuple[str, str], float]:
        return {(labels["topic"], labels["partition"]): v for labels, v in got[name]}

    for name, field in (
        ("kafka_consumergroup_lag", "lag"),
        ("kafka_consumergroup_current_offset", "committed"),
        ("kafka_consumergroup_group_lag", "lag"),
        ("kafka_consumergroup_group_offset", "committed"),
        ("kafka_topic_partition_current_offset", "end"),
        ("kafka_topic_partition_oldest_offset", "log_start"),
        ("kafka_partition_latest_offset", "end"),
        ("kafka_partition_earliest_offset", "log_start"),
    ):
        assert by_partition(name) == {k: r[field] for k, r in rows.items()}, name
    total = sum(r["lag"] for r in records)
    assert got["kafka_consumergroup_lag_sum"] == [({"cluster": b, "consumergroup": g, "topic": t}, total)]
    assert got["kafka_consumergroup_group_sum_lag"] == [
        ({"cluster": b, "cluster_name": b, "group": g}, total)
    ]
    assert [v for _, v in got["kafka_consumergroup_group_max_lag"]] == [max(r["lag"] for r in records)]
    assert got["kafka_consumergroup_members"] == [({"cluster": b, "consumergroup": g}, 0)]  # nobody joined
    # with --time-lag the seconds families are there, equal to the primary series of the same text
    primary = {
        (lb["topic"], lb["partition"]): v for lb, v in got["kafka_offsets_lag_partition_time_lag_seconds"]
    }
    assert by_partition("kafka_consumergroup_group_lag_seconds") == primary
    assert all(
        lb["member_host"] == lb["consumer_id"] == lb["client_id"] == ""  # no --members
        for lb, _ in got["kafka_consumergroup_group_lag"]
    )


@pytest.mark.parametrize(("command", "code"), [("lag", 2), ("liveness", 3), ("tiering", 3)])
def test_metrics_compat_without_prometheus_output_is_a_usage_error(command: str, code: int) -> None:
    # a usage error: 2, but 3 (UNKNOWN) from a monitoring run (liveness, tiering, lag -o prometheus)
    run = cli(command, "-b", "127.0.0.1:1", "--metrics-compat", "kafka_exporter", "-o", "json")
    assert run.code == code and "--metrics-compat needs -o prometheus" in run.stderr, run.stderr
    run = cli(command, "-b", "127.0.0.1:1", "--metrics-compat", "kafka_lag_exporter", "-o", "prometheus")
    assert run.code == 3 and "--metrics-compat: unknown 'kafka_lag_exporter'" in run.stderr, run.stderr


def test_liveness_and_tiering_offset_aliases_equal_tiering_json(committed: dict[str, str]) -> None:
    """liveness and tiering give the exporters' partition-offset families from their own rows:
    tiering both (its earliest and latest answers), liveness only the latest (it never lists the
    log start); each equals ``tiering -o json``'s value, and promtool has no remark on them."""
    b, t = committed["b"], committed["t"]
    both = ("--metrics-compat", "kafka_exporter,kafka-lag-exporter")
    records = json.loads(cli("tiering", "-b", b, "-t", t, "-o", "json").stdout)
    latest = {(r["topic"], str(r["partition"])): r["latest"] for r in records}
    earliest = {(r["topic"], str(r["partition"])): r["earliest"] for r in records}
    assert latest == {(t, "0"): 5, (t, "1"): 3} and earliest == {(t, "0"): 0, (t, "1"): 0}
    latest_only = {"kafka_topic_partition_current_offset": latest, "kafka_partition_latest_offset": latest}
    earliest_too = {
        **latest_only,
        "kafka_topic_partition_oldest_offset": earliest,
        "kafka_partition_earliest_offset": earliest,
    }
    for command, families in (("tiering", earliest_too), ("liveness", latest_only)):
        run = cli(command, "-b", b, "-t", t, "-o", "prometheus", *both)
        assert run.code == 0, run.stderr
        lint(run.stdout)
        got = parse_prometheus_text(run.stdout)
        assert f"kafka_offsets_{command}_partition_status" in got  # the primary families stay first
        aliases = {name: v for name, v in got.items() if not name.startswith("kafka_offsets_")}
        assert set(aliases) == set(families), command  # liveness: no earliest family
        for name, want in families.items():
            assert {(lb["topic"], lb["partition"]): v for lb, v in aliases[name]} == want, (command, name)
        assert {lb.get("cluster_name") for lb, _ in got["kafka_partition_latest_offset"]} == {b}


def test_serve_adds_the_same_aliases_to_its_series(committed: dict[str, str]) -> None:
    b, t, g = committed["b"], committed["t"], committed["g"]
    s = serve(
        *("-b", b, "-g", g, "-t", t, "--liveness", "--tiering"),
        *("--metrics-compat", "kafka_exporter", "--min-interval", "1h"),
    )
    try:
        code, _, body = scrape(s.url)
    finally:
        s.process.kill()
        s.process.communicate()
    assert code == 200
    got = parse_prometheus_text(body)
    lag = {lb["partition"]: v for lb, v in got["kafka_consumergroup_lag"] if lb["topic"] == t}
    primary = {lb["partition"]: v for lb, v in got["kafka_offsets_lag_partition_lag"] if lb["topic"] == t}
    assert lag == primary == {"0": 3, "1": 0}
    assert "kafka_consumergroup_group_lag" not in got  # only the exporter asked for
    # lag, liveness and tiering all give the partition offsets: each series once in the scrape
    ends = [(lb["partition"], v) for lb, v in got["kafka_topic_partition_current_offset"] if lb["topic"] == t]
    assert sorted(ends) == [("0", 5), ("1", 3)]
