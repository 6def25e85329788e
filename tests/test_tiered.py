"""Tiered storage on a real broker: the tiered specs against Kafka's own GetOffsetShell, on the same data.

The broker (``tiered_bootstrap``, dev/tiered.py) runs Kafka's ``LocalTieredStorage``; its tiered topics
have 16 KiB segments and ``local.retention.ms=1000``, so rolled segments are uploaded and their local
copies deleted within seconds. Three topics: ``before`` holds segments whose upload is held back
(``remote.log.copy.disable``), ``moved`` several segments' worth, waited for (by polling,
bounded) until every segment is uploaded and deleted locally, and ``plain`` is the same data without
tiered storage (Kafka answers -4 with the log start offset and -1, "no offset", for -5 and -6). Each
spec, by code and by name, runs through GetOffsetShell and ``list -o plain``: stdout byte for byte
and the exit status must be equal.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from dev import kafka as dev_kafka
from dev import secure, tiered
from tests.availability import unavailable
from tests.cli_runner import cli, subprocess_cli
from tests.kafka_helpers import GET_OFFSET_SHELL, wait_moved_to_remote

RECORDS = 200  # of 1 KiB: a dozen 16 KiB segments per partition
TIERED_SPECS = ("-4", "-5", "-6", "earliest-local", "latest-tiered", "earliest-pending-upload")


@dataclass(frozen=True)
class Topics:
    before: str
    moved: str
    kept: str
    plain: str


def _offsets(bootstrap: str, topic: str) -> dict[tuple[int, str], int | None]:
    run = cli(
        "list", "-b", bootstrap, "-t", topic, "-s", "earliest-local", "-s", "latest-tiered", "-s", "latest"
    )
    assert run.code == 0, run.stderr
    return {(r["partition"], r["spec"]): r["offset"] for r in run.jsonl()}


@pytest.fixture(scope="module")
def topics(tiered_bootstrap: str) -> Iterator[Topics]:
    uid = uuid.uuid4().hex[:8]
    t = Topics(
        before=f"tiered-before-{uid}",
        moved=f"tiered-moved-{uid}",
        kept=f"tiered-kept-{uid}",
        plain=f"tiered-plain-{uid}",
    )
    # uploads held back (remote.log.copy.disable) and local retention left at its default: segments stay local
    hold = {"remote.log.copy.disable": "true", "local.retention.ms": "-2"}
    tiered.create_topic(tiered_bootstrap, t.before, 2, config=hold)
    tiered.create_topic(tiered_bootstrap, t.moved, 2)
    tiered.create_topic(tiered_bootstrap, t.plain, 2, tiered=False)
    # uploaded, but local retention left at its default: the local copies stay
    tiered.create_topic(tiered_bootstrap, t.kept, 2, config={"local.retention.ms": "-2"})
    tiered.produce(tiered_bootstrap, t.kept, 2, RECORDS)
    tiered.produce(tiered_bootstrap, t.before, 2, RECORDS)
    tiered.produce(tiered_bootstrap, t.moved, 2, RECORDS)
    tiered.produce(tiered_bootstrap, t.plain, 2, RECORDS)
    wait_moved_to_remote(tiered_bootstrap, t.moved, 2, RECORDS)
    _wait_uploaded(tiered_bootstrap, t.kept, time.monotonic() + 120)
    yield t


def _wait_uploaded(bootstrap: str, topic: str, deadline: float) -> None:
    """Wait until every rolled segment of ``topic`` is uploaded: latest-tiered set and unchanged for ~3 s."""
    last, same = None, 0
    while same < 6:
        seen = _offsets(bootstrap, topic)
        tiered_now = (seen[(0, "latest-tiered")], seen[(1, "latest-tiered")])
        same = same + 1 if tiered_now == last and None not in tiered_now else 0
        last = tiered_now
        assert time.monotonic() < deadline, f"segments of {topic} were not uploaded: {seen}"
        time.sleep(0.5)


def _compare(bootstrap: str, topic: str, spec: str) -> str:
    kafka = dev_kafka.run_tool(
        GET_OFFSET_SHELL, "--bootstrap-server", bootstrap, "--topic", topic, "--time", spec
    )
    ours = cli("list", "--bootstrap-server", bootstrap, "--topic", topic, "--time", spec, "-o", "plain")
    assert ours.code == kafka.returncode, (ours.stderr, kafka.stderr)
    assert ours.stdout == kafka.stdout, spec
    return ours.stdout


@pytest.mark.parametrize("spec", TIERED_SPECS)
def test_tiered_topic_after_the_move_is_getoffsetshells(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics, spec: str
) -> None:
    out = _compare(tiered_bootstrap, topics.moved, spec)
    expected = {
        "-4": f"{topics.moved}:0:{RECORDS}\n{topics.moved}:1:{RECORDS}\n",
        "-5": f"{topics.moved}:0:{RECORDS - 1}\n{topics.moved}:1:{RECORDS - 1}\n",
        "-6": "",  # nothing pending: Kafka 4.3.1 answers -1
    }
    code = {"earliest-local": "-4", "latest-tiered": "-5", "earliest-pending-upload": "-6"}.get(spec, spec)
    assert out == expected[code]


@pytest.mark.parametrize("spec", TIERED_SPECS)
def test_tiered_topic_before_any_upload_is_getoffsetshells(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics, spec: str
) -> None:
    out = _compare(tiered_bootstrap, topics.before, spec)
    code = {"earliest-local": "-4", "latest-tiered": "-5", "earliest-pending-upload": "-6"}.get(spec, spec)
    # nothing uploaded: all local, nothing tiered, everything from the log start pending
    assert out == ("" if code == "-5" else f"{topics.before}:0:0\n{topics.before}:1:0\n")


@pytest.mark.parametrize("spec", TIERED_SPECS)
def test_topic_without_tiered_storage_is_getoffsetshells(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics, spec: str
) -> None:
    out = _compare(tiered_bootstrap, topics.plain, spec)
    code = {"earliest-local": "-4", "latest-tiered": "-5", "earliest-pending-upload": "-6"}.get(spec, spec)
    assert out == ("" if code in ("-5", "-6") else f"{topics.plain}:0:0\n{topics.plain}:1:0\n")


def test_every_format_has_the_tiered_specs(tiered_bootstrap: str, topics: Topics) -> None:
    args = ("list", "-b", tiered_bootstrap, "-t", topics.moved, "-s", "earliest", "-s", "-4", "-s", "-5")
    jsonl = cli(*args, "-s", "-6", "-s", "latest", "-o", "jsonl")
    assert jsonl.code == 0, jsonl.stderr
    got = {(r["partition"], r["spec"]): r["offset"] for r in jsonl.jsonl()}
    assert got[(0, "earliest")] == 0  # still readable, from remote storage
    assert got[(0, "earliest-local")] == RECORDS and got[(0, "latest-tiered")] == RECORDS - 1
    assert got[(0, "earliest-pending-upload")] is None
    csv = cli(*args, "-o", "csv")
    assert f"{topics.moved},0,latest-tiered,{RECORDS - 1}," in csv.stdout
    table = cli(*args, "-o", "table")
    header = table.stdout.splitlines()[0].split()
    assert header == ["TOPIC", "PARTITION", "EARLIEST", "EARLIEST-LOCAL", "LATEST-TIERED"]


def test_a_partition_that_does_not_exist_is_an_error_record(tiered_bootstrap: str, topics: Topics) -> None:
    run = cli(
        "list", "-b", tiered_bootstrap, "--topic-partitions", f"{topics.moved}:0,{topics.moved}:7", "-s", "-5"
    )
    assert run.code == 1
    errors = {r["partition"]: r["error"] for r in run.jsonl()}
    assert errors == {0: None, 7: "UNKNOWN_TOPIC_OR_PARTITION"}


@pytest.mark.parametrize("spec", TIERED_SPECS)
def test_uploaded_but_kept_locally_is_getoffsetshells(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics, spec: str
) -> None:
    _compare(tiered_bootstrap, topics.kept, spec)
    run = cli(
        "list", "-b", tiered_bootstrap, "-t", topics.kept, "-s", "-4", "-s", "-5", "-s", "-6", "-s", "-1"
    )
    got = {(r["partition"], r["spec"]): r["offset"] for r in run.jsonl()}
    for p in (0, 1):
        tiered_to = got[(p, "latest-tiered")]
        assert got[(p, "earliest-local")] == 0  # nothing deleted locally
        assert tiered_to is not None and 0 < tiered_to < RECORDS - 1  # the active segment is not uploaded
        assert got[(p, "earliest-pending-upload")] == tiered_to + 1


# ----------------------------------------------------------------------------- SASL/SCRAM and TLS


@pytest.fixture(scope="module")
def secure_tiered() -> Iterator[tuple[secure.SecureCluster, str]]:
    """dev/secure.py's SASL/SCRAM and TLS listeners on a tiered broker, and a topic whose segments moved."""
    name = f"pytest-sectiered-{os.getpid()}"
    try:
        info = secure.up(
            name,
            sasl=True,
            tls=True,
            heap="512m",
            owner_pid=os.getpid(),
            broker_config=tiered.broker_config(name, 1),
        )
    except Exception as exc:  # no java/openssl, timeout: skip locally, fail under CI=true
        with contextlib.suppress(Exception):
            dev_kafka.down(name, grace=0)
        unavailable(f"secure tiered Kafka cluster could not be started: {exc}")
    try:
        topic = f"tiered-secure-{uuid.uuid4().hex[:8]}"
        tiered.create_topic(info.plaintext_bootstrap, topic, 2)
        tiered.produce(info.plaintext_bootstrap, topic, 2, RECORDS)
        wait_moved_to_remote(info.plaintext_bootstrap, topic, 2, RECORDS)
        yield info, topic
    finally:
        dev_kafka.down(name)


