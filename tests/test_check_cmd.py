"""`kafka-offsets check` on a real broker and a real local Spark session.

* a spec over 2,004 partitions in four topics and twelve groups gives, partition
  by partition, what the direct `lag` and `liveness` commands give on the same data;
* the Burrow history rules over several runs: a group that stops, one that stalls
  (a live member that does not commit), one that rewinds, one that is slow, one OK;
* the process as users run it: Spark's noise stays off stderr, nagios and
  prometheus outputs, exit codes; bad spec files exit 3 (UNKNOWN) before anything starts.

Spark runs as ``local[2]`` in one session per module (a fresh JVM only for the
subprocess test). Under CI=true a Spark session that cannot start fails the tests.
"""

from __future__ import annotations

import subprocess
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer
from confluent_kafka import TopicPartition as CTP

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli, subprocess_cli
from tests.kafka_helpers import read_as_share_group
from tests.test_metrics_compat import UPSTREAM_REMARKS
from tests.test_prometheus_lint import promtool

KEEP = {"retention.ms": "-1"}
DAY = {"retention.ms": str(86_400_000)}
MIN = 60_000
MASTER = ("--master", "local[2]")
#: the fields of a lag record that check and `lag -o json` give alike (group_type: as the brokers list it)
LAG_FIELDS = ("committed", "log_start", "end", "lag", "state", "error", "group_type")


@pytest.fixture(scope="module")
def spark(spark_runtime: Any) -> Any:
    """The module's Spark runtime (conftest.spark_runtime)."""
    return spark_runtime


