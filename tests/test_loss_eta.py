"""``lag --loss-eta`` on a real broker: the committed record really disappears at the predicted time.

The broker is ``tiered_bootstrap`` (dev/tiered.py), whose retention check runs every second from
start-up (``log.retention.check.interval.ms=1000``, the default 5 min would outlast the test). The
proof: a topic with ``retention.ms`` of 25 s and ``segment.ms`` of 2 s, 40 records written one by one
with CreateTime timestamps 500 ms apart (the newest now), so segments roll about every 2 s of record
time; a group that committed at the record 10 s old and stopped. ``lag --loss-eta`` predicts its
deletion about 15 s on (less the time the records took to write); the log start is then polled until
it passes the committed offset, which must happen at or after the prediction (to the polling's
resolution) and no later than one segment's span plus one retention check (plus scheduling slack).
Then the same group is ``below-start`` with ETA 0. The test prints how late the deletion came.
"""

from __future__ import annotations

import re
import signal
import time
import uuid
from typing import Any

from dev import tiered
from dev.kafka_data import commit_group_offsets
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli
from tests.kafka_helpers import wait_moved_to_remote
from tests.test_prometheus_lint import lint
from tests.test_serve import one, scrape, serve

RETENTION_MS = 25_000
SEGMENT_MS = 2_000
CHECK_INTERVAL_MS = 1_000  # dev/tiered.py's log.retention.check.interval.ms
SPACING_MS = 500
RECORDS = 40
COMMITTED = 20  # its record 10 s old when written: its ETA about 15 s less the setup
POLL_S = 0.1
SLACK_MS = 1_500  # the retention thread's scheduling on a loaded machine
RESOLUTION_MS = 300  # the polling's: one step and one read of the log start


def _produce_spaced(bootstrap: str, topic: str, first_ts: int) -> list[int]:
    """RECORDS records, one batch each (so segments can roll between any two), timestamps SPACING_MS apart."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0, "enable.idempotence": True})
    stamps = [first_ts + i * SPACING_MS for i in range(RECORDS)]
    for ts in stamps:
        p.produce(topic, b"x" * 100, partition=0, timestamp=ts)
        assert p.flush(30) == 0
    return stamps


class LogStart:
    """The partition's log start, read with one consumer (no group joined) as fast as it answers."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        from confluent_kafka import Consumer, TopicPartition

        self.tp = TopicPartition(topic, 0)
        self.c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"probe-{uuid.uuid4().hex[:6]}"})

    def __call__(self) -> int:
        low, _ = self.c.get_watermark_offsets(self.tp, timeout=5, cached=False)
        return int(low)

    def close(self) -> None:
        self.c.close()


def now_ms() -> int:
    return int(time.time() * 1000)


def wait_gone(log_start: LogStart, committed: int, deadline: int, eta: int) -> tuple[int, int]:
    """Poll the log start until it passes ``committed`` (fail at ``deadline``): when the last read that
    still found the record was sent, and when the one that did not came back (the deletion is between)."""
    present = now_ms()
    while True:
        sent = now_ms()
        start = log_start()
        if start > committed:
            return present, now_ms()
        present = sent
        assert sent < deadline, f"log start still {start} at the deadline (ETA {eta} ms)"
        time.sleep(POLL_S)


def _lag(bootstrap: str, group: str, *args: str) -> tuple[int, dict[str, Any], str]:
    run = cli("lag", "-b", bootstrap, "-g", group, "-o", "json", *args)
    recs = run.json() if run.stdout else []
    assert len(recs) == 1, (run.code, run.stdout, run.stderr)
    return run.code, recs[0], run.stderr


def test_the_committed_record_disappears_at_the_predicted_time(tiered_bootstrap: str) -> None:
    b, uid = tiered_bootstrap, uuid.uuid4().hex[:8]
    topic, group = f"loss-{uid}", f"loss-g-{uid}"
    config = {"retention.ms": str(RETENTION_MS), "segment.ms": str(SEGMENT_MS), "cleanup.policy": "delete"}
    tiered.create_topic(b, topic, 1, tiered=False, config=config)
    # the group first (a fresh broker's coordinator may take seconds), so the records' ages are what
    # the test makes them when lag reads them
    commit_group_offsets(b, group, {(topic, 0): COMMITTED})
    stamps = _produce_spaced(b, topic, now_ms() - (RECORDS - 1) * SPACING_MS)

    code, rec, err = _lag(b, group, "--loss-eta")
    assert code == 0, err
    eta, taken = rec["loss_eta_ms"], rec["taken_at_ms"]
    assert isinstance(eta, int) and isinstance(taken, int), rec
    # in-order timestamps: M(c) is the committed record's own timestamp, to the millisecond
    assert eta == stamps[COMMITTED] + RETENTION_MS - taken, (rec, stamps[COMMITTED])
    assert rec["log_start"] is not None and rec["log_start"] <= COMMITTED  # not deleted yet
    # long enough that a deletion before the prediction would be seen (the records before c expire meanwhile)
    assert SEGMENT_MS + CHECK_INTERVAL_MS < eta < RETENTION_MS, rec
    predicted = taken + eta

    log_start = LogStart(b, topic)
    try:
        deadline = predicted + SEGMENT_MS + CHECK_INTERVAL_MS + SLACK_MS + 5_000  # then fail: bounded
        present, gone = wait_gone(log_start, COMMITTED, deadline, eta)
    finally:
        log_start.close()
    early, late = predicted - present, gone - predicted
    print(f"loss ETA {eta} ms: still there {-early} ms after the predicted time, gone {late} ms after it")
    assert gone >= predicted and early <= RESOLUTION_MS, (early, late)  # not before the prediction
    assert late <= SEGMENT_MS + CHECK_INTERVAL_MS + SLACK_MS + RESOLUTION_MS, late  # within one roll

    code, rec, err = _lag(b, group, "--loss-eta")
    assert (rec["state"], rec["loss_eta_ms"]) == ("below-start", 0), rec
    assert code == 0, err


