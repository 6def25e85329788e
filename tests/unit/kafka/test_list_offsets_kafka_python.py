"""kafka/list_offsets_kafka_python.py's requests and answers, on a fake route to kafka-python (no broker)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]
from kafka.protocol.consumer.offsets import ListOffsetsRequest  # type: ignore[import-untyped]

from kafka_offsets_cli.kafka import list_offsets_batches as batching
from kafka_offsets_cli.kafka import list_offsets_kafka_python as wire
from kafka_offsets_cli.kafka import list_offsets_partitions as parts
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.plan.requests import plan_queries, plan_requests

LOCAL, TIERED, PENDING = (
    OffsetSpec(k) for k in (SpecKind.EARLIEST_LOCAL, SpecKind.LATEST_TIERED, SpecKind.EARLIEST_PENDING_UPLOAD)
)
EARLIEST, LATEST, MAX_TS = OffsetSpec.earliest(), OffsetSpec.latest(), OffsetSpec.max_timestamp()
#: (topic, partition) -> leader; "gone" has a topic error; ("t", 3) has no leader
LEADERS = {("t", 0): 1, ("t", 1): 2, ("t", 2): 1, ("t", 3): -1, ("u", 0): 2}


def metadata(leaders: dict[tuple[str, int], int]) -> ClusterMetadata:
    """The session's metadata: the topics of ``leaders``, and "gone", which the user may not describe."""
    topics: dict[str, list[PartitionInfo]] = {}
    for (t, p), n in leaders.items():
        topics.setdefault(t, []).append(PartitionInfo(t, p, n))
    md = {t: TopicInfo(t, tuple(ps)) for t, ps in topics.items()}
    return ClusterMetadata({**md, "gone": TopicInfo("gone", (), error="TOPIC_AUTHORIZATION_FAILED")})


def on_the_wire(request: Any) -> Any:
    """``request`` as a broker reads it: encoded at the highest version it allows (v11 at most), decoded."""
    version = request._max_version if request._max_version is not None else 11
    return ListOffsetsRequest.decode(bytes(request.encode(version=version)), version=version)


