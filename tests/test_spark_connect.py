"""``kafka-offsets check --remote sc://HOST:PORT`` against a real Spark Connect server.

The server (dev/spark_connect.py) is the pyspark package's own ``SparkConnectServer`` on a free
loopback port, master ``local[2]``; its Python workers run a venv holding only what docs/reference.md
says the server's Python needs for the data source (confluent-kafka, pyarrow and regex; ``check``
alone needs the first two, as tests/test_install_matrix.py shows): the ``kafka_offsets_cli`` package
reaches them as a session artifact. Python workers are not reused (each task a fresh process), so
hiding a package from that venv shows at the next task.

Checked: an unreachable server is one line and UNKNOWN (3); --remote with --master, a bad URL
and secrets over a cleartext channel to another host are usage errors (2) before anything runs;
the preflight over Connect answers from the server's workers and names a missing module; files
and secrets of cluster settings reach the tasks as session files (no secret in the pickled
function); stopping the runtime leaves the server running; a job that fails on the server (its
Python workers lack pyarrow) is one line naming the workers' error, and ``--debug`` shows the
server's side (condition, Java exception, the JVM's stack trace). Under CI=true a server that
cannot start fails these tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dev import spark_connect
from dev.kafka_data import commit_group_offsets, create_topic, produce
from dev.spark_cluster import executor_venv
from kafka_offsets_cli.check.plan import WorkUnit
from kafka_offsets_cli.connection.properties import Setting
from kafka_offsets_cli.connection.settings import ClientSettings
from tests.availability import unavailable
from tests.fault_helpers import assert_one_error_line, run_timed

PASSWORD = "pw-connect-7f3e2a"


@dataclass
class Server:
    server: spark_connect.ConnectServer
    python: Path  # the server's Python workers' interpreter (a venv of the test's own)

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture(scope="module")
def connect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A Spark Connect server for the module (its workers: a venv with confluent-kafka and pyarrow)."""
    state = tmp_path_factory.mktemp("spark-connect")
    try:
        python = executor_venv(state / "worker-venv", (*spark_connect.EXECUTOR_DISTRIBUTIONS, "regex"))
        server = spark_connect.up(state, python=python, conf=["spark.python.worker.reuse=false"])
    except Exception as exc:
        unavailable(f"Spark Connect server could not be started: {exc}")
    try:
        yield Server(server, python)
    finally:
        server.down()


@pytest.fixture
def runtime(connect_server: Server) -> Iterator[Any]:
    """A client session of the module's server (stopped after the test)."""
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    rt = start_session(SessionOptions(remote=connect_server.url))
    try:
        yield rt
    finally:
        rt.stop()


def spec_file(tmp_path: Path, bootstrap: str, extra: str = "", topic: str = "t") -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(
        f"clusters:\n  c: {{bootstrap_servers: '{bootstrap}'{extra}}}\n"
        "checks:\n  - {name: alive, type: liveness, cluster: c, "
        f"topics: ['{topic}'], warn: 5m, crit: 15m}}\n"
    )
    return str(path)


# ----------------------------------------------------------------------------- usage errors (no Spark)


def test_remote_with_master_is_a_usage_error(tmp_path: Path) -> None:
    spec = spec_file(tmp_path, "127.0.0.1:1")
    r = run_timed("check", spec, "--remote", "sc://127.0.0.1:15002", "--master", "local[2]")
    assert r.code == 3  # check: a usage error is UNKNOWN
    assert_one_error_line(r.stderr, contains="cannot be used together")
    assert r.stdout == ""
    # SPARK_REMOTE (as pyspark honours it) and KAFKA_OFFSETS_SPARK_MASTER: the same conflict
    r = run_timed("check", spec, SPARK_REMOTE="sc://127.0.0.1:15002", KAFKA_OFFSETS_SPARK_MASTER="local[1]")
    assert r.code == 3  # check: a usage error is UNKNOWN
    assert_one_error_line(r.stderr, contains="--remote (or SPARK_REMOTE)")


