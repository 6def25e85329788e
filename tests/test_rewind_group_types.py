"""`kafka-offsets rewind` on a share group against a real Kafka 4.3.1, checked against Kafka's own
``kafka-share-groups.sh --reset-offsets`` (ShareGroupCommand).

A share group is made by Kafka's console share consumer (it reads part of a topic whose records carry
known timestamps, then stops: the group is Empty). The plans for earliest, latest, a datetime and an
offset equal the share tool's ``--dry-run`` value for value (4.3.1's tool has earliest, latest and a
datetime; an offset and current are planned as for consumer groups); the export is Kafka's plan CSV,
read back with the drift check; ``--execute`` sets the start offsets (read back with ``kafka-share-groups.sh
--describe``) and its undo plan puts them back; with a live member both tools refuse and nothing moves;
``--shift-by`` (which the share tool has not) is refused in one line; ``--delete-offsets`` deletes per
topic and its undo plan sets the offsets again.

A streams group is made by a real Kafka Streams application (``dev/streams.py``, its records through a
repartition topic): its rewind is checked against ``kafka-streams-groups.sh --reset-offsets --dry-run``
and its ``--delete-offsets`` against ``kafka-streams-groups.sh --delete-offsets`` on the same group
(running: both keep the offsets; stopped: both delete the input topic's, the broker's committed offsets
read back).
"""

from __future__ import annotations

import re
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev import streams as dev_streams
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.kafka import KafkaClient
from tests.cli_runner import cli
from tests.kafka_helpers import SHARE_GROUP_COMMAND, group_tool_table, read_as_share_group, share_consumer

pytestmark = [pytest.mark.broker]

S = 1000
B = 1_790_000_000_000
RECORDS = 10  # per partition, one second apart from B
READ = 7
KEEP = {"retention.ms": "-1"}

Offsets = dict[tuple[str, int], int]