@pytest.mark.parametrize("listener", ["sasl", "tls"])
@pytest.mark.parametrize("spec", ["-4", "-5", "-6"])
def test_sasl_and_tls_answer_as_getoffsetshell(
    kafka_classpath: str, secure_tiered: tuple[secure.SecureCluster, str], listener: str, spec: str
) -> None:
    info, topic = secure_tiered
    config = str(info.properties_file(secure.ADMIN_USER, listener))
    args = ("--topic", topic, "--time", spec, "--command-config", config)
    kafka = dev_kafka.run_tool(GET_OFFSET_SHELL, "--bootstrap-server", info.bootstrap(listener), *args)
    ours = subprocess_cli("list", "--bootstrap-server", info.bootstrap(listener), *args, "-o", "plain")
    assert (ours.code, ours.stdout) == (kafka.returncode, kafka.stdout), (ours.stderr, kafka.stderr)
    if spec != "-6":
        assert ours.stdout, "a case that prints nothing proves nothing"
    for secret in info.users.values():
        assert secret not in ours.stdout + ours.stderr


def test_a_security_setting_kafka_python_cannot_use_is_refused(
    secure_tiered: tuple[secure.SecureCluster, str],
) -> None:
    info, topic = secure_tiered
    config = str(info.properties_file(secure.ADMIN_USER, "tls"))
    ours = subprocess_cli(
        "list",
        "--command-config",
        config,
        "-t",
        topic,
        "-s",
        "-5",
        "-X",
        "enable.ssl.certificate.verification=false",
    )
    assert ours.code == 2
    assert "enable.ssl.certificate.verification" in ours.stderr and "kafka-python" in ours.stderr
    assert ours.stdout == ""