def test_history_path_of_this_machine_is_refused_with_remote(tmp_path: Path) -> None:
    """As with a cluster master: the server's executors would write a path only this machine has."""
    spec = spec_file(tmp_path, "127.0.0.1:1")
    r = run_timed("check", spec, "--remote", "sc://127.0.0.1:15002", "--history", str(tmp_path / "h"))
    assert r.code == 3  # check: a usage error is UNKNOWN
    assert_one_error_line(r.stderr, contains="--history")


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1:15002", "starts with sc://"),
        ("sc://127.0.0.1:15002/path", "no path"),
        ("sc://127.0.0.1:99999", "port"),
        ("sc://127.0.0.1:15002/;use_ssl", "not key=value"),
    ],
)
def test_bad_remote_url_is_a_usage_error(tmp_path: Path, url: str, why: str) -> None:
    r = run_timed("check", spec_file(tmp_path, "127.0.0.1:1"), "--remote", url)
    assert r.code == 3  # check: a usage error is UNKNOWN
    assert_one_error_line(r.stderr, contains=why)


def test_remote_urls_as_pyspark_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from kafka_offsets_cli.spark.connect import parse_remote

    monkeypatch.delenv("SPARK_CONNECT_AUTHENTICATE_TOKEN", raising=False)
    r = parse_remote("sc://spark.example")
    assert (r.host, r.port, r.tls, r.loopback) == ("spark.example", 15002, False, False)
    r = parse_remote("sc://spark.example:443/;use_ssl=true;token=s3cr3t")
    assert (r.port, r.tls, r.shown) == (443, True, "sc://spark.example:443")  # no token shown
    assert parse_remote("sc://10.1.2.3:1/;token=abc").tls  # a token means TLS, as in pyspark
    assert parse_remote("sc://[::1]:15002").loopback and parse_remote("sc://[::1]:15002").shown == (
        "sc://[::1]:15002"
    )
    assert parse_remote("sc://localhost").loopback and parse_remote("sc://127.0.0.2:1").loopback
    monkeypatch.setenv("SPARK_CONNECT_AUTHENTICATE_TOKEN", "t")
    assert parse_remote("sc://spark.example").tls


def test_secrets_over_a_cleartext_channel_to_another_host_are_refused(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        "127.0.0.1:1",
        ", properties: {security.protocol: SASL_SSL, sasl.mechanism: PLAIN}, "
        "sasl_username: u, sasl_password_env: KOS_CONNECT_PW",
    )
    # 192.0.2.1 (TEST-NET-1) is never contacted: the refusal comes before any connection
    r = run_timed("check", spec, "--remote", "sc://192.0.2.1:15002", "-o", "nagios", KOS_CONNECT_PW=PASSWORD)
    assert r.code == 3  # check: a usage error is UNKNOWN
    line = assert_one_error_line(r.stderr, contains="sasl.password would travel in cleartext")
    assert "use_ssl=true" in line
    assert PASSWORD not in r.stderr + r.stdout


# ----------------------------------------------------------------------------- a real server


@pytest.mark.spark
def test_unreachable_server_is_one_line_and_unknown(bootstrap: str, tmp_path: Path, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)  # a partition to collect: Spark is needed
    spec = spec_file(tmp_path, bootstrap, topic=topic_name)
    url = f"sc://127.0.0.1:{spark_connect.free_port()}"  # nothing listens there
    r = run_timed("check", spec, "--remote", url, "-o", "nagios")
    assert r.code == 3
    assert_one_error_line(r.stderr, contains=f"the Spark Connect server {url} could not be reached")
    assert r.stdout.startswith("KAFKA CHECK UNKNOWN - the Spark Connect server"), r.stdout


@pytest.mark.spark
def test_spark_ui_with_remote_says_it_has_no_effect(bootstrap: str, tmp_path: Path, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, partitions=1)
    spec = spec_file(tmp_path, bootstrap, topic=topic_name)
    url = f"sc://127.0.0.1:{spark_connect.free_port()}"  # nothing listens there
    r = run_timed("check", spec, "--remote", url, "--spark-ui", "-o", "nagios")
    assert r.code == 3
    assert "warning: --spark-ui has no effect with --remote" in r.stderr, r.stderr


