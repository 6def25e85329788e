"""``check --metrics-compat``: the lag exporters' names for a check run's lag records (pure).

The same alias families as ``lag --metrics-compat`` (:mod:`.lag_compat`: kafka_exporter's
``kafka_consumergroup_*`` and partition offsets, kafka-lag-exporter's ``kafka_consumergroup_group_*``
and ``kafka_partition_*``), made from each lag check's records on each cluster by the one
function ``lag`` uses, so an alias always equals its ``kafka_offsets_check_*`` series. Each sample
also carries the ``check`` and ``cluster`` labels of check's own series: two checks (or two
clusters) reading one group are two series, never one written twice. Liveness checks have no
alias: their records hold the newest record's offset, which is neither exporter's.

The check's own series stream a slice of records at a time; the aliases hold one check's lag rows
while its families are made, and every alias sample until the text is written (a family's samples
are written together, once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..check.records import column_slices
from ..check.report import CheckReport
from ..measures.lag.rows import LagRow
from .lag_compat import Compat, compat_families
from .monitoring import MetricFamily, Sample, prometheus_text

__all__ = ["check_compat_text"]

#: the record fields a lag row is rebuilt from
_KEYS = ("check", "cluster", "kind", "group", "group_type", "topic", "partition", "committed",
         "log_start", "end", "lag", "time_lag_ms", "state", "error")  # fmt: skip


def _rows(report: CheckReport) -> dict[tuple[str, str], list[LagRow]]:
    """Each (check, cluster)'s lag rows (records of a partition; a group or topic that could not be
    read has no partition, and no alias, as it has no partition series)."""
    out: dict[tuple[str, str], list[LagRow]] = {}
    for cols in column_slices(report.partitions, _KEYS):
        for values in zip(*cols, strict=True):
            rec = dict(zip(_KEYS, values, strict=True))
            if rec["kind"] != "lag" or rec["partition"] is None or rec["group"] is None:
                continue
            row = LagRow.from_record({**rec, "resume_timestamp": None, "taken_at_ms": None})
            out.setdefault((rec["check"], rec["cluster"]), []).append(row)
    return out


def check_compat_text(
    report: CheckReport,
    compat: Sequence[Compat],
    time_lag: Mapping[str, bool],
    labels: Mapping[str, str] | None = None,
) -> str:
    """The alias families of ``compat`` for the lag checks of ``report``, as exposition text with
    ``labels`` (empty when none is asked). ``time_lag``: each lag check's ``time_lag`` (its
    ``*_lag_seconds`` aliases only then, as ``lag`` gives them only with ``--time-lag``)."""
    if not compat:
        return ""
    merged: dict[str, MetricFamily] = {}
    samples: dict[str, list[Sample]] = {}
    for (check, cluster), rows in sorted(_rows(report).items()):
        where = {"check": check, "cluster": cluster}
        fams = compat_families(rows, compat, cluster_name=cluster, time_lag=time_lag.get(check, False))
        for f in fams:
            merged.setdefault(f.name, f)
            samples.setdefault(f.name, []).extend(Sample({**s.labels, **where}, s.value) for s in f.samples)
    families = [MetricFamily(f.name, f.help, samples=tuple(samples[name])) for name, f in merged.items()]
    return prometheus_text(families, labels)
