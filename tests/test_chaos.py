"""Bounded chaos on the 3-node cluster: a real ``acks=all`` producer, node 2 killed and frozen, and the
tool's answers checked against the producer's truth, then against Kafka's own GetOffsetShell.

Two topics: ``rf3`` (RF=3, leaders spread over the three nodes) and ``rf1`` (RF=1, both partitions on
node 2, so they go offline whenever node 2 does); the group's coordinator is node 2 as well, so
``lag`` meets a killed and a frozen coordinator. While the producer runs, a chaos thread makes at most
:data:`EVENTS` events on node 2 within :data:`CHAOS_S` seconds (SIGKILL + restart, SIGSTOP + SIGCONT,
alternately) and the test runs ``list`` (earliest, latest, max-timestamp), ``liveness`` and ``lag`` one
after the other (at most :data:`MAX_RUNS` runs) through the command line.

What is guaranteed, and so checked for every answer that is a number (an error such as
NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE or REQUEST_TIMED_OUT for a partition is an honest answer):

* the record just below latest (and lag's end), and a max-timestamp or ``liveness`` newest-record
  offset, exist and had been handed to the producer before the command ended. Every record carries
  its send number and the whole log is read back at the end, so the claim is checked against what
  the log holds, not against a count: librdkafka's idempotent producer may write a record twice (a
  request timed out against the killed RF=1 leader, the producer bumps its epoch and sends again
  what may already be written; one CI run found 2727 records in a log that had been given 2361);
* on an RF=3 partition, latest is never below the records acknowledged before the command started: an
  ``acks=all`` acknowledgement means the high watermark had passed the record, a new leader is chosen
  from the in-sync replicas (unclean election is off), and a new leader answers OFFSET_NOT_AVAILABLE
  until its high watermark has reached its epoch's start (KIP-207), so no leader may report less;
* latest never goes backwards from one run to the next (runs are sequential);
* earliest is 0 (nothing is deleted); a max-timestamp offset is below latest;
* ``liveness`` never calls a partition with acknowledged records ``empty`` (nor warning or critical:
  the records are seconds old and the thresholds are hours), so it exits 0 (OK) or 3 (UNKNOWN);
* ``lag`` shows the committed offsets as committed and lag = end - committed;
* every run ends within ``--timeout`` + 10 s, with an exit code its command documents for this
  situation, and never with a traceback.

Once node 2 is healed and the producer has stopped, every ``list`` answer equals GetOffsetShell's,
and latest equals the number of records read back.
"""

from __future__ import annotations

import json
import logging
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from dev import kafka as dev_kafka
from dev.kafka_data import admin, commit_group_offsets
from tests.fault_helpers import create_assigned, delete_topics, heal, run_timed
from tests.kafka_helpers import get_offset_shell

VICTIM = 2
RF3_PARTITIONS = 6
RF1_PARTITIONS = 2
RATE = 200  # records/s over all partitions
EVENTS = 6
CHAOS_S = 90.0
MAX_RUNS = 60
TIMEOUT_S = 8
MARGIN_S = 10
COMMITTED = 5  # the group's committed offset on every partition

TP = tuple[str, int]

_QUIET = logging.getLogger("tests.test_chaos.librdkafka")
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False


# ----------------------------------------------------------------------------- the producer's truth


class Truth:
    """Per partition: records handed to the producer (``sent``, each record's value is its send number
    on its partition) and acknowledged (``acked``: one past the highest acknowledged offset)."""

    def __init__(self, tps: list[TP]) -> None:
        self.lock = threading.Lock()
        self.sent: dict[TP, int] = dict.fromkeys(tps, 0)
        self.acked: dict[TP, int] = dict.fromkeys(tps, 0)
        self.failed = 0

    def snapshot_acked(self) -> dict[TP, int]:
        with self.lock:
            return dict(self.acked)

    def snapshot_sent(self) -> dict[TP, int]:
        with self.lock:
            return dict(self.sent)


