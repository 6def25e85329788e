"""The ``kafka-offsets`` data source without Spark: its options read as the CLI reads its own, its
schema the ``list -o json`` record, its plan cut per leader with the secrets out of the units
(the real read: tests/test_spark_datasource.py)."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from kafka_offsets_cli.connection.resolver import resolve_connection
from kafka_offsets_cli.errors import NotFound, UsageError
from kafka_offsets_cli.measures.lag.rows import COLUMNS as LAG_COLUMNS
from kafka_offsets_cli.models.offsets import Isolation, OffsetSpec
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.render.offsets import COLUMNS
from kafka_offsets_cli.spark.source_lag import LAG_DDL, lag_groups
from kafka_offsets_cli.spark.source_options import SCHEMA_DDL, source_request
from kafka_offsets_cli.spark.source_plan import plan_read
from tests.unit.fake_cluster import FakeCluster

NOW = 1_700_000_000_000
B = {"bootstrap.servers": "h:9092"}


def test_schema_is_the_list_record() -> None:
    names = [field.split()[0] for field in SCHEMA_DDL.split(", ")]
    assert tuple(names) == COLUMNS
    assert "topic STRING NOT NULL" in SCHEMA_DDL and "partition INT," in SCHEMA_DDL


def test_options_are_the_cli_options() -> None:
    read = source_request(
        {
            **B,
            "topics": "orders.*",
            "partitions": "0,2-3",
            "specs": "earliest, latest,max-timestamp,1700000000000,2023-11-14T22:13:20Z",
            "isolation": "READ_COMMITTED",
            "timeout": "5s",
            "kafka.security.protocol": "SASL_SSL",
            "kafka.sasl.password": "hunter2",
            "parallelism": "3",
        },
        now_ms=NOW,
    )
    assert read.request.specs == (
        OffsetSpec.earliest(),
        OffsetSpec.latest(),
        OffsetSpec.max_timestamp(),
        OffsetSpec.at(NOW),  # the same instant twice: one spec, as repeated -s
    )
    assert read.request.selection.topics == ("orders.*",)
    assert read.connection.isolation is Isolation.READ_COMMITTED
    assert read.connection.overrides == ("sasl.password=hunter2", "security.protocol=SASL_SSL")
    assert read.parallelism == 3
    settings = resolve_connection(read.connection, {}).settings
    assert settings.bootstrap_servers == "h:9092" and settings.timeout_ms == 5000


def test_relative_times_are_read_once_against_the_planning_clock() -> None:
    read = source_request({**B, "specs": "1h ago"}, now_ms=NOW)
    assert read.request.specs == (OffsetSpec.at(NOW - 3_600_000),)
    assert source_request(B, now_ms=NOW).request.specs == (OffsetSpec.latest(),)  # list's default


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({**B, "specs": "latests"}, "did you mean 'latest'"),
        ({**B, "bogus": "1"}, "unknown option 'bogus'"),
        ({**B, "kafka.": "1"}, "unknown option 'kafka.'"),
        ({"topics": "x"}, "give bootstrap.servers"),
        ({**B, "isolation": "dirty"}, "isolation 'dirty'"),
        ({**B, "parallelism": "0"}, "parallelism '0'"),
        ({**B, "tz": "Mars/Base"}, "Mars/Base"),
        ({**B, "topics": "a["}, "a["),
    ],
)
def test_a_wrong_option_is_the_cli_usage_error(options: dict[str, str], words: str) -> None:
    with pytest.raises(UsageError) as e:
        source_request(options, now_ms=NOW)
    assert words in e.value.message


def _cluster() -> FakeCluster:
    """Topic ``t``: 4 partitions, two on each of brokers 1 and 2 (interleaved)."""
    parts = tuple(PartitionInfo("t", p, 1 + p % 2) for p in range(4))
    md = ClusterMetadata({"t": TopicInfo("t", parts, False, None)})
    return FakeCluster(md, {TopicPartition("t", p): (0, 10) for p in range(4)}, [])


def test_plan_cuts_per_leader_and_keeps_secrets_out_of_the_units() -> None:
    read = source_request(
        {**B, "topics": "t", "partitions": "0,1,2,3,4", "kafka.sasl.password": "hunter2", "parallelism": "2"},
        now_ms=NOW,
    )
    settings = resolve_connection(read.connection, {}).settings
    # check's cutter: as many units as tasks at once, none below one ListOffsets call (chunk_size)
    assert len(plan_read(_cluster(), read, settings).units) == 1
    plan = plan_read(_cluster(), replace(read, chunk_size=2), settings)
    assert [sorted(tp.partition for tp in u.live) for u in plan.units] == [[0, 2], [1, 3]]  # by leader
    assert all(set(u.leaders.values()) == {1 + u.live[0].partition % 2} for u in plan.units)
    assert all(u.settings.properties["sasl.password"].value == "" for u in plan.units)
    assert b"hunter2" not in pickle.dumps(plan.units)
    assert plan.secrets == {"source": {"sasl.password": "hunter2"}}
    # partition 4 does not exist: list's error row, known at planning
    assert plan.known == (("t", 4, "latest", None, None, None, "UNKNOWN_TOPIC_OR_PARTITION"),)


def test_nothing_selected_is_lists_error() -> None:
    read = source_request({**B, "topics": "nope.*"}, now_ms=NOW)
    with pytest.raises(NotFound):
        plan_read(_cluster(), read, resolve_connection(read.connection, {}).settings)


def test_kind_lag_options() -> None:
    read = source_request({**B, "kind": "LAG", "groups": "billing, app-.*", "time.lag": "true"}, now_ms=NOW)
    assert (read.kind, read.time_lag) == ("lag", True)
    assert lag_groups({"groups": "billing, app-.*"}) == ("billing", "app-.*")
    names = [field.split()[0] for field in LAG_DDL.split(", ")]
    assert tuple(names) == LAG_COLUMNS


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({**B, "kind": "nope"}, "kind 'nope': expected one of offsets, lag, liveness, tiering"),
        ({**B, "warn": "1m"}, "option 'warn' is one of kind 'liveness'"),
        ({**B, "kind": "lag", "include.internal": "true"}, "one of kind 'liveness' or 'tiering'"),
        ({**B, "kind": "tiering", "groups": "g"}, "option 'groups' is one of kind 'lag'"),
        ({**B, "groups": "g"}, "option 'groups' is one of kind 'lag'"),
        ({**B, "kind": "lag", "time.lag": "yes"}, "time.lag 'yes'"),
    ],
)
def test_a_wrong_kind_option_is_a_usage_error(options: dict[str, str], words: str) -> None:
    with pytest.raises(UsageError) as e:
        source_request(options, now_ms=NOW)
    assert words in e.value.message


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, "needs the option groups"),
        ({"groups": "g", "specs": "earliest"}, "'specs' is not one of kind 'lag'"),
    ],
)
def test_lag_groups_refuses(options: dict[str, str], words: str) -> None:
    with pytest.raises(UsageError) as e:
        lag_groups(options)
    assert words in e.value.message
