"""The run's metrics as an OTLP/HTTP export request (pure: exposition text in, protobuf bytes out).

``--otlp-endpoint`` pushes what ``--prometheus-file`` writes, so the two never disagree: the text of
:mod:`.monitoring` is read back (:func:`families`) and each family becomes an OTLP gauge of the same
name, description and labels (``cluster`` and ``--label`` included, as datapoint attributes, so that a
Prometheus OTLP receiver stores the textfile's series). ``_seconds`` families carry the unit ``s``;
a family whose values are all whole numbers (and that is no ``_seconds`` one) is sent as integers.

The lag series are also sent under the names the OpenTelemetry Collector's Kafka receiver
(``kafkametricsreceiver``) uses, so that boards built on it work unchanged (:data:`RECEIVER`):
``kafka.consumer_group.lag`` (group, topic, partition), ``kafka.consumer_group.lag_sum`` (group,
topic) and ``kafka.consumer_group.members`` (group), with the receiver's attributes (``group``,
``topic``, ``partition`` as an integer), OpenTelemetry's messaging attributes
(``messaging.consumer.group.name``, ``messaging.destination.name``,
``messaging.destination.partition.id``) and the run's constant labels.

The resource says who sent it: ``service.name`` ``kafka-offsets``, ``service.version``,
``messaging.system`` ``kafka`` and, with a ``cluster`` label, ``kafka.cluster.alias``.

The protobuf classes are the official definitions (``opentelemetry-proto``, the ``otlp`` extra),
imported when a request is built.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .monitoring import parse_prometheus_text

__all__ = ["RECEIVER", "OtlpFamily", "export_request", "families", "rejected"]

#: The lag family each Kafka-receiver metric is made of, and how (``rows``: one point per sample;
#: ``sum``: summed by group and topic).
RECEIVER = {
    "kafka.consumer_group.lag": ("kafka_offsets_lag_partition_lag", "rows"),
    "kafka.consumer_group.lag_sum": ("kafka_offsets_lag_partition_lag", "sum"),
    "kafka.consumer_group.members": ("kafka_offsets_lag_group_members", "rows"),
}
_RECEIVER_HELP = {
    "kafka.consumer_group.lag": "The group's lag on the partition (records).",
    "kafka.consumer_group.lag_sum": "The group's lag summed over the topic's partitions (records).",
    "kafka.consumer_group.members": "Active members of the group (kafka_offsets_lag_group_members).",
}
_UNITS = {"kafka.consumer_group.lag": "{messages}", "kafka.consumer_group.lag_sum": "{messages}"}
_HELP = re.compile(r"# HELP (\S+) (.*)")
Point = tuple[dict[str, str], float]


@dataclass(frozen=True)
class OtlpFamily:
    """One metric of the request: its name, description, unit and points (labels, value)."""

    name: str
    description: str
    unit: str
    points: tuple[Point, ...]


def _unescape_help(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def families(text: str) -> list[OtlpFamily]:
    """The families of exposition text (what :func:`.monitoring.prometheus_text` writes), in order,
    each with its ``# HELP``; families without samples are left out, as they have no points."""
    helps = {m.group(1): _unescape_help(m.group(2)) for m in map(_HELP.fullmatch, text.split("\n")) if m}
    out = []
    for name, samples in parse_prometheus_text(text).items():
        unit = "s" if name.endswith("_seconds") else ""
        out.append(OtlpFamily(name, helps.get(name, ""), unit, tuple(samples)))
    return out


def _receiver(fams: Sequence[OtlpFamily], constant: Mapping[str, str]) -> list[OtlpFamily]:
    by_name = {f.name: f for f in fams}
    out = []
    for name, (source, how) in RECEIVER.items():
        fam = by_name.get(source)
        if fam is None:
            continue
        if how == "sum":
            sums: dict[tuple[str, str], float] = {}
            for labels, value in fam.points:
                key = (labels.get("group", ""), labels.get("topic", ""))
                sums[key] = sums.get(key, 0.0) + value
            points = tuple(({"group": g, "topic": t}, v) for (g, t), v in sums.items())
        else:
            points = tuple(
                ({k: v for k, v in labels.items() if k not in constant}, v) for labels, v in fam.points
            )
        out.append(OtlpFamily(name, _RECEIVER_HELP[name], _UNITS.get(name, "{members}"), points))
    return out


