"""`kafka-offsets liveness` against a real broker: states, exit codes, nagios and prometheus outputs."""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dev.kafka_data import create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli, subprocess_cli
from tests.mock_environment import watching

MIN = 60_000
KEEP = {"retention.ms": "-1"}
THRESHOLDS = ("--warn", "5m", "--crit", "15m")


@dataclass(frozen=True)
class Topics:
    fresh: str  # 1 partition, a record now
    mixed: str  # 3 partitions: now, 10 min ago, 20 min ago
    empty: str  # 1 partition, no record
    future: str  # 1 partition, a record 1 hour ahead
    append: str  # LogAppendTime: producer time 2023, broker time now
    prefix: str
    produced_at: int


@pytest.fixture(scope="module")
def topics(bootstrap: str) -> Topics:
    prefix = f"live-{uuid.uuid4().hex[:6]}"
    now = int(time.time() * 1000)
    t = Topics(
        f"{prefix}.fresh",
        f"{prefix}.mixed",
        f"{prefix}.empty",
        f"{prefix}.future",
        f"{prefix}.append",
        prefix,
        now,
    )
    create_topic(bootstrap, t.fresh, config=KEEP)
    create_topic(bootstrap, t.mixed, partitions=3, config=KEEP)
    create_topic(bootstrap, t.empty, config=KEEP)
    create_topic(bootstrap, t.future, config=KEEP)
    create_topic(bootstrap, t.append, config={**KEEP, "message.timestamp.type": "LogAppendTime"})
    produce(bootstrap, t.fresh, [(0, now - 2 * MIN, None, "old"), (0, now, None, "new")])
    produce(
        bootstrap,
        t.mixed,
        [(0, now, None, "a"), (1, now - 10 * MIN, None, "b"), (2, now - 20 * MIN, None, "c")],
    )
    produce(bootstrap, t.future, [(0, now + 60 * MIN, None, "f")])
    produce(bootstrap, t.append, [(0, 1_700_000_000_000, None, "x")])
    return t


def run_json(*args: str) -> tuple[int, dict[tuple[str, int | None], dict[str, Any]], str]:
    r = cli("liveness", *args, "-o", "json")
    recs = r.json() if r.stdout else []
    return r.code, {(x["topic"], x["partition"]): x for x in recs}, r.stderr


def test_fresh_topic_is_ok(bootstrap: str, topics: Topics) -> None:
    code, recs, _ = run_json("-b", bootstrap, "-t", topics.fresh, *THRESHOLDS)
    assert code == 0
    r = recs[(topics.fresh, 0)]
    assert (r["state"], r["offset"], r["timestamp"], r["timestamp_type"]) == (
        "ok",
        1,
        topics.produced_at,
        "CreateTime",
    )
    assert 0 <= r["age_ms"] < 2 * MIN


def test_each_partition_state_and_the_stalest_decides(bootstrap: str, topics: Topics) -> None:
    code, recs, _ = run_json("-b", bootstrap, "-t", topics.mixed, *THRESHOLDS)
    assert code == 2
    assert [recs[(topics.mixed, p)]["state"] for p in range(3)] == ["ok", "warning", "critical"]
    assert recs[(topics.mixed, 2)]["timestamp"] == topics.produced_at - 20 * MIN
    assert 20 * MIN <= recs[(topics.mixed, 2)]["age_ms"] < 22 * MIN
    assert run_json("-b", bootstrap, "-t", topics.mixed, "--warn", "5m", "--crit", "30m")[0] == 1


def test_min_alive(bootstrap: str, topics: Topics) -> None:
    base = ("-b", bootstrap, "-t", topics.mixed, *THRESHOLDS, "-o", "json")
    assert cli("liveness", *base, "--min-alive", "1").code == 0
    assert cli("liveness", *base, "--min-alive", "2").code == 1
    assert cli("liveness", *base, "--min-alive", "3").code == 2
    assert cli("liveness", *base, "--min-alive", "4").code == 2  # cannot have 4 of 3 alive


def test_empty_and_future_are_their_own_states(bootstrap: str, topics: Topics) -> None:
    code, recs, _ = run_json("-b", bootstrap, "-t", topics.empty, *THRESHOLDS)
    assert code == 0  # empty is not stale: OK unless --empty-status says otherwise
    assert recs[(topics.empty, 0)] | {"timestamp_type": None} == {
        "topic": topics.empty,
        "partition": 0,
        "offset": None,
        "timestamp": None,
        "age_ms": None,
        "state": "empty",
        "timestamp_type": None,
        "error": None,
    }
    for status, code in (("warning", 1), ("critical", 2), ("unknown", 3), ("OK", 0)):
        assert run_json("-b", bootstrap, "-t", topics.empty, *THRESHOLDS, "--empty-status", status)[0] == code
    code, recs, _ = run_json("-b", bootstrap, "-t", topics.future, *THRESHOLDS)
    assert code == 1
    f = recs[(topics.future, 0)]
    assert f["state"] == "future" and -61 * MIN < f["age_ms"] < -58 * MIN
    assert run_json("-b", bootstrap, "-t", topics.future, *THRESHOLDS, "--future-tolerance", "2h")[0] == 0


