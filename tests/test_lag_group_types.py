"""`kafka-offsets lag` over share and streams groups against a real Kafka 4.3.1, checked against
Kafka's own ``kafka-share-groups.sh --describe`` (ShareGroupCommand) and ``kafka-streams-groups.sh
--describe --offsets`` (StreamsGroupCommand).

A share group is made by Kafka's console share consumer: it reads part of a topic whose records carry
known CreateTime timestamps, acknowledging what it read, and stops. Each share-partition's row has
the start offset (in ``committed``) and the lag Kafka's tool shows (START-OFFSET, LAG), type
``share``, and the exact time lag: the age of the record at the start offset, against the timestamps
the test produced. A streams group is a real Kafka Streams application (``group.protocol=streams``,
:mod:`dev.streams`) held on a record: its rows equal Kafka's tool's CURRENT-OFFSET, LOG-END-OFFSET
and OFFSET-LAG while it runs, and stay once it is closed (Empty), where Kafka's tool shows none.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from dev import kafka as dev_kafka
from dev import streams as dev_streams
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli
from tests.kafka_helpers import (
    SHARE_GROUP_COMMAND,
    group_tool_table,
    kafka_tool,
    own_broker,
    read_as_share_group,
)
from tests.test_prometheus_lint import lint

pytestmark = [pytest.mark.broker]

S = 1000
B = 1_790_000_000_000
RECORDS = 10  # per partition, one second apart from B (partition 1 half a second later)
READ = 7
KEEP = {"retention.ms": "-1"}
STREAMS_GROUP_COMMAND = "org.apache.kafka.tools.streams.StreamsGroupCommand"


def uid() -> str:
    return uuid.uuid4().hex[:8]


def stamp(partition: int, offset: int) -> int:
    """The CreateTime the test gave the record at ``offset`` of ``partition``."""
    return B + offset * S + partition * (S // 2)


@pytest.fixture(scope="module")
def topic(bootstrap: str) -> str:
    name = create_topic(bootstrap, f"lag-share-{uid()}", partitions=2, config=KEEP)
    produce(bootstrap, name, [(p, stamp(p, i), None, f"{p}-{i}") for p in (0, 1) for i in range(RECORDS)])
    return name


@pytest.fixture(scope="module")
def share_group(bootstrap: str, topic: str) -> str:
    """A share group that read (and acknowledged) READ records of ``topic``, then stopped."""
    group = f"lag-sg-{uid()}"
    read_as_share_group(bootstrap, topic, group, READ)
    return group


def lag_json(*args: str) -> list[dict[str, Any]]:
    r = cli("lag", *args, "-o", "json")
    assert r.code == 0, r.stderr
    return list(r.json())


def test_share_rows_equal_kafka_share_groups_describe(bootstrap: str, topic: str, share_group: str) -> None:
    rows = lag_json("-b", bootstrap, "-g", share_group, "--time-lag")
    kafka = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", share_group)
    theirs = {(r["TOPIC"], int(r["PARTITION"])): (r["START-OFFSET"], r["LAG"]) for r in kafka}
    ours = {(r["topic"], r["partition"]): (_cell(r["committed"]), _cell(r["lag"])) for r in rows}
    assert ours == theirs, (rows, kafka)
    assert {r["group_type"] for r in rows} == {"share"}
    assert sum(r["end"] for r in rows) == 2 * RECORDS
    started = [r for r in rows if r["committed"] is not None]
    assert started, rows  # the consumer read READ records: some share-partition has a start offset
    for r in started:
        if r["committed"] < r["end"]:  # the age of the record at the start offset, exactly
            assert r["time_lag_ms"] == r["taken_at_ms"] - stamp(r["partition"], r["committed"]), r
        else:
            assert r["time_lag_ms"] == 0, r


def _cell(value: int | None) -> str:
    return "-" if value is None else str(value)


def test_every_group_run_lists_the_share_group_and_type_filters(
    bootstrap: str, topic: str, share_group: str
) -> None:
    every = lag_json("-b", bootstrap, "-t", topic)
    assert {r["group_type"] for r in every if r["group"] == share_group} == {"share"}
    only = lag_json("-b", bootstrap, "-t", topic, "--type", "share,streams")
    assert {r["group"] for r in only} >= {share_group}
    assert {r["group_type"] for r in only} <= {"share", "streams"}
    other = cli("lag", "-b", bootstrap, "-t", topic, "--type", "classic,consumer", "-o", "json")
    assert share_group not in {r["group"] for r in (other.json() if other.code == 0 else [])}, other.stderr
    table = cli("lag", "-b", bootstrap, "-g", share_group, "--by-partition", "-o", "table")
    assert table.code == 0 and "TYPE" in table.stdout and "share" in table.stdout, table.stdout


def test_a_share_group_is_monitored_by_the_same_rules_with_its_type_label(
    bootstrap: str, topic: str, share_group: str
) -> None:
    """Thresholds, nagios and Prometheus as for any group; its series carry ``type="share"``."""
    rows = lag_json("-b", bootstrap, "-g", share_group)
    lag, most = sum(r["lag"] or 0 for r in rows), max(r["lag"] or 0 for r in rows)
    assert most > 0, rows
    # thresholds are per partition, exceeded when passed: the partition with the most lag passes them
    prom = cli("lag", "-b", bootstrap, "-g", share_group, "--warn-lag", str(most - 1), "-o", "prometheus")
    assert prom.code == 1, prom.stderr  # WARNING
    lint(prom.stdout)
    got = parse_prometheus_text(prom.stdout)
    labels = {"cluster": bootstrap, "group": share_group, "type": "share"}
    assert got["kafka_offsets_lag_group_lag"] == [(labels, lag)]
    assert got["kafka_offsets_lag_group_status"] == [(labels, 1)]
    assert {(s["type"], s["topic"]) for s, _ in got["kafka_offsets_lag_partition_lag"]} == {("share", topic)}
    nagios = cli("lag", "-b", bootstrap, "-g", share_group, "--crit-lag", str(most - 1), "-o", "nagios")
    assert nagios.code == 2 and nagios.stdout.startswith("KAFKA LAG CRITICAL"), nagios.stdout


def test_share_summary_state_equals_kafka_share_groups_state(bootstrap: str, share_group: str) -> None:
    [summary] = lag_json("-b", bootstrap, "-g", share_group, "--summary")
    [kafka] = group_tool_table(
        SHARE_GROUP_COMMAND, bootstrap, "--describe", "--state", "--group", share_group
    )
    assert (summary["group_type"], summary["group_state"], summary["members"]) == (
        "share",
        kafka["STATE"].lower(),
        0,
    ), (summary, kafka)


def test_a_wrong_type_is_a_usage_error(bootstrap: str) -> None:
    r = cli("lag", "-b", bootstrap, "--type", "queue")
    assert r.code == 2 and "--type takes classic, consumer, share, streams" in r.stderr, r.stderr


def test_streams_rows_equal_kafka_streams_groups_describe_offsets(
    bootstrap: str, kafka_classpath: str, tmp_path: Path
) -> None:
    """While the application runs, held on a record (a lag that stays), our rows equal Kafka's tool's;
    once it is closed (Empty) Kafka's tool shows no offsets and ours still show the committed ones."""
    source, sink, group = (f"{k}-{uid()}" for k in ("lag-st-in", "lag-st-out", "lag-st-app"))
    create_topic(bootstrap, source, 2, config=KEEP)
    create_topic(bootstrap, sink, 2)
    produce(bootstrap, source, [(p, stamp(p, i), None, f"v{p}-{i}") for p in (0, 1) for i in range(5)])
    # through a repartition topic: the group reads (and commits) an internal topic too
    app = dev_streams.StreamsApp(bootstrap, group, source, sink, tmp_path / "streams-state", repartition=True)
    try:
        app.wait_for("RUNNING", 120)
        app.wait_for("PROCESSED 10", 60)
        _wait_committed(bootstrap, group, source, 5)
        held = [(0, stamp(0, 5), None, "hold"), *((0, stamp(0, i), None, f"v0-{i}") for i in range(6, 9))]
        produce(bootstrap, source, held)
        app.wait_for("HOLDING", 60)
        time.sleep(1)  # commits every 100 ms: the last one before the hold is in
        rows = lag_json("-b", bootstrap, "-g", group, "--time-lag")
        kafka = group_tool_table(
            STREAMS_GROUP_COMMAND, bootstrap, "--describe", "--offsets", "--verbose", "--group", group
        )
        assert kafka and "CURRENT-OFFSET" in kafka[0], kafka
        theirs = {
            (r["TOPIC"], int(r["PARTITION"])): (r["CURRENT-OFFSET"], r["LOG-END-OFFSET"], r["OFFSET-LAG"])
            for r in kafka
        }
        ours = {
            (r["topic"], r["partition"]): (_cell(r["committed"]), _cell(r["end"]), _cell(r["lag"]))
            for r in rows
        }
        # a partition with nothing committed (the repartition topic's, empty here): Kafka's tool shows
        # lag 0, ours is null (no-commit), as for every group type (README: differences)
        uncommitted = {k for k, v in ours.items() if v[0] == "-"}
        assert all(theirs.get(k, ("-", "", ""))[0] == "-" for k in uncommitted), (rows, kafka)
        assert {k: v[:2] for k, v in ours.items()} == {k: v[:2] for k, v in theirs.items()}, (rows, kafka)
        assert {k: v for k, v in ours.items() if k not in uncommitted} == {
            k: v for k, v in theirs.items() if k not in uncommitted
        }, (rows, kafka)
        assert all(r["state"] == "no-commit" for r in rows if r["committed"] is None), rows
        [internal] = {t for t, _ in ours} - {source}  # the repartition topic's rows are there too
        assert internal.startswith(f"{group}-") and internal.endswith("-repartition"), ours
        assert {r["group_type"] for r in rows} == {"streams"}
        [summary] = lag_json("-b", bootstrap, "-g", group, "-t", source, "--summary")
        assert (summary["group_type"], summary["group_state"], summary["members"]) == ("streams", "stable", 1)
        members = lag_json("-b", bootstrap, "-g", group, "-t", source, "--members")
        tool = dev_kafka.run_tool(
            STREAMS_GROUP_COMMAND,
            "--bootstrap-server",
            bootstrap,
            "--describe",
            "--members",
            "--group",
            group,
        )
        assert {m["consumer_id"] for m in members} <= {w for w in tool.stdout.split()}, (members, tool.stdout)
        assert all(m["consumer_id"] for m in members), members  # both partitions are the member's tasks
        p0 = next(r for r in rows if (r["topic"], r["partition"]) == (source, 0))
        assert p0["committed"] == 5 and p0["lag"] == 4, p0  # held on the record at 5
        assert p0["time_lag_ms"] == p0["taken_at_ms"] - stamp(0, 5), p0
        app.release()
    finally:
        assert app.close() == 0, "\n".join(app.output[-20:])
    closed = [r for r in lag_json("-b", bootstrap, "-g", group) if r["topic"] == source]
    assert {r["partition"]: r["committed"] for r in closed} == {0: 9, 1: 5}, closed
    assert {r["group_type"] for r in closed} == {"streams"}


