"""Renderers for ``kafka-offsets check`` (pure: a :class:`CheckReport` in, text or rich renderables out).

* ``json``: the document of :meth:`CheckReport.to_document` (schema in
  :mod:`kafka_offsets_cli.check.report`), made as a stream of text chunks
  (:func:`json_chunks`: the partition records a slice at a time);
* ``table``: a summary of the checks, then liveness topics and lag groups that
  are not OK (every group with history, with its lag trend as a sparkline),
  then the worst partitions; each table fits the terminal (:mod:`.fit`).

The monitoring formats (``nagios``, ``prometheus``) are :mod:`.check_monitoring`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import tzinfo
from typing import Any

from rich.console import Group
from rich.text import Text

from ..check.records import RECORD_KEYS, PartitionRecord, column_slices
from ..check.report import CheckReport, CheckResult, GroupResult, TopicResult
from ..errors import MonitoringStatus
from ..parse.durations import format_duration
from ..severity import severity
from .fit import Column, Forms, Kind, Time
from .fitted import FittedTable
from .flat_json import to_json
from .formats import to_json_document
from .monitoring import status_text
from .sparkline import sparkline

__all__ = [
    "json_chunks",
    "json_document",
    "rich_summary",
]


def _status(s: MonitoringStatus) -> Text:
    return status_text(s)


def _num(v: int | None) -> str | Text:
    return Text("-", style="dim") if v is None else str(v)


def _dur(ms: int | None) -> str | Text:
    return Text("-", style="dim") if ms is None else format_duration(ms)


def _rate(v: float | None) -> str | Text:
    return Text("-", style="dim") if v is None else f"{v:,.1f}/s"


def json_document(report: CheckReport) -> str:
    """The ``--output json`` text (all of it at once: :func:`json_chunks` joined)."""
    return "".join(json_chunks(report))


#: the end of the document's text when it has no partition records
_EMPTY_TAIL = "[]\n}\n"


#: partition records per chunk of the JSON text (bounds the values alive at once while writing);
#: 250 was both lighter and quicker than 500 or 1,000 over 100,000 records (a slice's values stay
#: in the CPU's caches)
JSON_SLICE = 250


def json_chunks(report: CheckReport, *, size: int = JSON_SLICE) -> Iterator[str]:
    """The ``--output json`` text in chunks: the checks, then ``size`` partition records at a time.

    Joined, the chunks are exactly the pretty-printed :meth:`CheckReport.to_document`: a record
    is a member of the top-level ``partitions`` array, two levels deep, so a slice printed as
    its own array is indented one level more and its brackets dropped.
    """
    head = to_json_document(
        {"status": report.status.name, "checks": [c.to_record() for c in report.checks], "partitions": []}
    )
    if not len(report.partitions):
        yield head
        return
    assert head.endswith(_EMPTY_TAIL)
    yield head[: -len(_EMPTY_TAIL)] + "[\n"
    sep = ""
    for columns in column_slices(report.partitions, RECORD_KEYS, size):
        yield sep + _records_text(columns)
        sep = ",\n"
    yield "\n  ]\n}\n"


def _records_text(columns: list[list[Any]]) -> str:
    """A slice of records (columns in :data:`RECORD_KEYS` order) as members of the ``partitions`` array.

    The text ``json.dumps(records, indent=2, ensure_ascii=False)`` gives, indented one level
    more and without its brackets, written by :func:`.flat_json.to_json` (the C encoder for
    flat records, the same bytes).
    """
    records = [dict(zip(RECORD_KEYS, row, strict=True)) for row in zip(*columns, strict=True)]
    text = to_json(records)[:-1]  # "[\n  {...},\n  {...}\n]"
    return "  " + text[2:-2].replace("\n", "\n  ")


# ----------------------------------------------------------------------------- table
#
# Every table fits the terminal (:mod:`.fit`); column priorities (0: never dropped, higher
# numbers first): names, statuses, LAG, AGE and errors 0; the rest as each table says.

_NUM, _TEXT, _RIGHT = Kind.NUMBER, Kind.TEXT, "right"


def _col(key: str, *headers: str, kind: Kind = Kind.NAME, priority: int = 0, **kw: Any) -> Column:
    return Column(key=key, headers=headers, kind=kind, priority=priority, **kw)


def _summary_forms(summary: str) -> Forms:
    """The summary, then its first part with how many more follow (the tables below have them)."""
    first, *more = summary.split("; ")
    return Forms((summary, f"{first} (+{len(more)} more)" if more else first))


def checks_table(checks: Sequence[CheckResult]) -> FittedTable:
    """One row per check: status, type, clusters, partitions evaluated and a summary.

    Priorities: CHECK, STATUS, SUMMARY 0; PARTITIONS 1; TYPE 2; CLUSTERS 3.
    """
    t = FittedTable(title="Checks")
    t.add_column(_col("check", "CHECK"))
    t.add_column(_col("type", "TYPE", priority=2))
    t.add_column(_col("status", "STATUS"))
    t.add_column(_col("clusters", "CLUSTERS", priority=3))
    t.add_column(_col("partitions", "PARTITIONS", "PARTS", kind=_NUM, priority=1, justify=_RIGHT))
    t.add_column(_col("summary", "SUMMARY", kind=_TEXT, min_width=16))
    for c in checks:
        t.add_row(
            c.name,
            c.type,
            _status(c.status),
            ",".join(c.clusters),
            str(c.partitions),
            _summary_forms(c.summary),
        )
    return t


def topics_table(topics: Sequence[TopicResult]) -> FittedTable:
    """Liveness topics: status, partitions alive, the deciding age, timestamp type.

    Priorities: CHECK, TOPIC, STATUS, AGE 0; ALIVE 1; CLUSTER 3; TIMESTAMP-TYPE 4.
    """
    t = FittedTable(title="Liveness topics")
    t.add_column(_col("check", "CHECK"))
    t.add_column(_col("cluster", "CLUSTER", priority=3))
    t.add_column(_col("topic", "TOPIC"))
    t.add_column(_col("status", "STATUS"))
    t.add_column(_col("alive", "ALIVE", kind=_NUM, priority=1, justify=_RIGHT))
    t.add_column(_col("age_ms", "AGE", kind=_TEXT, min_width=12, justify=_RIGHT))  # or the error
    t.add_column(_col("timestamp_type", "TIMESTAMP-TYPE", "TS-TYPE", priority=4))
    for x in topics:
        t.add_row(
            x.check,
            x.cluster,
            x.topic,
            _status(x.status),
            f"{x.alive}/{x.partitions}",
            Text(x.error, style="red") if x.error else _dur(x.age_ms),
            x.timestamp_type or Text("-", style="dim"),
        )
    return t


def groups_table(groups: Sequence[GroupResult], *, history: bool) -> FittedTable:
    """Lag groups: status, total and max lag, time lag; with history the Burrow verdict, trend, rates, ETA.

    Priorities: CHECK, GROUP, STATUS, LAG, ERROR 0; TIME LAG, HISTORY 1; MAX LAG, PROBLEMS,
    TREND, CATCH-UP 2; CLUSTER, PRODUCE, CONSUME 3.
    """
    t = FittedTable(title="Lag groups")
    t.add_column(_col("check", "CHECK"))
    t.add_column(_col("cluster", "CLUSTER", priority=3))
    t.add_column(_col("group", "GROUP"))
    t.add_column(_col("status", "STATUS"))
    t.add_column(_col("lag", "LAG", kind=_NUM, justify=_RIGHT))
    t.add_column(_col("max_lag", "MAX LAG", kind=_NUM, priority=2, justify=_RIGHT))
    t.add_column(_col("max_time_lag_ms", "TIME LAG", kind=_NUM, priority=1, justify=_RIGHT))
    t.add_column(_col("problems", "PROBLEMS", "PROBS", kind=_NUM, priority=2, justify=_RIGHT))
    if history:
        t.add_column(_col("history", "HISTORY", priority=1))
        t.add_column(_col("trend", "TREND", priority=2))
        t.add_column(_col("produce_rate", "PRODUCE", kind=_NUM, priority=3, justify=_RIGHT))
        t.add_column(_col("consume_rate", "CONSUME", kind=_NUM, priority=3, justify=_RIGHT))
        t.add_column(_col("eta_ms", "CATCH-UP", kind=_NUM, priority=2, justify=_RIGHT))
    errors = any(g.error for g in groups)
    if errors:
        t.add_column(_col("error", "ERROR", kind=_TEXT, style="red", min_width=12))
    for g in groups:
        row: list[Any] = [
            g.check,
            g.cluster,
            g.group,
            _status(g.status),
            Text("-", style="dim") if g.error else str(g.lag),
            _num(g.max_lag),
            _dur(g.max_time_lag_ms),
            str(g.problems),
        ]
        if history:
            row += [
                g.history or Text("-", style="dim"),
                Text(sparkline(g.trend), style="cyan") if g.trend else Text("-", style="dim"),
                _rate(g.produce_rate),
                _rate(g.consume_rate),
                _dur(g.eta_ms),
            ]
        if errors:
            row.append(g.error or "")
        t.add_row(*row)
    return t


def partitions_table(records: Sequence[PartitionRecord], tz: tzinfo, *, title: str) -> FittedTable:
    """Partition records (lag and liveness columns side by side).

    Priorities: CHECK, GROUP, TOPIC, PARTITION, STATUS, ERROR 0; LAG, TIME LAG, AGE 1;
    STATE, NEWEST RECORD 2; CLUSTER 3.
    """
    t = FittedTable(title=title, tz=tz)
    t.add_column(_col("check", "CHECK"))
    t.add_column(_col("cluster", "CLUSTER", priority=3))
    t.add_column(_col("group", "GROUP"))
    t.add_column(_col("topic", "TOPIC"))
    t.add_column(_col("partition", "PARTITION", "PART", kind=_NUM, justify=_RIGHT))
    t.add_column(_col("status", "STATUS"))
    t.add_column(_col("state", "STATE", kind=_TEXT, priority=2, min_width=10))
    t.add_column(_col("lag", "LAG", kind=_NUM, priority=1, justify=_RIGHT))
    t.add_column(_col("time_lag_ms", "TIME LAG", kind=_NUM, priority=1, justify=_RIGHT))
    # no relative form: AGE beside it says that already
    t.add_column(_col("timestamp", "NEWEST RECORD", "NEWEST", kind=Kind.TIME, priority=2, relative=False))
    t.add_column(_col("age_ms", "AGE", kind=_NUM, priority=1, justify=_RIGHT))
    t.add_column(_col("error", "ERROR", kind=_TEXT, style="red", min_width=12))
    for r in records:
        t.add_row(
            r.check,
            r.cluster,
            r.group or Text("-", style="dim"),
            r.topic or Text("-", style="dim"),
            _num(r.partition),
            _status(r.status),
            r.state + (f" ({r.history})" if r.history else ""),
            _num(r.lag),
            _dur(r.time_lag_ms),
            Time(r.timestamp) if r.timestamp is not None else Text("-", style="dim"),
            _dur(r.age_ms),
            r.error or "",
        )
    return t


def rich_summary(report: CheckReport, tz: tzinfo, *, worst: int = 20) -> Group:
    """Checks; topics and groups that need attention (every group with history); the worst partitions."""
    parts: list[Any] = [checks_table(report.checks)]
    topics = [t for c in report.checks for t in c.topics if t.status is not MonitoringStatus.OK]
    if topics:
        parts += [Text(""), topics_table(topics)]
    history = report.history_runs is not None
    groups = [g for c in report.checks for g in c.groups if history or g.status is not MonitoringStatus.OK]
    if groups:
        parts += [Text(""), groups_table(groups, history=history)]
    bad = sorted(
        (r for r in report.partitions if r.status is not MonitoringStatus.OK),
        key=lambda r: (-_sev(r.status), -(r.lag or 0), -(r.age_ms or 0), r.key),
    )[:worst]
    if bad:
        parts += [Text(""), partitions_table(bad, tz, title=f"Worst partitions ({len(bad)} shown)")]
    footer = f"{report.total_partitions} partition records; status {report.status.name}"
    if history:
        footer += f"; history: {report.history_runs} run(s) in the window"
    parts += [Text(""), Text(footer, style="dim")]
    return Group(*parts)


def _sev(s: MonitoringStatus) -> int:
    return severity(s)