PROBE = """
import json, sys
sys.argv = ["kafka-offsets", *json.loads(sys.argv[1])]
from kafka_offsets_cli.__main__ import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print(json.dumps("kafka" in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("spec", "loaded"), [("latest", False), ("earliest", False), ("latest-tiered", True)]
)
def test_kafka_python_is_loaded_only_for_a_tiered_spec(
    tiered_bootstrap: str, topics: Topics, spec: str, loaded: bool
) -> None:
    argv = json.dumps(["list", "-b", tiered_bootstrap, "-t", topics.moved, "-s", spec, "-o", "plain"])
    run = subprocess.run([sys.executable, "-c", PROBE, argv], capture_output=True, text=True, timeout=120)
    assert run.stdout.startswith(f"{topics.moved}:0:")
    assert json.loads(run.stderr.strip().splitlines()[-1]) is loaded


# ----------------------------------------------------------------------------- three nodes


def _leader(bootstrap: str, topic: str, partition: int) -> int:
    from confluent_kafka.admin import AdminClient

    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(topic, timeout=30)
    return int(md.topics[topic].partitions[partition].leader)


def test_three_nodes_before_and_after_a_leader_moves(
    kafka_classpath: str, tiered_cluster3: dev_kafka.Cluster
) -> None:
    """Replicated tiered topic on 3 nodes: the tiered specs as GetOffsetShell answers them, and again from
    the new leader once the old one is stopped (it reads the remote log metadata the old one wrote)."""
    bootstrap = tiered_cluster3.bootstrap
    topic = f"tiered-rf3-{uuid.uuid4().hex[:8]}"
    tiered.create_topic(bootstrap, topic, 3, replication=3)
    tiered.produce(bootstrap, topic, 3, RECORDS)
    wait_moved_to_remote(bootstrap, topic, 3, RECORDS, timeout=180)
    for spec in ("-4", "-5", "-6"):
        assert _compare(bootstrap, topic, spec) == (
            "" if spec == "-6" else "".join(f"{topic}:{p}:{RECORDS - (spec == '-5')}\n" for p in range(3))
        )
    old = _leader(bootstrap, topic, 0)
    tiered_cluster3.stop_node(old)
    survivors = ",".join(n.bootstrap for n in tiered_cluster3.nodes if n.node_id != old)
    deadline = time.monotonic() + 120
    while True:  # the new leader knows the uploaded segments once it has read the remote log metadata
        run = cli("list", "-b", survivors, "-t", topic, "-s", "latest-tiered")
        if run.code == 0 and all(r["offset"] == RECORDS - 1 for r in run.jsonl()):
            break
        assert time.monotonic() < deadline, run.stdout + run.stderr
        time.sleep(0.5)
    assert _leader(survivors, topic, 0) != old
    for spec in ("-4", "-5", "-6", "earliest"):
        _compare(survivors, topic, spec)


def test_max_timestamp_with_every_record_remote_is_getoffsetshells(
    tiered_bootstrap: str, kafka_classpath: str, topics: Topics
) -> None:
    """Kafka 4.3.1 finds max-timestamp in local segments only: none once all records moved (not PENDING)."""
    assert _compare(tiered_bootstrap, topics.moved, "max-timestamp") == ""
    assert _compare(tiered_bootstrap, topics.kept, "max-timestamp")  # records still local: an answer
