"""kafka/kafka_python.py's route into kafka-python (detected once), and kafka/offset_fetch.py's rounds.

kafka-python 3.0.12 and the coming 3.1 (kafka-python #3142 removed ``KafkaConnectionManager.run``)
both run coroutines with ``admin._net.run``; older 3.0 releases only had ``admin._manager.run``. The
route falls back to the latter, and with neither the run ends in one line naming the installed
version. The real admin clients of both releases are exercised against a broker by
tests/test_kafka_python_upstream.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import kafka.errors as kerrors  # type: ignore[import-untyped]
import pytest
from kafka.version import __version__ as KAFKA_PYTHON_VERSION  # type: ignore[import-untyped]

from kafka_offsets_cli.errors import ConfigError
from kafka_offsets_cli.kafka.kafka_python import Route
from kafka_offsets_cli.kafka.offset_fetch import _offsets, _round
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.topics import TopicPartition


def _runner(tag: str, calls: list[str]) -> Callable[..., Any]:
    def run(coro_fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        calls.append(tag)
        return asyncio.run(coro_fn(*args))  # type: ignore[arg-type]

    return run


async def _meta(topics: list[str]) -> dict[str, Any]:
    return {"topics": []}


async def _double(x: int) -> int:
    return 2 * x


def _admin(net_run: bool, manager_run: bool, calls: list[str]) -> Any:
    manager = SimpleNamespace(send=lambda *a, **k: None)
    if manager_run:
        manager.run = _runner("manager", calls)
    net = SimpleNamespace(run=_runner("net", calls)) if net_run else SimpleNamespace()
    return SimpleNamespace(_net=net, _manager=manager, _get_cluster_metadata=_meta)


def test_the_network_threads_run_comes_first() -> None:
    calls: list[str] = []
    assert Route(_admin(True, True, calls)).run(_double, 4, timeout_s=1) == 8
    assert calls == ["net"]


def test_falls_back_to_the_managers_run() -> None:
    calls: list[str] = []
    assert Route(_admin(False, True, calls)).run(_double, 5, timeout_s=1) == 10
    assert calls == ["manager"]


def test_without_a_route_one_line_names_the_installed_version() -> None:
    with pytest.raises(ConfigError) as err:
        Route(_admin(False, False, []))
    message = str(err.value)
    assert f"kafka-python {KAFKA_PYTHON_VERSION} is installed" in message
    assert "kafka-python>=3.0.12,<3.2" in message and "\n" not in message


class FakeCoordinators:
    """FindCoordinator and OffsetFetch answers: group -> node; node 2 is frozen (its fetch times out)."""

    def __init__(self, nodes: dict[str, int], errors: dict[str, int] | None = None) -> None:
        self.nodes, self.errors = nodes, errors or {}
        self.sent: list[tuple[str, int | None, list[str]]] = []

    def send(self, request: Any, node_id: int | None, timeout_ms: int) -> Awaitable[Any]:
        if request.API_KEY == 10:  # FindCoordinator
            self.sent.append(("find", node_id, list(request.coordinator_keys)))
            found = [
                SimpleNamespace(key=g, node_id=self.nodes.get(g, -1), error_code=0 if g in self.nodes else 15)
                for g in request.coordinator_keys
            ]
            return _answer(SimpleNamespace(coordinators=found))
        groups = [g.group_id for g in request.groups]
        self.sent.append(("fetch", node_id, groups))
        if node_id == 2:
            return _fail(kerrors.KafkaTimeoutError("frozen"))
        part = SimpleNamespace(partition_index=0, committed_offset=7, error_code=0)
        answer = [
            SimpleNamespace(
                group_id=g,
                error_code=self.errors.get(g, 0),
                topics=[SimpleNamespace(name="t", partitions=[part])],
            )
            for g in groups
        ]
        return _answer(SimpleNamespace(groups=answer))


async def _answer(value: Any) -> Any:
    return value


async def _fail(e: BaseException) -> Any:
    raise e


def test_one_offset_fetch_per_coordinator_and_every_group_keeps_its_own_answer() -> None:
    fake = FakeCoordinators({"a": 1, "b": 1, "c": 2, "d": 3}, errors={"d": 30})
    got = asyncio.run(_round(fake, ["a", "b", "c", "d", "e"], None, 5000))  # type: ignore[arg-type]
    assert fake.sent[0] == ("find", None, ["a", "b", "c", "d", "e"])  # one batched lookup
    assert sorted(fake.sent[1:]) == [("fetch", 1, ["a", "b"]), ("fetch", 2, ["c"]), ("fetch", 3, ["d"])]
    assert got["a"] == GroupOffsets("a", {TopicPartition("t", 0): 7})
    assert got["c"].error == "REQUEST_TIMED_OUT"  # the frozen coordinator: its groups' error only
    assert got["d"].error == "GROUP_AUTHORIZATION_FAILED"
    assert got["e"].error == "COORDINATOR_NOT_AVAILABLE"


def _group_answer(topics: dict[str, list[tuple[int, int, int]]]) -> Any:
    """An OffsetFetch group answer: topic -> (partition, committed offset, error code), broker order."""
    return SimpleNamespace(
        error_code=0,
        topics=[
            SimpleNamespace(
                name=t,
                partitions=[
                    SimpleNamespace(partition_index=i, committed_offset=o, error_code=e) for i, o, e in ps
                ],
            )
            for t, ps in topics.items()
        ],
    )


def test_a_groups_offsets_are_its_committed_ones_and_minus_one_is_none() -> None:
    answer = _group_answer({"t": [(2, 5, 0), (0, -1, 0), (1, 0, 0)], "u": [(0, 9, 0)]})
    got = _offsets("g", answer, [TopicPartition("t", 3), TopicPartition("u", 0)])
    assert got == GroupOffsets(
        "g",
        {TopicPartition("t", 2): 5, TopicPartition("t", 0): None, TopicPartition("t", 1): 0,
         TopicPartition("u", 0): 9, TopicPartition("t", 3): None},
    )  # fmt: skip
    assert all(type(tp) is TopicPartition for tp in got.offsets)
    assert list(got.offsets)[:4] == [
        ("t", 2),
        ("t", 0),
        ("t", 1),
        ("u", 0),
    ]  # the broker's order, then the asked


def test_a_partition_error_is_the_groups_and_no_offset_is_guessed() -> None:
    # the first partition with an error, in the answer's order (UNSTABLE_OFFSET_COMMIT is 88, then 3)
    answer = _group_answer({"t": [(0, 5, 0)], "u": [(0, 9, 0), (1, -1, 88), (2, 4, 3)]})
    assert _offsets("g", answer, None) == GroupOffsets("g", {}, "UNSTABLE_OFFSET_COMMIT")
