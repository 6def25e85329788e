"""``kafka-offsets check`` on a real Spark standalone cluster whose workers look like remote nodes.

The cluster (dev/spark_cluster.py): a master and two workers from the pyspark package, each worker
in its own mount namespace where the driver's checkout (its venv, the secure Kafka's CA file) and
the driver's output directory are empty tmpfs mounts; executors run a venv of their own holding
only what docs/deployment.md says executors need. The daemons run with Spark's RPC authentication (a
secret generated for the session, which a standalone cluster's application must share).

Two Kafka clusters: the session's plaintext one and a SASL_SSL one (SCRAM password from the
environment, a CA file named in the spec). Checked: the records equal those of ``local[*]``
partition by partition; ``--write`` lands on the driver; a missing executor dependency, a missing
file and a history path the executors cannot share are each one line; the password is in no task
payload (every pickled command and parallelized datum, recorded in the driver), no event log, no
executor log or work directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dev import kafka as dev_kafka
from dev import secure, spark_cluster
from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests.availability import unavailable
from tests.fault_helpers import Timed, assert_one_error_line, child_env

pytestmark = [pytest.mark.spark, pytest.mark.broker, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parent.parent
PASSWORD_ENV = "KOS_TEST_SECURE_PASSWORD"

#: Runs the CLI with every task payload recorded: the bytes of each CloudPickle (closures) and
#: Pickle (parallelized data) serialisation the driver makes, appended to the file argv[1].
RECORDING_DRIVER = """
import sys
import pyspark.serializers as s
out = open(sys.argv.pop(1), "ab")
for cls in (s.CloudPickleSerializer, s.PickleSerializer):
    def dumps(self, obj, _orig=cls.dumps):
        data = _orig(self, obj)
        out.write(data)
        out.flush()
        return data
    cls.dumps = dumps
from kafka_offsets_cli.__main__ import main
sys.argv[0] = "kafka-offsets"
main()
"""


@dataclass
class Env:
    cluster: spark_cluster.SparkCluster
    spec: Path
    password: str
    ca_file: Path
    out: Path  # the driver's output directory (hidden from the workers)
    topics: tuple[str, str]

    def run(self, *args: str, master: str | None = None, record: Path | None = None) -> Timed:
        """The CLI in a child process (on the cluster unless ``master``), the password in its env."""
        conf = [] if master else [a for c in self.cluster.spark_conf() for a in ("--conf", c)]
        argv = ["check", str(self.spec), "--master", master or self.cluster.master_url, *conf, *args]
        head = [sys.executable, "-m", "kafka_offsets_cli"]
        if record is not None:
            head = [sys.executable, "-c", RECORDING_DRIVER, str(record)]
        p = subprocess.run(
            [*head, *argv],
            cwd=REPO_ROOT,
            env=child_env(**{PASSWORD_ENV: self.password}),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=400,
        )
        return Timed(p.returncode, p.stdout, p.stderr, 0.0)


@pytest.fixture(scope="module")
def env(bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    why = spark_cluster.namespaces_work()
    if why is not None:
        unavailable(f"the Spark cluster test needs mount namespaces: {why}")
    name = f"pytest-spk-{os.getpid()}"
    try:
        sec = secure.up(name, sasl=True, tls=True, heap="384m", owner_pid=os.getpid())
    except Exception as exc:
        with contextlib.suppress(Exception):
            dev_kafka.down(name, grace=0)
        unavailable(f"secure Kafka cluster could not be started: {exc}")
    out = tmp_path_factory.mktemp("driver-out")
    try:
        cluster = spark_cluster.up(
            tmp_path_factory.mktemp("spark-cluster"), hidden=[REPO_ROOT, out], secret=secrets.token_hex(16)
        )
    except Exception as exc:
        dev_kafka.down(name)
        unavailable(f"Spark standalone cluster could not be started: {exc}")
    try:
        tag = uuid.uuid4().hex[:6]
        plain, locked = f"plain-{tag}", f"locked-{tag}"
        create_topic(bootstrap, plain, partitions=3)
        produce(bootstrap, plain, [(p, None, None, "x") for p in range(3) for _ in range(p + 2)])
        commit_group_offsets(bootstrap, f"g-{tag}", {(plain, p): 1 for p in range(3)})
        create_topic(sec.plaintext_bootstrap, locked, partitions=2)
        produce(sec.plaintext_bootstrap, locked, [(p, None, None, "y") for p in range(2) for _ in range(3)])
        commit_group_offsets(sec.plaintext_bootstrap, f"g-{tag}", {(locked, p): p for p in range(2)})
        spec = out.parent / f"spec-{tag}.yaml"  # beside the hidden directory, also a driver path
        spec.write_text(
            f"""
