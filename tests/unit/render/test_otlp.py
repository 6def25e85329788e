"""render/otlp.py: exposition text to an OTLP export request (pure; decoded with the official classes)."""

from __future__ import annotations

from typing import Any

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)

from kafka_offsets_cli.render import otlp
from kafka_offsets_cli.render.monitoring import MetricFamily, Sample, prometheus_text

CONSTANT = {"cluster": "prod", "env": "eu"}
TEXT = prometheus_text(
    [
        MetricFamily("kafka_offsets_lag_up", "1 if the cluster answered.", samples=(Sample({}, 1),)),
        MetricFamily(
            "kafka_offsets_lag_partition_lag",
            'Lag with a "quote" and a \\ backslash.',
            samples=(
                Sample({"group": "g", "type": "consumer", "topic": "t", "partition": "0"}, 3),
                Sample({"group": "g", "type": "consumer", "topic": "t", "partition": "1"}, 4),
                Sample({"group": "g", "type": "consumer", "topic": "u", "partition": "0"}, 5),
            ),
        ),
        MetricFamily(
            "kafka_offsets_lag_partition_time_lag_seconds",
            "Age.",
            samples=(Sample({"group": "g", "type": "consumer", "topic": "t", "partition": "0"}, 2),),
        ),
        MetricFamily("kafka_offsets_lag_warn_lag", "No threshold given: no sample.", samples=()),
    ],
    CONSTANT,
)


def decoded(body: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    request = ExportMetricsServiceRequest.FromString(body)
    [rm] = request.resource_metrics
    resource = {a.key: a.value.string_value for a in rm.resource.attributes}
    [sm] = rm.scope_metrics
    return resource, {m.name: m for m in sm.metrics}


def attrs(point: Any) -> dict[str, Any]:
    return {a.key: getattr(a.value, a.value.WhichOneof("value")) for a in point.attributes}


def test_every_family_with_samples_is_a_gauge_with_its_help_unit_and_labels() -> None:
    resource, metrics = decoded(
        otlp.export_request(TEXT, constant=CONSTANT, now_ms=1_700_000_000_123, version="9")
    )
    assert resource == {
        "service.name": "kafka-offsets",
        "service.version": "9",
        "messaging.system": "kafka",
        "kafka.cluster.alias": "prod",
    }
    assert "kafka_offsets_lag_warn_lag" not in metrics  # no sample, no metric
    lag = metrics["kafka_offsets_lag_partition_lag"]
    assert lag.description == 'Lag with a "quote" and a \\ backslash.' and lag.unit == ""
    first = lag.gauge.data_points[0]
    assert first.WhichOneof("value") == "as_int" and first.as_int == 3
    assert attrs(first) == {
        "cluster": "prod",
        "env": "eu",
        "group": "g",
        "type": "consumer",
        "topic": "t",
        "partition": "0",
    }
    assert first.time_unix_nano == 1_700_000_000_123_000_000
    age = metrics["kafka_offsets_lag_partition_time_lag_seconds"]
    assert age.unit == "s" and age.gauge.data_points[0].WhichOneof("value") == "as_double"


def test_the_kafka_receivers_names_sum_by_group_and_topic() -> None:
    _, metrics = decoded(otlp.export_request(TEXT, constant=CONSTANT, now_ms=0, version="9"))
    by_tp = {
        (attrs(p)["topic"], attrs(p)["partition"]): p.as_int
        for p in metrics["kafka.consumer_group.lag"].gauge.data_points
    }
    assert by_tp == {("t", 0): 3, ("t", 1): 4, ("u", 0): 5}
    sums = {attrs(p)["topic"]: p.as_int for p in metrics["kafka.consumer_group.lag_sum"].gauge.data_points}
    assert sums == {"t": 7, "u": 5}
    one = attrs(metrics["kafka.consumer_group.lag"].gauge.data_points[0])
    assert one == {
        "group": "g",
        "messaging.consumer.group.name": "g",
        "topic": "t",
        "messaging.destination.name": "t",
        "partition": 0,
        "messaging.destination.partition.id": "0",
        "type": "consumer",
        "cluster": "prod",
        "env": "eu",
    }
    assert "kafka.consumer_group.members" not in metrics  # no members family in the text


def test_liveness_text_gets_no_receiver_names() -> None:
    text = prometheus_text([MetricFamily("kafka_offsets_liveness_up", "Up.", samples=(Sample({}, 1),))], {})
    _, metrics = decoded(otlp.export_request(text, constant={}, now_ms=0, version="9"))
    assert set(metrics) == {"kafka_offsets_liveness_up"}


def test_a_family_with_a_fraction_is_sent_as_doubles() -> None:
    text = prometheus_text(
        [MetricFamily("kafka_offsets_x", "X.", samples=(Sample({"a": "1"}, 2), Sample({"a": "2"}, 2.5)))], {}
    )
    _, metrics = decoded(otlp.export_request(text, constant={}, now_ms=0, version="9"))
    assert [p.as_double for p in metrics["kafka_offsets_x"].gauge.data_points] == [2.0, 2.5]


def test_rejected_points_of_a_response() -> None:
    assert otlp.rejected(b"") == (0, "")
    answer = ExportMetricsServiceResponse()
    answer.partial_success.rejected_data_points = 4
    answer.partial_success.error_message = "why"
    assert otlp.rejected(answer.SerializeToString()) == (4, "why")
