"""Renderers for ``kafka-offsets lag``.

Record schema (json, jsonl, csv), one record per group and partition::

    {"group": str, "group_type": str|null, "topic": str, "partition": int, "committed": int|null,
     "log_start": int|null, "end": int|null, "lag": int|null,
     "time_lag_ms": int|null, "state": str, "error": str|null,
     "resume_timestamp": int|null, "taken_at_ms": int|null, "remote_read": bool|null}

and with ``--loss-eta`` ``"loss_eta_ms": int|null`` after them (:mod:`kafka_offsets_cli.measures.lag.loss`),
with ``--staleness`` ``"commit_stale_ms": int|null`` (:mod:`kafka_offsets_cli.measures.lag.stale`).

``group_type`` is the group's type as the brokers list it: ``classic``, ``consumer``, ``share``
or ``streams`` (``null`` when not known). A share group's ``committed`` is its share-partition start
offset and its ``lag`` the broker's (:mod:`kafka_offsets_cli.measures.lag.share`).
``state`` is ``ok``, ``no-commit``, ``below-start``, ``ahead``, ``marker`` or
``error`` (see :mod:`kafka_offsets_cli.measures.lag`). ``time_lag_ms`` is ``null`` unless
``--time-lag`` was given (and for states without a lag); so are ``resume_timestamp``
(a DR cutover's resume time, :func:`~kafka_offsets_cli.measures.lag.timelag.search_offset`) and
``taken_at_ms`` (the "now" of ``time_lag_ms``). ``remote_read``
(:mod:`kafka_offsets_cli.measures.lag.remote`): the group's next fetch is below
``earliest-local``, from remote storage (the table's STATE says ``(remote read)``); ``false`` when
not, ``null`` when unknown.

The table mirrors ``kafka-consumer-groups --describe`` with a line of totals per
topic and per group. Under ``--watch`` it has two more columns, IN/S (records/s
appended to the partition) and CONSUMED/S (records/s committed by the group),
summed on the totals lines; on a terminal a third, LAG-TREND: each row's and total's lag over the
last refreshes as a sparkline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rich and the table layout are imported only where a table is drawn (fast machine output)
    from rich.text import Text

    from .fitted import FittedTable

from ..lag.summary import LagTotal, TrendKey, totals
from ..measures.lag.rows import COLUMNS, LagRow, LagState
from ..parse.durations import format_duration
from .offsets import rate
from .sparkline import trend_cell

__all__ = ["COLUMNS", "LagRates", "records", "rich_table", "time_lag_note"]

#: Rates by (group, topic, partition): (records/s in, records/s consumed), ``None`` when not known.
LagRates = Mapping[tuple[str, str, int], tuple[float | None, float | None]]

#: What STATE adds for a partition read from remote storage (below earliest-local: the slow path).
REMOTE_READ = "remote read"

_STATE_STYLE = {
    LagState.OK: "",
    LagState.MARKER: "dim",
    LagState.NO_COMMIT: "yellow",
    LagState.AHEAD: "yellow",
    LagState.BELOW_START: "red",
    LagState.ERROR: "red",
}


#: Styles of the shown states that are not offset states (:func:`kafka_offsets_cli.lag.monitor.shown_state`).
#: the priority of a column a flag asked for (--watch, --members): hidden after every other one
ASKED = 1

_SHOWN_STYLE = {"lagging": "", "warning": "yellow", "critical": "red"}


def records(rows: Sequence[LagRow]) -> list[dict[str, Any]]:
    """The records of ``rows``, in the given order."""
    return [r.to_record() for r in rows]


def _cell(v: int | None) -> str | Text:
    from rich.text import Text

    return str(v) if v is not None else Text("-", style="dim")


def _text(v: str | None) -> str | Text:
    from rich.text import Text

    return v if v is not None else Text("-", style="dim")


def _time_cell(ms: int | None, computed: bool) -> str | Text:
    from rich.text import Text

    if ms is None:
        return Text("-", style="dim") if computed else Text("")
    return format_duration(ms)


def _sum(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def rich_table(
    rows: Sequence[LagRow],
    *,
    header: bool = True,
    time_lag: bool = False,
    show_totals: bool = True,
    rates: LagRates | None = None,
    columns: Sequence[str] | None = None,
    states: Mapping[tuple[str, str, int], str] | None = None,
    owners: Mapping[tuple[str, str, int], tuple[str, str, str, int | None]] | None = None,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
    trends: Mapping[TrendKey, Sequence[int | None]] | None = None,
) -> FittedTable:
    """One row per group and partition, then totals per group (and per topic when a group has several).

    ``rates`` (``--watch``) adds the IN/S and CONSUMED/S columns; ``columns`` (``--columns``)
    keeps the columns of these record fields. Priorities (:mod:`.fit`): GROUP, TOPIC, PARTITION,
    LAG, TIME-LAG, STATE 0; the columns a flag asked for (IN/S, CONSUMED/S; the members') 1
    (:data:`ASKED`, hidden last); CURRENT-OFFSET, LOG-END-OFFSET 2; LOG-START-OFFSET 4; TYPE 5
    (shown when the rows hold several group types, or a share or streams group).
    ``states``: the STATE shown per row (:func:`kafka_offsets_cli.lag.monitor.shown_state`; default the
    offset state). ``owners`` (``--members``) adds CONSUMER-ID, HOST, CLIENT-ID after STATE, as
    kafka-consumer-groups shows them (``-`` for a partition no member is assigned), and MEMBER-EPOCH
    when a member has an epoch (consumer, share and streams groups; a classic group's have none).
    ``loss_etas`` (``--loss-eta``: each row's ETA, :mod:`kafka_offsets_cli.measures.lag.loss`) adds
    LOSS-ETA 0 after TIME-LAG (``-``: no ETA; on the totals the group's or topic's soonest);
    ``stale_ms`` (``--staleness``: :mod:`kafka_offsets_cli.measures.lag.stale`) STALE 0 after them
    (``-``: unknown or not judged; on the totals the stalest). ``trends`` (``--watch`` on a terminal:
    each row's and total's lag over the refreshes, :func:`kafka_offsets_cli.lag.summary.lag_levels`)
    adds LAG-TREND, a sparkline (:mod:`.sparkline`), after the rates, asked for (:data:`ASKED`).
    """
    from rich.text import Text

    from .fit import Column, Kind  # here: tables only (~5 ms of import)
    from .fitted import FittedTable

    t = FittedTable(header=header, keep=columns)
    num = Kind.NUMBER
    t.add_column(Column(key="group", headers=("GROUP",)))
    # TYPE when it tells something: several types, or a share or streams group (a share group's
    # CURRENT-OFFSET is its share-partition start offset); records always carry group_type
    kinds = {r.group_type for r in rows if r.group_type is not None}
    typed = len(kinds) > 1 or bool(kinds & {"share", "streams"})
    if typed:
        t.add_column(Column(key="group_type", headers=("TYPE",), priority=5))
    t.add_column(Column(key="topic", headers=("TOPIC",)))
    t.add_column(Column(key="partition", headers=("PARTITION", "PART"), kind=num, justify="right"))
    t.add_column(
        Column(key="committed", headers=("CURRENT-OFFSET", "CURRENT"), kind=num, priority=2, justify="right")
    )
    t.add_column(
        Column(
            key="log_start", headers=("LOG-START-OFFSET", "LOG-START"), kind=num, priority=4, justify="right"
        )
    )
    t.add_column(
        Column(key="end", headers=("LOG-END-OFFSET", "LOG-END"), kind=num, priority=2, justify="right")
    )
    t.add_column(Column(key="lag", headers=("LAG",), kind=num, justify="right"))
    if time_lag:
        t.add_column(Column(key="time_lag_ms", headers=("TIME-LAG",), kind=num, justify="right"))
    if loss_etas is not None:
        t.add_column(Column(key="loss_eta_ms", headers=("LOSS-ETA",), kind=num, justify="right"))
    if stale_ms is not None:
        t.add_column(Column(key="commit_stale_ms", headers=("STALE",), kind=num, justify="right"))
    # the columns a flag asked for (--watch's rates, --members' consumer) are the last to be hidden:
    # at 80 columns the type, the log start and the offsets go first (ASKED is below their priorities)
    if rates is not None:
        t.add_column(Column(key="in_per_s", headers=("IN/S",), kind=num, priority=ASKED, justify="right"))
        cons = ("CONSUMED/S", "CONS/S")
        t.add_column(Column(key="consumed_per_s", headers=cons, kind=num, priority=ASKED, justify="right"))
    if trends is not None:
        t.add_column(Column(key="lag_trend", headers=("LAG-TREND", "TREND"), priority=ASKED))
    t.add_column(Column(key="state", headers=("STATE",), kind=Kind.TEXT, min_width=11))
    if owners is not None:
        text, asked = Kind.TEXT, ASKED
        t.add_column(
            Column(key="consumer_id", headers=("CONSUMER-ID", "CONSUMER"), kind=text, priority=asked)
        )
        t.add_column(Column(key="host", headers=("HOST",), kind=text, priority=asked, min_width=6))
        t.add_column(Column(key="client_id", headers=("CLIENT-ID", "CLIENT"), kind=text, priority=asked))
    epochs = owners is not None and any(o[3] is not None for o in owners.values())
    if epochs:
        heads = ("MEMBER-EPOCH", "EPOCH")
        t.add_column(Column(key="member_epoch", headers=heads, kind=num, priority=ASKED, justify="right"))
    for r in rows:
        cells: list[Any] = [
            r.group,
            *((_text(r.group_type),) if typed else ()),
            r.topic,
            str(r.partition),
            _cell(r.committed),
            _cell(r.log_start),
            _cell(r.end),
            _cell(r.lag),
        ]
        if time_lag:
            cells.append(_time_cell(r.time_lag_ms, True))
        if loss_etas is not None:
            cells.append(_time_cell(loss_etas.get((r.group, r.topic, r.partition)), True))
        if stale_ms is not None:
            cells.append(_time_cell(stale_ms.get((r.group, r.topic, r.partition)), True))
        if rates is not None:
            rin, rcons = rates.get((r.group, r.topic, r.partition), (None, None))
            cells += [rate(rin), rate(rcons)]
        if trends is not None:
            cells.append(trend_cell(trends.get((r.group, r.topic, r.partition), ())))
        shown = (states or {}).get((r.group, r.topic, r.partition), r.state.value)
        state = shown + (f" ({r.error})" if r.error else "") + (f" ({REMOTE_READ})" if r.remote_read else "")
        cells.append(Text(state, style=_SHOWN_STYLE.get(shown, _STATE_STYLE[r.state])))
        if owners is not None:
            consumer, host, client, epoch = owners.get((r.group, r.topic, r.partition), ("-", "-", "-", None))
            cells += [consumer, host, client, *((_cell(epoch),) if epochs else ())]
        t.add_row(*cells)
    if show_totals and rows:
        t.add_section()
        topics_of: dict[str, set[str]] = {}
        for r in rows:
            topics_of.setdefault(r.group, set()).add(r.topic)
        soonest = _per_total(rows, loss_etas, min) if loss_etas is not None else {}
        stalest = _per_total(rows, stale_ms, max) if stale_ms is not None else {}
        for tot in totals(rows):
            if tot.topic is not None and len(topics_of[tot.group]) == 1:
                continue  # the group total says the same
            cells = _total_cells(tot, time_lag, typed)
            if loss_etas is not None:
                cells.insert(len(cells) - 1, _time_cell(soonest.get((tot.group, tot.topic)), False))
            if stale_ms is not None:
                cells.insert(len(cells) - 1, _time_cell(stalest.get((tot.group, tot.topic)), False))
            if rates is not None:
                mine = [
                    rates.get((r.group, r.topic, r.partition), (None, None))
                    for r in rows
                    if r.group == tot.group and (tot.topic is None or r.topic == tot.topic)
                ]
                cells[-1:-1] = [rate(_sum([m[0] for m in mine])), rate(_sum([m[1] for m in mine]))]
            if trends is not None:
                cells.insert(len(cells) - 1, trend_cell(trends.get((tot.group, tot.topic, None), ())))
            t.add_row(*cells)
    return t


def _per_total(
    rows: Sequence[LagRow], values: Mapping[tuple[str, str, int], int], pick: Callable[[int, int], int]
) -> dict[tuple[str, str | None], int]:
    """``pick`` of the rows' values per (group, topic) and per (group, None) among ``rows``: the
    totals' LOSS-ETA (the smallest) and STALE (the largest)."""
    out: dict[tuple[str, str | None], int] = {}
    for r in rows:
        if (v := values.get((r.group, r.topic, r.partition))) is not None:
            for k in ((r.group, r.topic), (r.group, None)):
                out[k] = pick(out.get(k, v), v)
    return out


def _total_cells(tot: LagTotal, time_lag: bool, typed: bool) -> list[Any]:
    from rich.text import Text

    from .fit import Forms  # here: tables only

    style = "bold" if tot.topic is None else ""
    where = tot.topic if tot.topic is not None else Text("(all topics)", style="dim")
    cells: list[Any] = [Text(tot.group, style=style), *([""] if typed else []), where, "", "", "", ""]
    cells.append(Text(str(tot.lag), style=style))
    if time_lag:
        cells.append(_time_cell(tot.max_time_lag_ms, False))
    what = f"total: {tot.partitions} partition(s), {tot.lagging} lagging"
    short = f"{tot.lagging}/{tot.partitions} lagging"
    if tot.problems:
        what += f", {tot.problems} flagged"
        short += f", {tot.problems} flagged"
    if tot.remote_reads:
        what += f", {tot.remote_reads} {REMOTE_READ}"
        short += f", {tot.remote_reads} remote"
    cells.append(Forms((what, short), style="dim"))
    return cells


def time_lag_note(rounds: int, searched: int) -> str:
    """A table's one-line footnote on the time lag (its method is told by ``lag --help``)."""
    if searched == 0:
        return "time lag: no lagging partition to search"
    return f"time lag: exact to 1 ms, {searched} partition(s) searched in {rounds} round(s) of ListOffsets"