@pytest.mark.spark
def test_preflight_over_connect(connect_server: Server, runtime: Any) -> None:
    from kafka_offsets_cli.spark.preflight import preflight

    assert runtime.connect and runtime.sc is None and not runtime.local
    answers = preflight(runtime)
    assert len(answers) == 2  # a task per core of the server (local[2])
    assert {python for _, python, _, _ in answers} == {str(connect_server.python)}
    assert all(missing is None for *_, missing in answers)


@pytest.mark.spark
def test_preflight_names_what_the_servers_python_lacks(connect_server: Server, runtime: Any) -> None:
    from kafka_offsets_cli.spark.preflight import preflight
    from kafka_offsets_cli.spark.runtime import SparkUnavailable

    site = next((connect_server.python.parent.parent / "lib").glob("python3*/site-packages"))
    package, hidden = site / "confluent_kafka", site / "confluent_kafka.hidden-by-test"
    package.rename(hidden)
    try:
        with pytest.raises(SparkUnavailable) as e:
            preflight(runtime)
    finally:
        hidden.rename(package)
    assert "cannot import confluent_kafka" in e.value.message
    assert str(connect_server.python) in e.value.message
    assert e.value.hint is not None and "Spark Connect server" in e.value.hint
    assert all(m is None for *_, m in preflight(runtime))  # back: the next task imports it again


def _site_packages(python: Path) -> Path:
    return next((python.parent.parent / "lib").glob("python3*/site-packages"))


@pytest.mark.spark
def test_a_job_failing_on_the_server_names_its_cause_and_debug_shows_the_server_side(
    connect_server: Server, bootstrap: str, tmp_path: Path, topic_name: str
) -> None:
    """A real failure of a job: without pyarrow the server's Python workers cannot run the first
    Arrow task (the preflight's, whose probe never gets to answer): a PythonException from the server."""
    create_topic(bootstrap, topic_name, partitions=1)
    spec = spec_file(tmp_path, bootstrap, topic=topic_name)
    site = _site_packages(connect_server.python)
    package, hidden = site / "pyarrow", site / "pyarrow.hidden-by-test"
    package.rename(hidden)
    try:
        plain = run_timed("check", spec, "--remote", connect_server.url, "-o", "nagios", timeout=400)
        debug = run_timed(
            "check", spec, "--remote", connect_server.url, "-o", "nagios", "--debug", timeout=400
        )
    finally:
        hidden.rename(package)
    cause = "ModuleNotFoundError: No module named 'pyarrow' (in a Python worker of the Spark Connect server)"
    assert plain.code == 3, plain.stderr + connect_server.server.log_tail()
    line = assert_one_error_line(plain.stderr, contains=f"the Spark job failed: {cause}")
    assert "--debug" in plain.stderr  # the hint
    assert plain.stdout.startswith(f"KAFKA CHECK UNKNOWN - the Spark job failed: {cause}"), plain.stdout
    # --debug: the same line, and the server's side of the error besides the worker's traceback
    assert debug.code == 3, debug.stderr
    assert line in debug.stderr.splitlines()
    assert "Spark Connect server detail:\ncondition: PYTHON_EXCEPTION; SQLSTATE: 38000" in debug.stderr
    assert "server exception: org.apache.spark.api.python.PythonException" in debug.stderr
    assert (
        "server stack trace:\norg.apache.spark.api.python.PythonException: [PYTHON_EXCEPTION]" in debug.stderr
    )
    assert "\tat org.apache.spark.api.python.BasePythonRunner" in debug.stderr  # JVM frames of the server
    assert "BasePythonRunner" not in plain.stderr and "import pyarrow" not in plain.stderr
    assert all(m is None for *_, m in _preflight(connect_server))  # back: the next task imports it again


def _preflight(connect_server: Server) -> list[Any]:
    from kafka_offsets_cli.spark.preflight import preflight
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    with start_session(SessionOptions(remote=connect_server.url)) as rt:
        return preflight(rt)


