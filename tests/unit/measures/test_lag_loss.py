"""The data-loss ETA of ``lag --loss-eta`` (measures.lag.loss): the rule, its thresholds, its outputs,
and one DescribeConfigs for the retention and the remote reads together."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from kafka_offsets_cli.cli.lag_view import LagView, record_fields, render
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.errors import MonitoringStatus, UsageError
from kafka_offsets_cli.lag.monitor import LagThresholds, lag_statuses, parse_thresholds
from kafka_offsets_cli.lag.run import LagRequest, request_of
from kafka_offsets_cli.measures.lag.collect import LagReport, collect
from kafka_offsets_cli.measures.lag.loss import Retention, loss_eta_ms, loss_etas, retention_of
from kafka_offsets_cli.measures.lag.rows import COLUMNS, LagRow, LagState, lag_row
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest
from kafka_offsets_cli.render import lag_metrics
from kafka_offsets_cli.render.lag_summary import summary_fields
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.unit.fake_cluster import FakeCluster, topic

DAY = 86_400_000
NOW = 1_800_000_000_000
DELETE = Retention(retention_ms=DAY, deletes=True)


def row(
    committed: int | None, *, start: int = 0, end: int = 100, m: int | None = NOW - 1000, topic: str = "t"
) -> LagRow:
    """A row as the time-lag search leaves it: ``m`` is M(c) (``resume_timestamp``), taken at NOW."""
    tp = TopicPartition(topic, 0)
    r = lag_row(
        "g",
        tp,
        committed,
        OffsetResult(topic, 0, OffsetSpec.earliest(), start),
        OffsetResult(topic, 0, OffsetSpec.latest(), end),
    )
    return r.evolve(resume_timestamp=m, taken_at_ms=NOW)


def test_eta_is_the_first_unread_records_newest_timestamp_plus_retention() -> None:
    assert loss_eta_ms(row(10, m=NOW - 3_600_000), DELETE) == DAY - 3_600_000
    assert loss_eta_ms(row(10, m=NOW - DAY - 5), DELETE) == 0  # due: never negative
    # a timestamp in the future postpones deletion as the broker counts it
    assert loss_eta_ms(row(10, m=NOW + 60_000), DELETE) == DAY + 60_000


def test_no_eta_where_nothing_can_be_lost_or_nothing_is_known() -> None:
    assert loss_eta_ms(row(10), Retention(retention_ms=None, deletes=True)) is None  # retention.ms -1
    assert loss_eta_ms(row(10), Retention(retention_ms=DAY, deletes=False)) is None  # compact only
    assert loss_eta_ms(row(100), DELETE) is None  # read to the end
    assert loss_eta_ms(row(None), DELETE) is None  # no-commit
    assert loss_eta_ms(row(120), DELETE) is None  # ahead
    assert loss_eta_ms(row(10), None) is None  # configs not read
    assert loss_eta_ms(row(10, m=None), DELETE) is None  # time-lag search failed
    marker = row(99).evolve(state=LagState.MARKER)
    assert loss_eta_ms(marker, DELETE) is None  # only a transaction marker left


def test_below_start_is_already_lost() -> None:
    below = row(5, start=10)
    assert below.state is LagState.BELOW_START
    assert loss_eta_ms(below, DELETE) == 0
    assert loss_eta_ms(below, None) == 0  # whatever the config (delete_records on a compacted topic too)


def test_retention_read_from_the_topic_configs() -> None:
    base = {"retention.ms": "604800000", "cleanup.policy": "delete", "retention.bytes": "-1"}
    assert retention_of(base) == Retention(retention_ms=604_800_000, deletes=True)
    assert retention_of({**base, "retention.ms": "-1"}) == Retention(retention_ms=None, deletes=True)
    assert retention_of({**base, "cleanup.policy": "compact"}) == Retention(
        retention_ms=604_800_000, deletes=False
    )
    assert retention_of({**base, "cleanup.policy": "compact, Delete"}).deletes is True  # type: ignore[union-attr]
    assert retention_of({**base, "retention.bytes": "1073741824"}).bytes_limited is True  # type: ignore[union-attr]
    assert retention_of({"cleanup.policy": "delete"}) is None  # retention.ms not readable
    assert retention_of(None) is None


def test_topics_the_eta_misses_something_on() -> None:
    configs = {"sized": {"retention.ms": str(DAY), "cleanup.policy": "delete", "retention.bytes": "1000"}}
    etas, lost = loss_etas([row(10, topic="sized"), row(10, topic="secret"), row(100, topic="done")], configs)
    assert etas == {("g", "sized", 0): DAY - 1000}
    assert lost.sized == ("sized",)
    assert lost.unread == ("secret",)  # "done" needs no ETA: its configs are not missed


def test_loss_thresholds_alert_at_or_below() -> None:
    t = LagThresholds(warn_loss_eta_ms=3_600_000, crit_loss_eta_ms=600_000)
    at = {eta: t.status(row(10), eta) for eta in (3_600_001, 3_600_000, 600_001, 600_000, 0)}
    assert at == {
        3_600_001: MonitoringStatus.OK,
        3_600_000: MonitoringStatus.WARNING,
        600_001: MonitoringStatus.WARNING,
        600_000: MonitoringStatus.CRITICAL,
        0: MonitoringStatus.CRITICAL,
    }
    assert t.status(row(10)) is MonitoringStatus.OK  # no ETA: not compared
    assert t.status(row(5, start=10)) is MonitoringStatus.CRITICAL  # below-start, as always


def test_loss_threshold_options() -> None:
    t = parse_thresholds(None, None, None, None, "1h", "10m")
    assert (t.warn_loss_eta_ms, t.crit_loss_eta_ms) == (3_600_000, 600_000)
    assert t.given and t.on_loss and not t.on_time
    with pytest.raises(UsageError, match="--warn-loss-eta 10m is shorter than --crit-loss-eta 1h"):
        parse_thresholds(None, None, None, None, "10m", "1h")

    def request(thresholds: LagThresholds, loss_eta: bool = False) -> LagRequest:
        return request_of(
            groups=["g"], regexes=None, topics=None, partitions=None, topic_partitions=None,
            exclude_internal_topics=False, time_lag=False, marker_check=True, thresholds=thresholds,
            min_time_lag_ms=None, members=False, loss_eta=loss_eta,
        )  # fmt: skip

    by_threshold = request(t)
    assert (
        by_threshold.loss_eta and by_threshold.time_lag
    )  # a threshold computes the ETA, the ETA the time lag
    asked = request(LagThresholds(), loss_eta=True)
    assert asked.loss_eta and asked.time_lag
    assert not request(LagThresholds()).loss_eta


class TimedCluster(FakeCluster):
    """The fake cluster with record timestamps (offset o written at ``base + 1000 * o``) and configs."""

    def __init__(self, *args: object, configs: dict[str, dict[str, str]], base: int, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.configs = configs
        self.base = base
        self.config_calls: list[tuple[tuple[str, ...], tuple[str, ...]]] = []

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        self.config_calls.append((tuple(topics), tuple(keys)))
        return {t: {k: v for k, v in self.configs.get(t, {}).items() if k in keys} for t in topics}

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        out = []
        for req in requests:
            for tp, spec in req.queries:
                start, end = self.logs[tp]
                if spec.kind is SpecKind.TIMESTAMP:
                    assert spec.timestamp_ms is not None
                    first = max(start, -(-(spec.timestamp_ms - self.base) // 1000))
                    found = first if first < end else None
                    ts = None if found is None else self.base + 1000 * found
                    out.append(OffsetResult(tp.topic, tp.partition, spec, found, ts))
                elif spec.kind is SpecKind.MAX_TIMESTAMP:
                    out.append(
                        OffsetResult(tp.topic, tp.partition, spec, end - 1, self.base + 1000 * (end - 1))
                    )
                else:
                    out += super().list_offsets([OffsetRequest(((tp, spec),))])
        return out


def test_collect_reads_the_retention_once_with_the_remote_flag() -> None:
    tp, compact = TopicPartition("orders", 0), TopicPartition("state", 0)
    configs = {
        "orders": {"retention.ms": "3600000", "cleanup.policy": "delete", "remote.storage.enable": "false"},
        "state": {"retention.ms": "3600000", "cleanup.policy": "compact"},
    }
    base = NOW - 3_600_000
    cluster = TimedCluster(
        ClusterMetadata({"orders": topic("orders", 1), "state": topic("state", 1)}),
        {tp: (0, 1000), compact: (0, 10)},
        [GroupOffsets("g", {tp: 400, compact: 5})],
        configs=configs,
        base=base,
    )
    report = collect(cluster, ["g"], None, time_lag=True, remote_reads=True, loss_eta=True, clock=lambda: NOW)
    # M(400) = base + 400 s = NOW - 3200 s: 400 s left of the 3600 s of retention.ms
    assert report.loss_etas == {("g", "orders", 0): 400_000}  # none on the compacted topic
    assert {r.topic: r.remote_read for r in report.rows} == {
        "orders": False,
        "state": None,
    }  # no flag read: unknown
    assert len(cluster.config_calls) == 1  # one DescribeConfigs for the retention and the remote flag
    assert "remote.storage.enable" in cluster.config_calls[0][1]
    assert report.loss_eta and not report.loss_topics.unread


def test_outputs_carry_the_eta_only_when_asked() -> None:
    rows = (row(10, m=NOW - 1000), row(100, topic="u"))
    etas = {("g", "t", 0): DAY - 1000}
    assert "loss_eta_ms" not in record_fields(False, False)
    assert record_fields(False, False, loss_eta=True) == (*COLUMNS, "loss_eta_ms")
    report = LagReport(rows=rows, groups={}, time_lag=True, loss_eta=True, loss_etas=etas)
    text = render(report, LagView(fmt=Format.csv, loss_eta=True))
    assert text.splitlines()[0].endswith(",loss_eta_ms")
    assert text.splitlines()[1].endswith(f",{DAY - 1000}")
    t = LagThresholds(warn_loss_eta_ms=DAY)
    prom = lag_metrics.prometheus(
        list(rows), lag_statuses(rows, (), t, loss_etas=etas), t, NOW, {"cluster": "k"}, loss_etas=etas
    )
    got = parse_prometheus_text(prom)
    labels = {"cluster": "k", "group": "g", "topic": "t", "partition": "0"}
    assert got["kafka_offsets_lag_partition_loss_eta_seconds"] == [(labels, (DAY - 1000) / 1000)]
    assert got["kafka_offsets_lag_warn_loss_eta_seconds"] == [({"cluster": "k"}, DAY / 1000)]
    assert got["kafka_offsets_lag_status"] == [({"cluster": "k"}, 1.0)]
    plain = lag_metrics.prometheus(list(rows), lag_statuses(rows, (), LagThresholds()), LagThresholds(), NOW)
    assert "loss_eta" not in plain


def test_the_summary_shows_each_groups_soonest_eta() -> None:
    rows = (row(10), row(10, topic="u"), row(100, topic="v"))
    etas = {("g", "t", 0): 5_000, ("g", "u", 0): 3_000}
    report = LagReport(rows=rows, groups={}, time_lag=True, loss_eta=True, loss_etas=etas)
    recs = LagView(fmt=Format.json, summary=True, loss_eta=True)
    got = render(report, recs)
    assert '"min_loss_eta_ms": 3000' in got
    assert summary_fields(False, loss_eta=True)[-1] == "min_loss_eta_ms"
    assert "min_loss_eta_ms" not in render(report, LagView(fmt=Format.json, summary=True))
    table = render(report, LagView(fmt=Format.table, summary=True, loss_eta=True))
    assert [c.headers[0] for c in table.columns if c.key == "min_loss_eta_ms"] == ["LOSS-ETA"]