clusters:
  plain: {{bootstrap_servers: "{bootstrap}"}}
  secure:
    bootstrap_servers: "{sec.tls_bootstrap}"
    properties:
      {{security.protocol: SASL_SSL, sasl.mechanism: SCRAM-SHA-512, ssl.ca.location: "{sec.ca_file}"}}
    sasl_username: {secure.ADMIN_USER}
    sasl_password_env: {PASSWORD_ENV}
checks:
  - {{name: alive, type: liveness, clusters: [plain, secure], topics: ['.*-{tag}'],
     warn: 1d, crit: 2d}}
  - {{name: lag, type: lag, clusters: [plain, secure], groups: [g-{tag}], topics: ['.*-{tag}'],
     warn_lag: 100, crit_lag: 200, time_lag: true}}
"""
        )
        yield Env(cluster, spec, sec.password(secure.ADMIN_USER), sec.ca_file, out, (plain, locked))
    finally:
        cluster.down()
        dev_kafka.down(name)


def _comparable(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each record without the fields that depend on when the run happened (ages)."""
    keys = ("check", "cluster", "topic", "partition", "group", "committed", "end", "lag", "timestamp")
    return sorted(tuple(p.get(k) for k in (*keys, "state", "status", "error")) for p in doc["partitions"])


def test_the_workers_do_not_see_the_driver_files(env: Env) -> None:
    marker = env.out / "driver-only"
    marker.write_text("x")
    for n in (0, 1):
        assert not env.cluster.worker_sees(marker, n)
        assert not env.cluster.worker_sees(REPO_ROOT / ".venv" / "bin" / "python", n)
        assert not env.cluster.worker_sees(env.ca_file, n)
        assert env.cluster.worker_sees(env.cluster.executor_python, n)
    assert env.ca_file.is_file() and env.cluster.worker_sees(Path("/tmp"), 0)


