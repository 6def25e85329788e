"""The per-group summary of ``kafka-offsets lag`` (``--summary``): one row per group (pure).

Record schema (json, jsonl, csv)::

    {"group": str, "group_state": str|null, "group_type": str|null, "members": int|null, "partitions": int,
     "lag": int, "lagging": int, "max_time_lag_ms": int|null, "status": str, "remote_reads": int}

with ``--loss-eta`` ``min_loss_eta_ms`` (the soonest data-loss ETA of the group's partitions,
:mod:`kafka_offsets_cli.measures.lag.loss`; null when none has one; LOSS-ETA in the table) after
``remote_reads``, with ``--staleness`` ``max_commit_stale_ms`` (the stalest committed offset of
the group's partitions, :mod:`kafka_offsets_cli.measures.lag.stale`; STALE in the table), and
under ``--watch`` ``in_per_s``, ``consumed_per_s`` (the group's partitions'
rates summed)
and ``trend`` (:func:`kafka_offsets_cli.lag.summary.trend`: catching-up, falling-behind, steady;
null until both rates are known). On a terminal the table adds LAG-TREND (the group's lag over the
refreshes, a sparkline) and CATCH-UP (the time to catch up while the group gains); records have neither.

``group_state`` and ``members`` are the coordinator's description, ``group_type`` its protocol
(``classic``, or ``consumer`` for KIP-848 groups; null when not known); ``status`` the group's
monitoring status (:mod:`kafka_offsets_cli.lag.monitor`: ok without thresholds unless a
partition is below-start, no-commit, ahead or error); ``remote_reads`` the partitions the group reads
below ``earliest-local``, from remote storage (:mod:`kafka_offsets_cli.measures.lag.remote`; REMOTE in
the table, shown when a group has one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import MonitoringStatus
from ..lag.monitor import LagStatus
from ..lag.summary import soonest_loss_etas, totals, trend
from ..measures.catch_up import eta_to_catch_up_ms
from ..measures.lag.rows import GroupProblem, LagRow
from ..models.groups import GroupDescription
from ..parse.durations import format_duration
from .offsets import rate
from .sparkline import trend_cell

if TYPE_CHECKING:  # the table layout is imported only where a table is drawn
    from .fitted import FittedTable

__all__ = [
    "LOSS_SUMMARY_COLUMN",
    "RATE_SUMMARY_COLUMNS",
    "SUMMARY_COLUMNS",
    "summary_records",
    "summary_table",
]

SUMMARY_COLUMNS = (
    "group",
    "group_state",
    "group_type",
    "members",
    "partitions",
    "lag",
    "lagging",
    "max_time_lag_ms",
    "status",
    "remote_reads",
)

#: The extra summary field with ``--loss-eta``.
LOSS_SUMMARY_COLUMN = "min_loss_eta_ms"

#: The extra summary field of ``lag --staleness``: the group's stalest partition.
STALE_SUMMARY_COLUMN = "max_commit_stale_ms"

#: The extra summary fields under ``--watch``.
RATE_SUMMARY_COLUMNS = ("in_per_s", "consumed_per_s", "trend")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


_STYLE = {
    MonitoringStatus.OK: "",
    MonitoringStatus.WARNING: "yellow",
    MonitoringStatus.CRITICAL: "red",
    MonitoringStatus.UNKNOWN: "red",
}


def _duration(ms: int | None) -> Any:
    """A duration's cell: ``3m 20s``, or a dim ``-`` when there is none."""
    from rich.text import Text

    return format_duration(ms) if ms is not None else Text("-", style="dim")


def summary_fields(watching: bool, loss_eta: bool = False, staleness: bool = False) -> tuple[str, ...]:
    """The fields of a summary record (``--summary``), with the soonest ETA (``--loss-eta``), the
    stalest commit (``--staleness``) and the group's rates under ``--watch``."""
    loss = (LOSS_SUMMARY_COLUMN,) if loss_eta else ()
    stale = (STALE_SUMMARY_COLUMN,) if staleness else ()
    return (*SUMMARY_COLUMNS, *loss, *stale, *(RATE_SUMMARY_COLUMNS if watching else ()))


