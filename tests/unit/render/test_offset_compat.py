"""``--metrics-compat`` on liveness and tiering (pure): the exporters' partition-offset families,
from the rows the primary families come from (liveness: the latest offsets only)."""

from __future__ import annotations

from kafka_offsets_cli.errors import MonitoringStatus as S
from kafka_offsets_cli.liveness.report import build_report as liveness_report
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render import liveness_metrics, tiering
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from kafka_offsets_cli.render.offset_compat import Compat, offset_families, topic_offset_families
from kafka_offsets_cli.tiering.report import build_report as tiering_report
from kafka_offsets_cli.tiering.rules import Answers, Thresholds, tier_row

NOW = 1_700_000_000_000
BOTH = (Compat.kafka_exporter, Compat.kafka_lag_exporter)
LABELS = {"cluster": "prod"}


def by_tp(samples: list[tuple[dict[str, str], float]]) -> dict[tuple[str, str], float]:
    return {(lb["topic"], lb["partition"]): v for lb, v in samples}


def test_families_names_labels_and_missing_values() -> None:
    logs = {("b", 0): (None, 9), ("a", 1): (4, 7)}
    fams = offset_families(logs, BOTH, "prod")
    assert [f.name for f in fams] == [
        "kafka_topic_partition_current_offset",
        "kafka_topic_partition_oldest_offset",
        "kafka_partition_latest_offset",
        "kafka_partition_earliest_offset",
    ]
    ke_latest, ke_oldest, kle_latest, kle_earliest = fams
    assert [s.labels for s in ke_latest.samples] == [
        {"topic": "a", "partition": "1"},
        {"topic": "b", "partition": "0"},
    ]
    assert [s.value for s in ke_oldest.samples] == [4]  # b/0 has no earliest: no sample
    assert kle_latest.samples[0].labels == {"cluster_name": "prod", "topic": "a", "partition": "1"}
    assert [s.value for s in kle_earliest.samples] == [4]
    assert [f.name for f in topic_offset_families(logs, "kafka-lag-exporter", earliest=False)] == [
        "kafka_partition_latest_offset"
    ]
    assert offset_families(logs, ()) == []


def _tiering() -> str:
    th = Thresholds()
    rows = [
        tier_row(
            "t",
            p,
            Answers(
                earliest=e, earliest_local=e, latest_tiered=None, earliest_pending_upload=None, latest=end
            ),
            tiered=False,
            thresholds=th,
            now_ms=NOW,
        )
        for p, e, end in ((0, 2, 10), (1, 0, 3))
    ]
    report = tiering_report(rows, NOW, th, tiered_topics=set())
    return tiering.prometheus(report, LABELS, BOTH)


def test_tiering_aliases_are_its_rows_earliest_and_latest() -> None:
    got = parse_prometheus_text(_tiering())
    latest, earliest = {("t", "0"): 10, ("t", "1"): 3}, {("t", "0"): 2, ("t", "1"): 0}
    assert by_tp(got["kafka_topic_partition_current_offset"]) == latest
    assert by_tp(got["kafka_partition_latest_offset"]) == latest
    assert by_tp(got["kafka_topic_partition_oldest_offset"]) == earliest
    assert by_tp(got["kafka_partition_earliest_offset"]) == earliest
    assert {lb["cluster_name"] for lb, _ in got["kafka_partition_latest_offset"]} == {"prod"}
    # the primary families first, unchanged; without compat no alias at all
    primary = _tiering().split("# HELP kafka_topic_partition_current_offset")[0]
    report = tiering_report([], NOW, Thresholds(), tiered_topics=set())
    assert not any(n.startswith("kafka_partition") for n in parse_prometheus_text(tiering.prometheus(report)))
    assert "kafka_offsets_tiering_partition_status" in primary


def test_liveness_aliases_are_the_latest_offsets_only() -> None:
    m = OffsetSpec.max_timestamp()
    report = liveness_report(
        [OffsetResult("t", 0, m, 41, NOW - 1000), OffsetResult("t", 1, m, None)],
        NOW,
        60_000,
        120_000,
        empty=S.OK,
    )
    ends = {TopicPartition("t", 0): 42, TopicPartition("t", 1): 0}
    got = parse_prometheus_text(liveness_metrics.prometheus(report, LABELS, ends, BOTH))
    assert {n for n in got if not n.startswith("kafka_offsets_")} == {
        "kafka_topic_partition_current_offset",
        "kafka_partition_latest_offset",
    }  # liveness never lists the log start: no oldest/earliest family
    assert by_tp(got["kafka_topic_partition_current_offset"]) == {("t", "0"): 42, ("t", "1"): 0}
    assert by_tp(got["kafka_partition_latest_offset"]) == {("t", "0"): 42, ("t", "1"): 0}
    assert liveness_metrics.prometheus(report, LABELS) == liveness_metrics.prometheus(report, LABELS, ends)