def _wait_committed(bootstrap: str, group: str, topic: str, offset: int, timeout: float = 60) -> None:
    """Until ``group`` has committed ``offset`` on every partition of ``topic``."""
    end = time.monotonic() + timeout
    while True:
        r = cli("lag", "-b", bootstrap, "-g", group, "-t", topic, "-o", "json")
        seen = {x["partition"]: x["committed"] for x in r.json()} if r.code == 0 else {}
        if seen and all(v == offset for v in seen.values()):
            return
        assert time.monotonic() < end, f"{group} did not commit {offset} on {topic}: {seen or r.stderr}"
        time.sleep(0.5)


FEATURE_COMMAND = "org.apache.kafka.tools.FeatureCommand"


def test_a_cluster_with_share_groups_disabled_says_so_in_one_line() -> None:
    """A share group made, then share.version disabled (kafka-features disable): the brokers still
    list the group as share but cannot describe it; lag says so once and shows the other groups."""
    with own_broker("lag-noshare", "a broker whose share groups are disabled") as cluster:
        bootstrap = cluster.bootstrap
        topic = create_topic(bootstrap, f"lag-ns-{uid()}", partitions=1, config=KEEP)
        produce(bootstrap, topic, [(0, stamp(0, i), None, f"{i}") for i in range(RECORDS)])
        share = f"lag-ns-sg-{uid()}"
        read_as_share_group(bootstrap, topic, share, 3)
        consumer = f"lag-ns-cg-{uid()}"
        commit_group_offsets(bootstrap, consumer, {(topic, 0): 4})
        kafka_tool(FEATURE_COMMAND, "--bootstrap-server", bootstrap, "disable", "--feature", "share.version")
        run = cli("lag", "-b", bootstrap, "-t", topic, "-o", "json")
        assert run.code == 0, run.stderr
        assert {(r["group"], r["group_type"]) for r in run.json()} == {(consumer, "classic")}
        lines = run.stderr.splitlines()
        assert [ln for ln in lines if "share" in ln] == [
            "kafka-offsets: warning: share groups are not enabled on this cluster (share.version)"
        ], run.stderr
        only = cli("lag", "-b", bootstrap, "-g", share, "-o", "json")
        assert only.code == 0 and only.stdout.strip() in ("", "[]"), (only.stdout, only.stderr)
        assert "share groups are not enabled on this cluster (share.version)" in only.stderr
        # a type disabled before any group of it was made is never listed: lag asks the features
        kafka_tool(
            FEATURE_COMMAND, "--bootstrap-server", bootstrap, "disable", "--feature", "streams.version"
        )
        streams = cli("lag", "-b", bootstrap, "--type", "classic,streams", "-o", "json")
        assert streams.code == 0 and {r["group"] for r in streams.json()} == {consumer}, streams.stderr
        assert streams.stderr.splitlines() == [
            "kafka-offsets: warning: streams groups are not enabled on this cluster (streams.version)"
        ]