@pytest.fixture(autouse=True)
def _undo_files_in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every --execute writes an undo plan under $XDG_STATE_HOME: keep them out of the user's home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def uid() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture(scope="module")
def topic(bootstrap: str) -> str:
    """Two partitions of RECORDS records each; partition 1's are half a second later than 0's."""
    name = create_topic(bootstrap, f"rw-share-{uid()}", partitions=2, config=KEEP)
    produce(bootstrap, name, [(0, B + i * S, None, f"a{i}") for i in range(RECORDS)])
    produce(bootstrap, name, [(1, B + i * S + S // 2, None, f"b{i}") for i in range(RECORDS)])
    return name


def share_group(bootstrap: str, topic: str) -> str:
    """A share group that read READ records of ``topic`` and stopped (Empty)."""
    group = f"rw-sg-{uid()}"
    read_as_share_group(bootstrap, topic, group, READ)
    return group


@pytest.fixture(scope="module")
def group(bootstrap: str, topic: str) -> str:
    return share_group(bootstrap, topic)


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]


def ours(*args: str) -> Offsets:
    """The plan of ``kafka-offsets rewind ARGS`` (a dry run): {(topic, partition): target}."""
    r = cli("rewind", *args, "-o", "json")
    assert r.code == 0, r.stderr
    return {(x["topic"], x["partition"]): x["target"] for x in r.json()}


def theirs(bootstrap: str, *args: str, tool: str = SHARE_GROUP_COMMAND) -> Offsets:
    """kafka-share-groups (``tool``) --reset-offsets ARGS --dry-run: {(topic, partition): NEW-OFFSET}."""
    done = dev_kafka.run_tool(
        tool,
        "--bootstrap-server",
        bootstrap,
        "--reset-offsets",
        *args,
        "--dry-run",
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = {}
    for line in done.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2].isdigit():
            out[(f[1], int(f[2]))] = int(f[3])
    return out


def start_offsets(bootstrap: str, group: str) -> dict[tuple[str, int], str]:
    """kafka-share-groups --describe: {(topic, partition): START-OFFSET} (``-``: none)."""
    done = dev_kafka.run_tool(
        SHARE_GROUP_COMMAND, "--bootstrap-server", bootstrap, "--describe", "--group", group
    )
    if "has no offset information" in done.stdout:
        return {}
    rows = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group)
    return {(r["TOPIC"], int(r["PARTITION"])): r["START-OFFSET"] for r in rows}


@pytest.mark.parametrize(
    ("mine", "kafkas"),
    [
        (("--to", "earliest"), ("--to-earliest",)),
        (("--to", "latest"), ("--to-latest",)),
        (("--to", iso(B + 4 * S + 200) + "Z"), ("--to-datetime", iso(B + 4 * S + 200))),
        (("--to", iso(B + 30 * S) + "Z"), ("--to-datetime", iso(B + 30 * S))),  # after every record
    ],
    ids=["earliest", "latest", "datetime", "datetime-after-all"],
)
def test_plans_equal_kafka_share_groups_dry_run(
    bootstrap: str, topic: str, group: str, mine: tuple[str, ...], kafkas: tuple[str, ...]
) -> None:
    planned = ours("-b", bootstrap, "-g", group, "--topic", topic, *mine)
    assert planned == theirs(bootstrap, "--group", group, "--topic", topic, *kafkas)
    assert len(planned) == 2


def test_offset_and_current_as_kafka_consumer_groups_plans_them(
    bootstrap: str, topic: str, group: str
) -> None:
    """Kafka 4.3.1's share tool has no --to-offset, --to-current nor --from-file (later Kafkas do):
    they plan as for a consumer group, clamped to the log; current is the start offset (none: end)."""
    both = [(topic, 0), (topic, 1)]
    assert ours("-b", bootstrap, "-g", group, "--topic", topic, "--to-offset", "3") == dict.fromkeys(both, 3)
    assert ours("-b", bootstrap, "-g", group, "--topic", topic, "--to-offset", "99") == dict.fromkeys(
        both, RECORDS
    )
    shown = start_offsets(bootstrap, group)
    current = ours("-b", bootstrap, "-g", group, "--topic", topic, "--to-current")
    assert current == {tp: RECORDS if shown[tp] == "-" else int(shown[tp]) for tp in both}


def test_a_share_group_is_found_without_a_selection(bootstrap: str, topic: str, group: str) -> None:
    """No --topic: the group's own share-partitions, as kafka-share-groups takes them."""
    r = cli("rewind", "-b", bootstrap, "-g", group, "--to", "earliest", "-o", "json")
    assert r.code == 0, r.stderr
    recs = r.json()
    described = start_offsets(bootstrap, group)
    assert {(x["topic"], x["partition"]) for x in recs} == set(described) == {(topic, 0), (topic, 1)}
    # the plan's "current" is the share-partition start offset Kafka's tool shows
    assert {
        (x["topic"], x["partition"]): str(x["current"] if x["current"] is not None else "-") for x in recs
    } == (described)


def test_shift_by_is_refused_in_one_line(bootstrap: str, group: str) -> None:
    r = cli("rewind", "-b", bootstrap, "-g", group, "--shift-by", "-1")
    assert r.code == 2, r.stderr
    error = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(error) == 1 and "share group" in error[0] and "--shift-by" in error[0], r.stderr


def test_export_is_kafkas_plan_csv_and_read_back(
    bootstrap: str, topic: str, group: str, tmp_path: Path
) -> None:
    plan_file = tmp_path / "plan.csv"
    planned = ours(
        "-b", bootstrap, "-g", group, "--topic", topic, "--to-offset", "4", "--export", str(plan_file)
    )
    assert planned == {(topic, 0): 4, (topic, 1): 4}
    assert plan_file.read_text().splitlines() == [f"{topic},0,4", f"{topic},1,4"]
    # and ours reads it back to the same plan (with its drift check: nothing moved)
    again = cli("rewind", "-b", bootstrap, "--from-file", str(plan_file), "-o", "json")
    assert again.code == 0, again.stderr
    assert {(x["topic"], x["partition"]): x["target"] for x in again.json()} == planned
    assert "moved" not in again.stderr


def test_execute_reads_back_in_kafka_share_groups_and_undo_restores(bootstrap: str, topic: str) -> None:
    group = share_group(bootstrap, topic)
    before = start_offsets(bootstrap, group)
    done = cli("rewind", "-b", bootstrap, "-g", group, "--topic", topic, "--to-offset", "2", "--execute")
    assert done.code == 0, done.stderr
    assert "Verified" in done.stderr
    assert start_offsets(bootstrap, group) == {(topic, 0): "2", (topic, 1): "2"}
    found = re.search(r"Undo plan written to (\S+);", done.stderr)
    assert found, done.stderr
    undo = cli("rewind", "-b", bootstrap, "--from-file", found.group(1), "--execute")
    assert undo.code == 0, undo.stderr
    after = start_offsets(bootstrap, group)
    # a share-partition that had a start offset has it again (one without had none to restore)
    had = {tp: o for tp, o in before.items() if o != "-"}
    assert had and {tp: after[tp] for tp in had} == had, (before, after)


def test_a_live_member_is_refused_as_kafka_share_groups_refuses(
    bootstrap: str, topic: str, group: str
) -> None:
    consumer = share_consumer(bootstrap, topic, group, "rw-live")
    try:
        deadline = time.monotonic() + 90
        while True:
            rows = group_tool_table(SHARE_GROUP_COMMAND, bootstrap, "--describe", "--group", group, "--state")
            if rows and rows[0]["STATE"].lower() == "stable":
                break
            assert time.monotonic() < deadline, rows
            time.sleep(1)
        dry = cli("rewind", "-b", bootstrap, "-g", group, "--topic", topic, "--to", "earliest")
        assert dry.code == 0 and "--execute would be refused" in dry.stderr, dry.stderr
        refused = cli(
            "rewind", "-b", bootstrap, "-g", group, "--topic", topic, "--to", "earliest", "--execute"
        )
        assert refused.code == 6, refused.stderr
        assert "active member" in refused.stderr and "'rw-live'" in refused.stderr, refused.stderr
        kafka = dev_kafka.run_tool(
            SHARE_GROUP_COMMAND,
            "--bootstrap-server",
            bootstrap,
            "--reset-offsets",
            "--group",
            group,
            "--topic",
            topic,
            "--to-earliest",
            "--execute",
            timeout=120,
        )
        assert kafka.returncode != 0 and f"Share group '{group}' is not empty" in kafka.stdout + kafka.stderr
    finally:
        consumer.terminate()
        consumer.wait(timeout=30)


def test_delete_offsets_of_a_share_group_go_per_topic_and_come_back_with_the_undo_plan(
    bootstrap: str, topic: str, tmp_path: Path
) -> None:
    """`rewind --delete-offsets` on a share group (DeleteShareGroupOffsets): a partition alone is
    refused (Kafka deletes per topic), the topic's share-partitions are gone from kafka-share-groups
    --describe, and the undo plan sets them again; an unknown topic is that topic's own error."""
    group = share_group(bootstrap, topic)
    # the console consumer may have fetched from one partition only: give both a start offset
    reset = cli("rewind", "-b", bootstrap, "-g", group, "-t", topic, "--to-offset", "3", "--execute")
    assert reset.code == 0, reset.stderr
    before = start_offsets(bootstrap, group)
    assert before == {(topic, 0): "3", (topic, 1): "3"}
    alone = cli("rewind", "-b", bootstrap, "--delete-offsets", "--group", group, "--topic", f"{topic}:0")
    assert alone.code == 2 and "deleted per topic" in alone.stderr, alone.stderr
    undo = tmp_path / "undo.csv"
    r = cli(
        "rewind",
        "-b",
        bootstrap,
        "--delete-offsets",
        "-g",
        group,
        "-t",
        topic,
        "--execute",
        "--undo-file",
        str(undo),
    )
    assert r.code == 0, r.stderr
    assert start_offsets(bootstrap, group) == {}
    back = cli("rewind", "-b", bootstrap, "--from-file", str(undo), "--execute")
    assert back.code == 0, back.stderr
    assert start_offsets(bootstrap, group) == before
    # Kafka's own kafka-share-groups --delete-offsets on the restored group: the same effect as ours
    # (every share-partition of the topic gone), its per-topic table saying so
    kafka = dev_kafka.run_tool(
        SHARE_GROUP_COMMAND, "--bootstrap-server", bootstrap, "--delete-offsets", "--group", group,
        "--topic", topic, timeout=120,
    )  # fmt: skip
    statuses = {
        f[0]: " ".join(f[1:]) for f in map(str.split, kafka.stdout.splitlines()) if f and f[0] == topic
    }
    assert kafka.returncode == 0 and statuses == {topic: "Successful"}, kafka.stdout + kafka.stderr
    assert start_offsets(bootstrap, group) == {}
    with KafkaClient(build_settings(bootstrap, timeout_ms=30_000)) as client:
        done = client.delete_share_group_offsets(group, ["no-such-topic"])
    assert done == {"no-such-topic": "UNKNOWN_TOPIC_OR_PARTITION"}


STREAMS_GROUP_COMMAND = "org.apache.kafka.tools.streams.StreamsGroupCommand"


def test_a_streams_group_is_rewound_and_its_offsets_deleted_on_its_input_topics(
    bootstrap: str, kafka_classpath: str, tmp_path: Path
) -> None:
    """A Kafka Streams application (group.protocol=streams) whose records pass a repartition topic:
    while it runs a reset is refused, as Kafka's tool refuses, and --delete-offsets keeps the input
    topic's offsets, as Kafka's tool (and broker) keep them; once closed (Empty) the plans equal
    kafka-streams-groups --reset-offsets --dry-run, --execute commits them (read back from the broker)
    with an undo plan that puts them back, and --delete-offsets deletes what kafka-streams-groups
    --delete-offsets deletes (one group, the same offsets: ours, put back by our undo plan, then
    Kafka's), the repartition topic refused in one line."""
    source, sink, group = (f"{k}-{uid()}" for k in ("rw-st-in", "rw-st-out", "rw-st-app"))
    create_topic(bootstrap, source, 2, config=KEEP)
    create_topic(bootstrap, sink, 2)
    produce(bootstrap, source, [(p, B + i * S, None, f"v{p}-{i}") for p in (0, 1) for i in range(RECORDS)])
    both = [(source, 0), (source, 1)]
    app = dev_streams.StreamsApp(bootstrap, group, source, sink, tmp_path / "streams-state", repartition=True)
    try:
        app.wait_for("RUNNING", 120)
        app.wait_for(f"PROCESSED {2 * RECORDS}", 60)
        _wait_committed(bootstrap, group)  # the app commits every 100 ms, after it processed (a race)
        live = cli("rewind", "-b", bootstrap, "-g", group, "--to", "earliest", "--execute")
        assert live.code == 6 and "active member" in live.stderr, live.stderr
        kafka = dev_kafka.run_tool(
            STREAMS_GROUP_COMMAND,
            "--bootstrap-server",
            bootstrap,
            "--reset-offsets",
            "--group",
            group,
            "--input-topic",
            source,
            "--to-earliest",
            "--execute",
            timeout=120,
        )
        assert kafka.returncode != 0 or "inactive" in kafka.stdout + kafka.stderr, kafka.stdout
        _live_deletes_are_kept(bootstrap, group, source)
    finally:
        assert app.close() == 0, "\n".join(app.output[-20:])
    for mine, kafkas in (
        (("--to", "earliest"), ("--to-earliest",)),
        (("--to", iso(B + 4 * S + 200) + "Z"), ("--to-datetime", iso(B + 4 * S + 200))),
        (("--to-offset", "3"), ("--to-offset", "3")),
    ):
        planned = ours("-b", bootstrap, "-g", group, *mine)
        assert set(planned) == set(both), planned  # the input topic only: not the repartition topic
        assert planned == theirs(
            bootstrap, "--group", group, "--input-topic", source, *kafkas, tool=STREAMS_GROUP_COMMAND
        )
    done = cli("rewind", "-b", bootstrap, "-g", group, "--to-offset", "3", "--execute")
    assert done.code == 0 and "Verified" in done.stderr, done.stderr
    assert {tp: o for tp, o in committed(bootstrap, group).items() if tp[0] == source} == dict.fromkeys(
        both, 3
    )
    found = re.search(r"Undo plan written to (\S+);", done.stderr)
    assert found, done.stderr
    undo = cli("rewind", "-b", bootstrap, "--from-file", found.group(1), "--execute")
    assert undo.code == 0, undo.stderr
    assert {tp: o for tp, o in committed(bootstrap, group).items() if tp[0] == source} == dict.fromkeys(
        both, RECORDS
    )
    _to_group_from_and_into_a_streams_group(bootstrap, group, source)
    _deletes_equal_kafka_streams_groups(bootstrap, group, source, tmp_path)


def _to_group_from_and_into_a_streams_group(bootstrap: str, group: str, source: str) -> None:
    """--to-group with the (Empty) streams group as the source (a new consumer group takes its input
    topic's offsets, read back from the broker) and as the target (its input topic's offsets become a
    consumer group's, then its undo plan puts them back)."""
    both = [(source, 0), (source, 1)]
    copy = f"rw-st-copy-{uid()}"
    taken = cli("rewind", "-b", bootstrap, "-g", copy, "--to-group", group, "-t", source, "--execute")
    assert taken.code == 0, taken.stderr
    assert committed(bootstrap, copy) == dict.fromkeys(both, RECORDS)
    other = f"rw-st-other-{uid()}"
    commit_group_offsets(bootstrap, other, dict.fromkeys(both, 2))
    given = cli("rewind", "-b", bootstrap, "-g", group, "--to-group", other, "-t", source, "--execute")
    assert given.code == 0, given.stderr
    assert {tp: o for tp, o in committed(bootstrap, group).items() if tp[0] == source} == dict.fromkeys(
        both, 2
    )
    found = re.search(r"Undo plan written to (\S+);", given.stderr)
    assert found, given.stderr
    undo = cli("rewind", "-b", bootstrap, "--from-file", found.group(1), "--execute")
    assert undo.code == 0, undo.stderr
    assert {tp: o for tp, o in committed(bootstrap, group).items() if tp[0] == source} == dict.fromkeys(
        both, RECORDS
    )


def committed(bootstrap: str, group: str) -> Offsets:
    """The group's committed offsets as the broker has them (OffsetFetch: every topic, the
    repartition topics too): {(topic, partition): offset}."""
    with KafkaClient(build_settings(bootstrap, timeout_ms=30_000)) as client:
        [back] = client.committed_offsets([group])
    assert back.error in (None, "GROUP_ID_NOT_FOUND"), back
    return {(tp.topic, tp.partition): o for tp, o in back.offsets.items() if o is not None}


def kafka_delete_offsets(bootstrap: str, group: str, topic: str) -> dict[tuple[str, int], str]:
    """kafka-streams-groups --delete-offsets --group G --input-topic T: {(topic, partition): STATUS}
    (``Successful``, or ``Error: ...``), from its TOPIC PARTITION STATUS table."""
    done = dev_kafka.run_tool(
        STREAMS_GROUP_COMMAND,
        "--bootstrap-server",
        bootstrap,
        "--delete-offsets",
        "--group",
        group,
        "--input-topic",
        topic,
        timeout=120,
    )
    out = {}
    for line in done.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and f[1].isdigit():
            out[(f[0], int(f[1]))] = " ".join(f[2:])
    assert out, done.stdout + done.stderr
    return out


def _live_deletes_are_kept(bootstrap: str, group: str, source: str) -> None:
    """The application runs: Kafka keeps the offsets of a topic the group reads (OffsetDelete answers
    GROUP_SUBSCRIBED_TO_TOPIC); our dry run says so, --execute exits 6 naming the topic, Kafka's tool
    reports the same error for both partitions, and nothing is deleted."""
    _wait_offsets(bootstrap, group, source)
    before = committed(bootstrap, group)
    dry = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", group, "-t", source)
    assert dry.code == 0, dry.stderr
    assert f"topic {source}: group {group!r} has 1 active member(s)" in dry.stderr, dry.stderr
    assert "--execute would keep its offsets (GROUP_SUBSCRIBED_TO_TOPIC)" in dry.stderr, dry.stderr
    mine = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", group, "-t", source, "--execute")
    kept = f"topic {source}: group {group!r} has members subscribed to it (GROUP_SUBSCRIBED_TO_TOPIC)"
    assert mine.code == 6 and kept in mine.stderr, mine.stderr
    theirs = kafka_delete_offsets(bootstrap, group, source)
    assert set(theirs) == {(source, 0), (source, 1)}, theirs
    assert all(s.startswith("Error") and "subscribed" in s for s in theirs.values()), theirs
    after = committed(bootstrap, group)
    assert (
        {tp: o for tp, o in after.items() if tp[0] == source}
        == {tp: o for tp, o in before.items() if tp[0] == source}
        == {(source, 0): RECORDS, (source, 1): RECORDS}
    )


def _deletes_equal_kafka_streams_groups(bootstrap: str, group: str, source: str, tmp_path: Path) -> None:
    """The group is Empty: our --delete-offsets on the input topic deletes what Kafka's tool deletes
    (the broker's committed offsets read back: the input topic's gone, any other kept),
    our undo plan puts them back in between, and a repartition topic is refused in one line."""
    with KafkaClient(build_settings(bootstrap, timeout_ms=30_000)) as client:
        described = client.streams_group_descriptions([group]).groups[group]
    [repartition] = described.repartition_topics
    start = committed(bootstrap, group)
    assert {tp for tp in start if tp[0] == source} == {(source, 0), (source, 1)}, start
    refused = cli("rewind", "-b", bootstrap, "--delete-offsets", "-g", group, "-t", repartition, "--execute")
    error = [line for line in refused.stderr.splitlines() if line.strip()]
    assert refused.code == 6 and f"{repartition} are not input topics of streams group" in error[0], error
    assert committed(bootstrap, group) == start
    undo = tmp_path / "undo-delete.csv"
    mine = cli(
        "rewind",
        "-b",
        bootstrap,
        "--delete-offsets",
        "-g",
        group,
        "-t",
        source,
        "--execute",
        "--undo-file",
        str(undo),
    )
    assert mine.code == 0 and "Verified: the deleted offsets are gone." in mine.stderr, mine.stderr
    after_ours = committed(bootstrap, group)
    back = cli("rewind", "-b", bootstrap, "--from-file", str(undo), "--execute")
    assert back.code == 0, back.stderr
    assert committed(bootstrap, group) == start
    assert kafka_delete_offsets(bootstrap, group, source) == {
        (source, 0): "Successful",
        (source, 1): "Successful",
    }
    after_kafka = committed(bootstrap, group)
    assert after_ours == after_kafka == {tp: o for tp, o in start.items() if tp[0] != source}
    # Kafka's --input-topic takes the repartition topic too (a documented difference: ours refuses)
    assert kafka_delete_offsets(bootstrap, group, repartition) == {
        (repartition, 0): "Successful",
        (repartition, 1): "Successful",
    }


def _wait_committed(bootstrap: str, group: str, timeout: float = 60) -> None:
    """Until the group has committed offsets: a dry run that stops saying it has none (exit 5)."""
    end = time.monotonic() + timeout
    while True:
        dry = cli("rewind", "-b", bootstrap, "-g", group, "--to", "earliest")
        if dry.code != 5:
            return
        assert time.monotonic() < end, f"no offsets committed by {group} in {timeout:.0f} s: {dry.stderr}"
        time.sleep(0.5)


def _wait_offsets(bootstrap: str, group: str, source: str, timeout: float = 60) -> None:
    """Until the application has committed RECORDS on both partitions of ``source``."""
    end = time.monotonic() + timeout
    while True:
        got = {tp: o for tp, o in committed(bootstrap, group).items() if tp[0] == source}
        if got == {(source, 0): RECORDS, (source, 1): RECORDS}:
            return
        assert time.monotonic() < end, f"{group} committed only {got} on {source} in {timeout:.0f} s"
        time.sleep(0.5)