def test_thresholds_and_topics_without_an_eta(tiered_bootstrap: str) -> None:
    b, uid = tiered_bootstrap, uuid.uuid4().hex[:8]
    kept, compact, day = f"loss-kept-{uid}", f"loss-compact-{uid}", f"loss-day-{uid}"
    tiered.create_topic(b, kept, 1, tiered=False, config={"retention.ms": "-1"})
    tiered.create_topic(
        b, compact, 1, tiered=False, config={"cleanup.policy": "compact", "retention.ms": "1000"}
    )
    tiered.create_topic(b, day, 1, tiered=False, config={"retention.ms": "86400000", "retention.bytes": "-1"})
    from confluent_kafka import Producer

    for t in (kept, compact, day):
        p = Producer({"bootstrap.servers": b})
        for i in range(5):
            p.produce(t, b"v", key=f"k{i}".encode(), partition=0)
        assert p.flush(30) == 0
    group = f"loss-g-{uid}"
    commit_group_offsets(b, group, {(kept, 0): 1, (compact, 0): 1, (day, 0): 1})
    run = cli("lag", "-b", b, "-g", group, "--sort", "loss-eta", "-o", "json")  # the sort implies --loss-eta
    assert run.code == 0, run.stderr
    etas = {r["topic"]: r["loss_eta_ms"] for r in run.json()}
    assert etas[kept] is None and etas[compact] is None  # kept forever; compacted, not deleted by age
    assert 86_400_000 - 60_000 < etas[day] <= 86_400_000
    assert list(etas) == [day, compact, kept]  # the soonest first, those without an ETA last by name
    # a loss-ETA threshold: at or below it alerts, with the monitoring exit codes; it implies the ETA
    assert cli("lag", "-b", b, "-g", group, "-t", day, "--warn-loss-eta", "1h").code == 0
    warn = cli("lag", "-b", b, "-g", group, "-t", day, "--warn-loss-eta", "2d", "-o", "nagios")
    assert warn.code == 1, warn.stderr
    # the group's soonest ETA as perfdata, its threshold a range alerting at or below it; named in the text
    perf = re.search(rf"'{group} loss_eta'=([0-9.]+)s;@~:172800;;0", warn.stdout)
    assert perf is not None and abs(float(perf[1]) * 1000 - etas[day]) < 60_000, warn.stdout
    text = warn.stdout.split(" | ")[0]
    assert re.search(rf"; {group} WARNING lag 4 .*loss ETA (23h|1d) ", text + " "), warn.stdout
    crit = cli("lag", "-b", b, "-g", group, "-t", day, "--crit-loss-eta", "2d", "-o", "prometheus")
    assert crit.code == 2, crit.stderr
    assert "kafka_offsets_lag_partition_loss_eta_seconds{" in crit.stdout
    series = parse_prometheus_text(crit.stdout)
    (part,) = [v for _, v in series["kafka_offsets_lag_partition_loss_eta_seconds"]]
    (labels, soonest_s) = series["kafka_offsets_lag_group_min_loss_eta_seconds"][0]
    assert (labels["group"], soonest_s) == (group, part)  # one partition: the group's soonest is its own
    lint(crit.stdout)  # promtool check metrics
    summary = cli("lag", "-b", b, "-g", group, "--loss-eta", "--summary", "-o", "json")
    (soonest,) = [r["min_loss_eta_ms"] for r in summary.json()]  # the group's soonest: day's, read later
    assert 0 <= etas[day] - soonest < 60_000, summary.stdout
    table = cli("lag", "-b", b, "-g", group, "--loss-eta", "-o", "table")
    assert "LOSS-ETA" in table.stdout, table.stdout
    # serve: the same series and status from the same thresholds (the lag view's rules, not copies)
    served = serve("-b", b, "-g", group, "-t", day, "--crit-loss-eta", "2d")
    try:
        _code, _ctype, body = scrape(served.url)
    finally:
        served.stop(signal.SIGTERM)
    (served_s,) = [v for _, v in parse_prometheus_text(body)["kafka_offsets_lag_partition_loss_eta_seconds"]]
    assert 0 <= part - served_s < 60 and one(body, "kafka_offsets_lag_status") == 2, body


