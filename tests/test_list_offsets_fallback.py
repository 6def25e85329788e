"""ListOffsets' fallback: ``AdminClient.list_offsets`` answers what librdkafka's C entry point answers.

kafka/list_offsets.py sends each planned call through confluent-kafka's private
``_AdminClientImpl.list_offsets`` (one future per call) and falls back to the public
``AdminClient.list_offsets`` (a future per partition) when that entry point is missing or its
signature changed. These tests run the same queries against a real broker three ways and
require the same results, and that the public API is (and is only) what the fallback uses.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from confluent_kafka.admin import AdminClient

from dev.kafka_data import create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from kafka_offsets_cli.kafka import list_offsets as lo
from kafka_offsets_cli.models.offsets import OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.plan.requests import plan_requests

BASE = 1_700_000_000_000
#: CreateTime per partition, out of order in partition 0 (its max-timestamp is offset 2, not latest - 1)
TIMES = {0: [BASE + 5000, BASE + 1000, BASE + 9000, BASE + 3000], 1: [BASE + 2000, BASE + 4000], 2: []}
SPECS = (
    OffsetSpec.earliest(),
    OffsetSpec.latest(),
    OffsetSpec.max_timestamp(),
    OffsetSpec.at(BASE + 6000),  # partition 0: offset 2; partition 1: none at or after it
    OffsetSpec.at(BASE + 3_600_000),  # after every record: no offset anywhere
)
#: (partition, spec name) -> offset, as Kafka defines them for TIMES
EXPECTED = {
    **{(0, s.name): o for s, o in zip(SPECS, (0, 4, 2, 2, None), strict=True)},
    **{(1, s.name): o for s, o in zip(SPECS, (0, 2, 1, None, None), strict=True)},
    **{(2, s.name): o for s, o in zip(SPECS, (0, 0, None, None, None), strict=True)},
}


@pytest.fixture(scope="module")
def topic(bootstrap: str) -> str:
    name = f"lofb-{uuid.uuid4().hex[:6]}"
    create_topic(bootstrap, name, partitions=len(TIMES), config={"retention.ms": "-1"})
    for p, times in TIMES.items():
        produce(bootstrap, name, [(p, ts, None, f"r{i}") for i, ts in enumerate(times)])
    return name


@pytest.fixture
def public_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts ``AdminClient.list_offsets`` calls (the public API), each still answered by it."""
    calls: list[int] = []
    public = AdminClient.list_offsets

    def counted(self: AdminClient, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return public(self, *args, **kwargs)

    monkeypatch.setattr(AdminClient, "list_offsets", counted)
    return calls


def _answers(bootstrap: str, topic: str) -> dict[tuple[int, str], tuple[int | None, int | None, str | None]]:
    partitions = [TopicPartition(topic, p) for p in TIMES]
    with KafkaClient(build_settings(bootstrap)) as client:
        results = client.list_offsets(plan_requests(partitions, SPECS))
    assert len(results) == len(partitions) * len(SPECS)
    return {(r.partition, r.spec.name): (r.offset, r.timestamp, r.error) for r in results}


def _offsets(
    answers: dict[tuple[int, str], tuple[int | None, int | None, str | None]],
) -> dict[tuple[int, str], int | None]:
    assert all(error is None for _, _, error in answers.values()), answers
    return {k: offset for k, (offset, _, _) in answers.items()}


def test_the_fast_path_answers_without_the_public_api(
    bootstrap: str, topic: str, public_calls: list[int]
) -> None:
    assert lo._C_LIST_OFFSETS is not None, (
        "confluent-kafka no longer has the C entry point: the fallback runs always"
    )
    assert _offsets(_answers(bootstrap, topic)) == EXPECTED
    assert public_calls == []


def _changed_signature(*args: Any, **kwargs: Any) -> None:
    raise TypeError("list_offsets() got an unexpected keyword argument 'isolation_level_value'")


@pytest.mark.parametrize(
    "entry", [None, _changed_signature], ids=["entry-point-missing", "signature-changed"]
)
def test_the_public_api_fallback_answers_the_same(
    bootstrap: str, topic: str, public_calls: list[int], monkeypatch: pytest.MonkeyPatch, entry: Any
) -> None:
    fast = _answers(bootstrap, topic)
    monkeypatch.setattr(lo, "_C_LIST_OFFSETS", entry)
    fallback = _answers(bootstrap, topic)
    assert public_calls, "the fallback did not use AdminClient.list_offsets"
    assert _offsets(fallback) == EXPECTED
    assert fallback == fast  # timestamps and errors too
