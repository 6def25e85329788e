"""The floor of the stack kafka-offsets is built on: Python + confluent-kafka, nothing else.

``python bench/floor.py BOOTSTRAP TOPIC PARTITIONS TIMESTAMP`` answers the same timestamp
lookups as ``kafka-offsets list --time TIMESTAMP -o plain`` (and ``kcat -Q``) with the least
Python possible: no CLI framework, no metadata request, one ListOffsets call through the
same librdkafka entry point the tool uses, asyncio deferred as the tool defers it. The
benchmark runs it beside kcat to show how much of kcat's time any tool on this stack can
reach: interpreter start-up plus confluent-kafka's import alone take longer than kcat's
whole run. Not part of the product.
"""

from __future__ import annotations

import sys

from kafka_offsets_cli.lazyimport import defer_import

defer_import("asyncio")

from concurrent.futures import Future  # noqa: E402

from confluent_kafka import TopicPartition, cimpl  # noqa: E402
from confluent_kafka.admin import AdminClient  # noqa: E402


def main(argv: list[str]) -> int:
    """Print ``topic:partition:offset`` for each partition with a record at or after the time."""
    bootstrap, topic, partitions, ts = argv[0], argv[1], int(argv[2]), int(argv[3])
    admin = AdminClient({"bootstrap.servers": bootstrap, "reconnect.backoff.ms": 10})
    done: Future[dict[object, object]] = Future()
    done.set_running_or_notify_cancel()
    tps = [TopicPartition(topic, p, ts) for p in range(partitions)]
    cimpl._AdminClientImpl.list_offsets(admin, tps, done, request_timeout=30, isolation_level_value=0)
    answers = done.result(timeout=35)
    sys.stdout.write(
        "".join(
            f"{c.topic}:{c.partition}:{v.offset}\n"  # type: ignore[attr-defined]
            for c, v in answers.items()
            if getattr(v, "offset", -1) >= 0
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