class FakeRoute:
    """Answers ListOffsets per partition: offset = 100 * spec code + partition
    (a time: time / 100 + partition, with the record's timestamp 7 ms after the time)."""

    def __init__(
        self,
        fail_node: int | None = None,
        error_tp: tuple[str, int] | None = None,
        error_node: int | None = None,
        unknown_node: int | None = None,
        reverse: bool = False,
        drop: tuple[str, int] | None = None,
    ) -> None:
        self.sent: list[tuple[int, int, list[tuple[str, int]]]] = []  # (node, min_version, partitions)
        self.max_versions: list[int | None] = []
        self.timestamps: list[list[int]] = []
        self.fail_node, self.error_tp, self.error_node = fail_node, error_tp, error_node
        self.unknown_node = unknown_node  # a broker kafka-python's metadata no longer lists (fenced)
        self.in_flight: dict[int, int] = {}  # as kafka-python: a 6th request to a node is refused
        self.reverse = reverse  # a broker answers in its own (hash) order, not the request's
        self.drop = drop  # a partition the broker leaves out of its answer

    def run(self, coro_fn: Any, *args: Any, timeout_s: float) -> Any:  # Route.run: the network thread
        return asyncio.run(coro_fn(*args))

    def send(self, request: Any, node: int, timeout_ms: int) -> Any:
        if node == self.unknown_node:  # as kafka-python's connection manager: raised, not on the future
            raise kerrors.UnknownBrokerIdError(node)
        asked, request = request, on_the_wire(request)  # what a broker reads (tuples or containers)
        tps = [(t.name, p.partition_index) for t in request.topics for p in t.partitions]
        self.sent.append((node, asked._min_version, tps))
        self.max_versions.append(asked._max_version)
        self.timestamps.append([p.timestamp for t in request.topics for p in t.partitions])

        self.in_flight[node] = self.in_flight.get(node, 0) + 1
        refused = self.in_flight[node] > 5

        async def answer() -> Any:
            self.in_flight[node] -= 1
            if refused:
                raise kerrors.NodeNotReadyError(node)
            if node == self.fail_node:
                raise kerrors.KafkaConnectionError("down")
            parts: dict[str, list[Any]] = {}
            order = reversed if self.reverse else list
            for t in order(request.topics):
                for p in order(t.partitions):
                    if (t.name, p.partition_index) == self.drop:
                        continue
                    here = self.error_node is None or node == self.error_node
                    code = 6 if (t.name, p.partition_index) == self.error_tp and here else 0
                    ts = p.timestamp
                    offset = -1 if ts == -6 else (-100 * ts if ts < 0 else ts // 100) + p.partition_index
                    parts.setdefault(t.name, []).append(
                        SimpleNamespace(
                            partition_index=p.partition_index,
                            error_code=code,
                            offset=offset,
                            leader_epoch=3,
                            timestamp=-1 if p.timestamp < 0 else p.timestamp + 7,
                        )
                    )
            return SimpleNamespace(topics=[SimpleNamespace(name=n, partitions=ps) for n, ps in parts.items()])

        return answer()


def attempt(admin: FakeRoute, placed: list[batching.Batch]) -> dict[batching.Key, OffsetResult]:
    """One attempt's answers, by query."""
    answers, _ = asyncio.run(wire._attempt(admin, placed, 0, 5000))  # type: ignore[arg-type]
    return {(r.tp, r.spec): r for r in answers.results()}


def ask(admin: FakeRoute, *queries: tuple[str, int, OffsetSpec]) -> dict[tuple[str, int, str], OffsetResult]:
    keys = [(TopicPartition(t, p), s) for t, p, s in queries]
    got: dict[Any, OffsetResult] = {}
    placed = batching.place(keys, metadata(LEADERS), got)
    got.update(attempt(admin, placed))
    return {(tp.topic, tp.partition, spec.name): r for (tp, spec), r in got.items()}


def test_one_request_per_spec_and_leader_at_the_version_the_spec_needs() -> None:
    admin = FakeRoute()
    got = ask(
        admin, *[(t, p, s) for (t, p) in (("t", 0), ("t", 1), ("t", 2), ("u", 0)) for s in (LOCAL, TIERED)]
    )
    assert sorted(admin.sent) == [
        (1, 8, [("t", 0), ("t", 2)]),
        (1, 9, [("t", 0), ("t", 2)]),
        (2, 8, [("t", 1), ("u", 0)]),
        (2, 9, [("t", 1), ("u", 0)]),
    ]
    assert got[("t", 2, "earliest-local")] == OffsetResult("t", 2, LOCAL, 402, None, 3)
    assert got[("u", 0, "latest-tiered")].offset == 500


def test_minus_one_is_no_offset_and_every_partition_gets_its_own_error() -> None:
    admin = FakeRoute(fail_node=2, error_tp=("t", 0))
    got = ask(
        admin,
        ("t", 0, TIERED),
        ("t", 1, TIERED),
        ("t", 2, PENDING),
        ("t", 3, TIERED),
        ("t", 9, TIERED),
        ("gone", 0, TIERED),
    )
    assert (
        got[("t", 0, "latest-tiered")].error == "NOT_LEADER_OR_FOLLOWER"
    )  # Kafka's name, not kafka-python's
    assert got[("t", 1, "latest-tiered")].error == "TRANSPORT"  # its leader's request failed
    assert got[("t", 2, "earliest-pending-upload")] == OffsetResult("t", 2, PENDING, None, None, 3)
    assert got[("t", 3, "latest-tiered")].error == "LEADER_NOT_AVAILABLE"
    assert got[("t", 9, "latest-tiered")].error == "UNKNOWN_TOPIC_OR_PARTITION"
    assert got[("gone", 0, "latest-tiered")].error == "TOPIC_AUTHORIZATION_FAILED"


def test_a_partition_left_out_of_the_answer_is_unknown_and_the_others_are_answered() -> None:
    got = ask(FakeRoute(drop=("t", 2)), ("t", 0, LATEST), ("t", 2, LATEST), ("u", 0, LATEST))
    assert got[("t", 2, "latest")] == OffsetResult("t", 2, LATEST, None, error="UNKNOWN")
    assert got[("t", 0, "latest")] == OffsetResult("t", 0, LATEST, 100, None, 3)
    assert got[("u", 0, "latest")] == OffsetResult("u", 0, LATEST, 100, None, 3)


def test_a_broker_too_old_for_the_version_is_unsupported_version() -> None:
    from kafka_offsets_cli.kafka.kafka_python import error_name

    assert error_name(kerrors.IncompatibleBrokerVersion("no ListOffsets v11")) == "UNSUPPORTED_VERSION"
    assert error_name(kerrors.KafkaTimeoutError()) == "REQUEST_TIMED_OUT"


def test_planned_leaders_need_no_metadata_and_merge_into_one_request_per_leader_and_spec() -> None:
    tps = [TopicPartition("t", p) for p in range(3)] + [TopicPartition("u", 0)]
    leaders = {tp: LEADERS[(tp.topic, tp.partition)] for tp in tps}
    calls = plan_requests(tps, [EARLIEST, LATEST], chunk_size=1, leaders=leaders)
    assert len(calls) == 8  # librdkafka's route: a call per chunk of one
    placed, unplaced = batching.batches(calls)
    assert unplaced == []
    # the protocol's minimum: per leader, one request per spec (a request takes a partition once)
    assert sorted((leader, sorted({s.name for _, s in keys}), len(keys)) for leader, keys in placed) == [
        (1, ["earliest"], 2),
        (1, ["latest"], 2),
        (2, ["earliest"], 2),
        (2, ["latest"], 2),
    ]
    admin = FakeRoute()
    got = attempt(admin, placed)
    assert len(admin.sent) == 4 and set(admin.max_versions) == {wire.LAST_RIGID}
    assert got[(TopicPartition("t", 2), LATEST)] == OffsetResult("t", 2, LATEST, 102, None, 3)


def test_a_bisection_round_mixes_times_in_one_request_and_a_repeated_partition_waits_a_round() -> None:
    t0, t1 = TopicPartition("t", 0), TopicPartition("t", 2)
    times = [OffsetSpec.at(1_000), OffsetSpec.at(2_000), OffsetSpec.at(3_000)]
    calls = plan_queries([(t0, times[0]), (t1, times[1]), (t0, times[2])], leaders={t0: 1, t1: 1})
    placed, _ = batching.batches(calls)
    assert [sorted(s.timestamp_ms or 0 for _, s in keys) for _, keys in placed] == [[1_000, 2_000], [3_000]]
    admin = FakeRoute()
    got = attempt(admin, placed)
    assert got[(t1, times[1])].timestamp == 2_007  # a time lookup keeps the record's timestamp
    assert got[(t0, times[2])].offset == 30


def test_versions_follow_the_specs_and_the_isolation() -> None:
    def versions(spec: OffsetSpec, iso: int) -> tuple[int, int | None]:
        request, *_ = wire._request([(TopicPartition("t", 0), spec)], iso, 1000)
        return request._min_version, request._max_version

    # -2, -1 and times: rigid (no tagged fields), v4 at least while the partitions go as tuples
    assert versions(EARLIEST, 0) == (4, wire.LAST_RIGID)
    assert versions(LATEST, 1) == (4, wire.LAST_RIGID)  # read_committed needs v2: below v4 already
    assert versions(MAX_TS, 0) == (7, None)  # KIP-734
    assert versions(LOCAL, 0) == (8, None)
    assert versions(PENDING, 1) == (11, None)


def test_a_request_takes_each_partitions_time_whether_its_keys_share_one_spec_object_or_not() -> None:
    def sent(keys: list[tuple[TopicPartition, OffsetSpec]]) -> tuple[list[tuple[str, int, int]], object]:
        request, _, _, spec = wire._request(keys, 0, 1000)
        request = on_the_wire(request)
        return [(t.name, p.partition_index, p.timestamp) for t in request.topics for p in t.partitions], spec

    t0, t1 = TopicPartition("t", 0), TopicPartition("t", 1)
    assert sent([(t0, LATEST), (t1, LATEST)]) == ([("t", 0, -1), ("t", 1, -1)], LATEST)
    # equal specs, two objects: each partition its time, the answers kept one by one (no shared spec)
    assert sent([(t0, OffsetSpec.at(5)), (t1, OffsetSpec.at(5))]) == ([("t", 0, 5), ("t", 1, 5)], None)
    assert sent([(t0, OffsetSpec.at(5)), (t1, EARLIEST)]) == ([("t", 0, 5), ("t", 1, -2)], None)
    assert sent([]) == ([], None)


def test_partitions_built_directly_encode_as_kafka_pythons_constructor_makes_them() -> None:
    assert parts.fast_works()

    for version in (1, 4, 5, 11):  # v1: no leader epoch; v4: one; v11: flexible (tagged fields)
        made = [parts._encoded(make([7, 8], iter([-2, 1_700_000_000_000])), version)
                for make in (parts.partitions_fast, parts.partitions_public)]  # fmt: skip
        assert made[0] == made[1]
    assert parts.build is parts.partitions_fast


def _missing_epoch(indexes: list[int], times: Any) -> list[Any]:
    made = parts.partitions_fast(indexes, times)
    for p in made:
        del p.current_leader_epoch  # unset: kafka-python would read the field's default
    return made


def _extra_slot(indexes: list[int], times: Any) -> list[Any]:
    made = parts.partitions_fast(indexes, times)
    for p in made:
        p.max_num_offsets = 1  # set where the constructor leaves it unset
    return made


def test_the_constructor_is_used_when_direct_building_stops_making_the_same_partition(
    monkeypatch: Any,
) -> None:
    # a kafka-python whose containers need their constructor: the check fails, the constructor is kept
    for differs in (lambda indexes, times: [object()], _missing_epoch, _extra_slot):
        monkeypatch.setattr(parts, "partitions_fast", differs)
        assert not parts.fast_works()
        assert parts.choose_builder() is parts.partitions_public
    monkeypatch.setattr(parts, "partitions_fast", lambda indexes, times: 1 / 0)  # and when it raises
    assert parts.choose_builder() is parts.partitions_public


def test_rigid_requests_send_tuples_only_at_the_versions_whose_fields_they_follow() -> None:
    # v4 and v5 read (partition_index, current_leader_epoch, timestamp); v1 has no leader epoch, so the
    # same tuple would be wrong there: the request is limited to v4-v5, and is what containers encode
    assert parts.tuples_work()
    request, _, _, _ = wire._request(
        [(TopicPartition("t", 0), LATEST), (TopicPartition("t", 2), LATEST)], 1, 9
    )
    assert (request._min_version, request._max_version) == (4, wire.LAST_RIGID)
    assert [p for t in request.topics for p in t.partitions] == [(0, -1, -1), (2, -1, -1)]
    times = [-2, 1_700_000_000_000]
    wrong = parts._encoded(parts.rigid_tuples([0, 2], iter(times)), 1)
    assert wrong != parts._encoded(parts.partitions_public([0, 2], times), 1)  # why v1-v3 take no tuple
    public = parts.partitions_public([0, 2], [-1, -1])
    for version in parts.TUPLE_VERSIONS:
        assert bytes(request.encode(version=version)) == bytes(
            ListOffsetsRequest(
                replica_id=-1, isolation_level=1, timeout_ms=9,
                topics=[ListOffsetsRequest.ListOffsetsTopic(name="t", partitions=public)],
            ).encode(version=version)
        )  # fmt: skip


def test_containers_and_the_least_version_when_tuples_would_encode_otherwise(monkeypatch: Any) -> None:
    monkeypatch.setattr(parts, "rigid_tuples", lambda indexes, times: [(i, -1) for i in indexes])  # as v1
    parts.tuples_work.cache_clear()
    try:
        assert not parts.tuples_work()
        request, _, _, _ = wire._request([(TopicPartition("t", 0), EARLIEST)], 0, 9)
        assert (request._min_version, request._max_version) == (0, wire.LAST_RIGID)
        assert [type(p) for t in request.topics for p in t.partitions] == [type(parts.build([0], [-2])[0])]
    finally:
        parts.tuples_work.cache_clear()


class Lister:
    """A WireLister on FakeRoute, its metadata from ``leaders`` (each call counted), or failing."""

    def __init__(self, route: FakeRoute, leaders: list[dict[tuple[str, int], int] | Exception]) -> None:
        from kafka_offsets_cli.kafka.deadline import Deadline

        self.asked: list[list[str]] = []
        answers = iter(leaders)

        def md(topics: Any) -> ClusterMetadata:
            self.asked.append(list(topics))
            got = next(answers)
            if isinstance(got, Exception):
                raise got
            return metadata(got)

        kp = SimpleNamespace(route=lambda: route)
        self.lister = wire.WireLister(kp, Deadline(30), Isolation.READ_UNCOMMITTED, md)  # type: ignore[arg-type]


def test_planned_leaders_ask_no_metadata_and_a_moved_partition_is_asked_again_at_its_new_leader(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr("kafka_offsets_cli.kafka.list_offsets_kafka_python.time.sleep", lambda s: None)
    route = FakeRoute(error_tp=("t", 0), error_node=1)  # t-0 moved away from node 1
    fake = Lister(route, [{**LEADERS, ("t", 0): 2}])
    tps = [TopicPartition("t", 0), TopicPartition("t", 1)]
    calls = plan_requests(tps, [LATEST], leaders={tp: LEADERS[(tp.topic, tp.partition)] for tp in tps})
    got = {(r.topic, r.partition): r for r in fake.lister.list_offsets(calls)}
    assert fake.asked == [["t"]]  # only for the retry: the first attempt went to the plan's leaders
    assert sorted((n, tps) for n, _, tps in route.sent) == [(1, [("t", 0)]), (2, [("t", 0)]), (2, [("t", 1)])]
    assert got[("t", 0)] == OffsetResult("t", 0, LATEST, 100, None, 3) and got[("t", 1)].offset == 101


def test_a_leader_kafka_python_no_longer_lists_is_asked_again_at_the_fresh_leader(monkeypatch: Any) -> None:
    # a frozen broker, fenced by the controller, leaves kafka-python's metadata while the plan still
    # names it (CI: 12 x UnknownBrokerIdError, never retried): Kafka's BROKER_NOT_AVAILABLE, retried
    monkeypatch.setattr("kafka_offsets_cli.kafka.list_offsets_kafka_python.time.sleep", lambda s: None)
    route = FakeRoute(unknown_node=1)
    fake = Lister(route, [{**LEADERS, ("t", 0): 2}])
    tp = TopicPartition("t", 0)
    [got] = fake.lister.list_offsets(plan_requests([tp], [LATEST], leaders={tp: 1}))
    assert got == OffsetResult("t", 0, LATEST, 100, None, 3) and fake.asked == [["t"]]


def test_a_leader_unknown_to_the_end_is_broker_not_available() -> None:
    from kafka_offsets_cli.kafka.deadline import Deadline

    route = FakeRoute(unknown_node=1)
    fake = Lister(route, [LEADERS] * 50)
    fake.lister._deadline = Deadline(0.4)  # real back-off sleeps: a few retries, then the verdict
    tp = TopicPartition("t", 0)
    [got] = fake.lister.list_offsets(plan_requests([tp], [LATEST], leaders={tp: 1}))
    assert got.error == "BROKER_NOT_AVAILABLE" and got.offset is None


def test_no_fresh_metadata_keeps_the_errors_the_queries_have(monkeypatch: Any) -> None:
    from kafka_offsets_cli.errors import ClusterUnreachable

    monkeypatch.setattr("kafka_offsets_cli.kafka.list_offsets_kafka_python.time.sleep", lambda s: None)
    route = FakeRoute(error_tp=("t", 0))
    fake = Lister(route, [ClusterUnreachable("no answer from any broker")])
    tp = TopicPartition("t", 0)
    [got] = fake.lister.list_offsets(plan_requests([tp], [LATEST], leaders={tp: 1}))
    assert got.error == "NOT_LEADER_OR_FOLLOWER" and len(route.sent) == 1


def test_calls_without_leaders_are_placed_by_the_sessions_metadata_and_its_failure_is_the_runs() -> None:
    import pytest

    from kafka_offsets_cli.errors import ClusterUnreachable

    route = FakeRoute()
    fake = Lister(route, [LEADERS])
    got = fake.lister.list_offsets(
        plan_requests([TopicPartition("t", 2), TopicPartition("gone", 0)], [LOCAL])
    )
    assert fake.asked == [["gone", "t"]]
    assert {(r.topic, r.error) for r in got} == {("t", None), ("gone", "TOPIC_AUTHORIZATION_FAILED")}
    failing = Lister(FakeRoute(), [ClusterUnreachable("no answer")])
    with pytest.raises(ClusterUnreachable):
        failing.lister.list_offsets(plan_requests([TopicPartition("t", 2)], [LOCAL]))


def test_a_round_with_many_requests_to_one_leader_goes_in_waves_kafka_python_accepts() -> None:
    t0, t1 = TopicPartition("t", 0), TopicPartition("t", 1)
    times = [OffsetSpec.at(1_000 * (i + 1)) for i in range(9)]  # t-0 at 9 times: 9 requests to node 1
    placed, _ = batching.batches(
        plan_queries([(t0, t) for t in times] + [(t1, LATEST)], leaders={t0: 1, t1: 2})
    )
    assert [sorted(n for n, _ in w) for w in batching.waves(placed, 4)] == [
        [1, 1, 1, 1, 2],
        [1, 1, 1, 1],
        [1],
    ]
    got = attempt(FakeRoute(), placed)
    assert len(got) == 10 and all(r.error is None for r in got.values())
    # all at once, kafka-python refuses the 6th and later request to node 1 (then retried after a sleep)
    at_once, failed = batching.Answers(), list[batching.Key]()
    asyncio.run(wire._wave(FakeRoute(), placed, 0, 5000, at_once, failed))  # type: ignore[arg-type]
    assert [r.error for r in at_once.results() if r.error] == ["TRANSPORT"] * 4 and len(failed) == 4


def test_every_query_gets_its_answer_in_whatever_order_the_broker_answers_and_a_moved_one_after_a_retry(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr("kafka_offsets_cli.kafka.list_offsets_kafka_python.time.sleep", lambda s: None)
    route = FakeRoute(error_tp=("t", 0), error_node=1, reverse=True)  # t-0 moved from node 1 to 2
    fake = Lister(route, [{**LEADERS, ("t", 0): 2}])
    tps = [TopicPartition(t, p) for t, p in (("t", 0), ("t", 1), ("t", 2), ("u", 0))]
    calls = plan_requests(
        tps, [EARLIEST, LATEST], leaders={tp: LEADERS[(tp.topic, tp.partition)] for tp in tps}
    )
    got = fake.lister.list_offsets(calls)
    # each query once, its own offset (earliest -2: 200 + partition, latest -1: 100 + partition)
    assert sorted(got) == sorted(
        OffsetResult(tp.topic, tp.partition, s, -100 * s.kafka_time + tp.partition, None, 3)
        for tp in tps
        for s in (EARLIEST, LATEST)
    )
    # only t-0 asked again (both specs), at its new leader
    assert len(route.sent) == 6 and [(n, v) for n, _, v in route.sent[4:]] == [(2, [("t", 0)])] * 2


def test_a_request_names_each_topic_once_however_its_queries_come_and_a_query_asked_twice_answers_once() -> (
    None
):
    t0, t2, u0 = TopicPartition("t", 0), TopicPartition("t", 2), TopicPartition("u", 0)
    at1, at2 = OffsetSpec.at(1_000), OffsetSpec.at(2_000)
    queries = [(t0, at1), (u0, at2), (t2, LATEST), (t0, at1)]  # t, u, t: one request; t-0 twice
    route = FakeRoute(reverse=True)
    fake = Lister(route, [])
    got = fake.lister.list_offsets(plan_queries(queries, leaders={t0: 1, t2: 1, u0: 1}))
    assert [tps for _, _, tps in route.sent] == [[("t", 0), ("t", 2), ("u", 0)], [("t", 0)]]
    assert route.timestamps[0] == [1_000, -1, 2_000]  # each partition its own spec's time
    assert sorted(got) == [
        OffsetResult("t", 0, at1, 10, 1_007, 3),
        OffsetResult("t", 2, LATEST, 102, None, 3),
        OffsetResult("u", 0, at2, 20, 2_007, 3),
    ]
