"""kafka/tiered.py's requests and answers, on a fake route to kafka-python (no broker)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]

from kafka_offsets_cli.kafka.tiered import _round
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, SpecKind
from kafka_offsets_cli.models.topics import TopicPartition

LOCAL, TIERED, PENDING = (
    OffsetSpec(k) for k in (SpecKind.EARLIEST_LOCAL, SpecKind.LATEST_TIERED, SpecKind.EARLIEST_PENDING_UPLOAD)
)
#: (topic, partition) -> leader; "gone" has a topic error; ("t", 3) has no leader
LEADERS = {("t", 0): 1, ("t", 1): 2, ("t", 2): 1, ("t", 3): -1, ("u", 0): 2}


class FakeRoute:
    """Answers metadata from LEADERS and ListOffsets per partition: offset = 100 * spec code + partition."""

    def __init__(self, fail_node: int | None = None, error_tp: tuple[str, int] | None = None) -> None:
        self.sent: list[tuple[int, int, list[tuple[str, int]]]] = []  # (node, min_version, partitions)
        self.fail_node, self.error_tp = fail_node, error_tp

    async def metadata(self, topics: list[str]) -> dict[str, Any]:
        out = [
            {
                "name": t,
                "error_code": 0,
                "partitions": [
                    {"partition_index": p, "leader_id": n} for (tt, p), n in LEADERS.items() if tt == t
                ],
            }
            for t in topics
            if t != "gone"
        ]
        return {"topics": [*out, {"name": "gone", "error_code": 29, "partitions": []}]}

    def send(self, request: Any, node: int, timeout_ms: int) -> Any:
        tps = [(t.name, p.partition_index) for t in request.topics for p in t.partitions]
        self.sent.append((node, request._min_version, tps))

        async def answer() -> Any:
            if node == self.fail_node:
                raise kerrors.KafkaConnectionError("down")
            parts: dict[str, list[Any]] = {}
            for t in request.topics:
                for p in t.partitions:
                    code = 6 if (t.name, p.partition_index) == self.error_tp else 0
                    offset = -1 if p.timestamp == -6 else -100 * p.timestamp + p.partition_index
                    parts.setdefault(t.name, []).append(
                        SimpleNamespace(
                            partition_index=p.partition_index, error_code=code, offset=offset, leader_epoch=3
                        )
                    )
            return SimpleNamespace(topics=[SimpleNamespace(name=n, partitions=ps) for n, ps in parts.items()])

        return answer()


def ask(admin: FakeRoute, *queries: tuple[str, int, OffsetSpec]) -> dict[tuple[str, int, str], OffsetResult]:
    keys = [(TopicPartition(t, p), s) for t, p, s in queries]
    got = asyncio.run(_round(admin, keys, 0, 5000))  # type: ignore[arg-type]
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


def test_a_broker_too_old_for_the_version_is_unsupported_version() -> None:
    from kafka_offsets_cli.kafka.kafka_python import error_name

    assert error_name(kerrors.IncompatibleBrokerVersion("no ListOffsets v11")) == "UNSUPPORTED_VERSION"
    assert error_name(kerrors.KafkaTimeoutError()) == "REQUEST_TIMED_OUT"
