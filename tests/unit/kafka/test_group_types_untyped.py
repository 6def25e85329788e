"""Share and streams groups through kafka-python only: settings it cannot take leave them unseen,
said once, and nothing is asked (kafka/client.py), so a rewind of a consumer group goes on as before."""

from __future__ import annotations

from kafka_offsets_cli.connection.properties import Setting
from kafka_offsets_cli.connection.settings import ClientSettings
from kafka_offsets_cli.kafka import KafkaClient


def test_settings_kafka_python_cannot_take_leave_the_types_unseen_without_a_request() -> None:
    props = {"ssl.cipher.suites": "HIGH"}  # librdkafka takes it; kafka-python's translation does not
    settings = ClientSettings("127.0.0.1:1", {k: Setting(v, "-X") for k, v in props.items()}, timeout_ms=1)
    with KafkaClient(settings) as client:
        share = client.share_group_descriptions(["g"])
        streams = client.streams_group_descriptions(["g"])
    assert share.groups == {} and streams.groups == {}  # an unreachable cluster was never asked
    assert share.unavailable is not None and share.unavailable.startswith("share groups cannot be asked")
    assert streams.unavailable is not None and "read as consumer groups" in streams.unavailable