def test_log_append_time_topic_uses_the_broker_clock(bootstrap: str, topics: Topics) -> None:
    code, recs, _ = run_json("-b", bootstrap, "-t", topics.append, *THRESHOLDS)
    r = recs[(topics.append, 0)]
    assert (code, r["state"], r["timestamp_type"]) == (0, "ok", "LogAppendTime")
    assert r["timestamp"] >= topics.produced_at - MIN  # not the producer's 2023 time


def test_missing_topic_is_unknown(bootstrap: str, topics: Topics) -> None:
    code, recs, _ = run_json("-b", bootstrap, "-t", topics.fresh, "-t", f"{topics.prefix}.nope", *THRESHOLDS)
    assert code == 3
    assert recs[(f"{topics.prefix}.nope", None)]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"


def test_usage_errors_are_unknown(bootstrap: str, topics: Topics) -> None:
    """Exit 3, not 2: a monitoring check's invalid argument is UNKNOWN, 2 would read as CRITICAL."""
    r = cli("liveness", "-b", bootstrap, "-t", topics.fresh, "--warn", "20m", "--crit", "5m")
    assert r.code == 3 and "longer than --crit" in r.stderr
    assert cli("liveness", "-b", bootstrap, "--warn", "soon").code == 3


NAGIOS = re.compile(r"^KAFKA LIVENESS (OK|WARNING|CRITICAL|UNKNOWN) - ([^|\n]*?)(?: \| (.*))?\n$")
PERF = re.compile(r"('(?:[^']|'')+'|[^'= ]+)=(U|-?[0-9.]+)(s?);([0-9.]*);([0-9.]*);([0-9.]*);?([0-9.]*)")


def parse_nagios(text: str) -> tuple[str, str, dict[str, tuple[float | None, str, str]]]:
    m = NAGIOS.match(text)
    assert m, text
    perf = {}
    for pm in PERF.finditer(m.group(3) or ""):
        label = pm.group(1).strip("'").replace("''", "'")
        perf[label] = (None if pm.group(2) == "U" else float(pm.group(2)), pm.group(4), pm.group(5))
    return m.group(1), m.group(2), perf


def test_nagios_output_parses_back(bootstrap: str, topics: Topics) -> None:
    r = cli(
        "liveness", "-b", bootstrap, "-t", f"{topics.prefix}\\.(mixed|fresh)", *THRESHOLDS, "-o", "nagios"
    )
    assert r.code == 2
    status, summary, perf = parse_nagios(r.stdout)
    assert status == "CRITICAL"
    assert summary.startswith("4 partition(s) in 2 topic(s): 2 ok, 1 warning, 1 critical")
    assert f"{topics.mixed}:2 critical 20m" in summary
    age, warn, crit = perf[f"{topics.mixed} age"]
    assert age is not None and 20 * 60 <= age < 22 * 60 and (warn, crit) == ("300", "900")
    assert perf[f"{topics.mixed} alive"][0] == 1
    fresh_age = perf[f"{topics.fresh} age"][0]
    assert fresh_age is not None and fresh_age < 120
    ok = cli("liveness", "-b", bootstrap, "-t", topics.fresh, *THRESHOLDS, "-o", "nagios")
    assert ok.code == 0 and parse_nagios(ok.stdout)[0] == "OK"


def test_prometheus_file_is_written_atomically_and_parses_back(
    bootstrap: str, topics: Topics, tmp_path: Path
) -> None:
    path = tmp_path / "kafka_liveness.prom"
    r = cli(
        "liveness",
        "-b",
        bootstrap,
        "-t",
        f"{topics.prefix}\\..*",
        *THRESHOLDS,
        "-o",
        "json",
        "--prometheus-file",
        str(path),
    )
    assert r.code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kafka_liveness.prom"]  # no temp file left
    metrics = parse_prometheus_text(path.read_text())
    recs = {(x["topic"], x["partition"]): x for x in r.json()}
    ages = {
        (lab["topic"], int(lab["partition"])): v for lab, v in metrics["kafka_offsets_liveness_age_seconds"]
    }
    assert ages.keys() == {k for k, x in recs.items() if x["age_ms"] is not None}
    for k, v in ages.items():
        assert abs(v * 1000 - recs[k]["age_ms"]) < 2000
    states = {
        (lab["topic"], int(lab["partition"])): lab["state"]
        for lab, _ in metrics["kafka_offsets_liveness_partition_state"]
    }
    assert states == {k: x["state"] for k, x in recs.items()}
    stamps = {
        (lab["topic"], int(lab["partition"])): v
        for lab, v in metrics["kafka_offsets_liveness_max_timestamp_seconds"]
    }
    assert stamps[(topics.mixed, 2)] == (topics.produced_at - 20 * MIN) / 1000
    assert metrics["kafka_offsets_liveness_status"] == [({"cluster": bootstrap}, 2.0)]
    assert metrics["kafka_offsets_liveness_up"] == [({"cluster": bootstrap}, 1.0)]
    types = {
        lab["topic"]: lab["timestamp_type"]
        for lab, _ in metrics["kafka_offsets_liveness_timestamp_type_info"]
    }
    assert types[topics.append] == "LogAppendTime" and types[topics.fresh] == "CreateTime"
    stdout_metrics = cli("liveness", "-b", bootstrap, "-t", topics.fresh, *THRESHOLDS, "-o", "prometheus")
    assert stdout_metrics.code == 0
    assert parse_prometheus_text(stdout_metrics.stdout)["kafka_offsets_liveness_status"] == [
        ({"cluster": bootstrap}, 0.0)
    ]


