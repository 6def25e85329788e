"""``lag``'s ListOffsets by either route on a real broker: kafka-python's (the run reads its groups
there: one request per leader and spec) and librdkafka's (client settings kafka-python cannot
take). Both give the same rows, time lag included (docs/performance.md)."""

from __future__ import annotations

import uuid
from typing import Any

from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.cli_runner import subprocess_cli

B = 1_790_000_000_000
#: librdkafka takes it (unused without TLS); kafka-python's translation refuses it (kafka/tiered_config.py)
LIBRDKAFKA_ONLY = ("-X", "ssl.cipher.suites=HIGH")


def _lag(bootstrap: str, group: str, *extra: str) -> tuple[list[dict[str, Any]], str]:
    run = subprocess_cli(
        "lag", "-b", bootstrap, "-g", group, "--time-lag", "-o", "json", "--debug", *extra, timeout=120
    )
    assert run.code == 0, run.stderr[-3000:]
    rows = sorted(run.json(), key=lambda r: r["partition"])
    for r in rows:  # measured at each run's own "now"
        r.pop("taken_at_ms", None)
        r.pop("time_lag_ms", None)
    return rows, run.stderr


def test_lag_answers_the_same_by_either_listoffsets_route(bootstrap: str) -> None:
    topic, group = f"routes-{uuid.uuid4().hex[:8]}", f"routes-g-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 3, config={"retention.ms": "-1"})
    produce(bootstrap, topic, [(p, B + 1000 * i, None, "x") for p in range(3) for i in range(40)])
    commit_group_offsets(bootstrap, group, {(topic, 0): 0, (topic, 1): 17, (topic, 2): 40})

    wire, wire_log = _lag(bootstrap, group)
    rdkafka, rdkafka_log = _lag(bootstrap, group, *LIBRDKAFKA_ONLY)

    assert wire == rdkafka
    assert [(r["partition"], r["lag"], r["resume_timestamp"]) for r in wire] == [
        (0, 40, B),
        (1, 23, B + 17_000),
        (2, 0, B + 39_000),  # all read: the newest record up to the committed offset
    ]
    # the routes were the ones meant: kafka-python sent ListOffsets in one run, never in the other
    assert "ListOffsetsRequest" in wire_log
    assert "through librdkafka (kafka-python cannot take" in rdkafka_log
    assert "ListOffsetsRequest" not in rdkafka_log
