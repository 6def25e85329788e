"""The ``--metrics-compat`` alias families (pure): names, labels, and values equal to the primary series."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.lag.monitor import LagThresholds, lag_statuses
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.models.groups import Member
from kafka_offsets_cli.render import lag_metrics
from kafka_offsets_cli.render.lag_compat import Compat, compat_families, parse_compat
from kafka_offsets_cli.render.monitoring import parse_prometheus_text


def row(
    group: str, topic: str, partition: int, committed: int | None, start: int, end: int, **kw: object
) -> LagRow:
    lag = None if committed is None else end - committed
    state = LagState.NO_COMMIT if committed is None else LagState.OK
    return LagRow(
        group=group,
        topic=topic,
        partition=partition,
        committed=committed,
        log_start=start,
        end=end,
        lag=lag,
        time_lag_ms=kw.get("time_lag_ms"),  # type: ignore[arg-type]
        state=state,
    )


ROWS = [
    row("g1", "t", 0, 7, 2, 10, time_lag_ms=1500),
    row("g1", "t", 1, 3, 0, 9, time_lag_ms=4000),
    row("g1", "u", 0, None, 0, 5),
    row("g2", "t", 0, 10, 2, 10, time_lag_ms=0),
]


def text(
    compat: tuple[Compat, ...],
    *,
    time_lag: bool = True,
    owners: dict[tuple[str, str, int], Member] | None = None,
) -> str:
    status = lag_statuses(ROWS, [], LagThresholds())
    return lag_metrics.prometheus(
        ROWS,
        status,
        LagThresholds(),
        1_000,
        {"cluster": "prod"},
        {"g1": 2, "g2": 0},
        time_lag=time_lag,
        compat=compat,
        owners=owners,
    )


def series(out: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {tuple(sorted(labels.items())): v for labels, v in parse_prometheus_text(out).get(name, [])}


def test_parse_compat_takes_repeats_and_comma_lists_once_each() -> None:
    assert parse_compat(["kafka-lag-exporter,kafka_exporter", "kafka_exporter"]) == (
        Compat.kafka_exporter,
        Compat.kafka_lag_exporter,
    )
    assert parse_compat(None) == ()
    with pytest.raises(UsageError, match="burrow"):
        parse_compat(["burrow"])
    with pytest.raises(UsageError, match="-o prometheus"):
        parse_compat(["kafka_exporter"], prometheus=False)


def test_without_compat_no_alias_family() -> None:
    out = text(())
    assert "kafka_consumergroup" not in out and "kafka_partition_" not in out
    assert compat_families(ROWS, ()) == []


def test_kafka_exporter_aliases_equal_the_primary_series() -> None:
    out = text((Compat.kafka_exporter,))
    primary = series(out, "kafka_offsets_lag_partition_lag")
    lag = series(out, "kafka_consumergroup_lag")
    # same values, labels renamed (group -> consumergroup); the run's constant labels stay
    assert {k: v for k, v in primary.items()} == {
        tuple(sorted((("group" if n == "consumergroup" else n), v) for n, v in k)): v for k, v in lag.items()
    }
    lag_sum = series(out, "kafka_consumergroup_lag_sum")
    assert lag_sum == {
        (("cluster", "prod"), ("consumergroup", "g1"), ("topic", "t")): 9,
        (("cluster", "prod"), ("consumergroup", "g1"), ("topic", "u")): 0,
        (("cluster", "prod"), ("consumergroup", "g2"), ("topic", "t")): 0,
    }
    offsets = series(out, "kafka_consumergroup_current_offset_sum")
    assert offsets[(("cluster", "prod"), ("consumergroup", "g1"), ("topic", "t"))] == 10
    assert len(series(out, "kafka_consumergroup_current_offset")) == 3  # no commit: no sample
    # one sample per partition even though two groups read t/0
    assert series(out, "kafka_topic_partition_current_offset") == {
        (("cluster", "prod"), ("partition", "0"), ("topic", "t")): 10,
        (("cluster", "prod"), ("partition", "1"), ("topic", "t")): 9,
        (("cluster", "prod"), ("partition", "0"), ("topic", "u")): 5,
    }
    assert (
        series(out, "kafka_topic_partition_oldest_offset")[
            (("cluster", "prod"), ("partition", "0"), ("topic", "t"))
        ]
        == 2
    )
    assert series(out, "kafka_consumergroup_members") == {
        (("cluster", "prod"), ("consumergroup", "g1")): 2,
        (("cluster", "prod"), ("consumergroup", "g2")): 0,
    }


def test_kafka_lag_exporter_labels_values_and_time_lag() -> None:
    out = text((Compat.kafka_lag_exporter,))
    lag = parse_prometheus_text(out)["kafka_consumergroup_group_lag"]
    assert all(
        set(labels)
        == {
            "cluster",
            "cluster_name",
            "group",
            "topic",
            "partition",
            "member_host",
            "consumer_id",
            "client_id",
        }
        and labels["cluster_name"] == "prod"
        and labels["member_host"] == labels["consumer_id"] == labels["client_id"] == ""
        for labels, _ in lag
    )
    assert sorted(v for _, v in lag) == sorted(r.lag for r in ROWS if r.lag is not None)
    base = (("cluster", "prod"), ("cluster_name", "prod"))
    assert series(out, "kafka_consumergroup_group_max_lag") == {
        (*base, ("group", "g1")): 6,
        (*base, ("group", "g2")): 0,
    }
    assert sorted(series(out, "kafka_consumergroup_group_sum_lag").values()) == sorted(
        series(out, "kafka_offsets_lag_group_lag").values()
    )
    assert series(out, "kafka_consumergroup_group_max_lag_seconds")[(*base, ("group", "g1"))] == 4.0
    assert sorted(series(out, "kafka_consumergroup_group_lag_seconds").values()) == [0.0, 1.5, 4.0]
    assert series(out, "kafka_partition_earliest_offset")[(*base, ("partition", "0"), ("topic", "t"))] == 2
    # without --time-lag: no *_lag_seconds family at all
    untimed = text((Compat.kafka_lag_exporter,), time_lag=False)
    assert "kafka_consumergroup_group_lag_seconds" not in untimed
    assert "kafka_consumergroup_group_max_lag_seconds" not in untimed


def test_kafka_lag_exporter_member_labels_with_owners() -> None:
    owners = {("g1", "t", 0): Member(member_id="consumer-1-abc", client_id="consumer-1", host="/10.0.0.1")}
    out = text((Compat.kafka_lag_exporter,), owners=owners)
    by_partition = {
        (labels["group"], labels["topic"], labels["partition"]): labels
        for labels, _ in parse_prometheus_text(out)["kafka_consumergroup_group_offset"]
    }
    assert by_partition[("g1", "t", "0")]["member_host"] == "/10.0.0.1"
    assert by_partition[("g1", "t", "0")]["consumer_id"] == "consumer-1-abc"
    assert by_partition[("g1", "t", "0")]["client_id"] == "consumer-1"
    assert by_partition[("g1", "t", "1")]["consumer_id"] == ""  # not assigned


def test_aliases_come_after_the_primary_families_each_with_help_and_type() -> None:
    out = text((Compat.kafka_exporter, Compat.kafka_lag_exporter))
    names = [line.split()[2] for line in out.splitlines() if line.startswith("# TYPE")]
    first_alias = next(i for i, n in enumerate(names) if not n.startswith("kafka_offsets_"))
    assert all(not n.startswith("kafka_offsets_") for n in names[first_alias:])
    assert len(names) == len(set(names))
    assert all(line.endswith(" gauge") for line in out.splitlines() if line.startswith("# TYPE"))
    assert (
        "# HELP kafka_consumergroup_lag Current Approximate Lag of a ConsumerGroup at Topic/Partition" in out
    )
    assert "# HELP kafka_consumergroup_group_lag Group offset lag of a partition" in out
