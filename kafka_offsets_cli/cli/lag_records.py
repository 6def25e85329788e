"""The per-partition records of ``lag`` (json, jsonl, csv): the lag record's fields and what options add.

Beside the lag record (:mod:`kafka_offsets_cli.render.lag`): ``loss_eta_ms`` (``--loss-eta``),
``commit_stale_ms`` (``--staleness``), ``status`` (a monitoring run), the ``--watch`` rates and the
partition's consumer (``--members``). Records that are not partitions (missing topics, group
problems) carry them as null (``status``: their group's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..lag.monitor import LagStatus
from ..measures.lag.collect import LagReport
from ..measures.lag.rows import COLUMNS, LagRow

if TYPE_CHECKING:
    from .watch import Rates

__all__ = [
    "LOSS_FIELD",
    "MEMBER_FIELDS",
    "RATE_FIELDS",
    "STALE_FIELD",
    "STATUS_FIELD",
    "LagKey",
    "beside",
    "key",
    "record_fields",
    "records",
]

#: The extra record fields of ``lag --watch``.
RATE_FIELDS = ("in_per_s", "consumed_per_s", "consumed_window_s")

#: A lag row's key: (group, topic, partition).
LagKey = tuple[str, str, int]

#: The extra record field of a monitoring run (thresholds, nagios, prometheus).
STATUS_FIELD = "status"

#: The extra record field of ``lag --loss-eta`` (:mod:`kafka_offsets_cli.measures.lag.loss`).
LOSS_FIELD = "loss_eta_ms"

#: The extra record field of ``lag --staleness`` (:mod:`kafka_offsets_cli.measures.lag.stale`).
STALE_FIELD = "commit_stale_ms"

#: The extra record fields of ``lag --members``: the partition's consumer (null: not assigned) and
#: its member epoch (null also for a classic group's member, which has none).
MEMBER_FIELDS = ("consumer_id", "host", "client_id", "member_epoch")


def key(row: LagRow) -> LagKey:
    """The key of a row: (group, topic, partition)."""
    return (row.group, row.topic, row.partition)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def beside(report: LagReport, loss_eta: bool, staleness: bool) -> dict[str, Mapping[LagKey, int]]:
    """The per-row values kept beside the rows that the records show, by field, in field order."""
    out: dict[str, Mapping[LagKey, int]] = {}
    if loss_eta:
        out[LOSS_FIELD] = report.loss_etas
    if staleness:
        out[STALE_FIELD] = report.stale_ms
    return out


def record_fields(
    monitor: bool, watching: bool, members: bool = False, loss_eta: bool = False, staleness: bool = False
) -> tuple[str, ...]:
    """The record fields: the lag record's, ``loss_eta_ms`` (``--loss-eta``), ``commit_stale_ms``
    (``--staleness``), then ``status`` (monitoring), the rates (``--watch``) and the partition's
    consumer (``--members``)."""
    return (
        *COLUMNS,
        *((LOSS_FIELD,) if loss_eta else ()),
        *((STALE_FIELD,) if staleness else ()),
        *((STATUS_FIELD,) if monitor else ()),
        *(RATE_FIELDS if watching else ()),
        *(MEMBER_FIELDS if members else ()),
    )


def records(
    report: LagReport,
    rows: Sequence[LagRow],
    status: LagStatus | None,
    rates: Rates[LagKey] | None,
    *,
    members: bool,
    values: Mapping[str, Mapping[LagKey, int]],
) -> list[dict[str, Any]]:
    """Missing topics and group problems first (status unknown, or warning for a group with no
    rows; rates null), then the rows. ``status``: the run's status, given in a monitoring run;
    ``values``: the fields kept beside the rows (:func:`beside`)."""
    recs = report.missing_records() + [p.to_record() for p in report.problems]
    if values:
        recs = [{**rec, **dict.fromkeys(values)} for rec in recs]
    if status is not None:
        for rec in recs:
            group = rec["group"]
            rec[STATUS_FIELD] = status.groups.get(group, MonitoringStatus.UNKNOWN).name.lower()
    if rates is not None:
        recs = [{**rec, **dict.fromkeys(RATE_FIELDS)} for rec in recs]
    if members:
        recs = [{**rec, **dict.fromkeys(MEMBER_FIELDS)} for rec in recs]
    if status is None and rates is None and not members and not values:  # the rows' own
        return recs + list(map(LagRow.to_record, rows))
    owners = report.owners() if members else {}
    for row in rows:
        rec = row.to_record()
        for name, by_row in values.items():
            rec[name] = by_row.get(key(row))
        if status is not None:
            rec[STATUS_FIELD] = status.of(row).name.lower()
        if rates is not None:
            rec[RATE_FIELDS[0]] = _round(rates.in_rate(key(row)))
            rec[RATE_FIELDS[1]] = _round(rates.consumed_rate(key(row)))
            rec[RATE_FIELDS[2]] = rates.consumed_window.get(key(row))
        if members:
            m = owners.get(key(row))
            member = (m.member_id, m.host, m.client_id, m.member_epoch) if m else (None,) * 4
            rec.update(zip(MEMBER_FIELDS, member, strict=True))
        recs.append(rec)
    return recs