def _receiver_attributes(labels: Mapping[str, str]) -> dict[str, str | int]:
    attrs: dict[str, str | int] = {}
    if "group" in labels:
        attrs["group"] = attrs["messaging.consumer.group.name"] = labels["group"]
    if "topic" in labels:
        attrs["topic"] = attrs["messaging.destination.name"] = labels["topic"]
    if "partition" in labels:
        attrs["partition"] = int(labels["partition"])
        attrs["messaging.destination.partition.id"] = labels["partition"]
    if "type" in labels:
        attrs["type"] = labels["type"]
    return attrs


def _any(pb: Any, value: str | int) -> Any:
    return pb.AnyValue(int_value=value) if isinstance(value, int) else pb.AnyValue(string_value=value)


def _attributes(pb: Any, attrs: Mapping[str, str | int]) -> list[Any]:
    return [pb.KeyValue(key=k, value=_any(pb, v)) for k, v in attrs.items()]


def _whole(fam: OtlpFamily) -> bool:
    return fam.unit != "s" and all(math.isfinite(v) and v.is_integer() for _, v in fam.points)


def export_request(
    text: str,
    *,
    constant: Mapping[str, str],
    now_ms: int,
    version: str,
) -> bytes:
    """The serialized ``ExportMetricsServiceRequest`` of exposition ``text`` (its series carry the
    ``constant`` labels), at ``now_ms``: the families as they are, then the Kafka receiver's."""
    pb = _proto()
    fams = families(text)
    resource = {"service.name": "kafka-offsets", "service.version": version, "messaging.system": "kafka"}
    if "cluster" in constant:
        resource["kafka.cluster.alias"] = constant["cluster"]
    now_ns = now_ms * 1_000_000
    metrics = [_metric(pb, f, dict, now_ns) for f in fams]
    metrics += [
        _metric(pb, f, lambda labels: {**_receiver_attributes(labels), **constant}, now_ns)
        for f in _receiver(fams, constant)
    ]
    request = pb.ExportMetricsServiceRequest(
        resource_metrics=[
            pb.ResourceMetrics(
                resource=pb.Resource(attributes=_attributes(pb, resource)),
                scope_metrics=[
                    pb.ScopeMetrics(
                        scope=pb.InstrumentationScope(name="kafka-offsets", version=version), metrics=metrics
                    )
                ],
            )
        ]
    )
    body: bytes = request.SerializeToString()
    return body


def _metric(pb: Any, fam: OtlpFamily, attributes: Any, now_ns: int) -> Any:
    whole = _whole(fam)
    points = [
        pb.NumberDataPoint(
            attributes=_attributes(pb, attributes(labels)),
            time_unix_nano=now_ns,
            **({"as_int": int(v)} if whole else {"as_double": v}),
        )
        for labels, v in fam.points
    ]
    return pb.Metric(
        name=fam.name, description=fam.description, unit=fam.unit, gauge=pb.Gauge(data_points=points)
    )


def rejected(body: bytes) -> tuple[int, str]:
    """The data points a receiver's ``ExportMetricsServiceResponse`` says it rejected, and its message
    (``(0, "")`` for full success, an empty body included)."""
    pb = _proto()
    response = pb.ExportMetricsServiceResponse.FromString(body)
    partial = response.partial_success
    return int(partial.rejected_data_points), str(partial.error_message)


class _Proto:
    """The OTLP protobuf classes this module builds requests of."""

    def __init__(self) -> None:
        from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2 as service
        from opentelemetry.proto.common.v1 import common_pb2 as common
        from opentelemetry.proto.metrics.v1 import metrics_pb2 as metrics
        from opentelemetry.proto.resource.v1 import resource_pb2 as resource

        self.ExportMetricsServiceRequest = service.ExportMetricsServiceRequest
        self.ExportMetricsServiceResponse = service.ExportMetricsServiceResponse
        self.AnyValue, self.KeyValue = common.AnyValue, common.KeyValue
        self.InstrumentationScope = common.InstrumentationScope
        self.Resource = resource.Resource
        self.ResourceMetrics, self.ScopeMetrics = metrics.ResourceMetrics, metrics.ScopeMetrics
        self.Metric, self.Gauge, self.NumberDataPoint = metrics.Metric, metrics.Gauge, metrics.NumberDataPoint


def _proto() -> Any:
    return _Proto()


def available() -> bool:
    """Whether the ``otlp`` extra (``opentelemetry-proto``) is installed."""
    try:
        _proto()
    except ImportError:
        return False
    return True