class ChaosProducer:
    """``acks=all``, idempotent producers (one per topic, so the RF=1 topic going offline does not stall
    the RF=3 one) sending ``RATE`` records/s round-robin over every partition."""

    def __init__(self, bootstrap: str, topics: dict[str, int], truth: Truth) -> None:
        self.bootstrap = bootstrap
        self.topics = topics
        self.truth = truth
        self.stop = threading.Event()
        self.fatal = 0
        self.producers: dict[str, Producer] = {t: self._new() for t in topics}
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _new(self) -> Producer:
        conf: dict[str, Any] = {
            "bootstrap.servers": self.bootstrap,
            "acks": "all",
            "enable.idempotence": True,
            "linger.ms": 5,
            "message.timeout.ms": 20000,
            "logger": _QUIET,
        }
        return Producer(conf)

    def _on_delivery(self, err: Any, msg: Any) -> None:
        tp = (msg.topic(), msg.partition())
        with self.truth.lock:
            if err is None:
                self.truth.acked[tp] = max(self.truth.acked[tp], msg.offset() + 1)
            else:
                self.truth.failed += 1

    def send(self, topic: str, partition: int) -> None:
        producer = self.producers[topic]
        number = self.truth.snapshot_sent()[(topic, partition)]  # this thread is the only sender
        try:
            producer.produce(
                topic, value=str(number).encode(), partition=partition, on_delivery=self._on_delivery
            )
        except BufferError:
            producer.poll(0.05)
            return
        except KafkaException:  # a fatal idempotence error: carry on with a new producer
            self.fatal += 1
            self.producers[topic] = self._new()
            return
        with self.truth.lock:  # counted once the client holds it: it may be written from now on
            self.truth.sent[(topic, partition)] += 1
        producer.poll(0)

    def _run(self) -> None:
        tps = [(t, p) for t, n in self.topics.items() for p in range(n)]
        period = 1.0 / RATE
        next_at = time.monotonic()
        i = 0
        while not self.stop.is_set():
            self.send(*tps[i % len(tps)])
            i += 1
            next_at += period
            time.sleep(max(0.0, next_at - time.monotonic()))
        for producer in self.producers.values():
            producer.flush(60)

    def __enter__(self) -> ChaosProducer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()

    def finish(self) -> None:
        """Stop producing and wait until every record is acknowledged or has failed."""
        self.stop.set()
        self.thread.join(90)


# ----------------------------------------------------------------------------- chaos


@dataclass
class Chaos:
    """At most EVENTS events on node 2 within CHAOS_S seconds, alternately kill+restart and freeze+thaw."""

    cluster: dev_kafka.Cluster
    events: list[str] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def run(self) -> None:
        deadline = time.monotonic() + CHAOS_S
        try:
            for i in range(EVENTS):
                if time.monotonic() + 15 > deadline:
                    break
                time.sleep(3)
                t0 = time.monotonic()
                if i % 2 == 0:
                    self.cluster.kill_node(VICTIM)  # SIGKILL, waits until it is gone
                    time.sleep(4)
                    self.cluster.start_node(VICTIM, wait=True, timeout=120)
                    self.events.append(f"kill+restart {time.monotonic() - t0:.0f}s")
                else:
                    self.cluster.signal(VICTIM, signal.SIGSTOP)
                    time.sleep(7)
                    self.cluster.signal(VICTIM, signal.SIGCONT)
                    self.events.append(f"freeze {time.monotonic() - t0:.0f}s")
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            self.done.set()


# ----------------------------------------------------------------------------- checking answers


