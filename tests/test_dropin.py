"""Drop-in proof: Kafka's own GetOffsetShell and kafka-consumer-groups, side by side with kafka-offsets.

One set of topics (created once) that sorts differently as strings and as numbers: ``lex`` with 12
partitions next to ``lex-1``, ``lex.1``, ``lexA`` and ``Lex``, topics of 1 to 60 partitions, a user
topic named ``__….app.events``, and the internal ``__consumer_offsets`` and ``__transaction_state``.
Each case runs GetOffsetShell (one JVM, from ``python -m dev.kafka classpath``) and ``kafka-offsets list
… -o plain`` with the same arguments; stdout must be identical byte for byte and the exit status equal,
except where docs/reference.md lists a deliberate difference (then both are asserted).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from dev import kafka as dev_kafka
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.cli.list_options import KAFKA_TOOLS_VERSION
from tests.cli_runner import cli
from tests.kafka_helpers import GET_OFFSET_SHELL, consumer_groups, produce_transactional

BASE = 1_700_000_000_000
KEEP = {"retention.ms": "-1"}  # 2023 timestamps would otherwise be deleted by retention
#: partitions per topic: siblings whose string order differs from their numeric order, 1 to 60 partitions
SIZES = {
    "lex": 12,
    "lex-1": 3,
    "lex.1": 11,
    "lexA": 2,
    "Lex": 1,
    "p1": 1,
    "p2": 2,
    "p10": 10,
    "p11": 11,
    "p60": 60,
}


@dataclass(frozen=True)
class Matrix:
    """The topics and groups every case runs on."""

    prefix: str  # of every topic: "dropin<uid>-"
    app: str  # a user topic whose name starts with "__"
    tx: str  # transactional, one partition: 2 records then the commit marker
    marker_group: str  # committed at the marker: kafka-consumer-groups says LAG 1
    config: Path  # a Java client properties file with Java-only edge values


@pytest.fixture(scope="module")
def matrix(bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matrix]:
    uid = uuid.uuid4().hex[:6]
    p = f"dropin{uid}-"
    m = Matrix(
        p, f"__{uid}.app.events", f"{p}tx", f"{p}g-marker", tmp_path_factory.mktemp("dropin") / "c.properties"
    )
    for name, n in SIZES.items():
        create_topic(bootstrap, p + name, partitions=n, config=KEEP)
        # p % 4 records in partition p: empty partitions too, and timestamps that differ per partition
        recs = [(q, BASE + 1000 * (i + q), None, f"v{i}") for q in range(n) for i in range(q % 4)]
        if recs:
            produce(bootstrap, p + name, recs)
    create_topic(bootstrap, m.app, partitions=2, config=KEEP)
    produce(bootstrap, m.app, [(0, BASE, None, "a")])
    create_topic(bootstrap, m.tx, partitions=1, config=KEEP)
    # a committed transaction: __transaction_state exists, and offset 2 is the commit marker
    produce_transactional(bootstrap, m.tx, [(0, BASE, None, "t0"), (0, BASE + 1, None, "t1")], commit=True)
    commit_group_offsets(bootstrap, m.marker_group, {(m.tx, 0): 2})  # and __consumer_offsets exists
    m.config.write_text(
        "# Java-only values: empty = hostname verification off / not set; ignored Java keys\n"
        "client.id=dropin\n"
        "ssl.endpoint.identification.algorithm=\n"
        "ssl.truststore.location=\n"
        "request.timeout.ms=30000\n"
        "key.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n"
    )
    yield m


@dataclass(frozen=True)
class Case:
    """GetOffsetShell arguments (``{p}``: topic prefix, ``{app}``, ``{config}``), deliberate differences."""

    args: tuple[str, ...]
    ours: int | None = None  # our exit status where it deliberately differs from Kafka's (docs/reference.md)
    kafka: int = 0  # GetOffsetShell's exit status


P_ALL = "{p}.*"
CASES = [
    Case(("--topic", P_ALL)),  # default --time latest, every topic of the set, Kafka's line order
    Case(("--topic", "{p}lex.*", "--time", "-2")),
    Case(("--topic", "{p}(lex|Lex).*", "--partitions", "0,1,10,11", "--time", "latest")),
    Case(
        (
            "--topic-partitions",
            "{p}lex:1-11,{p}lex-1:,{p}p60:5-,{p}p11:-3,{p}p10:7",
            "--time",
            "max-timestamp",
        )
    ),
    Case(("--topic-partitions", "{p}p.*,{p}Lex", "--time", "-3")),
    Case(("--topic", "{p}p.*", "--time", str(BASE + 2000))),
    Case(("--topic", "{p}p60", "--time", f"+{BASE + 4000}")),  # Long.parseLong takes a plus sign
    Case(("--topic", "{p}p1.*", "--time", "0")),
    Case(("--topic", "{p}p1.*", "--time", "-0")),  # Long.parseLong("-0") is timestamp 0
    Case(("--topic", "{p}p10", "--partitions", "1,1,3", "--time=-1")),
    Case(("--topic-partitions", "{p}lex")),  # no ':' = every partition
    # internal topics by the broker's flag: a user topic named __… stays with --exclude-internal-topics
    Case(("--topic", "__consumer_offsets|{app}", "--time", "earliest")),
    Case(("--topic", "__consumer_offsets|{app}", "--time", "earliest", "--exclude-internal-topics")),
    Case(("--topic-partitions", "__transaction_state:0-5,{app}:1,{p}tx")),
    Case(("--topic-partitions", "__transaction_state:0-5,{app}:1,{p}tx", "--exclude-internal-topics")),
    # the whole cluster: the path without a topic pattern
    Case(("--exclude-internal-topics", "--time", "earliest")),
    Case(("--topic-partitions", ":0", "--time", "-2")),
    Case(("--command-config", "{config}", "--topic", "{p}p2")),
    # nothing to print: Kafka "Could not match any topic-partitions", exit 1
    Case(("--topic", "{p}nosuch"), kafka=1),  # a plain name: our UNKNOWN_TOPIC_OR_PARTITION error, exit 1 too
    Case(("--topic", "{p}p10", "--partitions", "99"), kafka=1),
    Case(("--topic", "{p}nosuch.*"), kafka=1, ours=5),  # a pattern that matches nothing: exit 5
    Case(("--topic", "{p}p1", "--time", "bogus"), kafka=1, ours=2),  # usage errors: exit 2
    Case(("--topic", "{p}p1", "--topic-partitions", "{p}p1"), kafka=1, ours=2),
]


def expand(args: tuple[str, ...], m: Matrix) -> list[str]:
    return [a.format(p=m.prefix, app=m.app, config=m.config) for a in args]


@pytest.mark.parametrize("case", CASES, ids=lambda c: " ".join(c.args))
def test_plain_output_is_getoffsetshells(
    bootstrap: str, kafka_classpath: str, matrix: Matrix, case: Case
) -> None:
    args = expand(case.args, matrix)
    kafka = dev_kafka.run_tool(GET_OFFSET_SHELL, "--bootstrap-server", bootstrap, *args)
    ours = cli("list", "--bootstrap-server", bootstrap, *args, "-o", "plain")
    assert kafka.returncode == case.kafka, kafka.stderr
    assert ours.code == (case.kafka if case.ours is None else case.ours), ours.stderr
    assert ours.stdout == kafka.stdout
    if case.kafka == 0:
        assert kafka.stdout, "a case that prints nothing proves nothing"


def test_line_order_is_kafkas_not_numeric(bootstrap: str, kafka_classpath: str, matrix: Matrix) -> None:
    """The matrix really exercises the order: ``lex-1`` lines sit between ``lex:1`` and ``lex:10``."""
    ours = cli("list", "-b", bootstrap, "--topic", f"{matrix.prefix}lex(-1)?", "-o", "plain")
    p = matrix.prefix
    heads = [line.rsplit(":", 1)[0] for line in ours.stdout.splitlines()][:6]
    assert heads == [f"{p}lex:0", f"{p}lex:1", f"{p}lex-1:0", f"{p}lex-1:1", f"{p}lex-1:2", f"{p}lex:10"]
    # the default table (and json) keeps topic, then partition number
    recs = cli("list", "-b", bootstrap, "--topic", f"{p}lex(-1)?", "-o", "jsonl").jsonl()
    assert [(r["topic"], r["partition"]) for r in recs][:3] == [
        (f"{p}lex", 0),
        (f"{p}lex", 1),
        (f"{p}lex", 2),
    ]


def test_version_names_the_kafka_release(kafka_classpath: str) -> None:
    kafka = dev_kafka.run_tool(GET_OFFSET_SHELL, "--version")
    ours = cli("list", "--version")
    assert kafka.returncode == ours.code == 0
    assert kafka.stdout.strip() == KAFKA_TOOLS_VERSION  # Kafka prints its release; we print ours and that one
    assert ours.stdout.splitlines()[-1].endswith(f"Apache Kafka {KAFKA_TOOLS_VERSION}")


def test_lag_of_a_group_that_does_not_exist(bootstrap: str, kafka_classpath: str, matrix: Matrix) -> None:
    missing = f"{matrix.prefix}no-such-group"
    kafka = consumer_groups(bootstrap, "--describe", "--group", missing)
    # Kafka 4.3.1 says so on stderr (and exits 0 all the same)
    assert "GroupIdNotFoundException" in kafka.stderr and missing in kafka.stderr
    ours = cli("lag", "-b", bootstrap, "-g", missing, "-g", matrix.marker_group, "-o", "jsonl")
    assert ours.code == 1
    assert f"consumer group '{missing}' does not exist" in ours.stderr
    recs = {r["group"]: r for r in ours.jsonl()}
    assert (recs[missing]["state"], recs[missing]["error"]) == ("error", "GROUP_ID_NOT_FOUND")
    assert recs[matrix.marker_group]["state"] == "marker"  # the other group is still shown


def test_marker_lag_is_kafkas_lag(bootstrap: str, kafka_classpath: str, matrix: Matrix) -> None:
    kafka = consumer_groups(bootstrap, "--describe", "--group", matrix.marker_group)
    assert kafka.returncode == 0, kafka.stderr
    row = next(line.split() for line in kafka.stdout.splitlines() if line.startswith(matrix.marker_group))
    current, end, lag = int(row[3]), int(row[4]), int(row[5])
    (rec,) = cli("lag", "-b", bootstrap, "-g", matrix.marker_group, "-o", "jsonl").jsonl()
    assert (rec["committed"], rec["end"], rec["lag"]) == (current, end, lag) == (2, 3, 1)
    assert (rec["state"], rec["time_lag_ms"]) == ("marker", 0)  # nothing left to consume
