"""The remote-read rule of ``lag`` (measures.lag.remote): rows read below earliest-local; the cost."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from kafka_offsets_cli.errors import ClusterUnreachable, ConfigError
from kafka_offsets_cli.measures.lag.remote import remote_read, with_remote_reads
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState, lag_row
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from kafka_offsets_cli.plan.requests import OffsetRequest

EL = OffsetSpec(SpecKind.EARLIEST_LOCAL)


def row(topic: str, committed: int | None, start: int = 0, end: int = 100, partition: int = 0) -> LagRow:
    tp = TopicPartition(topic, partition)
    return lag_row(
        "g",
        tp,
        committed,
        OffsetResult(topic, partition, OffsetSpec.earliest(), start),
        OffsetResult(topic, partition, OffsetSpec.latest(), end),
    )


def local(offset: int | None, error: str | None = None) -> OffsetResult:
    return OffsetResult("t", 0, EL, offset, error=error)


def test_below_earliest_local_reads_from_remote_storage() -> None:
    assert remote_read(row("t", 10), True, local(50)) is True
    assert remote_read(row("t", 50), True, local(50)) is False
    assert remote_read(row("t", 99), True, local(50)) is False


def test_nothing_left_or_no_tiered_storage_is_no_remote_read() -> None:
    assert remote_read(row("t", 100), True, None) is False  # read to the end: nothing to fetch
    assert remote_read(row("t", 100), None, None) is False
    assert remote_read(row("t", 10), False, None) is False  # remote.storage.enable=false: all local


def test_unknown_is_never_made_up() -> None:
    assert remote_read(row("t", 10), None, local(50)) is None  # config not readable
    assert remote_read(row("t", 10), True, None) is None  # not asked
    assert remote_read(row("t", 10), True, local(None, "NOT_LEADER_OR_FOLLOWER")) is None
    assert remote_read(row("t", 10), True, local(None)) is None
    for r in (row("t", None), row("t", 5, start=10), row("t", 200)):  # no-commit, below-start, ahead
        assert r.state in (LagState.NO_COMMIT, LagState.BELOW_START, LagState.AHEAD)
        assert remote_read(r, True, local(50)) is None


class Source:
    """Configs and ListOffsets -4 answers, recording what was asked."""

    def __init__(self, configs: dict[str, dict[str, str]], el: dict[TopicPartition, int | str]) -> None:
        self.configs, self.el = configs, el
        self.asked_configs: list[str] = []
        self.asked: list[tuple[TopicPartition, OffsetSpec]] = []
        self.fail: Exception | None = None
        self.configs_fail: Exception | None = None

    def metadata(self, *a: Any, **k: Any) -> ClusterMetadata:
        raise AssertionError("not needed")

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        self.asked_configs += topics
        if self.configs_fail is not None:
            raise self.configs_fail
        return {t: self.configs[t] for t in topics if t in self.configs}

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Any = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        if self.fail is not None:
            raise self.fail
        out = []
        for r in requests:
            for tp, spec in r.queries:
                self.asked.append((tp, spec))
                v = self.el[tp]
                err = v if isinstance(v, str) else None
                out.append(OffsetResult(tp.topic, tp.partition, spec, None if err else int(v), error=err))
        return out


ON, OFF = {"remote.storage.enable": "true"}, {"remote.storage.enable": "false"}


def test_only_partitions_of_tiered_topics_with_records_left_are_looked_up() -> None:
    src = Source(
        {"moved": ON, "plain": OFF},
        {TopicPartition("moved", 0): 50, TopicPartition("moved", 1): 50, TopicPartition("moved", 2): "X"},
    )
    rows = [
        row("moved", 10, partition=0),
        row("moved", 60, partition=1),
        row("moved", 10, partition=2),
        row("moved", 100, partition=3),  # read to the end: not asked
        row("plain", 10),
        row("unreadable", 10),
    ]
    out, unchecked = with_remote_reads(src, rows)
    assert [r.remote_read for r in out] == [True, False, None, False, False, None]
    assert [(r.lag, r.state) for r in out] == [(r.lag, r.state) for r in rows]  # the lag is untouched
    assert sorted(src.asked_configs) == ["moved", "plain", "unreadable"]
    assert {(tp.partition, spec) for tp, spec in src.asked} == {(0, EL), (1, EL), (2, EL)}
    assert unchecked == {"X": 1}


def test_no_tiered_topic_asks_no_earliest_local() -> None:
    src = Source({"plain": OFF}, {})
    out, unchecked = with_remote_reads(src, [row("plain", 10), row("plain", 100)])
    assert [r.remote_read for r in out] == [False, False]
    assert src.asked == [] and unchecked == {}


@pytest.mark.parametrize("error", [ConfigError("kafka-python cannot use ssl.keystore.type=PKCS12")])
def test_a_failed_lookup_leaves_the_flag_unknown(error: Exception) -> None:
    src = Source({"moved": ON}, {})
    src.fail = error
    out, unchecked = with_remote_reads(src, [row("moved", 10)])
    assert out[0].remote_read is None and out[0].lag == 90
    assert unchecked == {str(error): 1}


def test_a_failed_describe_configs_leaves_every_flag_unknown_and_asks_nothing_more() -> None:
    src = Source({"moved": ON}, {TopicPartition("moved", 0): 50})
    src.configs_fail = ClusterUnreachable("describe topic configs: timed out")
    out, unchecked = with_remote_reads(src, [row("moved", 10), row("moved", 100, partition=1)])
    assert [r.remote_read for r in out] == [None, False] and out[0].lag == 90
    assert src.asked == [] and unchecked == {"describe topic configs: timed out": 1}


def test_the_flags_of_every_kind_of_row_are_the_rules_and_the_rows_otherwise_equal() -> None:
    # every state (no-commit, below-start, ahead, ok with and without records left, marker, error) on
    # a tiered topic (earliest-local answered, failed, or not an offset), a plain one and an unreadable one
    committed = [None, 0, 5, 10, 49, 50, 99, 100, 150]
    configs = {"moved": ON, "plain": OFF}
    el: dict[TopicPartition, int | str] = {}
    rows: list[LagRow] = []
    for topic in ("moved", "plain", "unreadable"):
        for i, c in enumerate(committed):
            rows.append(row(topic, c, start=5, end=100, partition=i))
            el[TopicPartition(topic, i)] = (50, "NOT_LEADER_OR_FOLLOWER", 10)[i % 3]
        marker = lag_row("g", TopicPartition(topic, 90), 99, *(
            OffsetResult(topic, 90, s, o) for s, o in ((OffsetSpec.earliest(), 0), (OffsetSpec.latest(), 100))
        ), marker=True)  # fmt: skip
        assert marker.state is LagState.MARKER
        failed = lag_row("g", TopicPartition(topic, 91), 3, *(
            OffsetResult(topic, 91, s, None, error="X") for s in (OffsetSpec.earliest(), OffsetSpec.latest())
        ))  # fmt: skip
        rows += [marker, failed, marker.evolve(remote_read=True)]  # a flag already set is replaced
        el[TopicPartition(topic, 90)] = 150
    out, _ = with_remote_reads(Source(configs, el), rows)
    answers = {tp: OffsetResult(tp.topic, tp.partition, EL, v if isinstance(v, int) else None,
                                error=v if isinstance(v, str) else None) for tp, v in el.items()}  # fmt: skip
    tiered = {"moved": True, "plain": False}
    # the rule as remote_read states it (pinned by the tests above), row by row: what the loop must keep
    want = [remote_read(r, tiered.get(r.topic), answers.get(r.tp)) for r in rows]
    assert [r.remote_read for r in out] == want
    assert {True, False, None} <= set(want)
    for before, after in zip(rows, out, strict=True):
        assert after == before.evolve(remote_read=after.remote_read)  # nothing else changed
        assert type(after) is LagRow and list(after.__dict__) == list(before.__dict__)  # record order kept
        if after.remote_read is before.remote_read:
            assert after is before  # unchanged rows are not copied


def test_configs_read_ahead_answer_as_those_read_here() -> None:
    # lag reads remote.storage.enable of every planned topic ahead (read_remote_configs); the flags and
    # warnings are those of the rows' own topics read here, a failed request included
    from kafka_offsets_cli.measures.lag.remote import read_remote_configs

    rows = [row("moved", 10), row("moved", 100, partition=1), row("plain", 10), row("idle", 100)]
    el: dict[TopicPartition, int | str] = {TopicPartition("moved", 0): 50}
    for fail in (None, ClusterUnreachable("describe topic configs: timed out")):
        here = Source({"moved": ON, "plain": OFF, "idle": ON}, el)
        ahead = Source({"moved": ON, "plain": OFF}, el)
        here.configs_fail = ahead.configs_fail = fail
        got = with_remote_reads(ahead, rows, configs=read_remote_configs(ahead, {"moved", "plain", "idle"}))
        assert got == with_remote_reads(here, rows)
        assert ahead.asked == here.asked
    caught_up = [row("moved", 100)]  # nothing left: a failed request read ahead warns of nothing
    flagged, unchecked = with_remote_reads(Source({}, {}), caught_up, configs=ClusterUnreachable("x"))
    assert [r.remote_read for r in flagged] == [False] and unchecked == {}
    assert read_remote_configs(Source({}, {}), ()) == {}
