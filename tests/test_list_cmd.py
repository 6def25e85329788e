"""`kafka-offsets list` against a real Kafka broker, checked against Kafka's own GetOffsetShell."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.cli_runner import cli, subprocess_cli
from tests.kafka_helpers import delete_records, get_offset_shell, produce_transactional

BASE = 1_700_000_000_000
# CreateTime timestamps deliberately out of order within partition 0: the highest (BASE+9s)
# is at offset 2, so max-timestamp (offset 2) differs from latest - 1 (offset 4).
P0_TIMES = [BASE + 5000, BASE + 1000, BASE + 9000, BASE + 3000, BASE + 7000]
P1_TIMES = [BASE + 2000, BASE + 4000, BASE + 6000]
KEEP = {"retention.ms": "-1"}


@dataclass(frozen=True)
class Topics:
    """The topics one module of tests shares."""

    create: str  # CreateTime, 3 partitions: p0 out of order, p1 in order, p2 empty
    append: str  # LogAppendTime, 2 partitions
    prefix: str


@pytest.fixture(scope="module")
def topics(bootstrap: str) -> Iterator[Topics]:
    prefix = f"lst-{uuid.uuid4().hex[:6]}"
    t = Topics(f"{prefix}.create", f"{prefix}.append", prefix)
    # retention.ms=-1: the 2023 timestamps would otherwise be deleted by the broker's retention check
    create_topic(bootstrap, t.create, partitions=3, config=KEEP)
    create_topic(
        bootstrap, t.append, partitions=2, config={**KEEP, "message.timestamp.type": "LogAppendTime"}
    )
    produce(bootstrap, t.create, [(0, ts, None, f"v{i}") for i, ts in enumerate(P0_TIMES)])
    produce(bootstrap, t.create, [(1, ts, None, f"w{i}") for i, ts in enumerate(P1_TIMES)])
    # LogAppendTime: the broker stamps its own time, whatever the producer says
    produce(bootstrap, t.append, [(0, BASE, None, "a"), (0, BASE, None, "b")])
    time.sleep(0.05)
    produce(bootstrap, t.append, [(0, BASE, None, "c")])
    yield t


def records(*args: str) -> dict[tuple[str, int, str], dict[str, object]]:
    run = cli("list", *args, "-o", "jsonl")
    assert run.code == 0, run.stderr
    return {(r["topic"], r["partition"], r["spec"]): r for r in run.jsonl()}


def test_each_spec_on_out_of_order_createtime(bootstrap: str, topics: Topics) -> None:
    got = records(
        "-b", bootstrap, "-t", topics.create, "-s", "earliest", "-s", "latest", "-s", "max-timestamp"
    )
    t = topics.create
    assert got[(t, 0, "earliest")]["offset"] == 0
    assert got[(t, 0, "latest")]["offset"] == 5
    assert got[(t, 0, "max-timestamp")]["offset"] == 2  # not latest - 1
    assert got[(t, 0, "max-timestamp")]["timestamp"] == BASE + 9000
    assert got[(t, 1, "max-timestamp")]["offset"] == 2
    assert got[(t, 1, "max-timestamp")]["timestamp"] == BASE + 6000
    # empty partition: offsets 0/0 and no max-timestamp record (null, never -1)
    assert got[(t, 2, "earliest")]["offset"] == 0 and got[(t, 2, "latest")]["offset"] == 0
    assert got[(t, 2, "max-timestamp")]["offset"] is None
    assert got[(t, 2, "max-timestamp")]["timestamp"] is None
    assert all(r["error"] is None for r in got.values())
    assert got[(t, 0, "latest")]["timestamp"] is None


def test_timestamp_lookup_follows_kip79(bootstrap: str, topics: Topics) -> None:
    t = topics.create
    # earliest offset whose timestamp >= target, with that record's timestamp
    target = BASE + 6000
    got = records("-b", bootstrap, "-t", t, "-s", str(target))
    # p0 times 5,1,9,3,7 -> first >= 6 is offset 2 (9s); p1 times 2,4,6 -> offset 2 (6s)
    assert (got[(t, 0, str(target))]["offset"], got[(t, 0, str(target))]["timestamp"]) == (2, BASE + 9000)
    assert (got[(t, 1, str(target))]["offset"], got[(t, 1, str(target))]["timestamp"]) == (2, BASE + 6000)
    assert got[(t, 2, str(target))]["offset"] is None
    # a target after the last record: null, never -1
    after = BASE + 60_000
    got = records("-b", bootstrap, "-t", t, "-s", str(after))
    assert {r["offset"] for r in got.values()} == {None}
    assert {r["error"] for r in got.values()} == {None}


def test_iso_and_relative_times_resolve_to_epoch_ms(bootstrap: str, topics: Topics) -> None:
    t = topics.create
    got = records("-b", bootstrap, "-t", t, "-p", "1", "-s", "2023-11-14T22:13:24Z")
    assert got[(t, 1, str(BASE + 4000))]["offset"] == 1
    got = records("-b", bootstrap, "-t", t, "-p", "1", "-s", "2023-11-14 23:13:24+01:00")
    assert got[(t, 1, str(BASE + 4000))]["offset"] == 1
    got = records("-b", bootstrap, "-t", t, "-p", "1", "-s", "1h ago")
    ((_, _, spec),) = got
    assert abs(int(spec) - (time.time() * 1000 - 3_600_000)) < 120_000
    assert got[(t, 1, spec)]["offset"] is None  # all records are from 2023


def test_log_append_time_topic(bootstrap: str, topics: Topics) -> None:
    before = int(time.time() * 1000) - 600_000
    t = topics.append
    got = records("-b", bootstrap, "-t", t, "-s", "max-timestamp", "-s", str(before))
    mx = got[(t, 0, "max-timestamp")]
    assert mx["offset"] == 2  # the broker's clock, not the producer's BASE timestamps
    assert isinstance(mx["timestamp"], int) and mx["timestamp"] > before
    assert got[(t, 0, str(before))]["offset"] == 0
    assert got[(t, 1, "max-timestamp")]["offset"] is None


@pytest.mark.parametrize("spec", ["earliest", "latest", "max-timestamp", str(BASE + 4000), "-1", "-2", "-3"])
def test_agrees_with_getoffsetshell(bootstrap: str, topics: Topics, spec: str) -> None:
    pattern = f"{topics.prefix}\\..*"
    ref = get_offset_shell(bootstrap, "--topic", pattern, "--time", spec)
    ours = subprocess_cli(
        "list", "--bootstrap-server", bootstrap, "--topic", pattern, "--time", spec, "-o", "plain"
    )
    assert ours.code == 0, ours.stderr
    assert ours.stdout == ref.stdout
    assert len(ref) >= 3


def test_topic_partitions_syntax_matches_getoffsetshell(bootstrap: str, topics: Topics) -> None:
    for patterns in (
        f"{topics.create}:0-2",
        f"{topics.create}:1-",
        f"{topics.create}:-1",
        f"{topics.prefix}.*:",
    ):
        ref = get_offset_shell(bootstrap, "--topic-partitions", patterns, "--time", "-1")
        ours = cli("list", "-b", bootstrap, "--topic-partitions", patterns, "--time", "-1", "-o", "plain")
        assert ours.code == 0, ours.stderr
        assert ours.stdout == ref.stdout, patterns


def test_several_specs_one_row_per_partition_in_table(bootstrap: str, topics: Topics) -> None:
    run = cli("list", "-b", bootstrap, "-t", topics.create, "-s", "earliest", "-s", "latest", "-o", "table")
    assert run.code == 0
    rows = [line.split() for line in run.stdout.splitlines() if line.startswith(topics.create)]
    assert [r[:4] for r in rows] == [
        [topics.create, "0", "0", "5"],
        [topics.create, "1", "0", "3"],
        [topics.create, "2", "0", "0"],
    ]


def test_csv_output(bootstrap: str, topics: Topics) -> None:
    run = cli("list", "-b", bootstrap, "-t", topics.create, "-p", "0", "-s", "max-timestamp", "-o", "csv")
    assert run.stdout.splitlines() == [
        "topic,partition,spec,offset,timestamp,leader_epoch,error",
        f"{topics.create},0,max-timestamp,2,{BASE + 9000},0,",
    ]


def test_read_committed_sees_last_stable_offset(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)
    produce(bootstrap, topic_name, [(0, None, None, "x"), (0, None, None, "y")])
    producer = produce_transactional(bootstrap, topic_name, [(0, None, None, "t1"), (0, None, None, "t2")])
    try:
        unc = records("-b", bootstrap, "-t", topic_name, "--isolation", "read_uncommitted")
        com = records("-b", bootstrap, "-t", topic_name, "--isolation", "read_committed")
        assert unc[(topic_name, 0, "latest")]["offset"] == 4  # high watermark
        assert com[(topic_name, 0, "latest")]["offset"] == 2  # last stable offset: the open transaction
    finally:
        producer.commit_transaction(30)
    # EndTxn returns once the coordinator has logged the commit; it writes the partitions' commit
    # markers just after (~35 ms here), and the last stable offset moves when the marker lands
    deadline = time.monotonic() + 10
    while True:
        com = records("-b", bootstrap, "-t", topic_name, "--isolation", "read_committed")
        if com[(topic_name, 0, "latest")]["offset"] != 2 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert com[(topic_name, 0, "latest")]["offset"] == 5  # 4 records + commit marker


def test_delete_records_moves_earliest(bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)
    produce(bootstrap, topic_name, [(0, None, None, str(i)) for i in range(6)])
    delete_records(bootstrap, {(topic_name, 0): 4})
    got = records("-b", bootstrap, "-t", topic_name, "-s", "earliest", "-s", "latest")
    assert got[(topic_name, 0, "earliest")]["offset"] == 4
    assert got[(topic_name, 0, "latest")]["offset"] == 6
    ref = get_offset_shell(bootstrap, "--topic", topic_name, "--time", "earliest")
    assert ref[(topic_name, 0)] == 4


def test_regex_selection_and_internal_topics(bootstrap: str, topics: Topics) -> None:
    commit_group_offsets(bootstrap, f"{topics.prefix}-g", {(topics.create, 0): 1})  # makes __consumer_offsets
    run = cli("list", "-b", bootstrap, "-o", "jsonl")
    names = {r["topic"] for r in run.jsonl()}
    assert "__consumer_offsets" in names and topics.create in names
    run = cli("list", "-b", bootstrap, "--exclude-internal-topics", "-o", "jsonl")
    # by the broker's is_internal flag: a user topic named "__…" would stay (tests/test_dropin.py)
    assert not {r["topic"] for r in run.jsonl()} & {"__consumer_offsets", "__transaction_state"}
    assert topics.create in {r["topic"] for r in run.jsonl()}
    # regexes match whole names
    run = cli("list", "-b", bootstrap, "-t", f"{topics.prefix}\\.c.*", "-o", "jsonl")
    assert {r["topic"] for r in run.jsonl()} == {topics.create}
    run = cli("list", "-b", bootstrap, "-t", topics.prefix, "-o", "jsonl")
    assert run.code != 0  # the bare prefix is not a topic


def test_unknown_topic_and_partition_are_reported(bootstrap: str, topics: Topics) -> None:
    missing = f"{topics.prefix}.nope"
    run = cli("list", "-b", bootstrap, "-t", missing, "-t", topics.create, "-p", "0,7", "-o", "jsonl")
    assert run.code == 1
    recs = {(r["topic"], r["partition"]): r for r in run.jsonl()}
    assert recs[(missing, None)]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    assert recs[(topics.create, 7)]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    assert recs[(topics.create, 7)]["offset"] is None
    assert recs[(topics.create, 0)]["offset"] == 5
    assert "UNKNOWN_TOPIC_OR_PARTITION" in run.stderr


def test_selection_matching_nothing_exits_5(bootstrap: str) -> None:
    run = subprocess_cli("list", "-b", bootstrap, "-t", "no-such-.*-zz")
    assert run.code == 5
    assert run.stdout == ""
    assert "no-such-.*-zz" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "bad", ["-7", "bogus", "2026-13-45", "yesterdayish", "6 parsecs ago", "-0.5", "99999999999999999999999"]
)
def test_invalid_specs_are_usage_errors(bootstrap: str, bad: str) -> None:
    run = subprocess_cli("list", "-b", bootstrap, "--spec", bad)
    assert run.code == 2, (bad, run.stderr)
    assert repr(bad) in run.stderr or bad in run.stderr
    assert "earliest|latest|max-timestamp" in run.stderr
    assert "Traceback" not in run.stderr


def test_unreachable_broker_fails_within_timeout() -> None:
    start = time.monotonic()
    run = subprocess_cli("list", "-b", "127.0.0.1:1", "--timeout", "2s")
    elapsed = time.monotonic() - start
    assert run.code == 3
    assert elapsed < 2 + 8  # timeout plus interpreter start-up on a busy 2-core machine
    assert len(run.stderr.strip().splitlines()) <= 2 and "127.0.0.1:1" in run.stderr
    assert run.stdout == ""


def test_plain_with_several_specs_is_refused(bootstrap: str) -> None:
    run = cli("list", "-b", bootstrap, "-s", "earliest", "-s", "latest", "-o", "plain")
    assert run.code == 2


def test_default_output_without_tty_is_jsonl(bootstrap: str, topics: Topics) -> None:
    run = subprocess_cli("list", "-b", bootstrap, "-t", topics.create)
    assert run.code == 0
    assert [r["partition"] for r in run.jsonl()] == [0, 1, 2]
    assert "\x1b[" not in run.stdout


def test_a_dotted_topic_name_is_a_regex_as_in_getoffsetshell(bootstrap: str, topic_name: str) -> None:
    """``--topic a.b`` also matches ``aXb`` (GetOffsetShell's --topic is a regex), found without listing."""
    literal, twin, other = f"{topic_name}.d", f"{topic_name}Zd", f"{topic_name}.dd"
    for name, parts in ((literal, 1), (twin, 2), (other, 1)):
        create_topic(bootstrap, name, partitions=parts)
    produce(bootstrap, twin, [(1, None, None, "z"), (1, None, None, "z")])
    ref = get_offset_shell(bootstrap, "--topic", literal, "--time", "-1")
    ours = subprocess_cli(
        "list", "--bootstrap-server", bootstrap, "--topic", literal, "--time", "-1", "-o", "plain"
    )
    assert ours.code == 0, ours.stderr
    assert ours.stdout == ref.stdout
    assert set(ref) == {(literal, 0), (twin, 0), (twin, 1)}
    assert ref[(twin, 1)] == 2


def test_plain_names_are_described_not_listed(bootstrap: str, topics: Topics) -> None:
    """A selection of plain names costs one describe request, not a listing of the whole cluster."""
    from kafka_offsets_cli.connection.settings import build_settings
    from kafka_offsets_cli.kafka import KafkaClient
    from kafka_offsets_cli.models.offsets import OffsetSpec
    from kafka_offsets_cli.models.topics import ClusterMetadata
    from kafka_offsets_cli.parse.selection import parse_selection
    from kafka_offsets_cli.plan.queries import list_table

    class Recorder:
        """The real client, recording each metadata call's arguments (nothing is faked)."""

        def __init__(self, client: KafkaClient) -> None:
            self.client = client
            self.calls: list[dict[str, Any]] = []

        def metadata(self, topic: str | None = None, **kwargs: Any) -> ClusterMetadata:
            self.calls.append({"topic": topic, **kwargs})
            return self.client.metadata(topic, **kwargs)

        def list_offsets(self, *args: Any, **kwargs: Any) -> Any:
            return self.client.list_offsets(*args, **kwargs)

    missing = f"{topics.prefix}-none"
    with KafkaClient(build_settings(bootstrap)) as client:
        rec = Recorder(client)
        table = list_table(rec, parse_selection(topics=[topics.create, missing]), [OffsetSpec.latest()])
    # the describe; then, only because a name does not exist, the listing its "did you mean" needs
    assert len(rec.calls) == 2 and rec.calls[0]["topic"] is None and rec.calls[1] == {"topic": None}
    names = rec.calls[0]["names"]
    assert isinstance(names, tuple) and topics.create in names and missing in names
    assert len(names) == 65 + 1  # the dot of "<prefix>.create" stands for any of 65 legal characters
    assert {r.partition for r in table.results if r.topic == topics.create} == {0, 1, 2}
    assert table.missing_topics == ((missing, "UNKNOWN_TOPIC_OR_PARTITION"),)
    with KafkaClient(build_settings(bootstrap)) as client:
        rec = Recorder(client)
        list_table(rec, parse_selection(topics=[topics.create]), [OffsetSpec.latest()])
    assert len(rec.calls) == 1 and "names" in rec.calls[0]  # every name exists: the describe alone


def test_spark_offsets_are_getoffsetshells_answer_and_never_a_silent_jump(
    bootstrap: str, topics: Topics
) -> None:
    """``-o spark-offsets`` prints Spark's startingOffsets JSON: GetOffsetShell's offsets at the time;
    the empty partition (no record at or after it) is an error with nothing on stdout, unless
    ``--spark-missing`` chose its offset, which is then the one ``list`` gives for that spec."""
    t, at = topics.create, str(BASE + 2500)
    ref = get_offset_shell(bootstrap, "--topic", t, "--time", at)
    expected = {str(p): o for (_, p), o in ref.items()}
    assert expected == {"0": 0, "1": 1}  # partition 2 is empty: GetOffsetShell leaves it out
    strict = subprocess_cli("list", "-b", bootstrap, "-t", t, "-s", at, "-o", "spark-offsets")
    assert strict.code == 1 and strict.stdout == "", (strict.code, strict.stdout)
    assert (
        f"no offset at {at} on 1 partition(s) ({t}-2)" in strict.stderr and "--spark-missing" in strict.stderr
    )
    ends = records("-b", bootstrap, "-t", t, "-s", "earliest", "-s", "latest")
    for choice in ("latest", "earliest"):
        run = subprocess_cli(
            "list", "-b", bootstrap, "-t", t, "-s", at, "-o", "spark-offsets", "--spark-missing", choice
        )
        assert run.code == 0, run.stderr
        assert json.loads(run.stdout) == {t: {**expected, "2": ends[(t, 2, choice)]["offset"]}}
    latest = subprocess_cli("list", "-b", bootstrap, "-t", t, "-s", "latest", "-o", "spark-offsets")
    assert json.loads(latest.stdout) == {t: {str(p): ends[(t, p, "latest")]["offset"] for p in range(3)}}
    for refused in (["-s", "earliest", "-s", "latest"], ["--tiering"], ["--watch", "1s"]):
        run = subprocess_cli("list", "-b", bootstrap, "-t", t, "-o", "spark-offsets", *refused)
        assert run.code == 2 and run.stdout == "", (refused, run.stderr)
    alone = subprocess_cli("list", "-b", bootstrap, "-t", t, "--spark-missing", "latest", "-o", "json")
    assert alone.code == 2 and "--spark-missing goes with --output spark-offsets" in alone.stderr
