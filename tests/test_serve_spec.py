"""``serve --spec FILE``: several clusters at once from a ``check`` spec file (issue 31.1), on a real broker.

One scrape serves every cluster of the spec: a cluster that answers and one that cannot be reached
(``up 0``, HTTP 200), each check's series under its own ``check`` label, one ``# HELP``/``# TYPE``
per family (promtool accepts the whole body), and every lag value equal to ``lag -o json`` on the
same data (a group named outright and one matched by a pattern, the rule ``check`` uses). On the
tiered broker (``tiered_bootstrap``), a ``tiering`` check's series equal ``tiering -o prometheus``'s
for the same topic and thresholds.
"""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from dev import tiered
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli
from tests.test_prometheus_lint import lint, uid
from tests.test_serve import one, scrape, serve
from tests.unit.parse.test_spark_checkpoint import QUERY, checkpoint, offsets_file

pytestmark = pytest.mark.broker


def _one_scrape(spec: Path, document: dict[str, Any]) -> str:
    """``serve --spec`` of ``document`` (written to ``spec``): one scrape's body, promtool-clean, then
    stopped by SIGTERM (exit 0)."""
    spec.write_text(json.dumps(document))
    s = serve("--spec", str(spec))
    try:
        _code, _ctype, body = scrape(s.url)
    finally:
        exit_code, err = s.stop(signal.SIGTERM)
    assert exit_code == 0, err
    lint(body)
    return body


def test_every_cluster_and_check_of_the_spec_in_one_scrape(bootstrap: str, tmp_path: Path) -> None:
    topic, group = f"spec-{uid()}", f"spec-g-{uid()}"
    create_topic(bootstrap, topic, 2, config={"retention.ms": "-1"})
    produce(bootstrap, topic, [(p, None, None, b"x") for p in (0, 1) for _ in range(6)])
    commit_group_offsets(bootstrap, group, {(topic, 0): 1, (topic, 1): 6})
    kept, late = f"spec-day-{uid()}", f"spec-late-{uid()}"  # retention a day: a data-loss ETA
    create_topic(bootstrap, kept, 1, config={"retention.ms": str(86_400_000)})
    produce(bootstrap, kept, [(0, None, None, b"x") for _ in range(3)])
    commit_group_offsets(bootstrap, late, {(kept, 0): 1})
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        nowhere = f"127.0.0.1:{closed.getsockname()[1]}"
        spec = tmp_path / "spec.json"
        # a Structured Streaming query at offsets 2 and 4: its checkpoint, in a group's place
        query = checkpoint(tmp_path / "etl", {0: offsets_file(f'{{"{topic}":{{"0":2,"1":4}}}}')}, [0])
        checks = [
            {"name": "named", "type": "lag", "clusters": ["live", "gone"], "groups": [group], "warn_lag": 3,
             "crit_lag": 9},
            {"name": "pattern", "type": "lag", "cluster": "live", "groups": [group[:-3] + ".*"],
             "topics": [topic]},
            {"name": "alive", "type": "liveness", "cluster": "live", "topics": [topic], "warn": "1h",
             "crit": "1d"},
            {"name": "etl", "type": "lag", "cluster": "live", "spark_checkpoints": [query], "crit_lag": 3},
            {"name": "losing", "type": "lag", "cluster": "live", "groups": [late], "crit_loss_eta": "2d"},
        ]  # fmt: skip
        clusters = {"live": {"bootstrap_servers": bootstrap}, "gone": {"bootstrap_servers": nowhere}}
        document = {"version": 1, "defaults": {"timeout": "3s"}, "clusters": clusters, "checks": checks}
        # one HELP and TYPE per family though two clusters and three checks render them
        body = _one_scrape(spec, document)
    assert one(body, "kafka_offsets_up", cluster="live") == 1
    assert one(body, "kafka_offsets_up", cluster="gone") == 0
    assert one(body, "kafka_offsets_lag_up", cluster="gone", check="named") == 0
    assert one(body, "kafka_offsets_lag_status", cluster="live", check="named") == 1  # lag 5: warn 3, crit 9
    assert one(body, "kafka_offsets_collection_failed", cluster="gone", measure="named") == 1
    rows = {
        (r["topic"], r["partition"]): r["lag"]
        for r in cli("lag", "-b", bootstrap, "-g", group, "-o", "json").json()
    }
    assert rows == {(topic, 0): 5, (topic, 1): 0}
    for check in ("named", "pattern"):
        got = {
            (labels["topic"], int(labels["partition"])): v
            for labels, v in parse_prometheus_text(body)["kafka_offsets_lag_partition_lag"]
            if labels.get("check") == check and labels["cluster"] == "live"
        }
        assert got == rows, check
    assert one(body, "kafka_offsets_liveness_status", cluster="live", check="alive") == 0
    common = ("lag", "-b", bootstrap)
    # the query's lag only (lag --spark-checkpoint's rows), never every group's
    etl = {
        (labels["group"], labels["topic"], int(labels["partition"])): v
        for labels, v in parse_prometheus_text(body)["kafka_offsets_lag_partition_lag"]
        if labels.get("check") == "etl"
    }
    assert etl == {(f"spark:{QUERY}", topic, 0): 4, (f"spark:{QUERY}", topic, 1): 2}
    assert one(body, "kafka_offsets_lag_status", cluster="live", check="etl") == 2  # lag 4 > crit 3
    # the same checkpoint named by a file-system URI (pyarrow's file systems): the same rows
    local, uri = ([*common, "--spark-checkpoint", p, "-o", "json"] for p in (query, Path(query).as_uri()))
    assert cli(*uri).json() == cli(*local).json() != []
    # the spec's loss-ETA threshold: the ETA (about a day) at or below 2d is CRITICAL
    assert one(body, "kafka_offsets_lag_status", cluster="live", check="losing") == 2
    [direct] = cli("lag", "-b", bootstrap, "-g", late, "--loss-eta", "-o", "json").json()
    served = one(body, "kafka_offsets_lag_partition_loss_eta_seconds", check="losing", topic=kept)
    assert 0 <= served - direct["loss_eta_ms"] / 1000 < 60  # the same record's, served a little earlier