def test_a_tiered_topic_reads_remote_and_loses_by_total_retention(tiered_bootstrap: str) -> None:
    retention_ms = 3_600_000
    b, uid = tiered_bootstrap, uuid.uuid4().hex[:8]
    topic, group = f"loss-tiered-{uid}", f"loss-tg-{uid}"
    tiered.create_topic(b, topic, 1, config={"retention.ms": str(retention_ms)})  # local.retention.ms 1 s
    tiered.produce(b, topic, 1, 100)
    wait_moved_to_remote(b, topic, 1, 100)
    commit_group_offsets(b, group, {(topic, 0): 10})
    _, rec, err = _lag(b, group, "--loss-eta")
    assert rec["remote_read"] is True, (rec, err)  # the remaining reads come from remote storage
    # local.retention.ms (1 s) only moved the copy: the loss is retention.ms after the record's time
    assert retention_ms - 300_000 < rec["loss_eta_ms"] <= retention_ms, rec


#: the size bound's proof: records of one size, written at one rate by another process
SIZE_RECORD_BYTES = 200
SIZE_SPACING_MS = 40  # 25 records/s, about 7 KB/s on disk (one batch a record)
SIZE_SEGMENT_BYTES = 2048  # a segment fills in about 0.3 s: the deletion's granularity
SIZE_LIMIT = 40_000  # retention.bytes: about 150 records, 6 s of writing
SIZE_COMMITTED = 10
SIZE_WRITTEN_S = 3.0  # written before lag reads: 65 unread records, about 17 KB of the 40 KB

_STEADY_PRODUCER = """
import sys, time
from confluent_kafka import Producer
bootstrap, topic, spacing_ms, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0, "enable.idempotence": True})
t0, i = time.monotonic(), 0
while True:
    delay = t0 + i * spacing_ms / 1000 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    p.produce(topic, b"x" * size, partition=0)
    p.poll(0)
    i += 1
"""


def test_retention_bytes_deletes_the_committed_record_at_the_predicted_time(tiered_bootstrap: str) -> None:
    """Size-based retention: the record at the committed offset goes once the bytes after it reach
    ``retention.bytes``, at the rate the unread records came; ``retention.ms`` is -1, so only size
    deletes. The prediction must hold to one segment's filling plus one retention check."""
    import subprocess
    import sys

    b, uid = tiered_bootstrap, uuid.uuid4().hex[:8]
    topic, group = f"loss-size-{uid}", f"loss-sg-{uid}"
    config = {
        "retention.ms": "-1",
        "retention.bytes": str(SIZE_LIMIT),
        "internal.segment.bytes": str(SIZE_SEGMENT_BYTES),
        "cleanup.policy": "delete",
    }
    tiered.create_topic(b, topic, 1, tiered=False, config=config)
    commit_group_offsets(b, group, {(topic, 0): SIZE_COMMITTED})
    args = [b, topic, str(SIZE_SPACING_MS), str(SIZE_RECORD_BYTES)]
    producer = subprocess.Popen([sys.executable, "-c", _STEADY_PRODUCER, *args])
    log_start = LogStart(b, topic)
    try:
        time.sleep(SIZE_WRITTEN_S)
        code, rec, err = _lag(b, group, "--loss-eta")
        assert code == 0 and err == "", err  # the size came: no warning
        eta, taken = rec["loss_eta_ms"], rec["taken_at_ms"]
        assert isinstance(eta, int) and isinstance(taken, int), rec
        assert rec["log_start"] is not None and rec["log_start"] <= SIZE_COMMITTED < rec["end"], rec
        # not due yet, and far enough that a deletion before it would be seen
        assert 1_500 < eta < 20_000, rec
        predicted = taken + eta
        present, gone = wait_gone(log_start, SIZE_COMMITTED, predicted + 20_000, eta)
    finally:
        producer.kill()
        producer.wait()
        log_start.close()
    segment_ms = SIZE_SEGMENT_BYTES * 1000 // (SIZE_RECORD_BYTES * 1000 // SIZE_SPACING_MS)
    early, late = predicted - present, gone - predicted
    print(
        f"size loss ETA {eta} ms: still there {-early} ms after the predicted time, gone {late} ms after it"
    )
    # the rate is estimated: a tenth of the ETA either way, and the polling's resolution
    assert early <= eta // 10 + RESOLUTION_MS, (early, late)
    assert late <= eta // 10 + segment_ms + CHECK_INTERVAL_MS + SLACK_MS + RESOLUTION_MS, (early, late)
