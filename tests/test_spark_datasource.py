"""The ``kafka-offsets`` PySpark data source on a real broker and a local Spark session: its rows
are ``kafka-offsets list -o json``'s (kinds lag, liveness, tiering: that command's ``-o json``) on the
same data, row for row (options and rows without Spark: tests/unit/spark/test_source_*.py)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.measures.lag.rows import COLUMNS as LAG_COLUMNS
from kafka_offsets_cli.measures.liveness import COLUMNS as LIVENESS_COLUMNS
from kafka_offsets_cli.render.offsets import COLUMNS
from kafka_offsets_cli.spark import register
from kafka_offsets_cli.tiering.rules import COLUMNS as TIERING_COLUMNS
from tests.cli_runner import cli
from tests.fault_helpers import REPO_ROOT
from tests.kafka_helpers import read_as_share_group

pytestmark = pytest.mark.spark

BASE = 1_700_000_000_000
# CreateTime out of order in partition 0: max-timestamp (offset 2) is not latest - 1
P0_TIMES = [BASE + 5000, BASE + 1000, BASE + 9000, BASE + 3000, BASE + 7000]
P1_TIMES = [BASE + 2000, BASE + 4000, BASE + 6000]
#: earliest, latest, max-timestamp, a time between records, an ISO time (the same instant as BASE+4000)
SPECS = ("earliest", "latest", "max-timestamp", str(BASE + 2500), "2023-11-14T22:13:24Z")


@pytest.fixture(scope="module")
def topic(bootstrap: str) -> Iterator[str]:
    name = f"sds-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, name, partitions=3, config={"retention.ms": "-1"})  # p2 stays empty
    produce(bootstrap, name, [(0, ts, None, f"v{i}") for i, ts in enumerate(P0_TIMES)])
    produce(bootstrap, name, [(1, ts, None, f"w{i}") for i, ts in enumerate(P1_TIMES)])
    yield name


def _key(r: dict[str, Any]) -> tuple[str, int, str]:
    return (r["topic"], -1 if r["partition"] is None else r["partition"], r["spec"])


def _source_rows(spark: Any, options: dict[str, str]) -> list[dict[str, Any]]:
    df = spark.read.format("kafka-offsets").options(**options).load()
    assert tuple(df.columns) == COLUMNS
    return sorted((row.asDict() for row in df.collect()), key=_key)


def _list_rows(*args: str) -> list[dict[str, Any]]:
    run = cli("list", *args, "-o", "json")
    assert run.code in (0, 1), run.stderr  # 1: some queries failed (the error rows)
    return sorted(run.json(), key=_key)


def test_rows_equal_list_json(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    register(spark_runtime.spark)
    # partition 3 does not exist: list's error row, in both
    got = _source_rows(
        spark_runtime.spark,
        {"bootstrap.servers": bootstrap, "topics": topic, "partitions": "0,1,2,3", "specs": ",".join(SPECS)},
    )
    expected = _list_rows("-b", bootstrap, "-t", topic, "--partitions", "0,1,2,3", *(f"-s{s}" for s in SPECS))
    assert got == expected
    by = {_key(r): r for r in got}
    assert len(got) == 4 * len(SPECS)  # 4 partitions (one missing) x 5 specs
    assert (
        by[(topic, 0, "max-timestamp")]["offset"] == 2
        and by[(topic, 0, "max-timestamp")]["timestamp"] == BASE + 9000
    )
    assert by[(topic, 1, str(BASE + 2500))]["offset"] == 1
    assert by[(topic, 1, str(BASE + 4000))]["timestamp"] == BASE + 4000  # the ISO time, as epoch ms
    assert by[(topic, 2, "latest")]["offset"] == 0 and by[(topic, 2, "max-timestamp")]["offset"] is None
    assert by[(topic, 3, "earliest")]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"


def test_a_topic_that_does_not_exist_and_isolation(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    register(spark_runtime.spark)
    topics = f"{topic}|sds-gone-{uuid.uuid4().hex[:6]}"  # the second name is not a topic
    df = (
        spark_runtime.spark.read.format("kafka-offsets")
        .option("bootstrap.servers", bootstrap)
        .option("topics", topics)
        .option("specs", "latest")
        .option("isolation", "read_committed")
        .load()
    )
    # one work unit (3 partitions are fewer than one ListOffsets call) and the rows planning knew
    assert df.rdd.getNumPartitions() == 2
    rows = sorted((r.asDict() for r in df.collect()), key=_key)
    assert rows == _list_rows("-b", bootstrap, "-t", topics, "--isolation", "read_committed")
    assert [r["offset"] for r in rows if r["topic"] == topic] == [5, 3, 0]
    assert [r["error"] for r in rows if r["topic"] != topic] == ["UNKNOWN_TOPIC_OR_PARTITION"]


def test_a_secret_is_not_in_the_plan(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    register(spark_runtime.spark)
    secret = f"pw-{uuid.uuid4().hex}"  # librdkafka ignores it on a PLAINTEXT connection
    df = (
        spark_runtime.spark.read.format("kafka-offsets")
        .option("bootstrap.servers", bootstrap)
        .option("topics", topic)
        .option("kafka.sasl.password", secret)
        .load()
    )
    plan = df._jdf.queryExecution().toString()  # parsed, analyzed, optimized and physical plans
    assert "kafka-offsets" in plan.lower() or "python" in plan.lower()
    assert secret not in plan
    assert [r.offset for r in df.orderBy("partition").collect()] == [5, 3, 0]  # and the read still works


def test_a_wrong_option_is_one_line(spark_runtime: Any, bootstrap: str) -> None:
    register(spark_runtime.spark)
    reader = spark_runtime.spark.read.format("kafka-offsets").option("bootstrap.servers", bootstrap)
    with pytest.raises(Exception) as e:
        reader.option("specs", "latests").load().collect()
    text = str(e.value)
    assert "kafka-offsets data source: invalid offset spec 'latests'" in text
    assert "did you mean 'latest'" in text
    assert text.count("File ") <= 1  # the line, not a chain of frames


def _lag_key(r: dict[str, Any]) -> tuple[str, str, int]:
    return (r["group"], r["topic"] or "", -1 if r["partition"] is None else r["partition"])


def test_kind_lag_rows_equal_lag_json(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    register(spark_runtime.spark)
    prefix = f"sds-g-{uuid.uuid4().hex[:6]}"
    commit_group_offsets(bootstrap, f"{prefix}-a", {(topic, 0): 3, (topic, 1): 1})  # p2: no commit
    commit_group_offsets(bootstrap, f"{prefix}-b", {(topic, 0): 5})
    df = (
        spark_runtime.spark.read.format("kafka-offsets")
        .option("bootstrap.servers", bootstrap)
        .option("kind", "lag")
        .option("groups", f"{prefix}-.*,{prefix}-none")  # a pattern, and a name of no group
        .option("topics", topic)
        .load()
    )
    assert tuple(df.columns) == LAG_COLUMNS
    got = sorted((r.asDict() for r in df.collect()), key=_lag_key)
    run = cli(
        "lag",
        "-b",
        bootstrap,
        "--group-regex",
        f"{prefix}-.*",
        "-g",
        f"{prefix}-none",
        "-t",
        topic,
        "-o",
        "json",
    )
    assert run.stdout, run.stderr  # exit 1: the group that does not exist
    assert got == sorted(run.json(), key=_lag_key)
    assert [r["state"] for r in got if r["group"].endswith("-none")] == ["error"]
    lags = {(r["group"][-1], r["partition"]): r["lag"] for r in got}
    assert lags[("a", 0)] == 2 and lags[("a", 1)] == 2 and lags[("b", 0)] == 0


def test_kind_lag_reads_a_share_group_as_lag_does(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    """A share group (read by Kafka's console share consumer): its start offsets in the committed
    offsets' place and the broker's lag, the rows of ``lag -o json``."""
    register(spark_runtime.spark)
    group = f"sds-sg-{uuid.uuid4().hex[:6]}"
    read_as_share_group(bootstrap, topic, group, 4)
    df = (
        spark_runtime.spark.read.format("kafka-offsets")
        .option("bootstrap.servers", bootstrap)
        .option("kind", "lag")
        .option("groups", group)
        .option("topics", topic)
        .load()
    )
    got = sorted((r.asDict() for r in df.collect()), key=_lag_key)
    run = cli("lag", "-b", bootstrap, "-g", group, "-t", topic, "-o", "json")
    assert run.code == 0, run.stderr
    assert got == sorted(run.json(), key=_lag_key)
    assert {r["group_type"] for r in got} == {"share"}
    # the console consumer acknowledges what it fetched, 4 records or more (its fetch batches), from
    # the partitions it fetched: those have a start offset, and the broker's lag is below the 8 records
    assert any(r["committed"] is not None for r in got), got
    assert 0 <= sum(r["lag"] or 0 for r in got) <= len(P0_TIMES) + len(P1_TIMES) - 4, got


def _tp_key(r: dict[str, Any]) -> tuple[str, int]:
    return (r["topic"], -1 if r["partition"] is None else r["partition"])


def test_kind_liveness_rows_equal_liveness_json(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    register(spark_runtime.spark)
    gone = f"sds-gone-{uuid.uuid4().hex[:6]}"  # not a topic: the command's error row of it
    started = time.time()
    df = (
        spark_runtime.spark.read.format("kafka-offsets")
        .option("bootstrap.servers", bootstrap)
        .option("kind", "liveness")
        .option("topics", f"{topic}|{gone}")
        .option("partitions", "0,1,2,3")  # partition 3 does not exist: its error row
        .option("warn", "1h")
        .option("crit", "3650d")
        .option("isolation", "read_committed")
        .load()
    )
    assert tuple(df.columns) == LIVENESS_COLUMNS
    got = sorted((r.asDict() for r in df.collect()), key=_tp_key)
    run = cli(
        "liveness", "-b", bootstrap, "-t", f"{topic}|{gone}", "--partitions", "0,1,2,3", "--warn", "1h",
        "--crit", "3650d", "--isolation", "read_committed", "-o", "json",
    )  # fmt: skip
    took_ms = int((time.time() - started) * 1000) + 1
    assert run.stdout, run.stderr  # exit 3: the partition that does not exist
    want = sorted(run.json(), key=_tp_key)
    # the ages are measured when each read its answers: the command's later, by less than the test took
    ages = [(w["age_ms"] or 0) - (g["age_ms"] or 0) for g, w in zip(got, want, strict=True)]
    assert all(0 <= d <= took_ms for d in ages), (ages, took_ms)
    assert [{**g, "age_ms": None} for g in got] == [{**w, "age_ms": None} for w in want]
    by = {_tp_key(r): r for r in got}
    assert by[(topic, 0)]["offset"] == 2 and by[(topic, 0)]["timestamp"] == BASE + 9000  # max-timestamp
    assert by[(topic, 0)]["state"] == "warning" and by[(topic, 2)]["state"] == "empty"
    assert by[(topic, 3)]["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    assert (by[(gone, -1)]["state"], by[(gone, -1)]["error"]) == ("error", "UNKNOWN_TOPIC_OR_PARTITION")


def test_kind_tiering_rows_equal_tiering_json(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    register(spark_runtime.spark)
    gone = f"sds-gone-{uuid.uuid4().hex[:6]}"  # not a topic: an error record (and a line on stderr)
    df = (
        spark_runtime.spark.read.format("kafka-offsets")
        .option("bootstrap.servers", bootstrap)
        .option("kind", "tiering")
        .option("topics", f"{topic}|{gone}")
        .option("warn.records", "1")
        .option("crit.age", "1d")
        .load()
    )
    assert tuple(df.columns) == TIERING_COLUMNS
    got = sorted((r.asDict() for r in df.collect()), key=_tp_key)
    run = cli(
        "tiering", "-b", bootstrap, "-t", f"{topic}|{gone}", "--warn-records", "1", "--crit-age", "1d",
        "-o", "json",
    )  # fmt: skip
    assert run.code == 3 and f"{gone}: UNKNOWN_TOPIC_OR_PARTITION" in run.stderr, run.stderr
    assert got == sorted(run.json(), key=_tp_key)
    # the topic is not tiered: its local offsets, no backlog
    assert [(r["latest"], r["local_records"], r["state"]) for r in got if r["topic"] == topic] == [
        (len(P0_TIMES), len(P0_TIMES), "not-tiered"),
        (len(P1_TIMES), len(P1_TIMES), "not-tiered"),
        (0, 0, "not-tiered"),
    ]
    gone_rows = [(r["partition"], r["state"], r["error"]) for r in got if r["topic"] == gone]
    assert gone_rows == [(None, "error", "UNKNOWN_TOPIC_OR_PARTITION")]


def test_import_does_not_load_pyspark() -> None:
    code = "import sys, kafka_offsets_cli, kafka_offsets_cli.spark; assert 'pyspark' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_readme_notebook_example_runs_as_written(spark_runtime: Any, bootstrap: str, topic: str) -> None:
    """The README's notebook example, run as it is written, with this broker's address and a group
    of this test's in its names: its per-team lag is ``lag -o json``'s sum and largest time lag."""
    readme = (REPO_ROOT / "README.md").read_text()
    example = r"In a notebook, lag joined with a\ntable of your own:\n\n```python\n(.*?)```"
    [code] = re.findall(example, readme, re.S)
    group = f"orders-{uuid.uuid4().hex[:6]}"
    commit_group_offsets(bootstrap, group, {(topic, 0): 3, (topic, 1): 1})
    code = code.replace("localhost:9092", bootstrap).replace("orders-.*", group).replace("orders-etl", group)
    namespace: dict[str, Any] = {"spark": spark_runtime.spark}
    exec(compile(code, "README.md", "exec"), namespace)  # the README's own example
    [row] = namespace["per_team"].collect()
    direct = cli("lag", "-b", bootstrap, "-g", group, "--time-lag", "-o", "json")
    assert direct.code == 0, direct.stderr
    rows = direct.json()
    assert row["team"] == "payments" and row["lag"] == sum(r["lag"] or 0 for r in rows) > 0
    direct_max = max(r["time_lag_ms"] for r in rows if r["time_lag_ms"] is not None)
    assert 0 <= direct_max - row["max_time_lag_ms"] <= 60_000  # the same record's age, read later there


def test_a_where_on_topic_and_group_narrows_the_read_where_spark_pushes_filters(
    spark_runtime: Any, bootstrap: str, topic: str
) -> None:
    """With spark.sql.python.filterPushdown.enabled (set before register), a where on topic or group
    leaves the other topics' partitions (and groups) out of the planned units; the rows are those of
    the filtered read."""
    from pyspark.sql.datasource import EqualTo, Filter

    from kafka_offsets_cli.spark.source import KafkaOffsetsPushdownSource

    spark = spark_runtime.spark
    other = create_topic(bootstrap, f"sds-o-{uuid.uuid4().hex[:6]}", partitions=3)
    both = f"{topic}|{other}"
    # the source's own reader, planned on this broker: what the filter leaves in its units
    reader = KafkaOffsetsPushdownSource({"bootstrap.servers": bootstrap, "topics": both}).reader(None)
    assert {tp.topic for u in reader.units for tp in u.live} == {topic, other}
    pushed: list[Filter] = [EqualTo(("topic",), topic)]
    assert list(reader.pushFilters(pushed)) == pushed  # Spark applies it still
    assert {tp.topic for u in reader.units for tp in u.live} == {topic}

    def offsets(where: str | None) -> Any:
        df = spark.read.format("kafka-offsets").option("bootstrap.servers", bootstrap)
        df = df.option("topics", both).load()
        return df if where is None else df.where(where)

    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
    try:
        register(spark)  # the source whose reader Spark hands the filters
        whole = offsets(None)
        narrow = offsets(f"topic = '{topic}'")
        want = sorted((r.asDict() for r in whole.collect() if r["topic"] == topic), key=_key)
        assert sorted((r.asDict() for r in narrow.collect()), key=_key) == want
        group = f"sds-pd-{uuid.uuid4().hex[:6]}"
        commit_group_offsets(bootstrap, group, {(topic, 0): 1, (other, 0): 1})
        lag = spark.read.format("kafka-offsets").option("bootstrap.servers", bootstrap).option("kind", "lag")
        rows = lag.option("groups", group).load().where(f"topic = '{other}'").collect()
        assert {(r["topic"], r["partition"], r["committed"]) for r in rows} == {
            (other, 0, 1),
            (other, 1, None),
            (other, 2, None),
        }
    finally:
        spark.conf.set("spark.sql.python.filterPushdown.enabled", "false")
        register(spark)  # the source without pushdown again, for the modules after this one
