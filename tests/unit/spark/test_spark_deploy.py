"""Deploying ``check`` on a cluster, without starting Spark: the executors' python, Spark's security
settings, a failed job's Java-side cause, secrets and files out of the work units,
and where history may go (the real cluster: tests/test_spark_cluster.py; driver-side writes,
which need pyarrow: tests/test_spark_write.py)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from kafka_offsets_cli.check.plan import WorkUnit
from kafka_offsets_cli.check.spec import CheckSpec, ClusterSpec
from kafka_offsets_cli.connection.properties import Setting
from kafka_offsets_cli.connection.settings import ClientSettings
from kafka_offsets_cli.errors import ConfigError, UsageError
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.spark.deploy import add_pyfile_artifact, executor_python, is_local, secure_conf
from kafka_offsets_cli.spark.failure import job_failure
from kafka_offsets_cli.spark.history_store import require_shared
from kafka_offsets_cli.spark.ship import SHIPPED, check_files, localized, strip_units

JAVA_TRACE = (
    "An error occurred while calling z:org.apache.spark.api.python.PythonRDD.collectAndServe.\n"
    ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 1 in stage 0.0 failed 4 "
    "times, most recent failure: Lost task 1.3 in stage 0.0 (TID 7) (10.0.0.5 executor 1): "
    'java.io.IOException: Cannot run program "/opt/venv/bin/python": error=2, No such file or directory\n'
    "\tat java.base/java.lang.ProcessBuilder.start(ProcessBuilder.java:1143)\n"
    "Caused by: java.io.IOException: error=2, No such file or directory\n"
)


def test_executor_python_follows_spark_then_the_environment_then_the_master() -> None:
    conf = [("spark.pyspark.python", "/opt/env/bin/python")]
    assert executor_python("spark://m:7077", conf, {"PYSPARK_PYTHON": "/x"}) == "/opt/env/bin/python"
    assert (
        executor_python("yarn", [], {"PYSPARK_PYTHON": "./environment/bin/python"})
        == "./environment/bin/python"
    )
    assert executor_python("k8s://https://k:443", [], {}) is None  # Spark's default, python3
    assert executor_python("local[*]", [], {}) == sys.executable
    assert is_local("local") and is_local("local[4]") and not is_local("local-cluster[2,1,1024]")


def test_security_is_on_for_a_cluster_unless_the_user_says_otherwise() -> None:
    assert secure_conf("local[2]", []) == []
    got = dict(secure_conf("spark://m:7077", [("spark.io.encryption.enabled", "false")]))
    assert got == {"spark.authenticate": "true", "spark.network.crypto.enabled": "true"}


@pytest.mark.parametrize("off", ["false", "FALSE", " False "])
def test_without_authentication_the_encryption_that_needs_it_is_not_added(off: str) -> None:
    """The README's standalone line without a secret: Spark refuses RPC encryption without authentication."""
    got = dict(secure_conf("spark://m:7077", [("spark.authenticate", off)]))
    assert got == {"spark.io.encryption.enabled": "true"}  # local-disk encryption does not need it
    mine = [("spark.authenticate", "false"), ("spark.network.crypto.enabled", "true")]
    assert dict(secure_conf("spark://m:7077", mine)) == {"spark.io.encryption.enabled": "true"}


def test_a_failed_job_names_the_java_side_cause_and_where() -> None:
    e = job_failure(Exception(JAVA_TRACE))
    assert e.message == (
        'the Spark job failed: java.io.IOException: Cannot run program "/opt/venv/bin/python": '
        "error=2, No such file or directory (on 10.0.0.5 executor 1)"
    )
    only_caused = "An error occurred while calling o1.x.\nCaused by: java.net.ConnectException: refused\n"
    assert (
        job_failure(Exception(only_caused)).message
        == "the Spark job failed: java.net.ConnectException: refused"
    )


def _unit(props: dict[str, str]) -> WorkUnit:
    settings = ClientSettings("h:1", {k: Setting(v, "spec.yaml:3") for k, v in props.items()})
    return WorkUnit(
        cluster="c",
        index=0,
        settings=settings,
        live=(TopicPartition("t", 0),),
        groups=(),
        time_lag=False,
        chunk_size=10,
    )


def test_secrets_leave_the_units_and_come_back_in_the_task(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("CA")
    unit = _unit({"sasl.password": "hunter2-secret", "sasl.username": "u", "ssl.ca.location": str(ca)})
    units, secrets = strip_units([unit], ship_to=None)
    assert b"hunter2-secret" not in pickle.dumps(units)
    assert secrets == {"c": {"sasl.password": "hunter2-secret"}}
    back = localized(units[0], secrets)
    assert back.settings.librdkafka_config() == unit.settings.librdkafka_config()
    assert back.settings.source_of("sasl.password") == "spec.yaml:3"


def test_files_are_shipped_under_unique_names(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        (d / "ca.pem").write_text(d.name)
    added: list[str] = []
    ship = tmp_path / "ship"
    ship.mkdir()
    units, _ = strip_units(
        [_unit({"ssl.ca.location": str(a / "ca.pem")}), _unit({"ssl.ca.location": str(b / "ca.pem")})],
        ship_to=ship,
        add_file=added.append,
    )
    values = [u.settings.properties["ssl.ca.location"].value for u in units]
    assert values == [SHIPPED + "0-ca.pem", SHIPPED + "1-ca.pem"]
    assert [Path(p).read_text() for p in added] == ["a", "b"]


def test_a_missing_file_names_cluster_setting_path_and_source(tmp_path: Path) -> None:
    gone = tmp_path / "gone.pem"
    settings = ClientSettings("h:1", {"ssl.ca.location": Setting(str(gone), "spec.yaml:7")})
    spec = CheckSpec(clusters={"dr": ClusterSpec("dr", settings)}, checks=(), source="spec.yaml")
    with pytest.raises(ConfigError) as e:
        check_files(spec)
    assert e.value.message == f"cluster 'dr': ssl.ca.location {gone} (spec.yaml:7): no such file"


def test_history_with_a_cluster_master_needs_a_shared_uri() -> None:
    require_shared("/var/lib/h", local_master=True)
    require_shared("hdfs://nn/h", local_master=False)
    require_shared("file:///mnt/shared/h", local_master=False)
    with pytest.raises(UsageError, match="give a URI every node shares"):
        require_shared("/var/lib/h", local_master=False)


class _ConnectClient:
    """What pyspark's Connect client does with a local pyfile zip (pyspark/sql/connect/client/artifact.py)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def addArtifacts(self, path: str, pyfile: bool = False) -> None:  # pyspark's name
        assert pyfile
        sys.path.insert(1, path)
        self.sent.append(path)


def test_a_pyfile_artifact_goes_to_the_executors_and_leaves_this_process_path(tmp_path: Path) -> None:
    path = str(tmp_path / "kafka_offsets_cli.zip")
    before = list(sys.path)
    spark = _ConnectClient()
    add_pyfile_artifact(spark, path)
    assert spark.sent == [path]
    assert sys.path == before  # kafka-python is not imported from a zip deleted with the session