def write_spec(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


# ----------------------------------------------------------------- the fleet: 2,004 partitions, 12 groups


class Fleet:
    """Topics a (800 partitions, 4 records each), b (700, 2), c (500, 1 old record), d (4, empty);
    twelve groups with offsets committed and a share group that read 2 records of b."""

    def __init__(self, bootstrap: str) -> None:
        self.id = uuid.uuid4().hex[:6]
        self.bootstrap = bootstrap
        self.prefix = f"fleet-{self.id}"
        self.a, self.b, self.c, self.d = (f"{self.prefix}-{x}" for x in "abcd")
        self.groups = [f"fg-{self.id}-{i:02d}" for i in range(12)]
        self.share = f"fg-{self.id}-share"  # a share group: its records' group_type is "share"
        self.now = int(time.time() * 1000)

    def build(self) -> Fleet:
        b = self.bootstrap
        for topic, n in ((self.a, 800), (self.b, 700), (self.c, 500), (self.d, 4)):
            # c keeps a day: its unread records have a data-loss ETA (check c-loss)
            create_topic(b, topic, n, config=DAY if topic == self.c else KEEP, timeout=180)
        fresh = self.now - 20_000
        produce(b, self.a, [(p, fresh + i, None, b"a") for p in range(800) for i in range(4)], timeout=120)
        produce(b, self.b, [(p, fresh + i, None, b"b") for p in range(700) for i in range(2)], timeout=120)
        produce(b, self.c, [(p, self.now - 10 * MIN, None, b"c") for p in range(500)], timeout=120)
        g = self.groups
        a_all = [(self.a, p) for p in range(800)]
        for i in range(4):  # caught up on a
            commit_group_offsets(b, g[i], dict.fromkeys(a_all, 4))
        for i in range(4, 7):  # lag 2 on a: WARNING (warn_lag 1)
            commit_group_offsets(b, g[i], dict.fromkeys(a_all, 2))
        for i in range(7, 9):  # lag 4 on half of a (CRITICAL, crit_lag 3); the rest no-commit
            commit_group_offsets(b, g[i], {(self.a, p): 0 for p in range(0, 800, 2)})
        commit_group_offsets(  # caught up on b, lag 1 on c
            b, g[9], {**{(self.b, p): 2 for p in range(700)}, **{(self.c, p): 0 for p in range(500)}}
        )
        commit_group_offsets(b, g[10], {(self.a, 0): 1})  # one partition: the rest of a is no-commit
        commit_group_offsets(b, g[11], {(self.a, 5): 9, (self.a, 6): 4})  # ahead of the end on a:5
        read_as_share_group(b, self.b, self.share, 2)  # Kafka's console share consumer: 2 records of b
        return self

    def spec(self) -> str:
        i = self.id
        return f"""
clusters:
  local: {{bootstrap_servers: "{self.bootstrap}", timeout: 60s}}
defaults: {{task_size: 500}}  # five Spark tasks
checks:
  - {{name: fleet-alive, type: liveness, cluster: local, topics: ['fleet-{i}-.*'], warn: 5m, crit: 30m}}
  - name: fleet-lag
    type: lag
    cluster: local
    groups: ['fg-{i}-.*']
    topics: ['fleet-{i}-.*']
    warn_lag: 1
    crit_lag: 3
    warn_time_lag: 1h
    crit_time_lag: 2h
  - {{name: committed-only, type: lag, cluster: local, groups: ['fg-{i}-0[0-3]', 'fg-{i}-09'], crit_lag: 100}}
  - {{name: missing-topic, type: liveness, cluster: local, topics: [fleet-{i}-nosuch], warn: 1m, crit: 2m}}
  - {{name: c-loss, type: lag, cluster: local, groups: [fg-{i}-09], topics: [fleet-{i}-c], warn_loss_eta: 2d,
     crit_loss_eta: 1h}}
"""


@pytest.fixture(scope="module")
def fleet(bootstrap: str) -> Fleet:
    return Fleet(bootstrap).build()


def _records(doc: dict[str, Any], check: str) -> list[dict[str, Any]]:
    return [p for p in doc["partitions"] if p["check"] == check]


@pytest.mark.spark
def test_check_equals_direct_commands_partition_by_partition(
    fleet: Fleet, spark: Any, tmp_path: Path
) -> None:
    spec = write_spec(tmp_path / "fleet.yaml", fleet.spec())
    out = tmp_path / "table"
    t0 = time.time()
    run = cli("check", spec, *MASTER, "-o", "json", "--write", "parquet", "--write-dir", str(out))
    t1 = time.time()
    assert run.code == 2, run.stderr  # CRITICAL: the worst check
    doc = run.json()
    checks = {c["name"]: c for c in doc["checks"]}
    assert doc["status"] == "CRITICAL"
    assert {n: c["status"] for n, c in checks.items()} == {
        "fleet-alive": "WARNING",  # c is older than warn; d is empty, which counts as OK
        "fleet-lag": "CRITICAL",  # groups 07, 08 lag 4 > 3
        "committed-only": "OK",
        "missing-topic": "UNKNOWN",
        "c-loss": "WARNING",  # retention deletes group 09's next record of c in 23h50m: within 2d
    }

    # liveness: the same rows as `kafka-offsets liveness` -----------------------------------
    live = cli(
        "liveness",
        "-b",
        fleet.bootstrap,
        "-t",
        f"{fleet.prefix}-.*",
        "--warn",
        "5m",
        "--crit",
        "30m",
        "-o",
        "json",
    )
    t2 = time.time()
    assert live.code == 1, live.stderr  # the direct command agrees: WARNING
    direct_live = {(r["topic"], r["partition"]): r for r in live.json()}
    mine_live = {(r["topic"], r["partition"]): r for r in _records(doc, "fleet-alive")}
    assert len(mine_live) == 2004
    assert mine_live.keys() == direct_live.keys()
    for key, d in direct_live.items():
        m = mine_live[key]
        assert (m["offset"], m["timestamp"], m["state"], m["error"]) == (
            d["offset"],
            d["timestamp"],
            d["state"],
            d["error"],
        ), key
        if d["age_ms"] is not None:  # the same timestamp, measured later by the direct command
            assert -1000 <= d["age_ms"] - m["age_ms"] <= (t2 - t0) * 1000 + 1000, key
    assert {m["group_type"] for m in mine_live.values()} == {None}  # a liveness record has no group
    states = checks["fleet-alive"]["states"]
    assert states == {"ok": 1500, "warning": 500, "empty": 4}
    topic_status = {t["topic"]: t["status"] for t in checks["fleet-alive"]["topics"]}
    assert topic_status == {fleet.a: "OK", fleet.b: "OK", fleet.c: "WARNING", fleet.d: "OK"}

    # lag: the same rows as `kafka-offsets lag --time-lag` -----------------------------------
    lag = cli(
        "lag",
        "-b",
        fleet.bootstrap,
        "--group-regex",
        f"fg-{fleet.id}-.*",
        "-t",
        f"{fleet.prefix}-.*",
        "--time-lag",
        "-o",
        "json",
    )
    t3 = time.time()
    assert lag.code == 0, lag.stderr
    direct_lag = {(r["group"], r["topic"], r["partition"]): r for r in lag.json()}
    mine_lag = {(r["group"], r["topic"], r["partition"]): r for r in _records(doc, "fleet-lag")}
    assert len(mine_lag) == len(direct_lag) >= 8000
    assert mine_lag.keys() == direct_lag.keys()
    for lag_key, d in direct_lag.items():
        m = mine_lag[lag_key]
        assert [m[k] for k in LAG_FIELDS] == [d[k] for k in LAG_FIELDS], lag_key
        if d["time_lag_ms"] is None:
            assert m["time_lag_ms"] is None, lag_key
        else:  # M(c) is the same; the direct command's clock read it later
            assert -1000 <= d["time_lag_ms"] - m["time_lag_ms"] <= (t3 - t0) * 1000 + 1000, lag_key
    by_group = {g["group"]: g for g in checks["fleet-lag"]["groups"]}
    # each group's type as `lag` lists it (classic, consumer, share, ...), on its roll-up and records
    direct_types = {d["group"]: d["group_type"] for d in direct_lag.values()}
    assert direct_types[fleet.share] == "share" and direct_types[fleet.groups[0]] == "classic"
    assert {x: by_group[x]["group_type"] for x in by_group} == {x: direct_types.get(x) for x in by_group}
    g = fleet.groups
    assert [by_group[x]["status"] for x in g] == (
        ["OK"] * 4 + ["WARNING"] * 3 + ["CRITICAL"] * 2 + ["OK", "WARNING", "WARNING"]
    )  # 09: caught up on b, lag 1 on c; 10: lag 3 and no-commit; 11: ahead
    assert by_group[g[4]]["lag"] == 1600 and by_group[g[4]]["max_lag"] == 2
    assert mine_lag[(g[11], fleet.a, 5)]["state"] == "ahead"
    assert mine_lag[(g[7], fleet.a, 1)]["state"] == "no-commit"
    # time lag of a group 2 records behind on a: the age of record 2 (produced at now-20s+2)
    assert abs(mine_lag[(g[4], fleet.a, 0)]["time_lag_ms"] - (t1 * 1000 - (fleet.now - 20_000 + 2))) < 60_000

    # a lag check without topics covers the topics each group committed to ---------------------
    committed_only = {(r["group"], r["topic"]) for r in _records(doc, "committed-only")}
    assert committed_only == {(x, fleet.a) for x in g[:4]} | {(g[9], fleet.b), (g[9], fleet.c)}
    assert "UNKNOWN_TOPIC_OR_PARTITION" in [r["error"] for r in _records(doc, "missing-topic")]

    # the data-loss ETA: lag --loss-eta's, the same record's, measured a little later there ----------
    loss = cli("lag", "-b", fleet.bootstrap, "-g", g[9], "-t", fleet.c, "--loss-eta", "-o", "json")
    t4 = time.time()
    assert loss.code == 0, loss.stderr
    direct_eta = {r["partition"]: r["loss_eta_ms"] for r in loss.json()}
    mine_eta = {r["partition"]: r["loss_eta_ms"] for r in _records(doc, "c-loss")}
    assert mine_eta.keys() == direct_eta.keys() == set(range(500))
    for p, eta in mine_eta.items():
        assert 0 <= eta - direct_eta[p] <= (t4 - t0) * 1000 + 1000, p
        assert 86_400_000 - 15 * MIN < eta < 86_400_000 - 10 * MIN + 1000, p  # record c is 10 min old
    assert {r["status"] for r in _records(doc, "c-loss")} == {"WARNING"}
    assert {r["loss_eta_ms"] for r in _records(doc, "fleet-lag")} == {None}  # a check that does not ask

    # --write parquet: the full table --------------------------------------------------------
    import pyarrow.parquet as pq

    table = pq.read_table(out)
    assert table.num_rows == len(doc["partitions"])
    assert set(table.column_names) >= {"check", "cluster", "topic", "partition", "group", "lag", "state"}
    # group_type: a nullable string column, each row's the JSON record's
    assert table.schema.field("group_type").type == "string" and table.schema.field("group_type").nullable
    keys = ("check", "group", "topic", "partition", "group_type")
    assert Counter(zip(*(table.column(k).to_pylist() for k in keys), strict=True)) == Counter(
        tuple(p[k] for k in keys) for p in doc["partitions"]
    )
    assert {p["group_type"] for p in _records(doc, "fleet-lag")} == set(direct_types.values()) != {None}


# --------------------------------------------------------------------------- history


class StallingMember:
    """A live member of a group that holds its partition and never commits after the first offset."""

    def __init__(self, bootstrap: str, group: str, topic: str, first: int) -> None:
        self.c = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
                "session.timeout.ms": 30_000,
            }
        )
        self.c.subscribe([topic])
        deadline = time.monotonic() + 60
        while not self.c.assignment():
            self.c.poll(0.2)
            assert time.monotonic() < deadline, "no assignment"
        self.c.commit(offsets=[CTP(topic, 0, first)], asynchronous=False)
        self.stop = threading.Event()
        self.t = threading.Thread(target=self._poll, daemon=True)
        self.t.start()

    def _poll(self) -> None:
        while not self.stop.is_set():
            self.c.poll(0.2)  # keep the membership; read, never commit

    def close(self) -> None:
        self.stop.set()
        self.t.join(5)
        self.c.close()


