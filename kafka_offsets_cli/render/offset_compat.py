"""The ``--metrics-compat`` choice and the exporters' partition-offset families (pure).

Shared by every ``-o prometheus`` that reads partition offsets: ``lag`` (its rows' log start and
end, :mod:`.lag_compat`), ``tiering`` (its ``earliest`` and ``latest`` answers) and ``liveness``
(its ``latest`` answers: liveness never lists the log start, so it has no earliest family). The
values are the ones the command's own rows carry, never a second read of the brokers.

Names, label names and HELP texts are the upstream ones: kafka_exporter's
``kafka_topic_partition_current_offset`` / ``_oldest_offset`` (labels topic, partition) and
kafka-lag-exporter's ``kafka_partition_latest_offset`` / ``_earliest_offset`` (labels
cluster_name, topic, partition); see :mod:`.lag_compat` for the sources checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum

from ..errors import UsageError
from .monitoring import MetricFamily, Sample

__all__ = ["Compat", "offset_families", "parse_compat", "topic_offset_families"]

#: (topic, partition) -> (earliest offset, latest offset); None where the command has no value.
Logs = Mapping[tuple[str, int], tuple[int | None, int | None]]


class Compat(str, Enum):
    """The exporters whose names ``--metrics-compat`` adds."""

    kafka_exporter = "kafka_exporter"
    kafka_lag_exporter = "kafka-lag-exporter"


def parse_compat(
    values: Iterable[str] | None,
    prometheus: bool = True,
    needs: str = "-o prometheus, --prometheus-file or --otlp-endpoint",
) -> tuple[Compat, ...]:
    """``--metrics-compat`` values (repeatable, or comma lists) in a fixed order, once each; a usage
    error unless the run writes ``prometheus`` text (aliases alone would be a silent no-op; ``needs``
    names the command's options that write it)."""
    asked: set[Compat] = set()
    for value in values or ():
        for name in filter(None, (v.strip() for v in value.split(","))):
            try:
                asked.add(Compat(name))
            except ValueError:
                known = ", ".join(c.value for c in Compat)
                raise UsageError(f"--metrics-compat: unknown {name!r} (one of {known})") from None
    if asked and not prometheus:
        raise UsageError(f"--metrics-compat needs {needs}")
    return tuple(c for c in Compat if c in asked)


def topic_offset_families(
    logs: Logs, flavour: Compat | str, cluster_name: str = "", *, earliest: bool = True
) -> list[MetricFamily]:
    """The per-partition latest and (``earliest``) earliest offset families of ``flavour`` from
    ``logs``; a partition without a value has no sample."""
    if Compat(flavour) is Compat.kafka_exporter:
        names = [
            ("kafka_topic_partition_current_offset", "Current Offset of a Broker at Topic/Partition", 1),
            ("kafka_topic_partition_oldest_offset", "Oldest Offset of a Broker at Topic/Partition", 0),
        ]
        extra: dict[str, str] = {}
    else:
        names = [
            ("kafka_partition_latest_offset", "Latest offset of a partition", 1),
            ("kafka_partition_earliest_offset", "Earliest offset of a partition", 0),
        ]
        extra = {"cluster_name": cluster_name}
    return [
        MetricFamily(
            name,
            what,
            samples=tuple(
                Sample({**extra, "topic": t, "partition": str(p)}, value)
                for (t, p), v in sorted(logs.items())
                if (value := v[i]) is not None
            ),
        )
        for name, what, i in names[: 2 if earliest else 1]
    ]


def offset_families(
    logs: Logs, compat: Sequence[Compat], cluster_name: str = "", *, earliest: bool = True
) -> list[MetricFamily]:
    """The partition-offset families of every exporter in ``compat`` (empty when none is asked);
    ``cluster_name``: kafka-lag-exporter's ``cluster_name`` label (the run's ``cluster``)."""
    return [f for c in compat for f in topic_offset_families(logs, c, cluster_name, earliest=earliest)]