def summary_records(
    rows: Sequence[LagRow],
    problems: Sequence[GroupProblem],
    groups: Mapping[str, GroupDescription],
    status: LagStatus,
    types: Mapping[str, str | None] | None = None,
    *,
    time_lag: bool = False,
    rates: Mapping[str, tuple[float | None, float | None]] | None = None,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
) -> list[dict[str, Any]]:
    """One record per group with rows or a problem, by group id; ``rates`` (``--watch``): each
    group's summed records/s in and consumed; ``loss_etas`` (``--loss-eta``): each row's ETA, the
    group's soonest its ``min_loss_eta_ms``; ``stale_ms`` (``--staleness``): each row's commit
    staleness, the group's largest its ``max_commit_stale_ms``."""
    out: dict[str, dict[str, Any]] = {}
    for t in totals(rows):
        if t.topic is not None:
            continue
        out[t.group] = {
            "partitions": t.partitions,
            "lag": t.lag,
            "lagging": t.lagging,
            "max_time_lag_ms": t.max_time_lag_ms if time_lag else None,
            "remote_reads": t.remote_reads,
        }
    for p in problems:
        empty = {"partitions": 0, "lag": 0, "lagging": 0, "max_time_lag_ms": None, "remote_reads": 0}
        out.setdefault(p.group, empty)
    from ..measures.lag.stale import stalest  # here: staleness's rules (~1 ms of import)

    soonest = soonest_loss_etas(loss_etas or {})
    worst_stale = stalest(stale_ms or {})
    recs = []
    for g in sorted(out):
        d = groups.get(g)
        known = d is not None and d.error is None
        recs.append(
            {
                "group": g,
                "group_state": d.state if known and d is not None else None,
                "group_type": (types or {}).get(g),
                "members": d.members if known and d is not None else None,
                **{k: v for k, v in out[g].items() if k != "remote_reads"},
                "status": status.groups.get(g, MonitoringStatus.OK).name.lower(),
                "remote_reads": out[g]["remote_reads"],
            }
        )
        if loss_etas is not None:
            recs[-1][LOSS_SUMMARY_COLUMN] = soonest.get(g)
        if stale_ms is not None:
            recs[-1][STALE_SUMMARY_COLUMN] = worst_stale.get(g)
        if rates is not None:
            rin, rcons = rates.get(g, (None, None))
            recs[-1].update(in_per_s=_round(rin), consumed_per_s=_round(rcons), trend=trend(rin, rcons))
    return recs