def test_unreachable_cluster_is_unknown(tmp_path: Path) -> None:
    path = tmp_path / "down.prom"
    r = subprocess_cli(
        "liveness",
        "-b",
        "127.0.0.1:1",
        "-t",
        "x",
        "--timeout",
        "2s",
        "-o",
        "nagios",
        "--prometheus-file",
        str(path),
    )
    assert r.code == 3
    status, summary, _ = parse_nagios(r.stdout)
    assert status == "UNKNOWN" and "cannot connect to 127.0.0.1:1: Connection refused" in summary
    assert "error" in r.stderr
    m = parse_prometheus_text(path.read_text())
    down = {"cluster": "127.0.0.1:1"}
    assert m["kafka_offsets_liveness_up"] == [(down, 0.0)] and m["kafka_offsets_liveness_status"] == [
        (down, 3.0)
    ]


def test_exit_codes_from_a_real_process(bootstrap: str, topics: Topics) -> None:
    for topic, code in (
        (topics.fresh, 0),
        (topics.future, 1),
        (f"{topics.prefix}.mixed", 2),
        (topics.empty, 0),
    ):
        r = subprocess_cli("liveness", "-b", bootstrap, "-t", topic, *THRESHOLDS, "-o", "jsonl")
        assert r.code == code, (topic, r.stderr)
        assert {x["topic"] for x in r.jsonl()} == {topic}


def test_watch_rates_from_latest_offsets_and_the_prometheus_file_each_refresh(
    bootstrap: str, tmp_path: Path
) -> None:
    topic = create_topic(bootstrap, f"live-watch-{uuid.uuid4().hex[:6]}", 2, config=KEEP)
    start = int(time.time() * 1000)

    def records(partition: int, n: int, first: int) -> list[tuple[int, int, None, bytes]]:
        # increasing timestamps, so the newest record by timestamp is the last one
        return [(partition, start + first + i, None, b"x") for i in range(n)]

    produce(bootstrap, topic, records(0, 10, 0))  # partition 1 stays empty: CRITICAL
    path = tmp_path / "live.prom"
    files: list[dict[int, float]] = []

    def offsets_in(text: str) -> dict[int, float]:
        fams = parse_prometheus_text(text)
        return {int(lab["partition"]): v for lab, v in fams["kafka_offsets_liveness_max_timestamp_offset"]}

    def between(refresh: int) -> None:
        files.append(offsets_in(path.read_text()))
        produce(bootstrap, topic, records(0, 30, 10) + records(1, 6, 10))

    args = ("liveness", "-b", bootstrap, "-t", topic, *THRESHOLDS, "-o", "jsonl")
    run = cli(*args, "--watch", "3s", "--prometheus-file", str(path), environment=watching(2, between))
    assert run.code == 0, run.stderr  # a watch ends normally, whatever the status (here CRITICAL first)
    recs = run.jsonl()
    assert len(recs) == 4
    first = {r["partition"]: r for r in recs[:2]}
    second = {r["partition"]: r for r in recs[2:]}
    assert (first[0]["offset"], first[1]["state"]) == (9, "empty")
    assert first[0]["in_per_s"] is None and first[1]["in_per_s"] is None
    assert (second[0]["offset"], second[1]["offset"], second[1]["state"]) == (39, 5, "ok")
    # refreshes exactly 3 s apart: 30 and 6 records in
    assert (second[0]["in_per_s"], second[1]["in_per_s"]) == (10.0, 2.0)
    # the textfile is rewritten after every refresh
    assert files == [{0: 9}]
    assert offsets_in(path.read_text()) == {0: 39, 1: 5}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.prom"]

    plain = cli(*args)  # without --watch: no rate field
    assert plain.code == 0 and all("in_per_s" not in r for r in plain.jsonl())
