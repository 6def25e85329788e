"""``lag --sort loss-eta`` (pure): the soonest data-loss ETA first, rows without one last, and the one
rule by which a sort key turns on the measure it orders by (``time-lag`` the time lag, ``loss-eta`` the
ETA and so the time lag)."""

from __future__ import annotations

from kafka_offsets_cli.cli.lag_view import LagView, render
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.lag.monitor import LagThresholds
from kafka_offsets_cli.lag.run import LagRequest, request_of
from kafka_offsets_cli.lag.summary import SortKey, sort_measures, sort_rows
from kafka_offsets_cli.measures.lag.collect import LagReport
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState


def row(group: str, topic: str, partition: int, committed: int, start: int = 0) -> LagRow:
    below = committed < start
    return LagRow(
        group=group,
        topic=topic,
        partition=partition,
        committed=committed,
        log_start=start,
        end=100,
        lag=None if below else 100 - committed,
        time_lag_ms=None,
        state=LagState.BELOW_START if below else LagState.OK,
    )


ROWS = [
    row("b", "t", 0, 10),  # ETA 5 s
    row("a", "u", 1, 100),  # read to the end: no ETA
    row("a", "t", 1, 20),  # ETA 3 s
    row("a", "t", 0, 30),  # ETA 5 s: ties keep the name order
    row("a", "u", 0, 1, start=5),  # below-start: 0, already lost
    row("c", "t", 0, 50),  # no ETA (e.g. retention.ms -1)
]
ETAS = {("b", "t", 0): 5_000, ("a", "t", 1): 3_000, ("a", "t", 0): 5_000, ("a", "u", 0): 0}


def names(rows: list[LagRow]) -> list[str]:
    return [f"{r.group}/{r.topic}/{r.partition}" for r in rows]


def test_soonest_first_without_an_eta_last_in_name_order() -> None:
    got = names(sort_rows(ROWS, SortKey.loss_eta, ETAS))
    assert got == ["a/u/0", "a/t/1", "a/t/0", "b/t/0", "a/u/1", "c/t/0"]
    # no ETAs at all: every row is without one, so the name order
    assert names(sort_rows(ROWS, SortKey.loss_eta)) == names(sort_rows(ROWS))
    # the other keys ignore the ETAs
    assert sort_rows(ROWS, SortKey.lag, ETAS) == sort_rows(ROWS, SortKey.lag)


def test_a_sort_key_turns_on_what_it_orders_by() -> None:
    assert sort_measures(SortKey.name) == (False, False, False)
    assert sort_measures(SortKey.lag) == (False, False, False)
    assert sort_measures(SortKey.time_lag) == (True, False, False)
    assert sort_measures(SortKey.loss_eta) == (False, True, False)
    assert sort_measures(SortKey.staleness) == (False, False, True)

    def request(sort: SortKey) -> LagRequest:
        return request_of(
            groups=["g"], regexes=None, topics=None, partitions=None, topic_partitions=None,
            exclude_internal_topics=False, time_lag=False, marker_check=True, thresholds=LagThresholds(),
            min_time_lag_ms=None, members=False, sort=sort,
        )  # fmt: skip

    by_eta, by_time, by_lag = request(SortKey.loss_eta), request(SortKey.time_lag), request(SortKey.lag)
    assert by_eta.loss_eta and by_eta.time_lag  # the ETA is measured from the time lag's search
    assert by_time.time_lag and not by_time.loss_eta
    assert not by_lag.time_lag and not by_lag.loss_eta


def test_the_view_sorts_by_the_reports_etas() -> None:
    report = LagReport(rows=tuple(ROWS), groups={}, time_lag=True, loss_eta=True, loss_etas=ETAS)
    view = LagView(
        fmt=Format.csv, sort=SortKey.loss_eta, loss_eta=True, columns=("group", "topic", "partition")
    )
    assert names(view.rows(report)) == ["a/u/0", "a/t/1", "a/t/0", "b/t/0", "a/u/1", "c/t/0"]
    text = render(report, view)
    assert text.splitlines()[1:3] == ["a,u,0", "a,t,1"]