@pytest.mark.spark
def test_debug_asks_the_server_for_its_stack_traces(connect_server: Server) -> None:
    from kafka_offsets_cli.spark.connect import DEBUG_CONF
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    with start_session(SessionOptions(remote=connect_server.url, debug=True)) as rt:
        assert [(k, rt.spark.conf.get(k)) for k, _ in DEBUG_CONF] == list(DEBUG_CONF)
    with start_session(SessionOptions(remote=connect_server.url)) as rt:
        assert rt.spark.conf.get("spark.sql.pyspark.jvmStacktrace.enabled") == "false"


@pytest.mark.spark
def test_files_and_secrets_reach_tasks_as_session_files(
    connect_server: Server, runtime: Any, tmp_path: Path
) -> None:
    from pyspark.cloudpickle import dumps

    from kafka_offsets_cli.spark.ship import SecretsFile, localized, ship_units

    ca = tmp_path / "ca.pem"
    ca.write_text("-- not a real CA, read back by the task --\n")
    settings = ClientSettings(
        bootstrap_servers="127.0.0.1:1",
        properties={
            "ssl.ca.location": Setting(str(ca), "spec:3"),
            "sasl.password": Setting(PASSWORD, "spec:4"),
        },
    )
    unit = WorkUnit(cluster="c", index=0, settings=settings, live=(), groups=(), time_lag=False, chunk_size=1)
    units, source = ship_units(runtime, [unit])
    assert isinstance(source, SecretsFile)
    assert units[0].settings.properties["sasl.password"].value == ""

    def task(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for _ in batches:
            pass
        for u in units:
            props = localized(u, source.value).settings.properties
            path = props["ssl.ca.location"].value
            with open(path) as f:
                text = f.read()
            row = {"path": path, "text": text, "password": props["sasl.password"].value}
            yield pa.RecordBatch.from_pylist([row])

    assert PASSWORD.encode() not in dumps(task)  # type: ignore[no-untyped-call]  # the function Spark ships holds no secret
    rows = runtime.spark.range(0, 1, 1, 1).mapInArrow(task, "path string, text string, password string")
    (row,) = rows.collect()
    assert row.password == PASSWORD
    assert row.text == ca.read_text()
    assert row.path != str(ca)  # the task read the server's copy


@pytest.mark.spark
def test_stopping_the_runtime_leaves_the_server_running(connect_server: Server) -> None:
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    first = start_session(
        SessionOptions(remote=connect_server.url, conf=[("spark.sql.shuffle.partitions", "3")])
    )
    assert first.spark.range(3).count() == 3
    assert first.spark.conf.get("spark.sql.shuffle.partitions") == "3"  # --conf: a session setting
    assert first.spark.conf.get("spark.sql.session.timeZone") == "UTC"
    first.stop()
    assert connect_server.server.proc.poll() is None and connect_server.server.accepts()
    second = start_session(SessionOptions(remote=connect_server.url))
    try:
        assert second.spark.range(5).count() == 5
    finally:
        second.stop()


def _comparable(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each record without the fields that depend on when the run happened (ages)."""
    keys = ("check", "cluster", "topic", "partition", "group", "committed", "end", "lag", "timestamp")
    return sorted(tuple(p.get(k) for k in (*keys, "state", "status", "error")) for p in doc["partitions"])


@pytest.mark.spark
def test_check_over_connect_gives_the_records_of_local(
    connect_server: Server, bootstrap: str, tmp_path: Path, topic_name: str
) -> None:
    group = f"g-{topic_name}"
    create_topic(bootstrap, topic_name, partitions=3)
    produce(bootstrap, topic_name, [(p, None, None, "x") for p in range(3) for _ in range(p + 2)])
    commit_group_offsets(bootstrap, group, {(topic_name, p): 1 for p in range(3)})
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"clusters:\n  c: {{bootstrap_servers: '{bootstrap}'}}\n"
        "checks:\n"
        f"  - {{name: alive, type: liveness, cluster: c, topics: ['{topic_name}'], warn: 5m, crit: 15m}}\n"
        f"  - {{name: lag, type: lag, cluster: c, groups: ['{group}'], topics: ['{topic_name}'], "
        "warn_lag: 2, crit_lag: 100}\n"
    )
    remote = run_timed("check", str(spec), "--remote", connect_server.url, "-o", "json", timeout=400)
    local = run_timed("check", str(spec), "--master", "local[2]", "-o", "json", timeout=400)
    assert local.code == 1, local.stderr  # the lag of partition 2 (3) is over warn_lag
    assert remote.code == local.code, remote.stderr + connect_server.server.log_tail()
    doc, ref = json.loads(remote.stdout), json.loads(local.stdout)
    assert _comparable(doc) == _comparable(ref)
    assert [(c["name"], c["status"]) for c in doc["checks"]] == [
        (c["name"], c["status"]) for c in ref["checks"]
    ]
    lags = {p["partition"]: p["lag"] for p in doc["partitions"] if p["check"] == "lag"}
    assert lags == {0: 1, 1: 2, 2: 3}
    assert connect_server.server.accepts()  # the run released its session; the server goes on


#: A client of the user's own on the server: the data source registered, its rows as JSON lines
#: (argv: the server's URL, bootstrap, topic, group).
CONNECT_SOURCE_DRIVER = """
import json, sys
from pyspark.sql import SparkSession
from kafka_offsets_cli.spark import register
url, bootstrap, topic, group = sys.argv[1:]
spark = SparkSession.builder.remote(url).getOrCreate()
register(spark)
def read():
    return spark.read.format("kafka-offsets").option("bootstrap.servers", bootstrap)
offsets = read().option("topics", topic).option("specs", "earliest,latest").load()
lag = read().option("kind", "lag").option("groups", group).load()
live = read().option("kind", "liveness").option("topics", topic).option("warn", "1h")
live = live.option("crit", "1d").load()
tiers = read().option("kind", "tiering").option("topics", topic).load()
for kind, frame in (("offsets", offsets), ("lag", lag), ("liveness", live), ("tiering", tiers)):
    for row in frame.collect():
        print(json.dumps({"kind": kind, **row.asDict()}, default=str))
spark.stop()
"""


@pytest.mark.spark
def test_the_data_source_over_connect_equals_the_commands(
    connect_server: Server, bootstrap: str, topic_name: str
) -> None:
    import subprocess
    import sys

    from tests.fault_helpers import REPO_ROOT, child_env

    group = f"g-{topic_name}"
    create_topic(bootstrap, topic_name, partitions=2)
    produce(bootstrap, topic_name, [(p, None, None, "x") for p in range(2) for _ in range(p + 3)])
    commit_group_offsets(bootstrap, group, {(topic_name, p): 1 for p in range(2)})
    p = subprocess.run(
        [sys.executable, "-c", CONNECT_SOURCE_DRIVER, connect_server.url, bootstrap, topic_name, group],
        cwd=REPO_ROOT, env=child_env(), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    causes = "\n".join(ln for ln in p.stderr.splitlines() if "Error" in ln)
    assert p.returncode == 0, causes[-3000:] + connect_server.server.log_tail()
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    listed = run_timed(
        "list", "-b", bootstrap, "-t", topic_name, "-s", "earliest", "-s", "latest", "-o", "json"
    )
    assert listed.code == 0, listed.stderr
    want = {(r["partition"], r["spec"]): r["offset"] for r in json.loads(listed.stdout)}
    assert {(r["partition"], r["spec"]): r["offset"] for r in rows if r["kind"] == "offsets"} == want
    assert {r["partition"]: r["lag"] for r in rows if r["kind"] == "lag"} == {0: 2, 1: 3}
    # kinds liveness and tiering: their commands' records (ages aside: each measured when read)
    for kind, extra in (("liveness", ("--warn", "1h", "--crit", "1d")), ("tiering", ())):
        direct = run_timed(kind, "-b", bootstrap, "-t", topic_name, *extra, "-o", "json")
        assert direct.code == 0, direct.stderr
        want_rows = {r["partition"]: {**r, "age_ms": None} for r in json.loads(direct.stdout)}
        got_rows = {
            r["partition"]: {k: v for k, v in r.items() if k != "kind"} | {"age_ms": None}
            for r in rows
            if r["kind"] == kind
        }
        assert got_rows == want_rows and len(got_rows) == 2, kind