@dataclass
class Tally:
    runs: dict[str, int] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)
    answers: int = 0
    max_seconds: float = 0.0
    last_latest: dict[TP, tuple[int, str]] = field(default_factory=dict)
    #: (partition, offset, records sent when the command ended, what claimed it): a record the answer
    #: says exists, checked against the log once it is read back
    claims: list[tuple[TP, int, int, str]] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def record_exists(self, tp: TP, offset: int, sent: dict[TP, int], what: str) -> None:
        """The answer says the record at ``offset`` existed when the command ended."""
        self.claims.append((tp, offset, sent[tp], what))

    def check_claims(self, log: dict[TP, list[int]]) -> None:
        """Every claimed record is in the log and was sent before its command ended."""
        for tp, offset, sent, what in self.claims:
            values = log[tp]
            if not 0 <= offset < len(values):
                self.wrong.append(f"{what}: offset {offset} is not in the log ({len(values)} records)")
            elif values[offset] >= sent:
                self.wrong.append(
                    f"{what}: the record at offset {offset} is send number {values[offset]}, "
                    f"only {sent} had been sent when the command ended"
                )

    def latest(
        self, tp: TP, value: int, where: str, acked: dict[TP, int], sent: dict[TP, int], rf3: bool
    ) -> None:
        """Check one latest/end answer against the truth and the previous runs."""
        self.answers += 1
        if value < 0:
            self.wrong.append(f"{where}: {tp} latest {value}")
        elif value > 0:
            self.record_exists(tp, value - 1, sent, f"{where}: {tp} latest {value}")
        if rf3 and value < acked[tp]:
            self.wrong.append(f"{where}: {tp} latest {value} < {acked[tp]} records acked before the run")
        prev = self.last_latest.get(tp)
        if prev is not None and value < prev[0]:
            self.wrong.append(f"{where}: {tp} latest went back from {prev[0]} ({prev[1]}) to {value}")
        self.last_latest[tp] = (value, where)


def _rows(stdout: str) -> list[dict[str, Any]]:
    if not stdout.strip():
        return []
    data = json.loads(stdout)
    assert isinstance(data, list), data
    return data


@dataclass(frozen=True)
class Layout:
    bootstrap: str
    rf3: str
    rf1: str
    group: str

    @property
    def topics(self) -> dict[str, int]:
        return {self.rf3: RF3_PARTITIONS, self.rf1: RF1_PARTITIONS}

    @property
    def tps(self) -> list[TP]:
        return [(t, p) for t, n in self.topics.items() for p in range(n)]


#: exit codes docs/reference.md documents for a partial failure, by command: list/lag 0 ok, 1 some
#: partitions failed, 3 cluster unreachable or timed out; liveness 0 OK, 3 UNKNOWN (1 WARNING and
#: 2 CRITICAL would be wrong answers here: every partition has fresh records, thresholds are hours).
ALLOWED = {"list": {0, 1, 3}, "lag": {0, 1, 3}, "liveness": {0, 3}}


def run_and_check(name: str, layout: Layout, truth: Truth, tally: Tally, n: int) -> None:
    """Run one command, check every answer in it; record wrong answers and errors in ``tally``."""
    b, topics = layout.bootstrap, ("-t", layout.rf3, "-t", layout.rf1)
    args: dict[str, tuple[str, ...]] = {
        "list": ("list", "-b", b, *topics, "-s", "earliest", "-s", "latest", "-s", "max-timestamp"),
        "liveness": ("liveness", "-b", b, *topics, "-w", "1h", "-c", "2h"),
        "lag": ("lag", "-b", b, "-g", layout.group),
    }
    acked = truth.snapshot_acked()
    run = run_timed(*args[name], "-o", "json", "--timeout", f"{TIMEOUT_S}s", timeout=TIMEOUT_S + 60)
    sent = truth.snapshot_sent()
    where = f"run {n} {name}"
    tally.runs[name] = tally.runs.get(name, 0) + 1
    tally.codes[f"{name} {run.code}"] = tally.codes.get(f"{name} {run.code}", 0) + 1
    tally.max_seconds = max(tally.max_seconds, run.seconds)
    if run.seconds > TIMEOUT_S + MARGIN_S:
        tally.wrong.append(f"{where}: took {run.seconds:.1f}s with --timeout {TIMEOUT_S}s")
    if "Traceback" in run.stderr:
        tally.wrong.append(f"{where}: traceback: {run.stderr.strip().splitlines()[-1]}")
    if run.code not in ALLOWED[name]:
        tally.wrong.append(f"{where}: exit {run.code}: {run.stderr.strip()[:300]}")
    try:
        rows = _rows(run.stdout)
    except (json.JSONDecodeError, AssertionError) as exc:
        tally.wrong.append(f"{where}: stdout is not a JSON list ({exc}): {run.stdout[:200]!r}")
        return
    if not rows:
        first = (run.stderr.strip().splitlines() or ["(no stderr)"])[0]
        tally.error(f"{name}: no rows: {first[:120]}")
        if run.code == 0:
            tally.wrong.append(f"{where}: exit 0 without a row")
        return
    seen: set[TP] = set()
    for r in rows:
        if r.get("partition") is None:
            tally.error(f"{name}: {r.get('error')}")
            continue
        tp = (r["topic"], r["partition"])
        seen.add(tp)
        if r.get("error") is not None:
            tally.error(f"{name}: {r['error']}")
            if r.get("offset") is not None and name != "lag":
                tally.wrong.append(f"{where}: {tp} error {r['error']} with offset {r['offset']}")
            continue
        rf3 = tp[0] == layout.rf3
        if name == "list":
            _check_list_row(r, tp, where, acked, sent, rf3, tally)
        elif name == "liveness":
            _check_liveness_row(r, tp, where, acked, sent, tally)
        else:
            _check_lag_row(r, tp, where, acked, sent, rf3, tally)
    if (
        name != "lag"
        and any(tp not in seen for tp in layout.tps)
        and all(r.get("partition") is not None for r in rows)
    ):
        tally.wrong.append(f"{where}: partitions missing: {sorted(set(layout.tps) - seen)}")


