"""``list --tiering``: the tiering view (:mod:`kafka_offsets_cli.tiering`) beside list's output (pure).

The numbers are the ``tiering`` command's, from its collection and rules (one report); this
module only lays them out for ``list``:

* records (json, jsonl, csv): every list record gains :data:`FIELDS`, its partition's tiering
  record under the ``tiering`` command's names (``state`` and ``error`` renamed ``tiering_state``
  and ``tiering_error``, since list has an ``error`` of its own); then one record per topic,
  ``partition`` and ``spec`` null, with the topic's sums (``local_records``, ``remote_records``,
  ``backlog_records``), its oldest ``backlog_age_ms`` and ``tiering_state`` (``ok``,
  ``not-tiered`` or ``error``);
* table: LOCAL (the span ``earliest-local..latest-1``), REMOTE (``earliest..latest-tiered``),
  BACKLOG (records) and BACKLOG-AGE columns, and a ``total`` row per topic (records local,
  remote and in the backlog; the oldest backlog) under a rule, as ``lag`` totals its groups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..models.topics import TopicPartition
from ..parse.durations import format_duration
from ..tiering.report import TieringReport
from ..tiering.rules import COLUMNS as TIER_COLUMNS
from ..tiering.rules import TierRow, TopicTiering
from .fit import Column, Kind

if TYPE_CHECKING:
    from rich.text import Text

    from .fitted import FittedTable

_RENAMED = {"state": "tiering_state", "error": "tiering_error"}

#: The fields ``--tiering`` adds to a list record, in order.
FIELDS = tuple(_RENAMED.get(c, c) for c in TIER_COLUMNS if c not in ("topic", "partition"))

#: The table's columns: (record key, headers, priority).
_TABLE = (
    ("local_records", ("LOCAL",), 2),
    ("remote_records", ("REMOTE",), 2),
    ("backlog_records", ("BACKLOG",), 1),
    ("backlog_age_ms", ("BACKLOG-AGE", "AGE"), 1),
)


def by_partition(report: TieringReport) -> dict[TopicPartition, TierRow]:
    """The report's rows by partition."""
    return {TopicPartition(r.topic, r.partition): r for r in report.rows}


def failed(report: TieringReport) -> list[str]:
    """The report's partition errors, for list's failure line (a topic that cannot be listed is
    already one of list's own errors)."""
    return [f"tiering: {r.error}" for r in report.rows if r.error]


def _partition_fields(row: TierRow | None) -> dict[str, Any]:
    if row is None:
        return dict.fromkeys(FIELDS)
    rec = row.to_record()
    return {_RENAMED.get(k, k): v for k, v in rec.items() if k not in ("topic", "partition")}


def topic_state(t: TopicTiering) -> str:
    """A topic's ``tiering_state``: ``error`` (a partition or the topic failed), ``not-tiered``, or ``ok``."""
    if t.status is MonitoringStatus.UNKNOWN or t.error is not None:
        return "error"
    return "not-tiered" if not t.tiered else t.status.name.lower()


def topic_record(t: TopicTiering, list_columns: Sequence[str]) -> dict[str, Any]:
    """The per-topic total record: list's keys null but ``topic``, the topic's sums and state."""
    rec: dict[str, Any] = {**dict.fromkeys(list_columns), **dict.fromkeys(FIELDS), "topic": t.topic}
    tiered = t.tiered and t.error is None
    rec.update(
        local_records=t.local_records if t.error is None else None,
        remote_records=t.remote_records if tiered else None,
        backlog_records=t.backlog_records if tiered else None,
        backlog_age_ms=t.backlog_age_ms if tiered else None,
        tiering_state=topic_state(t),
        tiering_error=t.error,
    )
    return rec


def with_tiering(
    records: Sequence[Mapping[str, Any]], report: TieringReport, list_columns: Sequence[str]
) -> list[dict[str, Any]]:
    """List ``records`` with their partition's tiering fields, then one total record per topic."""
    rows = by_partition(report)
    out = []
    for rec in records:
        p = rec.get("partition")
        row = rows.get(TopicPartition(str(rec["topic"]), p)) if p is not None else None
        out.append({**rec, **_partition_fields(row)})
    return out + [topic_record(t, list_columns) for t in report.topics]


def _dash(v: object) -> str | Text:
    from rich.text import Text

    return Text("-", style="dim") if v is None else str(v)


def _span(first: int | None, last: int | None) -> str | Text:
    from rich.text import Text

    if first is None or last is None or last < first:
        return Text("-", style="dim")
    return f"{first}..{last}"


def _age(ms: int | None) -> str | Text:
    return _dash(None if ms is None else format_duration(ms))


def add_columns(t: FittedTable) -> None:
    """The LOCAL, REMOTE, BACKLOG and BACKLOG-AGE columns."""
    for key, heads, prio in _TABLE:
        t.add_column(Column(key=key, headers=heads, kind=Kind.NUMBER, priority=prio, justify="right"))


def cells(row: TierRow | None) -> list[Any]:
    """A partition's four cells (``-`` where there is no number; ``error`` when nothing came back)."""
    from rich.text import Text

    if row is None:
        return [Text("error", style="red")] * len(_TABLE)
    last = None if row.latest is None else row.latest - 1
    return [
        _span(row.earliest_local, last),
        _span(row.earliest, row.latest_tiered),
        _dash(row.backlog_records),
        _age(row.backlog_age_ms),
    ]


def total_cells(t: TopicTiering) -> list[Any]:
    """A topic's total cells: records local, remote and in the backlog, the oldest backlog."""
    if t.error is not None:
        return [_dash(None)] * len(_TABLE)
    if not t.tiered:
        return [str(t.local_records), _dash(None), _dash(None), _dash(None)]
    return [str(t.local_records), str(t.remote_records), str(t.backlog_records), _age(t.backlog_age_ms)]
