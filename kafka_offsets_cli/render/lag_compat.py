"""Alias metric families of ``--metrics-compat`` (pure): the names other lag exporters use.

Opt-in, after the primary ``kafka_offsets_lag_*`` families, so that existing dashboards, alerts
and autoscalers keep working. One rule: every alias is derived from the same lag rows and totals
the primary families are (:func:`kafka_offsets_cli.lag.summary.totals`), never recomputed from
the brokers, so an alias always equals its primary series. Rows without a value (no committed
offset, error) have no alias sample, as they have no primary one.

Names, label names, types (all gauges) and HELP texts were checked against the upstream sources:

- kafka_exporter (danielqsj/kafka_exporter, ``kafka_exporter.go``: the ``prometheus.NewDesc`` of
  ``consumergroup_lag``, ``_lag_sum``, ``_current_offset``, ``_current_offset_sum``, ``_members``,
  ``topic_partition_current_offset``, ``topic_partition_oldest_offset``);
- kafka-lag-exporter (seglo/kafka-lag-exporter, ``Metrics.scala``: the ``GaugeDefinition`` of
  ``kafka_consumergroup_group_{offset,lag,lag_seconds,max_lag,max_lag_seconds,sum_lag,topic_sum_lag}``
  and ``kafka_partition_{latest,earliest}_offset``; its README also lists ``is_simple_consumer`` on
  the max-lag families, which ``Metrics.scala`` no longer has: we follow the code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..lag.summary import LagTotal, totals
from ..measures.lag.rows import LagRow
from ..models.groups import Member
from .monitoring import MetricFamily, Sample
from .offset_compat import Compat, parse_compat, topic_offset_families

__all__ = ["MEMBER_LABELS", "Compat", "compat_families", "parse_compat"]

#: kafka-lag-exporter's per-member labels (empty without ``--members``, as it leaves them for a
#: partition no member is assigned).
MEMBER_LABELS = ("member_host", "consumer_id", "client_id")


def _kafka_exporter(
    rows: Sequence[LagRow], topic_totals: Sequence[LagTotal], members: Mapping[str, int]
) -> list[MetricFamily]:
    def pl(r: LagRow) -> dict[str, str]:
        return {"consumergroup": r.group, "topic": r.topic, "partition": str(r.partition)}

    offset_sums: dict[tuple[str, str], int] = {}
    for r in rows:
        if r.committed is not None:
            offset_sums[(r.group, r.topic)] = offset_sums.get((r.group, r.topic), 0) + r.committed
    logs = _partitions(rows)
    return [
        MetricFamily(
            "kafka_consumergroup_current_offset",
            "Current Offset of a ConsumerGroup at Topic/Partition",
            samples=tuple(Sample(pl(r), r.committed) for r in rows if r.committed is not None),
        ),
        MetricFamily(
            "kafka_consumergroup_current_offset_sum",
            "Current Offset of a ConsumerGroup at Topic for all partitions",
            samples=tuple(
                Sample({"consumergroup": g, "topic": t}, v) for (g, t), v in sorted(offset_sums.items())
            ),
        ),
        MetricFamily(
            "kafka_consumergroup_lag",
            "Current Approximate Lag of a ConsumerGroup at Topic/Partition",
            samples=tuple(Sample(pl(r), r.lag) for r in rows if r.lag is not None),
        ),
        MetricFamily(
            "kafka_consumergroup_lag_sum",
            "Current Approximate Lag of a ConsumerGroup at Topic for all partitions",
            samples=tuple(
                Sample({"consumergroup": t.group, "topic": t.topic or ""}, t.lag) for t in topic_totals
            ),
        ),
        MetricFamily(
            "kafka_consumergroup_members",
            "Amount of members in a consumer group",
            samples=tuple(Sample({"consumergroup": g}, n) for g, n in sorted(members.items())),
        ),
        *topic_offset_families(logs, Compat.kafka_exporter),
    ]


def _partitions(rows: Sequence[LagRow]) -> dict[tuple[str, int], tuple[int | None, int | None]]:
    """Each partition's (log start, end) from the rows (several groups read one partition: once)."""
    out: dict[tuple[str, int], tuple[int | None, int | None]] = {}
    for r in rows:
        if r.error is None:
            out.setdefault((r.topic, r.partition), (r.log_start, r.end))
    return dict(sorted(out.items()))