def _check_list_row(
    r: dict[str, Any], tp: TP, where: str, acked: dict[TP, int], sent: dict[TP, int], rf3: bool, tally: Tally
) -> None:
    offset = r["offset"]
    if r["spec"] == "earliest":
        if offset != 0:
            tally.wrong.append(f"{where}: {tp} earliest {offset}, nothing was deleted")
    elif r["spec"] == "latest":
        if offset is None:
            tally.wrong.append(f"{where}: {tp} latest null without an error")
        else:
            tally.latest(tp, offset, where, acked, sent, rf3)
    elif r["spec"] == "max-timestamp":
        if offset is None:
            if acked[tp] > 0:
                tally.wrong.append(f"{where}: {tp} max-timestamp null without an error, {acked[tp]} acked")
        else:
            tally.record_exists(tp, offset, sent, f"{where}: {tp} max-timestamp offset {offset}")
    else:
        tally.wrong.append(f"{where}: unexpected spec {r['spec']!r}")


def _check_liveness_row(
    r: dict[str, Any], tp: TP, where: str, acked: dict[TP, int], sent: dict[TP, int], tally: Tally
) -> None:
    state = r["state"]
    if state == "pending":
        tally.error("liveness: pending")
        return
    if state != "ok":
        tally.wrong.append(f"{where}: {tp} state {state} ({acked[tp]} acked before the run): {r}")
        return
    offset = r["offset"]
    if offset is None:
        tally.wrong.append(f"{where}: {tp} ok without a newest record: {r}")
    else:
        tally.record_exists(tp, offset, sent, f"{where}: {tp} newest record at offset {offset}")


def _check_lag_row(
    r: dict[str, Any], tp: TP, where: str, acked: dict[TP, int], sent: dict[TP, int], rf3: bool, tally: Tally
) -> None:
    if r["committed"] != COMMITTED:
        tally.wrong.append(f"{where}: {tp} committed {r['committed']}, the group committed {COMMITTED}")
    end = r["end"]
    if end is None:
        tally.wrong.append(f"{where}: {tp} end null without an error: {r}")
        return
    tally.latest(tp, end, where, acked, sent, rf3)
    if r["state"] != "ok" or r["lag"] != end - COMMITTED:
        tally.wrong.append(f"{where}: {tp} state {r['state']} lag {r['lag']} with end {end}: {r}")