def summary_table(
    records: Sequence[Mapping[str, Any]],
    *,
    header: bool = True,
    time_lag: bool = False,
    rates: bool = False,
    loss_eta: bool = False,
    staleness: bool = False,
    trends: Mapping[str, Sequence[int | None]] | None = None,
) -> FittedTable:
    """The records of :func:`summary_records` as a table (TIME-LAG, with ``time_lag``: the largest;
    LOSS-ETA, with ``loss_eta``: the soonest; STALE, with ``staleness``: the stalest).

    ``trends`` (``--watch`` on a terminal: each group's lag over the refreshes) adds CATCH-UP, the
    time to catch up while the group gains on its producers
    (:func:`~kafka_offsets_cli.measures.catch_up.eta_to_catch_up_ms` of the record's lag and rates;
    ``-`` otherwise), and LAG-TREND, a sparkline (:mod:`.sparkline`), both asked for (priority 1,
    :mod:`.fit`).

    STATUS is the record's status, except that an ``ok`` group with lagging partitions shows
    ``lagging`` (below the thresholds, or without any), as each partition's STATE does.
    """
    from rich.text import Text

    from .fit import Column, Kind  # here: tables only (~5 ms of import)
    from .fitted import FittedTable

    t = FittedTable(header=header)
    num = Kind.NUMBER
    t.add_column(Column(key="group", headers=("GROUP",)))
    t.add_column(Column(key="group_state", headers=("STATE",), kind=Kind.TEXT, min_width=6))
    t.add_column(Column(key="group_type", headers=("TYPE",), priority=2))
    t.add_column(Column(key="members", headers=("MEMBERS", "MEMB"), kind=num, justify="right"))
    t.add_column(Column(key="partitions", headers=("PARTITIONS", "PARTS"), kind=num, justify="right"))
    t.add_column(Column(key="lagging", headers=("LAGGING",), kind=num, priority=1, justify="right"))
    t.add_column(Column(key="lag", headers=("LAG",), kind=num, justify="right"))
    if time_lag:
        t.add_column(Column(key="max_time_lag_ms", headers=("TIME-LAG",), kind=num, justify="right"))
    if loss_eta:
        t.add_column(Column(key=LOSS_SUMMARY_COLUMN, headers=("LOSS-ETA",), kind=num, justify="right"))
    if staleness:
        t.add_column(Column(key=STALE_SUMMARY_COLUMN, headers=("STALE",), kind=num, justify="right"))
    remote = any(r.get("remote_reads") for r in records)  # only then: tables without tiering unchanged
    if remote:
        t.add_column(Column(key="remote_reads", headers=("REMOTE",), kind=num, priority=2, justify="right"))
    if rates:
        t.add_column(Column(key="in_per_s", headers=("IN/S",), kind=num, priority=3, justify="right"))
        t.add_column(
            Column(
                key="consumed_per_s", headers=("CONSUMED/S", "CONS/S"), kind=num, priority=2, justify="right"
            )
        )
        t.add_column(Column(key="trend", headers=("TREND",), kind=Kind.TEXT, min_width=7))
    if trends is not None:
        # the time to catch up outlasts the picture at 80 columns (the rightmost goes first)
        t.add_column(Column(key="catch_up_ms", headers=("CATCH-UP",), kind=num, priority=1, justify="right"))
        t.add_column(Column(key="lag_trend", headers=("LAG-TREND",), priority=1))
    t.add_column(Column(key="status", headers=("STATUS",), kind=Kind.TEXT, min_width=8))
    for r in records:
        st = MonitoringStatus[str(r["status"]).upper()]
        cells: list[Any] = [
            r["group"],
            r["group_state"] or Text("-", style="dim"),
            r["group_type"] or Text("-", style="dim"),
            str(r["members"]) if r["members"] is not None else Text("-", style="dim"),
            str(r["partitions"]),
            str(r["lagging"]),
            str(r["lag"]),
        ]
        if time_lag:
            cells.append(_duration(r["max_time_lag_ms"]))
        if loss_eta:
            cells.append(_duration(r.get(LOSS_SUMMARY_COLUMN)))
        if staleness:
            cells.append(_duration(r.get(STALE_SUMMARY_COLUMN)))
        if remote:
            cells.append(str(r["remote_reads"]))
        if rates:
            cells += [rate(r["in_per_s"]), rate(r["consumed_per_s"]), r["trend"] or Text("-", style="dim")]
        if trends is not None:
            catch_up = eta_to_catch_up_ms(r["lag"], r.get("in_per_s"), r.get("consumed_per_s"))
            cells += [_duration(catch_up), trend_cell(trends.get(r["group"], ()))]
        # an OK group with records left says so, as the per-partition STATE does (lag.monitor.shown_state):
        # STATUS ok beside a large lag read as "nothing to worry about" when no threshold was given
        shown = "lagging" if st is MonitoringStatus.OK and r["lagging"] else r["status"]
        cells.append(Text(shown, style="" if shown == "lagging" else _STYLE[st]))
        t.add_row(*cells)
    return t