@pytest.mark.spark
def test_history_rules_over_several_runs(bootstrap: str, spark: Any, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    i = uuid.uuid4().hex[:6]
    topic = create_topic(bootstrap, f"hist-{i}", 1, config=KEEP)
    names = {k: f"h-{i}-{k}" for k in ("stop", "stall", "rewind", "slow", "ok")}
    spec = write_spec(
        tmp_path / "h.yaml",
        f"""
clusters: {{local: {{bootstrap_servers: "{bootstrap}"}}}}
checks:
  - {{name: h, type: lag, groups: ['h-{i}-.*'], topics: [{topic}], crit_lag: 1000,
     history: {{window: 4, min_samples: 3}}}}
""",
    )
    hist = tmp_path / "history"
    commits = {  # committed offset per run; the topic grows by 10 records before each run
        "stop": [2, 4, 4, 4, 4],  # moved, then stopped for the whole window (runs 2-5)
        "rewind": [5, 8, 3, 4, 6],
        "slow": [1, 2, 3, 4, 5],
        "ok": [10, 20, 30, 40, 50],
    }
    produce(bootstrap, topic, [(0, None, None, b"x")] * 10)
    member = StallingMember(bootstrap, names["stall"], topic, 1)  # stays a member, never commits again
    docs = []
    try:
        for run in range(5):
            if run:
                produce(bootstrap, topic, [(0, None, None, b"x")] * 10)
            for k, offs in commits.items():
                if run == 0 or offs[run] != offs[run - 1]:
                    commit_group_offsets(bootstrap, names[k], {(topic, 0): offs[run]})
            r = cli("check", spec, *MASTER, "-o", "json", "--history", str(hist))
            assert r.code in (0, 1, 2), r.stderr
            docs.append(r.json())
            time.sleep(1.0)
    finally:
        member.close()
    groups = {g["group"]: g for g in docs[-1]["checks"][0]["groups"]}
    verdict = {k: groups[n]["history"] for k, n in names.items()}
    assert verdict == {"stop": "stop", "stall": "stall", "rewind": "rewind", "slow": "warn", "ok": "ok"}
    assert {k: groups[n]["status"] for k, n in names.items()} == {
        "stop": "CRITICAL",
        "stall": "CRITICAL",
        "rewind": "CRITICAL",
        "slow": "WARNING",
        "ok": "OK",
    }
    assert docs[-1]["status"] == "CRITICAL"
    # the first runs do not judge (fewer than min_samples); the third does
    assert {g["history"] for g in docs[1]["checks"][0]["groups"]} == {"incomplete"}
    assert {g["history"] for g in docs[0]["checks"][0]["groups"]} == {"incomplete"}
    assert groups[names["stall"]]["trend"] == [19, 29, 39, 49]  # the last 4 of 5 runs
    assert groups[names["ok"]]["trend"] == [0, 0, 0, 0]
    slow = groups[names["slow"]]
    assert slow["produce_rate"] > slow["consume_rate"] > 0 and slow["eta_ms"] is None  # never catches up
    # the dataset: partitioned by date, one sample per group and run
    dates = [p.name for p in hist.iterdir() if p.name.startswith("date=")]
    assert len(dates) >= 1
    samples = pq.read_table(hist)
    assert samples.num_rows == 5 * 5
    # each sample with its group's type, as the run's records have it
    typed = {p["group"]: p["group_type"] for p in docs[-1]["partitions"]}
    assert set(
        zip(samples.column("group").to_pylist(), samples.column("group_type").to_pylist(), strict=True)
    ) == (set(typed.items()))
    assert None not in typed.values()
    assert docs[-1]["checks"][0]["groups"][0]["history"] is not None


# --------------------------------------------------------------------------- the process as cron runs it


@pytest.mark.spark
def test_subprocess_quiet_nagios_prometheus_and_exit_code(bootstrap: str, tmp_path: Path) -> None:
    i = uuid.uuid4().hex[:6]
    topic = create_topic(bootstrap, f"proc-{i}", 2, config=KEEP)
    now = int(time.time() * 1000)
    produce(bootstrap, topic, [(0, now, None, b"x"), (1, now - 20 * MIN, None, b"y")])
    commit_group_offsets(bootstrap, f"pg-{i}", {(topic, 0): 1, (topic, 1): 0})
    spec = write_spec(
        tmp_path / "p.yaml",
        f"""
clusters: {{local: {{bootstrap_servers: "{bootstrap}"}}}}
checks:
  - {{name: alive, type: liveness, topics: [{topic}], warn: 5m, crit: 1h}}
  - {{name: lag, type: lag, groups: [pg-{i}], topics: [{topic}], warn_lag: 0, crit_lag: 10}}
""",
    )
    prom = tmp_path / "check.prom"
    r = subprocess_cli(
        "check",
        spec,
        *MASTER,
        "-o",
        "nagios",
        "--prometheus-file",
        str(prom),
        "--metrics-compat",
        "kafka_exporter,kafka-lag-exporter",
        "--write",
        "csv",
        "--write-dir",
        str(tmp_path / "csv"),
        timeout=600,
    )
    assert r.code == 1, r.stderr  # WARNING: partition 1 is 20 min old; pg lags by 1
    assert r.stderr == "", r.stderr  # no JVM, log4j or Spark output on the terminal
    line = r.stdout.strip()
    assert "\n" not in line
    assert line.startswith("KAFKA CHECK WARNING - 2 check(s): 2 WARNING;"), line
    assert f"'alive/local/{topic} age'=" in line and f"'lag/local/pg-{i} lag'=1;;;0" in line
    metrics = parse_prometheus_text(prom.read_text())
    assert metrics["kafka_offsets_check_status"] == [({"cluster": "local"}, 1.0)]
    assert metrics["kafka_offsets_check_up"] == [({"cluster": "local"}, 1.0)]
    # the group's series carry its type as `lag -o prometheus` labels it
    lag_prom = parse_prometheus_text(cli("lag", "-b", bootstrap, "-g", f"pg-{i}", "-o", "prometheus").stdout)
    [(lag_labels, _)] = lag_prom["kafka_offsets_lag_group_lag"]
    assert "type" in lag_labels, lag_labels
    typed = {"check": "lag", "cluster": "local", "group": f"pg-{i}", "type": lag_labels["type"]}
    assert (typed, 1.0) in metrics["kafka_offsets_check_group_lag"]
    assert {lab["type"] for lab, _ in metrics["kafka_offsets_check_partition_lag"]} == {lag_labels["type"]}
    ages = {lab["partition"]: v for lab, v in metrics["kafka_offsets_check_partition_age_seconds"]}
    assert ages["1"] > 19 * 60 and ages["0"] < 5 * 60
    csv_files = list((tmp_path / "csv").glob("part-*.csv"))
    assert len(csv_files) == 1
    rows = csv_files[0].read_text().splitlines()
    assert rows[0].startswith("check,kind,cluster,topic,partition,group,committed,end,lag")
    assert rows[0].endswith(",error,group_type,loss_eta_ms")  # added last: the columns before stay
    assert len(rows) == 1 + 4
    # --metrics-compat: the exporters' names, each equal to the check's own series; promtool's only
    # remarks are on kafka_exporter's own *_sum names (test_metrics_compat.UPSTREAM_REMARKS)
    done = subprocess.run(
        [promtool(), "check", "metrics"], input=prom.read_text(), capture_output=True, text=True, timeout=60
    )
    assert {ln.strip() for ln in (done.stdout + done.stderr).splitlines() if ln.strip()} == UPSTREAM_REMARKS
    own = {(lab["topic"], lab["partition"]): v for lab, v in metrics["kafka_offsets_check_partition_lag"]}
    alias = {(lab["topic"], lab["partition"]): v for lab, v in metrics["kafka_consumergroup_lag"]}
    assert alias == own == {(topic, "0"): 0.0, (topic, "1"): 1.0}
    assert {lab["check"] for lab, _ in metrics["kafka_consumergroup_group_lag"]} == {"lag"}
    assert metrics["kafka_consumergroup_group_sum_lag"] == [
        ({"check": "lag", "cluster": "local", "cluster_name": "local", "group": f"pg-{i}"}, 1.0)
    ]
    refused = cli("check", spec, "-o", "json", "--metrics-compat", "kafka_exporter")
    assert refused.code == 3 and "--metrics-compat needs -o prometheus or --prometheus-file" in refused.stderr


def test_unreachable_cluster_is_unknown_without_starting_spark(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path / "u.yaml",
        """
clusters: {down: {bootstrap_servers: "127.0.0.1:1", timeout: 2s}}
checks: [{name: x, type: liveness, topics: [t], warn: 1m, crit: 2m}]
""",
    )
    prom = tmp_path / "u.prom"
    t0 = time.monotonic()
    r = subprocess_cli("check", spec, "-o", "nagios", "--prometheus-file", str(prom), timeout=120)
    assert r.code == 3, r.stderr
    assert r.stdout.startswith("KAFKA CHECK UNKNOWN - 1 check(s): 1 UNKNOWN; x UNKNOWN:")
    assert "cannot connect to 127.0.0.1:1: Connection refused" in r.stdout
    assert time.monotonic() - t0 < 60
    assert parse_prometheus_text(prom.read_text())["kafka_offsets_check_status"] == [
        ({"cluster": "down"}, 3.0)
    ]


# ----------------------------------------------------------------- bad specs: exit 3, nothing starts


def test_bad_spec_lists_every_problem_and_is_unknown(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path / "bad.yaml",
        """clusters:
  local: {bootstrap_servers: "127.0.0.1:9092", sasl_password: hunter2}
checks:
  - {name: a, type: liveness, cluster: local, topics: ['orders'], warn: 5m, crit: soon}
  - {name: b, type: lag, cluster: local, groups: [billing], crit_lag: lots}
""",
    )
    r = subprocess_cli("check", spec, timeout=120)
    assert r.code == 3  # a monitoring check: a bad spec is UNKNOWN
    assert r.stdout == ""
    err = r.stderr
    assert (
        f"kafka-offsets: error: {spec}: clusters.local.sasl_password: secrets are not accepted inline" in err
    )
    assert "checks[0].crit: invalid duration 'soon'" in err and "(line 4)" in err
    assert "checks[1].crit_lag: expected an integer, got string 'lots' (line 5)" in err
    assert "hunter2" not in err


def test_validate_only(tmp_path: Path) -> None:
    example = (
        Path(__file__).resolve().parent.parent / "kafka_offsets_cli" / "examples" / "check-spec.example.yaml"
    )
    r = cli("check", str(example), "--validate", env={"KAFKA_DR_PASSWORD": "x"})
    assert r.code == 0, r.stderr
    assert "valid: 4 check(s) (2 liveness, 2 lag) on 2 cluster(s)" in r.stderr
    r = cli("check", str(example), "--validate", env={"KAFKA_DR_PASSWORD": ""})
    assert r.code == 0  # set but empty is still set


def test_option_errors_are_unknown(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path / "s.yaml",
        "clusters: {l: {bootstrap_servers: 'h:1'}}\nchecks: [{name: x, type: lag, groups: [g]}]\n",
    )
    assert cli("check", spec, "-o", "prometheus", "--label", "cluster=x").code == 3  # check's own label
    assert cli("check", spec, "--write", "csv").code == 3
    assert cli("check", spec, "--conf", "novalue").code == 3
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    r = cli("check", spec, "--write", "csv", "--write-dir", str(tmp_path / "full"))
    assert r.code == 3 and "refusing to replace" in r.stderr