def test_cluster_records_equal_local_and_no_secret_travels(env: Env, tmp_path: Path) -> None:
    local = env.run("-o", "json", master="local[2]")
    assert local.code == 0, local.stderr
    events = tmp_path / "events"
    events.mkdir()
    payloads = tmp_path / "payloads.bin"
    table = env.out / "table"
    shared = env.cluster.state / "history"  # a directory the driver and both workers have
    run = env.run(
        "-o", "json", "--write", "parquet", "--write-dir", str(table), "--history", f"file://{shared}",
        "--conf", "spark.eventLog.enabled=true", "--conf", f"spark.eventLog.dir=file://{events}",
        "--conf", "spark.eventLog.compress=false",  # greppable
        record=payloads,
    )  # fmt: skip
    assert run.code == 0, run.stderr + env.cluster.logs()[-3000:]
    doc, ref = json.loads(run.stdout), json.loads(local.stdout)
    assert _comparable(doc) == _comparable(ref)
    clusters = {(p["cluster"], p["check"]) for p in doc["partitions"] if p["error"] is None}
    assert clusters == {(c, k) for c in ("plain", "secure") for k in ("alive", "lag")}  # both answered
    lags = {(p["cluster"], p["partition"]): p["lag"] for p in doc["partitions"] if p["check"] == "lag"}
    assert lags == {("plain", 0): 1, ("plain", 1): 2, ("plain", 2): 3, ("secure", 0): 3, ("secure", 1): 2}

    import pyarrow.parquet as pq  # --write: on the driver, whole

    assert sorted(p.name for p in table.iterdir()) == ["_SUCCESS", "part-00000.parquet"]
    assert pq.read_table(table).num_rows == len(doc["partitions"])
    assert pq.read_table(shared).num_rows == len(lags)  # the executors' history, read on the driver
    assert all(p["time_lag_ms"] is not None for p in doc["partitions"] if p["check"] == "lag")

    # the password: in no task payload, event log, executor log or work directory
    recorded = payloads.read_bytes()
    assert len(recorded) > 1000 and env.topics[1].encode() in recorded  # the units were recorded
    assert env.password.encode() not in recorded
    logs = [p for p in events.rglob("*") if p.is_file()]
    assert logs, "no event log written"
    text = "".join(p.read_text(errors="replace") for p in logs)
    for key in ("spark.authenticate", "spark.network.crypto.enabled", "spark.io.encryption.enabled"):
        assert f'"{key}":"true"' in text, key  # on for a cluster master
    for f in [*logs, *(p for p in env.cluster.state.rglob("*") if p.is_file() and "venv" not in p.parts)]:
        data = f.read_bytes()
        assert env.password.encode() not in data, f"the password is in {f}"
        if env.cluster.secret is not None and f.suffix != ".properties":
            assert env.cluster.secret.encode() not in data, f"Spark's secret is in {f}"


def test_missing_executor_dependency_is_one_line(env: Env) -> None:
    bare = spark_cluster.executor_venv(env.cluster.state / "bare-venv", ())
    run = env.run("-o", "json", "--conf", f"spark.pyspark.python={bare}")
    assert run.code == 3, run.stderr
    assert run.stdout == ""  # nothing half-printed
    line = assert_one_error_line(run.stderr, contains="cannot import confluent_kafka")
    assert str(bare) in line


def test_missing_file_is_one_line_before_anything_runs(env: Env, tmp_path: Path) -> None:
    gone = tmp_path / "no-such-ca.pem"
    spec = tmp_path / "spec.yaml"
    spec.write_text(env.spec.read_text().replace(str(env.ca_file), str(gone)))
    run = Env(env.cluster, spec, env.password, env.ca_file, env.out, env.topics).run("-o", "json")
    assert run.code == 3, run.stderr  # a usage error of a monitoring check: UNKNOWN
    assert_one_error_line(run.stderr, contains=f"ssl.ca.location {gone}")
    assert "no such file" in run.stderr and run.stdout == ""


def test_history_on_a_path_executors_cannot_share_is_refused(env: Env) -> None:
    run = env.run("-o", "json", "--history", str(env.out / "history"))
    assert run.code == 3, run.stderr
    assert_one_error_line(run.stderr, contains="give a URI every node shares")
    assert not (env.out / "history").exists()


def test_an_executor_python_that_is_not_there_is_named(env: Env) -> None:
    """The driver's own interpreter (a path the workers do not have): Spark's Java-side cause, named."""
    driver_python = REPO_ROOT / ".venv" / "bin" / "python"
    run = env.run("-o", "json", "--conf", f"spark.pyspark.python={driver_python}")
    assert run.code == 3, run.stderr
    assert run.stdout == ""  # nothing half-printed
    line = assert_one_error_line(run.stderr, contains=f'Cannot run program "{driver_python}"')
    assert "collectAndServe" not in line


def test_history_written_where_the_driver_cannot_read_it_back_is_an_error(env: Env) -> None:
    """A file:// URI claims a shared mount; the workers do not have this one: caught on reading back."""
    run = env.run("-o", "json", "--history", f"file://{env.out / 'not-shared'}")
    assert run.code == 3, run.stderr
    assert json.loads(run.stdout)["status"], run.stdout  # the verdict is kept, whole (issue 27.5)
    line = assert_one_error_line(run.stderr, contains="sample(s) written, 0 read back")
    assert "not shared by the driver and every executor" in line


