"""``kafka-offsets tiering`` on a real tiered broker (``tiered_bootstrap``, dev/tiered.py), checked with
Kafka's GetOffsetShell on the same data.

``held`` has its uploads held back (``remote.log.copy.disable=true``) and records stamped two hours ago:
a real backlog, WARNING or CRITICAL by the thresholds; then uploads are released and fresh records roll
the old active segment, so everything old is tiered and the run is OK. ``plain`` has no tiered storage.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dev import kafka as dev_kafka
from dev import tiered
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import Run, cli
from tests.kafka_helpers import GET_OFFSET_SHELL
from tests.test_prometheus_lint import lint

RECORDS = 200  # of 1 KiB per partition: a dozen 16 KiB segments
HOURS_AGO = 2 * 3_600_000
CHECK = ("--warn-records", "100", "--crit-records", "1000", "--warn-age", "30m", "--crit-age", "1h")


@dataclass(frozen=True)
class Topics:
    held: str
    plain: str
    stamp: int  # the timestamp of every held record


def _produce(bootstrap: str, topic: str, partitions: int, records: int, timestamp: int | None) -> None:
    """``records`` records of ~500 bytes per partition, stamped ``timestamp`` (else now); every one acked."""
    from confluent_kafka import KafkaError, Message, Producer

    failed: list[KafkaError] = []

    def acked(err: KafkaError | None, _msg: Message) -> None:
        if err is not None:
            failed.append(err)

    # batches below the 16 KiB segments (a larger batch is refused: RECORD_LIST_TOO_LARGE)
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 4096})
    for part in range(partitions):
        for i in range(records):
            # timestamp 0: librdkafka stamps the record with the current time
            p.produce(
                topic,
                f"{part}/{i}".encode() * 100,
                partition=part,
                timestamp=timestamp or 0,
                on_delivery=acked,
            )
    assert p.flush(60) == 0 and not failed, failed[:1]


@pytest.fixture(scope="module")
def topics(tiered_bootstrap: str) -> Iterator[Topics]:
    uid = uuid.uuid4().hex[:8]
    t = Topics(
        held=f"tiering-held-{uid}", plain=f"tiering-plain-{uid}", stamp=int(time.time() * 1000) - HOURS_AGO
    )
    tiered.create_topic(
        tiered_bootstrap, t.held, 2, config={"remote.log.copy.disable": "true", "local.retention.ms": "-2"}
    )
    tiered.create_topic(tiered_bootstrap, t.plain, 1, tiered=False)
    _produce(tiered_bootstrap, t.held, 2, RECORDS, t.stamp)
    _produce(tiered_bootstrap, t.plain, 1, RECORDS, None)
    yield t


def _run(bootstrap: str, topic: str, *extra: str) -> Run:
    return cli("tiering", "-b", bootstrap, "-t", topic, *extra)


def _shell(bootstrap: str, topic: str, spec: str) -> dict[int, int]:
    """GetOffsetShell's answer per partition (a partition it prints nothing for is left out)."""
    p = dev_kafka.run_tool(
        GET_OFFSET_SHELL, "--bootstrap-server", bootstrap, "--topic", topic, "--time", spec
    )
    assert p.returncode == 0, p.stderr
    return {int(line.split(":")[-2]): int(line.split(":")[-1]) for line in p.stdout.splitlines()}


def _cross_check(bootstrap: str, topic: str, rows: list[dict[str, Any]]) -> None:
    """Every offset and derived number of ``rows`` from GetOffsetShell's -2/-4/-5/-6/-1 answers."""
    e, el, t, p, end = (_shell(bootstrap, topic, s) for s in ("-2", "-4", "-5", "-6", "-1"))
    for r in rows:
        n = r["partition"]
        assert (r["earliest"], r["earliest_local"], r["latest"]) == (e[n], el[n], end[n])
        assert (r["latest_tiered"], r["earliest_pending_upload"]) == (t.get(n), p.get(n))
        assert r["local_records"] == end[n] - el[n]
        if r["state"] == "not-tiered":
            assert (r["remote_records"], r["backlog_records"]) == (None, None)
            continue
        first = t[n] + 1 if n in t else p.get(n, e[n])
        assert (r["backlog_first_offset"], r["backlog_records"]) == (first, end[n] - first)
        assert r["remote_records"] == (t[n] - e[n] + 1 if n in t else 0)