def read_back(bootstrap: str, ends: dict[TP, int]) -> dict[TP, list[int]]:
    """Each partition's record values (send numbers) from offset 0 up to ``ends`` (GetOffsetShell's
    latest); offsets must run without gaps (no transactions, no compaction)."""
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"chaos-read-{uuid.uuid4().hex[:6]}",
            "enable.auto.commit": False,
            "logger": _QUIET,
        }
    )
    log: dict[TP, list[int]] = {tp: [] for tp in ends}
    try:
        consumer.assign([TopicPartition(t, p, 0) for (t, p), end in ends.items() if end > 0])
        deadline = time.monotonic() + 120
        while any(len(log[tp]) < end for tp, end in ends.items()):
            assert time.monotonic() < deadline, {tp: (len(log[tp]), end) for tp, end in ends.items()}
            for msg in consumer.consume(500, timeout=1.0):
                if msg.error() is not None:
                    continue
                topic, partition, value = msg.topic(), msg.partition(), msg.value()
                assert topic is not None and partition is not None and value is not None, msg
                tp = (topic, partition)
                if len(log[tp]) < ends[tp]:
                    assert msg.offset() == len(log[tp]), (tp, msg.offset(), len(log[tp]))
                    log[tp].append(int(value))
    finally:
        consumer.close()
    return log


# ----------------------------------------------------------------------------- the test


def group_coordinated_by(bootstrap: str, node: int, prefix: str, tps: list[TP]) -> str:
    """A group (its offsets committed) whose coordinator is ``node``, so that ``lag`` meets its
    coordinator killed and frozen along with the RF=1 partitions (issue 27 item 1: librdkafka
    aborted the process when the coordinator froze). Names are tried until one hashes there.

    Preferred leaders are elected first: a node an earlier test killed or froze leads no
    ``__consumer_offsets`` partition until Kafka's rebalance (every 5 minutes) gives them back, and
    then no name hashes to it (CI: 40 names, coordinators only 1 and 3).
    """
    dev_kafka.run_tool(
        "org.apache.kafka.tools.LeaderElectionCommand",
        "--bootstrap-server",
        bootstrap,
        "--election-type",
        "preferred",
        "--all-topic-partitions",
        timeout=120,
    )  # its exit code says whether any election was needed: either is fine here
    client = admin(bootstrap)
    seen = []
    for i in range(40):
        group = f"{prefix}-{i}"
        commit_group_offsets(bootstrap, group, dict.fromkeys(tps, COMMITTED))
        coordinator = client.describe_consumer_groups([group], request_timeout=15)[group].result().coordinator
        if coordinator.id == node:
            return group
        seen.append(coordinator.id)
        client.delete_consumer_groups([group], request_timeout=15)[group].result()
    raise AssertionError(f"no group coordinated by node {node} in 40 names: {seen}")


@pytest.fixture
def layout(cluster3: dev_kafka.Cluster) -> Iterator[Layout]:
    heal(cluster3)
    prefix = f"chaos-{uuid.uuid4().hex[:6]}"
    bootstrap, rf3, rf1 = cluster3.bootstrap, f"{prefix}-rf3", f"{prefix}-rf1"
    create_assigned(bootstrap, rf3, [[1 + (p + k) % 3 for k in range(3)] for p in range(RF3_PARTITIONS)])
    create_assigned(bootstrap, rf1, [[VICTIM]] * RF1_PARTITIONS)
    tps = [(t, p) for t, n in ((rf3, RF3_PARTITIONS), (rf1, RF1_PARTITIONS)) for p in range(n)]
    lay = Layout(bootstrap, rf3, rf1, group_coordinated_by(bootstrap, VICTIM, f"{prefix}-group", tps))
    try:
        yield lay
    finally:
        heal(cluster3)
        delete_topics(lay.bootstrap, list(lay.topics))


