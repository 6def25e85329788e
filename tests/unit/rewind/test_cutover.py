"""DR cutover per partition (``rewind --from-cluster``): the pure translation, and the whole
primary -> DR lookup on in-memory logs with timestamps, replicated as MirrorMaker 2 does (same
order, a shifted start, a stretch copied twice)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timezone
from pathlib import Path

import pytest

from kafka_offsets_cli.errors import NotFound, UsageError
from kafka_offsets_cli.measures.lag.rows import LagRow, LagState
from kafka_offsets_cli.measures.timestamps import TimeLag
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from kafka_offsets_cli.parse.selection import parse_selection
from kafka_offsets_cli.plan.requests import OffsetRequest
from kafka_offsets_cli.rewind.cutover import (
    Resume,
    Why,
    dr_step,
    dr_steps,
    primary_resumes,
    report_lines,
    requested,
    resume,
    search_offset,
    with_step_errors,
)
from kafka_offsets_cli.rewind.lagfile import file_resumes, parse_records
from kafka_offsets_cli.rewind.plan import Plan
from kafka_offsets_cli.rewind.target import Target
from tests.cli_runner import cli
from tests.unit.fake_cluster import FakeCluster, topic

TP = TopicPartition("orders", 0)
DR_TP = TopicPartition("primary.orders", 0)


def row(committed: int | None, start: int = 0, end: int = 100, state: LagState | None = None) -> LagRow:
    if state is None:
        state = LagState.NO_COMMIT if committed is None else LagState.OK
    lag = end - committed if committed is not None and state is LagState.OK else None
    return LagRow(
        group="g",
        topic="orders",
        partition=0,
        committed=committed,
        log_start=start,
        end=end,
        lag=lag,
        time_lag_ms=None,
        state=state,
    )


@pytest.mark.parametrize(
    ("lag_row", "expected"),
    [
        (row(40), (40, Why.FIRST_UNREAD)),  # the first unread record
        (row(100), (99, Why.READ_TO_END)),  # read to the end: the last record read
        (row(99, state=LagState.MARKER), (98, Why.READ_TO_END)),  # only a marker left
        (row(120, state=LagState.AHEAD), (99, Why.READ_TO_END)),
        (row(5, start=10, state=LagState.BELOW_START), (10, Why.BELOW_START)),
        (row(10, start=10, end=10), (None, Why.EMPTY)),
        (row(None), (None, Why.NO_COMMIT)),
        (row(3, state=LagState.ERROR), (None, Why.ERROR)),
    ],
)
def test_search_offset(lag_row: LagRow, expected: tuple[int | None, Why]) -> None:
    assert search_offset(lag_row) == expected


def test_rereads_count_from_the_first_record_at_the_time() -> None:
    r = resume(row(40), 40, Why.FIRST_UNREAD, TimeLag(5_000, 3), 37)
    assert (r.time_ms, r.rereads) == (5_000, 3)  # offsets 37, 38, 39: read, and at or after the time
    end = resume(row(100), 99, Why.READ_TO_END, TimeLag(9_000, 1), 99)
    assert end.rereads == 1  # the last record read, again


def test_resume_without_timestamp_or_with_an_error() -> None:
    assert resume(row(40), 40, Why.FIRST_UNREAD, TimeLag(None, 2), None).why is Why.NO_TIMESTAMP
    failed = resume(row(40), 40, Why.FIRST_UNREAD, TimeLag(None, 1, "NOT_LEADER_OR_FOLLOWER"), None)
    assert (failed.why, failed.error) == (Why.ERROR, "NOT_LEADER_OR_FOLLOWER")


def _res(spec: OffsetSpec, offset: int | None, error: str | None = None) -> OffsetResult:
    return OffsetResult(DR_TP.topic, DR_TP.partition, spec, offset, None, None, error)


def test_dr_step_cases() -> None:
    r = Resume(
        group="g", tp=TP, committed=40, why=Why.FIRST_UNREAD, searched=40, time_ms=5_000, first_at_time=37
    )
    start, end, at = OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.at(5_000)
    assert dr_step(r, DR_TP, _res(start, 0), _res(end, 90), _res(at, 30)).offset == 30
    behind = dr_step(r, DR_TP, _res(start, 0), _res(end, 20), _res(at, None))
    assert (behind.offset, behind.note) == (20, "dr-behind")  # not copied yet: all on DR was read
    trimmed = dr_step(r, DR_TP, _res(start, 50), _res(end, 60), _res(at, None))
    assert (trimmed.offset, trimmed.note) == (50, "dr-log-start")  # DR retention: cannot tell, so safe
    missing = dr_step(r, DR_TP, _res(start, None, "UNKNOWN_TOPIC_OR_PARTITION"), _res(end, None), None)
    assert (missing.offset, missing.error) == (None, "UNKNOWN_TOPIC_OR_PARTITION")
    empty = Resume(group="g", tp=TP, committed=0, why=Why.EMPTY)
    assert dr_step(empty, DR_TP, _res(start, 7), _res(end, 9), None).offset == 7
    none = Resume(group="g", tp=TP, committed=None, why=Why.NO_COMMIT)
    assert dr_step(none, DR_TP, _res(start, 0), _res(end, 9), None).offset is None


def test_step_errors_become_plan_rows() -> None:
    r = Resume(group="g", tp=TP, committed=40, why=Why.ERROR, error="OFFSET_NOT_AVAILABLE")
    step = dr_step(r, DR_TP, _res(OffsetSpec.earliest(), 0), _res(OffsetSpec.latest(), 9), None)
    [plan] = with_step_errors([Plan("g", Target.from_file("cutover"), ())], [step])
    assert not plan.complete and plan.problems[0].error == "primary: OFFSET_NOT_AVAILABLE"
    assert requested([step]) == {}


class TimedCluster(FakeCluster):
    """A FakeCluster whose partitions hold records with timestamps (offset = log start + index)."""

    def __init__(
        self, logs: dict[TopicPartition, tuple[int, list[int]]], groups: Sequence[GroupOffsets]
    ) -> None:
        topics = {tp.topic for tp in logs}
        md = ClusterMetadata(
            {t: topic(t, 1 + max(tp.partition for tp in logs if tp.topic == t)) for t in topics}
        )
        super().__init__(md, {tp: (s, s + len(ts)) for tp, (s, ts) in logs.items()}, groups)
        self.records = logs

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
                start, stamps = self.records[tp]
                if spec.kind is SpecKind.TIMESTAMP:
                    hit = next((i for i, t in enumerate(stamps) if t >= (spec.timestamp_ms or 0)), None)
                elif spec.kind is SpecKind.MAX_TIMESTAMP:
                    hit = max(range(len(stamps)), key=lambda i: (stamps[i], -i)) if stamps else None
                else:
                    out.extend(super().list_offsets([OffsetRequest(((tp, spec),))]))
                    continue
                off, ts = (None, None) if hit is None else (start + hit, stamps[hit])
                out.append(OffsetResult(tp.topic, tp.partition, spec, off, ts, None, None))
        return out


@pytest.mark.parametrize("seed", range(40))
def test_cutover_never_skips_an_unread_record(seed: int) -> None:
    """Random CreateTime timestamps (ties, out of order); DR a copy starting later, with a stretch
    copied twice (a MirrorMaker retry). Every unread record's first copy is at or after the DR offset;
    with an exact copy the re-reads are exactly those reported."""
    rnd = random.Random(seed)
    n = rnd.randint(1, 60)
    stamps = [1_000 + rnd.randint(0, 40) * 10 + (rnd.choice((0, 0, 0, -300, 250))) for _ in range(n)]
    start = rnd.randint(0, 5)
    c = rnd.randint(start, start + n)
    primary = TimedCluster({TP: (start, stamps)}, [GroupOffsets("g", {TP: c})])
    copied = list(range(n))  # DR record i is a copy of primary index copied[i]
    dup = rnd.random() < 0.5 and n > 2
    if dup:
        a = rnd.randint(1, n - 1)
        b = rnd.randint(0, a - 1)
        copied = copied[:a] + copied[b:]  # a retry copies b.. again
    dr = TimedCluster({DR_TP: (0, [stamps[i] for i in copied])}, [])
    resumes, active = primary_resumes(primary, ["g"], None, isolation=None)
    [step] = dr_steps(dr, resumes, "primary.", isolation=None)
    assert step.offset is not None and active == []
    first_copy: dict[int, int] = {}
    for dr_off, i in enumerate(copied):
        first_copy.setdefault(i, dr_off)
    unread = range(c - start, n)
    assert all(first_copy[i] >= step.offset for i in unread)
    if not dup:
        dr_next = c - start  # the DR offset of the first unread record, or the end
        assert step.offset <= dr_next
        if step.resume.rereads is not None:
            assert dr_next - step.offset == step.resume.rereads
    line = report_lines([step], timezone.utc, several=False)[0]
    assert line.startswith("orders:0 -> primary.orders:0: ")


def test_identity_policy_keeps_the_name() -> None:
    primary = TimedCluster({TP: (0, [10, 20, 30])}, [GroupOffsets("g", {TP: 1})])
    dr = TimedCluster({TP: (0, [10, 20, 30])}, [])
    resumes, _ = primary_resumes(primary, ["g"], None, isolation=None)
    [step] = dr_steps(dr, resumes, "", isolation=None)
    assert (step.dr_tp, step.offset, step.resume.rereads) == (TP, 1, 0)
    assert requested([step]) == {"g": {TP: 1}}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from-cluster", "primary", "--to", "1h ago"], "--from-cluster is the target"),
        (["--to", "1h ago", "--remote-topic-prefix", "primary."], "only applies with --from-cluster"),
        (["--from-cluster", "nowhere"], "no such cluster profile"),
        ([], "--from-cluster PROFILE"),
    ],
)
def test_cutover_usage_errors(args: list[str], message: str) -> None:
    r = cli("rewind", "-b", "127.0.0.1:9", "-g", "g", *args)
    assert r.code == 2 and message in r.stderr


# ----------------------------------------------------------------------------- --from-lag-file


def lag_file(cluster: FakeCluster, groups: Sequence[str], taken: int = 5_000) -> list[dict[str, object]]:
    """``lag -o json --time-lag`` of ``cluster``, through JSON text as a file holds it."""
    from kafka_offsets_cli.measures.lag.collect import collect
    from kafka_offsets_cli.render.lag import records

    report = collect(cluster, list(groups), None, time_lag=True, clock=lambda: taken)
    recs = records(report.rows) + [p.to_record() for p in report.problems] + report.missing_records()
    return parse_records(json.dumps(recs), "lag.json")


@pytest.mark.parametrize("seed", range(40))
def test_lag_file_gives_the_plan_of_the_live_primary(seed: int) -> None:
    """The resume points read back from a saved lag file equal those read live (all but the re-read
    count, which the file does not hold), and so do the DR offsets they become."""
    rnd = random.Random(seed)
    n = rnd.randint(0, 40)
    stamps = [1_000 + rnd.randint(0, 30) * 10 + rnd.choice((0, 0, -300, 250)) for _ in range(n)]
    start = rnd.randint(0, 5)
    c = rnd.randint(max(0, start - 2), start + n + 1)
    other = TopicPartition("orders", 1)
    logs = {TP: (start, stamps), other: (0, sorted(stamps))}
    primary = TimedCluster(logs, [GroupOffsets("g", {TP: c, other: min(c, n)})])
    dr = TimedCluster({TopicPartition("primary." + tp.topic, tp.partition): v for tp, v in logs.items()}, [])
    live, _ = primary_resumes(primary, ["g"], None, isolation=None)
    saved, taken = file_resumes(lag_file(primary, ["g"]), "lag.json", ["g"], None)
    assert taken == 5_000
    assert [replace(r, first_at_time=None) for r in live] == saved
    steps = dr_steps(dr, live, "primary.", isolation=None)
    assert requested(dr_steps(dr, saved, "primary.", isolation=None)) == requested(steps)


def test_lag_file_refusals() -> None:
    primary = TimedCluster({TP: (0, [10, 20, 30])}, [GroupOffsets("g", {TP: 1})])
    recs = lag_file(primary, ["g"])
    with pytest.raises(NotFound, match="no rows for group 'h'"):
        file_resumes(recs, "lag.json", ["h"], None)
    with pytest.raises(NotFound, match=r"no rows for topic 'payments'.*--time-lag"):
        file_resumes(recs, "lag.json", ["g"], parse_selection(topics=("payments",)))
    plain = [{k: v for k, v in r.items() if k not in ("resume_timestamp", "taken_at_ms")} for r in recs]
    with pytest.raises(UsageError, match=r"lacks 'resume_timestamp'.*lag -g GROUP -o json --time-lag"):
        file_resumes(plain, "lag.json", ["g"], None)
    untimed = [{**r, "taken_at_ms": None, "resume_timestamp": None} for r in recs]
    with pytest.raises(UsageError, match="no resume_timestamp \\(taken without --time-lag\\)"):
        file_resumes(untimed, "lag.json", ["g"], None)
    with pytest.raises(UsageError, match="not a lag -o json"):
        parse_records("group,topic\n", "lag.csv")
    jsonl = "\n".join(json.dumps(r) for r in recs)
    assert (
        file_resumes(parse_records(jsonl, "l"), "l", ["g"], None)[0]
        == file_resumes(recs, "l", ["g"], None)[0]
    )


def test_lag_file_usage_errors(tmp_path: Path) -> None:
    f = tmp_path / "lag.json"
    f.write_text("[]")
    both = cli("rewind", "-b", "127.0.0.1:9", "-g", "g", "--from-lag-file", str(f), "--from-cluster", "p")
    assert both.code == 2 and "not both" in both.stderr
    regex = cli("rewind", "-b", "127.0.0.1:9", "--group-regex", "g.*", "--from-lag-file", str(f))
    assert regex.code == 2 and "-g GROUP" in regex.stderr
    to = cli("rewind", "-b", "127.0.0.1:9", "-g", "g", "--from-lag-file", str(f), "--to", "earliest")
    assert to.code == 2 and "--from-lag-file is the target" in to.stderr