def test_held_uploads_are_a_backlog_by_thresholds_then_released_ok(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics, tmp_path: Path
) -> None:
    b = tiered_bootstrap
    crit = _run(b, topics.held, *CHECK, "-o", "jsonl")
    assert crit.code == 2, crit.stderr
    rows = crit.jsonl()
    assert [(r["partition"], r["state"], r["backlog_records"]) for r in rows] == [
        (0, "critical", RECORDS),
        (1, "critical", RECORDS),
    ]
    # every record is stamped the same: the backlog's timestamp is exactly theirs
    assert all(r["backlog_timestamp"] == topics.stamp and r["backlog_age_ms"] >= HOURS_AGO for r in rows)
    _cross_check(b, topics.held, rows)
    warn = _run(b, topics.held, "--warn-records", "100", "-o", "nagios")
    assert warn.code == 1 and warn.stdout.startswith(f"KAFKA TIERING WARNING - {topics.held} WARNING"), warn
    assert f"'{topics.held} backlog'=400;100;;0" in warn.stdout
    assert _run(b, topics.held, "--warn-records", "1000").code == 0
    problems = _run(b, f"{topics.held}|{topics.plain}", *CHECK, "--problems", "-o", "jsonl")
    assert problems.code == 2 and {r["topic"] for r in problems.jsonl()} == {topics.held}

    from confluent_kafka.admin import (  # type: ignore[attr-defined]
        AdminClient,
        AlterConfigOpType,
        ConfigEntry,
        ConfigResource,
    )

    resource = ConfigResource(
        ConfigResource.Type.TOPIC,
        topics.held,
        incremental_configs=[
            ConfigEntry("remote.log.copy.disable", "false", incremental_operation=AlterConfigOpType.SET)
        ],
    )
    admin = AdminClient({"bootstrap.servers": b})  # kept while its future is awaited
    admin.incremental_alter_configs([resource])[resource].result(60)
    _produce(b, topics.held, 2, 40, None)  # fresh records: the old active segment rolls and can be uploaded
    deadline = time.monotonic() + 120
    while True:
        run = _run(b, topics.held, *CHECK, "-o", "jsonl")
        if all((r["latest_tiered"] or -1) >= RECORDS - 1 for r in run.jsonl()):
            break
        assert time.monotonic() < deadline, run.stdout
        time.sleep(0.5)
    assert run.code == 0, run.stdout
    assert all(r["state"] == "ok" and r["backlog_records"] < 100 for r in run.jsonl())
    prom = tmp_path / "tiering.prom"
    table = _run(b, topics.held, *CHECK, "-o", "wide", "--prometheus-file", str(prom))
    assert (
        table.code == 0 and "TOPIC" in table.stdout and f"{topics.held}: OK (2 partition(s)" in table.stderr
    )
    fams = parse_prometheus_text(prom.read_text())
    assert fams["kafka_offsets_tiering_status"] == [({"cluster": b}, 0.0)]


def test_a_topic_without_tiered_storage_is_not_tiered_and_ok(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics
) -> None:
    run = _run(tiered_bootstrap, topics.plain, *CHECK, "-o", "json")
    assert run.code == 0, run.stderr
    rows = run.json()
    assert [(r["state"], r["local_records"]) for r in rows] == [("not-tiered", RECORDS)]
    _cross_check(tiered_bootstrap, topics.plain, rows)
    assert "0 tiered topic(s) of 1" in _run(tiered_bootstrap, topics.plain, "-o", "nagios").stdout


def test_prometheus_passes_promtool_and_names_the_cluster(tiered_bootstrap: str, topics: Topics) -> None:
    run = _run(
        tiered_bootstrap, f"{topics.held}|{topics.plain}", *CHECK, "-o", "prometheus", "--label", "env=t"
    )
    assert run.code in (0, 2), run.stderr
    lint(run.stdout)
    labels = [lab for samples in parse_prometheus_text(run.stdout).values() for lab, _ in samples]
    assert labels and all(lab["cluster"] == tiered_bootstrap and lab["env"] == "t" for lab in labels)


def test_an_unreachable_cluster_is_unknown_with_up_0(tmp_path: Path) -> None:
    prom = tmp_path / "t.prom"
    run = cli(
        "tiering", "-b", "127.0.0.1:1", "--timeout", "2s", "-o", "nagios", "--prometheus-file", str(prom)
    )
    assert run.code == 3 and run.stdout.startswith("KAFKA TIERING UNKNOWN - ")
    assert parse_prometheus_text(prom.read_text())["kafka_offsets_tiering_up"][0][1] == 0.0


def test_bad_thresholds_are_a_usage_error() -> None:
    run = cli("tiering", "-b", "127.0.0.1:1", "--warn-age", "2h", "--crit-age", "1h")
    assert run.code == 3 and "--warn-age" in run.stderr  # UNKNOWN: a monitoring check's usage error
