"""``list --tiering`` on a real tiered broker (``tiered_bootstrap``, dev/tiered.py): the same numbers as
``kafka-offsets tiering`` (one collection, one set of rules) and as GetOffsetShell's -4/-5/-6 answers.

``held`` has its uploads held back (``remote.log.copy.disable=true``, local copies kept): all local, a
backlog of every record; ``moved`` has every segment uploaded and deleted locally; ``plain`` has no
tiered storage. No record is produced once the fixture is ready, so two runs see the same offsets.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from dev import kafka as dev_kafka
from dev import tiered
from tests.cli_runner import cli
from tests.kafka_helpers import GET_OFFSET_SHELL, wait_moved_to_remote

RECORDS = 200  # of 1 KiB per partition: a dozen 16 KiB segments
PARTITION_FIELDS = (
    "earliest",
    "earliest_local",
    "latest_tiered",
    "earliest_pending_upload",
    "latest",
    "local_records",
    "remote_records",
    "backlog_records",
    "backlog_first_offset",
    "backlog_timestamp",
)


@dataclass(frozen=True)
class Topics:
    held: str
    moved: str
    plain: str

    @property
    def pattern(self) -> str:
        return f"{self.held}|{self.moved}|{self.plain}"


@pytest.fixture(scope="module")
def topics(tiered_bootstrap: str) -> Iterator[Topics]:
    uid = uuid.uuid4().hex[:8]
    t = Topics(held=f"lt-held-{uid}", moved=f"lt-moved-{uid}", plain=f"lt-plain-{uid}")
    hold = {"remote.log.copy.disable": "true", "local.retention.ms": "-2"}
    tiered.create_topic(tiered_bootstrap, t.held, 2, config=hold)
    tiered.create_topic(tiered_bootstrap, t.moved, 2)
    tiered.create_topic(tiered_bootstrap, t.plain, 1, tiered=False)
    for name, parts in ((t.held, 2), (t.moved, 2), (t.plain, 1)):
        tiered.produce(tiered_bootstrap, name, parts, RECORDS)
    wait_moved_to_remote(tiered_bootstrap, t.moved, 2, RECORDS)
    yield t


def _list(bootstrap: str, topics: Topics, *args: str) -> list[dict[str, Any]]:
    run = cli("list", "-b", bootstrap, "-t", topics.pattern, "--tiering", *args)
    assert run.code == 0, run.stderr
    return list(run.json()) if "json" in args else run.jsonl()


def test_list_tiering_has_the_numbers_of_the_tiering_command(tiered_bootstrap: str, topics: Topics) -> None:
    ours = _list(tiered_bootstrap, topics, "-s", "earliest", "-s", "latest", "-o", "json")
    check = cli("tiering", "-b", tiered_bootstrap, "-t", topics.pattern, "-o", "json")
    assert check.code == 0, check.stderr
    theirs = {(r["topic"], r["partition"]): r for r in check.json()}
    assert len(theirs) == 5
    partitions = [r for r in ours if r["partition"] is not None]
    assert len(partitions) == 2 * 5  # a record per partition and spec, each with its partition's view
    for rec in partitions:
        t = theirs[(rec["topic"], rec["partition"])]
        assert {f: rec[f] for f in PARTITION_FIELDS} == {f: t[f] for f in PARTITION_FIELDS}
        assert (rec["tiering_state"], rec["tiering_error"]) == (t["state"], t["error"])
        assert (rec["backlog_age_ms"] is None) == (t["backlog_age_ms"] is None)
        assert rec["offset"] == (t["earliest"] if rec["spec"] == "earliest" else t["latest"])
    totals = {r["topic"]: r for r in ours if r["partition"] is None}
    assert set(totals) == {topics.held, topics.moved, topics.plain}
    for name, tot in totals.items():
        mine = [t for (topic, _), t in theirs.items() if topic == name]
        assert tot["spec"] is None and tot["error"] is None
        assert tot["local_records"] == sum(t["local_records"] for t in mine)
        if name == topics.plain:
            assert (tot["remote_records"], tot["backlog_records"], tot["tiering_state"]) == (
                None,
                None,
                "not-tiered",
            )
        else:
            assert tot["remote_records"] == sum(t["remote_records"] for t in mine)
            assert tot["backlog_records"] == sum(t["backlog_records"] for t in mine)
            assert tot["tiering_state"] == "ok"
    assert (totals[topics.held]["local_records"], totals[topics.held]["backlog_records"]) == (400, 400)
    assert (totals[topics.moved]["remote_records"], totals[topics.moved]["local_records"]) == (400, 0)
    assert (
        totals[topics.held]["backlog_age_ms"] is not None and totals[topics.moved]["backlog_age_ms"] is None
    )


@pytest.mark.parametrize(
    ("code", "field"), [("-4", "earliest_local"), ("-5", "latest_tiered"), ("-6", "earliest_pending_upload")]
)
def test_list_tiering_has_getoffsetshells_answers(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics, code: str, field: str
) -> None:
    kafka = dev_kafka.run_tool(
        GET_OFFSET_SHELL, "--bootstrap-server", tiered_bootstrap, "--topic", topics.pattern, "--time", code
    )
    assert kafka.returncode == 0, kafka.stderr
    theirs = {}
    for line in kafka.stdout.splitlines():
        topic, partition, offset = line.rsplit(":", 2)
        theirs[(topic, int(partition))] = int(offset)
    ours = {(r["topic"], r["partition"]): r[field] for r in _list(tiered_bootstrap, topics, "-o", "jsonl")}
    partitions = {k: v for k, v in ours.items() if k[1] is not None}
    # GetOffsetShell prints nothing for a partition without an offset: null here
    assert {k: v for k, v in partitions.items() if v is not None} == theirs
    assert len(partitions) == 5
    if code == "-5":
        assert theirs == {(topics.moved, 0): RECORDS - 1, (topics.moved, 1): RECORDS - 1}


def test_table_and_csv_have_the_columns_and_a_total_per_topic(tiered_bootstrap: str, topics: Topics) -> None:
    table = cli("list", "-b", tiered_bootstrap, "-t", topics.pattern, "--tiering", "-o", "wide")
    assert table.code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["TOPIC", "PARTITION", "LATEST", "LOCAL", "REMOTE", "BACKLOG", "BACKLOG-AGE"]
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in lines[1:] if line.strip()}
    assert rows[(topics.moved, "0")][:4] == [str(RECORDS), "-", f"0..{RECORDS - 1}", "0"]
    assert rows[(topics.held, "1")][:4] == [str(RECORDS), f"0..{RECORDS - 1}", "-", str(RECORDS)]
    assert rows[(topics.plain, "0")] == [str(RECORDS), f"0..{RECORDS - 1}", "-", "-", "-"]
    assert rows[(topics.held, "total")][:3] == ["400", "0", "400"]  # LATEST is blank on a total row
    assert rows[(topics.moved, "total")] == ["0", "400", "0", "-"]
    assert rows[(topics.plain, "total")] == [str(RECORDS), "-", "-", "-"]
    out = cli("list", "-b", tiered_bootstrap, "-t", topics.pattern, "--tiering", "-o", "csv")
    recs = list(csv.DictReader(io.StringIO(out.stdout)))
    assert list(recs[0])[:8] == [
        "topic",
        "partition",
        "spec",
        "offset",
        "timestamp",
        "leader_epoch",
        "error",
        "earliest",
    ]
    assert list(recs[0])[-2:] == ["tiering_state", "tiering_error"]
    assert len(recs) == 5 + 3


def test_plain_and_watch_are_refused(tiered_bootstrap: str, topics: Topics) -> None:
    plain = cli("list", "-b", tiered_bootstrap, "-t", topics.moved, "--tiering", "-o", "plain")
    assert plain.code == 2 and plain.stdout == ""
    assert "--tiering" in plain.stderr and "plain" in plain.stderr
    watch = cli("list", "-b", tiered_bootstrap, "-t", topics.moved, "--tiering", "--watch", "2s")
    assert watch.code == 2 and "--watch" in watch.stderr