#: A driver of the user's own: a classic session on the cluster, the data source registered on it,
#: its rows (argv: master, bootstrap, topic, group, then the cluster's --conf items) as JSON lines.
DATA_SOURCE_DRIVER = """
import json, sys
from pyspark.sql import SparkSession
from kafka_offsets_cli.spark import register
master, bootstrap, topic, group, *conf = sys.argv[1:]
builder = SparkSession.builder.master(master).appName("kafka-offsets-data-source")
for item in conf:
    key, _, value = item.partition("=")
    builder = builder.config(key, value)
spark = builder.getOrCreate()
register(spark)
register(spark)  # again: shipped once
def read():
    return spark.read.format("kafka-offsets").option("bootstrap.servers", bootstrap)
offsets = read().option("topics", topic).option("specs", "earliest,latest").load()
lag = read().option("kind", "lag").option("groups", group).load()
tiers = read().option("kind", "tiering").option("topics", topic).load()
for kind, frame in (("offsets", offsets), ("lag", lag), ("tiering", tiers)):
    for row in frame.collect():
        print(json.dumps({"kind": kind, **row.asDict()}, default=str))
spark.stop()
"""


#: what the executors' Python needs for the data source (docs/reference.md "PySpark data source")
DATA_SOURCE_EXECUTOR = ("confluent-kafka", "pyarrow", "regex")


def test_the_data_source_on_the_cluster_ships_the_package_and_equals_the_commands(
    env: Env, bootstrap: str
) -> None:
    from kafka_offsets_cli.spark.deploy import SECURE_CONF

    plain = env.topics[0]
    group = f"g-{plain.removeprefix('plain-')}"
    # the executors' Python as docs/reference.md says the data source needs it (regex: its read is
    # planned with it); a path the driver and the workers both have
    python = spark_cluster.executor_venv(env.cluster.state / "source-venv", (*DATA_SOURCE_EXECUTOR,))
    conf = [c for c in env.cluster.spark_conf() if not c.startswith("spark.pyspark.python=")]
    conf += [f"spark.pyspark.python={python}", *(f"{k}={v}" for k, v in SECURE_CONF)]
    p = subprocess.run(
        [sys.executable, "-c", DATA_SOURCE_DRIVER, env.cluster.master_url, bootstrap, plain, group, *conf],
        # the read is planned by a Python worker beside the driver: PYSPARK_PYTHON's (docs/reference.md)
        cwd=REPO_ROOT, env=child_env(PYSPARK_PYTHON=str(python)), stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    causes = "\n".join(ln for ln in p.stderr.splitlines() if "Error" in ln and not ln.startswith("\tat "))
    assert p.returncode == 0, causes[-4000:] + env.cluster.logs()[-2000:]
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    offsets = {(r["partition"], r["spec"]): r["offset"] for r in rows if r["kind"] == "offsets"}
    listed = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", "list", "-b", bootstrap, "-t", plain, "-s", "earliest",
         "-s", "latest", "-o", "json"],
        cwd=REPO_ROOT, env=child_env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert offsets == {(r["partition"], r["spec"]): r["offset"] for r in json.loads(listed.stdout)}
    lags = {r["partition"]: r["lag"] for r in rows if r["kind"] == "lag" and r["topic"] == plain}
    assert lags == {0: 1, 1: 2, 2: 3}
    # kind tiering: answered beside the driver, its rows read by the executors: the command's
    tiering = subprocess.run(
        [sys.executable, "-m", "kafka_offsets_cli", "tiering", "-b", bootstrap, "-t", plain, "-o", "json"],
        cwd=REPO_ROOT, env=child_env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert tiering.returncode == 0, tiering.stderr
    got = sorted(({k: v for k, v in r.items() if k != "kind"} for r in rows if r["kind"] == "tiering"),
                 key=lambda r: r["partition"])  # fmt: skip
    assert got == sorted(json.loads(tiering.stdout), key=lambda r: r["partition"]) and len(got) == 3