def test_options_the_spec_replaces_are_refused(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "version: 1\nclusters: {c: {bootstrap_servers: '127.0.0.1:1'}}\n"
        "checks: [{name: l, type: lag, cluster: c, groups: [g]}]\n"
    )
    run = cli("serve", "--spec", str(spec), "-b", "127.0.0.1:9092", "--warn-lag", "5")
    assert run.code == 2, run.stderr
    assert "not with --bootstrap-server, --warn-lag" in run.stderr


#: the families whose values are read off each run's clock: compared within a minute
CLOCKED = ("kafka_offsets_tiering_backlog_age_seconds", "kafka_offsets_tiering_last_run_timestamp_seconds")


def _tiering_series(
    body: str, drop: tuple[str, ...], **where: str
) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """The ``kafka_offsets_tiering_*`` samples of ``body`` matching ``where``, without the ``drop`` labels."""
    return {
        (name, frozenset((k, v) for k, v in labels.items() if k not in drop)): value
        for name, samples in parse_prometheus_text(body).items()
        if name.startswith("kafka_offsets_tiering_")
        for labels, value in samples
        if where.items() <= labels.items()
    }


def test_a_tiering_check_is_served_as_tiering_prints_it(tiered_bootstrap: str, tmp_path: Path) -> None:
    topic = f"spec-tiers-{uid()}"
    # uploads held back: every record is a backlog, stamped two hours ago (an age between warn and crit)
    held = {"remote.log.copy.disable": "true", "local.retention.ms": "-2"}
    tiered.create_topic(tiered_bootstrap, topic, 2, config=held)
    stamp = int(time.time() * 1000) - 2 * 3_600_000
    produce(tiered_bootstrap, topic, [(p, stamp, None, b"x") for p in (0, 1) for _ in range(5)])
    thresholds = {"warn_records": 3, "crit_records": 100, "warn_age": "1h", "crit_age": "1d"}
    check = {"name": "tiers", "type": "tiering", "topics": [topic], **thresholds}
    clusters = {"tiered": {"bootstrap_servers": tiered_bootstrap}}
    body = _one_scrape(tmp_path / "spec.json", {"clusters": clusters, "checks": [check]})
    options = [a for k, v in thresholds.items() for a in (f"--{k.replace('_', '-')}", str(v))]
    direct = cli("tiering", "-b", tiered_bootstrap, "-t", topic, *options, "-o", "prometheus")
    assert direct.code == 1, direct.stderr  # 5 records > 3 and 2 h > 1 h, below 100 and 1 d: WARNING
    served = _tiering_series(body, ("cluster", "check"), cluster="tiered", check="tiers")
    printed = _tiering_series(direct.stdout, ("cluster",))
    assert served.keys() == printed.keys()
    assert (
        served[("kafka_offsets_tiering_backlog_records", frozenset({("topic", topic), ("partition", "0")}))]
        == 5
    )
    for key, value in printed.items():
        if key[0] in CLOCKED:  # the two runs' clocks, seconds apart
            assert abs(served[key] - value) < 60, key
        else:
            assert served[key] == value, key