def test_chaos_answers_are_right_or_clearly_unknown(cluster3: dev_kafka.Cluster, layout: Layout) -> None:
    truth = Truth(layout.tps)
    tally = Tally()
    t_start = time.monotonic()
    with ChaosProducer(layout.bootstrap, layout.topics, truth) as producer:
        deadline = time.monotonic() + 60
        while min(truth.snapshot_acked().values()) < COMMITTED + 5:  # every partition has records
            assert time.monotonic() < deadline, truth.snapshot_acked()
            time.sleep(0.2)
        commit_group_offsets(layout.bootstrap, layout.group, dict.fromkeys(layout.tps, COMMITTED))

        chaos = Chaos(cluster3)
        thread = threading.Thread(target=chaos.run, daemon=True)
        t_chaos = time.monotonic()
        thread.start()
        n = 0
        while n < MAX_RUNS and not (chaos.done.is_set() and n >= 3):
            run_and_check(("list", "liveness", "lag")[n % 3], layout, truth, tally, n)
            n += 1
        thread.join(120)
        chaos_s = time.monotonic() - t_chaos
        assert chaos.error is None, f"chaos thread failed: {chaos.error!r}"

        heal(cluster3, list(layout.topics))
        producer.finish()
        fatal = producer.fatal

    # settled: the producer has stopped and node 2 is back; the tool must agree with GetOffsetShell
    final = run_timed(
        "list", "-b", layout.bootstrap, "-t", layout.rf3, "-t", layout.rf1,
        "-s", "earliest", "-s", "latest", "-s", "max-timestamp", "-o", "json", "--timeout", "30s",
    )  # fmt: skip
    assert final.code == 0 and "Traceback" not in final.stderr, final
    acked, sent = truth.snapshot_acked(), truth.snapshot_sent()
    topic_arg = ",".join(layout.topics)
    reference = {
        spec: dict(get_offset_shell(layout.bootstrap, "--topic-partitions", topic_arg, "--time", t))
        for spec, t in (("earliest", "-2"), ("latest", "-1"), ("max-timestamp", "-3"))
    }
    log = read_back(layout.bootstrap, {tp: reference["latest"].get(tp, 0) for tp in layout.tps})
    mismatches = []
    for r in _rows(final.stdout):
        tp = (r["topic"], r["partition"])
        want = reference[r["spec"]].get(tp)
        if r["offset"] != want or r["error"] is not None:
            mismatches.append(
                f"{tp} {r['spec']}: kafka-offsets {r['offset']} ({r['error']}), GetOffsetShell {want}"
            )
        if r["spec"] == "latest" and r["offset"] is not None and not acked[tp] <= r["offset"] == len(log[tp]):
            mismatches.append(
                f"{tp} settled latest {r['offset']}: acked {acked[tp]}, {len(log[tp])} records read back"
            )
    tally.check_claims(log)
    written_twice = sum(len(values) - len(set(values)) for values in log.values())

    print(
        f"\nchaos: {sum(tally.runs.values())} runs {tally.runs} over {chaos_s:.0f}s of chaos "
        f"({time.monotonic() - t_start:.0f}s in all); events {len(chaos.events)}: {chaos.events}\n"
        f"  exit codes {dict(sorted(tally.codes.items()))}; numeric answers checked {tally.answers}; "
        f"max duration {tally.max_seconds:.1f}s (--timeout {TIMEOUT_S}s)\n"
        f"  errors per kind {dict(sorted(tally.errors.items(), key=lambda kv: -kv[1]))}\n"
        f"  records sent {sum(sent.values())}, acked {sum(acked.values())}, delivery failures "
        f"{truth.failed}, fatal producer errors {fatal}; in the log {sum(map(len, log.values()))}, "
        f"written twice {written_twice}\n"
        f"  wrong answers {len(tally.wrong)}; settled mismatches with GetOffsetShell {len(mismatches)}"
    )
    for w in tally.wrong[:40]:
        print(f"  WRONG {w}")
    for m in mismatches:
        print(f"  SETTLED {m}")
    # both kinds of event happened (a restart takes 10-45 s on a loaded 2-core machine, so the 90 s
    # window holds 3 to 6 events)
    assert {e.split()[0] for e in chaos.events} == {"kill+restart", "freeze"}, chaos.events
    assert sum(tally.runs.values()) >= 9, tally.runs
    assert not tally.wrong, f"{len(tally.wrong)} wrong answers, first: {tally.wrong[0]}"
    assert not mismatches, mismatches