def _kafka_lag_exporter(
    rows: Sequence[LagRow],
    group_totals: Sequence[LagTotal],
    topic_totals: Sequence[LagTotal],
    owners: Mapping[tuple[str, str, int], Member],
    cluster_name: str,
    time_lag: bool,
) -> list[MetricFamily]:
    def pl(r: LagRow) -> dict[str, str]:
        m = owners.get((r.group, r.topic, r.partition))
        owner = (m.host, m.member_id, m.client_id) if m is not None else ("", "", "")
        return {
            "cluster_name": cluster_name,
            "group": r.group,
            "topic": r.topic,
            "partition": str(r.partition),
            **dict(zip(MEMBER_LABELS, owner, strict=True)),
        }

    def gl(group: str) -> dict[str, str]:
        return {"cluster_name": cluster_name, "group": group}

    max_lag: dict[str, int] = {}
    for r in rows:
        if r.lag is not None:
            max_lag[r.group] = max(max_lag.get(r.group, 0), r.lag)
    return [
        MetricFamily(
            "kafka_consumergroup_group_offset",
            "Last group consumed offset of a partition",
            samples=tuple(Sample(pl(r), r.committed) for r in rows if r.committed is not None),
        ),
        MetricFamily(
            "kafka_consumergroup_group_lag",
            "Group offset lag of a partition",
            samples=tuple(Sample(pl(r), r.lag) for r in rows if r.lag is not None),
        ),
        MetricFamily(
            "kafka_consumergroup_group_lag_seconds",
            "Group time lag of a partition",
            samples=tuple(
                Sample(pl(r), r.time_lag_ms / 1000) for r in rows if time_lag and r.time_lag_ms is not None
            ),
        ),
        MetricFamily(
            "kafka_consumergroup_group_max_lag",
            "Max group offset lag",
            samples=tuple(Sample(gl(g), v) for g, v in sorted(max_lag.items())),
        ),
        MetricFamily(
            "kafka_consumergroup_group_max_lag_seconds",
            "Max group time lag",
            samples=tuple(
                Sample(gl(t.group), t.max_time_lag_ms / 1000)
                for t in group_totals
                if time_lag and t.max_time_lag_ms is not None
            ),
        ),
        MetricFamily(
            "kafka_consumergroup_group_sum_lag",
            "Sum of group offset lag",
            samples=tuple(Sample(gl(t.group), t.lag) for t in group_totals),
        ),
        MetricFamily(
            "kafka_consumergroup_group_topic_sum_lag",
            "Sum of group offset lag across topic partitions",
            samples=tuple(Sample({**gl(t.group), "topic": t.topic or ""}, t.lag) for t in topic_totals),
        ),
        *topic_offset_families(_partitions(rows), Compat.kafka_lag_exporter, cluster_name),
    ]


def compat_families(
    rows: Sequence[LagRow],
    compat: Sequence[Compat],
    members: Mapping[str, int] | None = None,
    owners: Mapping[tuple[str, str, int], Member] | None = None,
    *,
    cluster_name: str = "",
    time_lag: bool = False,
) -> list[MetricFamily]:
    """The alias families of ``compat`` for lag ``rows`` (empty when none is asked).

    ``members``: each group's member count; ``owners``: each (group, topic, partition)'s consumer
    (``--members``; else kafka-lag-exporter's member labels are empty); ``cluster_name``: its
    ``cluster_name`` label (the run's ``cluster``); ``time_lag``: the ``*_lag_seconds`` families
    (none without ``--time-lag``).
    """
    if not compat:
        return []
    every = totals(rows)
    topic_totals = [t for t in every if t.topic is not None]
    group_totals = [t for t in every if t.topic is None]
    fams: list[MetricFamily] = []
    for c in compat:
        if c is Compat.kafka_exporter:
            fams += _kafka_exporter(rows, topic_totals, members or {})
        else:
            fams += _kafka_lag_exporter(
                rows, group_totals, topic_totals, owners or {}, cluster_name, time_lag
            )
    return fams
