"""The product as users install it: the wheel, each install line of the README in a clean venv of its
own, and in each every command that line promises, run by its ``kafka-offsets`` entry point against
the real broker.

The wheel is the session's one build (``built_dist``). Each venv is made with ``python -m venv`` and
``pip install '<wheel>[extra]'``, resolved offline from one wheelhouse (``pip wheel`` of the widest
line, once per module) so that three installs cost one index resolution. The venvs hold only what
pip installs for their line: no checkout on ``sys.path`` (children run outside it, without
``PYTHONPATH``). ``[spark]`` runs ``check`` on an isolated standalone cluster without authentication
(dev/spark_cluster.py, docs/deployment.md's ``--conf spark.authenticate=false`` line), whose executors get
exactly docs/deployment.md's executor list; ``[spark,connect]`` runs ``check --remote`` on a real Spark
Connect server (dev/spark_connect.py). Under CI=true nothing here skips.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dev import spark_cluster, spark_connect
from dev.kafka_data import commit_group_offsets, create_topic, produce
from tests import doc_pages
from tests.availability import unavailable
from tests.wheel_build import ROOT, Built

pytestmark = [pytest.mark.slow, pytest.mark.broker]

#: the install lines (README "Installing", and docs/deployment.md "check on Spark Connect"): name -> extra
INSTALLS = {"plain": "", "spark": "[spark]", "otlp": "[otlp]", "connect": "[spark,connect]"}
EXAMPLE = ROOT / "kafka_offsets_cli" / "examples" / "check-spec.example.yaml"
COMPLETION = "share/bash-completion/completions/kafka-offsets.bash"
#: what a child inherits from pytest that would make it run something else than the install
_NOT_INHERITED = (
    "PYTHONPATH", "PYTHONHOME", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_HOME", "SPARK_REMOTE",
    "KAFKA_BOOTSTRAP_SERVERS", "KAFKA_OFFSETS_CLUSTER", "VIRTUAL_ENV",
)  # fmt: skip


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def records(self) -> list[Any]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


@dataclass
class Venv:
    """A clean venv holding one install line, and the seconds ``pip install`` took."""

    name: str
    root: Path
    install_s: float

    def run(self, *args: str, timeout: float = 120, **env: str) -> Run:
        """The venv's ``kafka-offsets`` entry point, outside the checkout and with a clean environment."""
        full = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
        full.update(NO_COLOR="1", XDG_STATE_HOME=str(self.root.parent / f"{self.name}-state"), **env)
        p = subprocess.run(
            [str(self.root / "bin" / "kafka-offsets"), *args],
            capture_output=True,
            text=True,
            env=full,
            cwd=self.root.parent,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
        )
        return Run(p.returncode, p.stdout, p.stderr)

    def distributions(self) -> set[str]:
        """The normalized names of every distribution installed in the venv."""
        site = next((self.root / "lib").glob("python3*/site-packages"))
        return {_norm(d.name.split("-")[0]) for d in site.glob("*.dist-info")}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}


@pytest.fixture(scope="module")
def wheelhouse(built_dist: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every wheel the widest install line needs (pip's cache: no build), for offline installs."""
    house = tmp_path_factory.mktemp("wheelhouse")
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "-w",
            str(house),
            f"{built_dist.wheel}[spark,connect,otlp]",
        ],
        capture_output=True,
        text=True,
        env=_clean_env(),
        timeout=900,
    )
    if p.returncode != 0:
        unavailable(f"pip could not gather the wheels (no index, no cache?): {p.stderr[-800:]}")
    return house


@pytest.fixture(scope="module")
def venvs(
    built_dist: Built, wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], Venv]]:
    """``venvs(name)``: the clean venv of that install line, made on first use and kept for the module."""
    made: dict[str, Venv] = {}
    base = tmp_path_factory.mktemp("installs")

    def get(name: str) -> Venv:
        if name not in made:
            root = base / name
            python = Path(getattr(sys, "_base_executable", sys.executable))  # not this venv's
            t0 = time.monotonic()
            subprocess.run([str(python), "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
            pip = [sys.executable, "-m", "pip", "--python", str(root / "bin" / "python"), "install", "-q"]
            pip += ["--no-index", "--find-links", str(wheelhouse), "--no-compile"]
            p = subprocess.run(
                [*pip, f"{built_dist.wheel}{INSTALLS[name]}"],
                capture_output=True,
                text=True,
                env=_clean_env(),
                timeout=900,
            )
            assert p.returncode == 0, p.stderr[-3000:]
            made[name] = Venv(name, root, time.monotonic() - t0)
            print(f"venv {name}: python -m venv + pip install {INSTALLS[name] or '(no extra)'}: "
                  f"{made[name].install_s:.1f} s")  # fmt: skip
        return made[name]

    yield get


@dataclass(frozen=True)
class Data:
    bootstrap: str
    topic: str


@pytest.fixture(scope="module")
def data(bootstrap: str) -> Data:
    """A topic with 2 and 3 records in its two partitions."""
    topic = create_topic(bootstrap, f"inst-{uuid.uuid4().hex[:6]}", 2, config={"retention.ms": "-1"})
    now = int(time.time() * 1000)
    produce(bootstrap, topic, [(p, now, None, b"x") for p in (0, 0, 1, 1, 1)])
    return Data(bootstrap, topic)


def _readme() -> str:
    """README.md and docs/*.md: the README's install lines, docs/deployment.md's executor list."""
    return doc_pages.text()


def test_the_matrix_is_the_readmes_install_lines() -> None:
    lines = set(re.findall(r"pipx install '?\.(\[[a-z,]+\])?'?[ `]", _readme()))
    assert lines == set(INSTALLS.values()), lines  # "." is the line without an extra


# ------------------------------------------------------------------------- every line: the direct commands


@pytest.mark.parametrize("name", sorted(INSTALLS))
def test_the_direct_commands_run_as_installed(venvs: Callable[[str], Venv], data: Data, name: str) -> None:
    venv = venvs(name)
    b, t, group = data.bootstrap, data.topic, f"inst-g-{name}-{uuid.uuid4().hex[:6]}"
    commit_group_offsets(b, group, {(t, 0): 1, (t, 1): 0})

    where = subprocess.run(
        [str(venv.root / "bin" / "python"), "-c", "import kafka_offsets_cli as k; print(k.__file__)"],
        capture_output=True, text=True, env=_clean_env(), cwd=venv.root.parent, timeout=60,
    )  # fmt: skip
    assert where.stdout.startswith(str(venv.root)), where  # the installed copy, not the checkout

    helped = venv.run("--help")
    assert helped.code == 0, helped.stderr
    for command in ("list", "lag", "liveness", "tiering", "rewind", "check", "config", "completion"):
        assert re.search(rf"^\W*{command}\b", helped.stdout, re.M), command
    assert venv.run("--version").code == 0

    listed = venv.run("list", "-b", b, "-t", t, "-s", "earliest", "-s", "latest", "-o", "jsonl")
    assert listed.code == 0, listed.stderr
    offsets = {(r["partition"], r["spec"]): r["offset"] for r in listed.records()}
    assert offsets == {(0, "earliest"): 0, (0, "latest"): 2, (1, "earliest"): 0, (1, "latest"): 3}

    lag = venv.run("lag", "-b", b, "-g", group, "-o", "jsonl")
    assert lag.code == 0, lag.stderr
    assert {r["partition"]: r["lag"] for r in lag.records()} == {0: 1, 1: 3}

    alive = venv.run("liveness", "-b", b, "-t", t, "-o", "jsonl")
    assert alive.code == 0, alive.stderr
    assert {(r["partition"], r["state"]) for r in alive.records()} == {(0, "ok"), (1, "ok")}

    tiering = venv.run("tiering", "-b", b, "-t", t, "-o", "jsonl")
    assert tiering.code == 0, tiering.stderr
    assert {(r["partition"], r["state"], r["latest"]) for r in tiering.records()} == {
        (0, "not-tiered", 2),
        (1, "not-tiered", 3),
    }

    plan = venv.run("rewind", "-b", b, "-g", group, "--to", "earliest", "-o", "jsonl")
    assert plan.code == 0, plan.stderr
    assert {r["partition"]: (r["current"], r["target"]) for r in plan.records()} == {0: (1, 0), 1: (0, 0)}
    undo = venv.root.parent / f"{name}-undo.csv"
    done = venv.run("rewind", "-b", b, "-g", group, "--to", "earliest", "--execute", "--undo-file", str(undo))
    assert done.code == 0, done.stderr
    assert undo.is_file()
    after = venv.run("lag", "-b", b, "-g", group, "-o", "jsonl")
    assert {r["partition"]: r["lag"] for r in after.records()} == {0: 2, 1: 3}  # committed there

    config = venv.run("config", "path")
    assert config.code == 0 and config.stdout.strip() == os.environ["KAFKA_OFFSETS_CONFIG"], config

    completion = venv.run("completion", "bash")
    assert completion.code == 0, completion.stderr
    assert completion.stdout == (venv.root / COMPLETION).read_text(encoding="utf-8")  # the wheel's data file
    assert completion.stdout == (ROOT / "completions" / "kafka-offsets.bash").read_text(encoding="utf-8")
    example = venv.run("check", "--example")
    assert example.code == 0 and example.stdout == EXAMPLE.read_text(encoding="utf-8")

    if shutil.which("man") is None:
        unavailable("man (man-db) is not installed")
    page = subprocess.run(
        ["man", "-M", str(venv.root / "share" / "man"), "-P", "cat", "kafka-offsets"],
        capture_output=True, text=True, env={**_clean_env(), "MANWIDTH": "80"}, timeout=60,
    )  # fmt: skip
    assert page.returncode == 0, page.stderr
    assert "kafka-offsets" in page.stdout and "SYNOPSIS" in page.stdout


def test_the_plain_install_holds_no_spark_and_check_names_the_extra(
    venvs: Callable[[str], Venv], tmp_path: Path, data: Data
) -> None:
    venv = venvs("plain")
    assert not venv.distributions() & {"pyspark", "pyarrow", "pandas", "grpcio"}, venv.distributions()
    spec = _spec(tmp_path, data, "g-none")
    run = venv.run("check", str(spec), "-o", "json")
    assert run.code == 3 and run.stdout == "", run.stderr
    assert "kafka-offsets check needs pyspark, which is not installed" in run.stderr
    assert "pip install '.[spark]'" in run.stderr


# --------------------------------------------------------------------------- [otlp]: --otlp-endpoint


def test_the_otlp_install_pushes_and_the_plain_one_names_the_extra(
    venvs: Callable[[str], Venv], data: Data
) -> None:
    from tests.test_otlp_push import Receiver

    b, t, group = data.bootstrap, data.topic, f"inst-otlp-{uuid.uuid4().hex[:6]}"
    commit_group_offsets(b, group, {(t, 0): 1, (t, 1): 0})
    receiver = Receiver()
    try:
        plain = venvs("plain")
        assert "opentelemetry-proto" not in plain.distributions()
        refused = plain.run("lag", "-b", b, "-g", group, "--otlp-endpoint", receiver.url)
        assert refused.code == 3 and "--otlp-endpoint needs the otlp extra" in refused.stderr, refused.stderr
        assert "pip install '.[otlp]'" in refused.stderr and not receiver.pushes

        venv = venvs("otlp")
        assert {"opentelemetry-proto", "protobuf"} <= venv.distributions()
        assert not venv.distributions() & {"pyspark", "pyarrow", "pandas"}
        run = venv.run("lag", "-b", b, "-g", group, "-o", "nagios", "--otlp-endpoint", receiver.url)
        assert run.code == 0, run.stderr
        _, points, _ = receiver.last()
        assert {a["partition"]: v for a, v in points["kafka.consumer_group.lag"]} == {0: 1, 1: 3}
    finally:
        receiver.server.shutdown()


def _spec(where: Path, data: Data, group: str) -> Path:
    spec = where / "spec.yaml"
    spec.write_text(
        f"clusters: {{c: {{bootstrap_servers: '{data.bootstrap}'}}}}\n"
        "checks:\n"
        f"  - {{name: alive, type: liveness, cluster: c, topics: ['{data.topic}'], warn: 1h, crit: 1d}}\n"
        f"  - {{name: lag, type: lag, cluster: c, groups: ['{group}'], topics: ['{data.topic}'], "
        "warn_lag: 100, crit_lag: 200}\n"
    )
    return spec


def _records(run: Run) -> dict[tuple[str, int], Any]:
    doc = json.loads(run.stdout)
    return {
        (r["check"], r["partition"]): r["lag"] if r["check"] == "lag" else r["state"]
        for r in doc["partitions"]
    }


# ----------------------------------------------------------------------------- [spark]: check on a cluster


def _readme_executor_list() -> set[str]:
    """The distributions docs/deployment.md tells users to install for the executors (its venv-pack line)."""
    line = re.search(r"env/bin/pip install (.*?) venv-pack &&", _readme())
    assert line, "docs/deployment.md's executor environment line is gone"
    return {_norm(re.split(r"[<>=\[]", req.strip("'"))[0]) for req in line.group(1).split()}


@dataclass(frozen=True)
class Isolated:
    """The unauthenticated standalone cluster both Spark install lines run on, and a directory for
    their spec files that its workers cannot see."""

    cluster: spark_cluster.SparkCluster
    out: Path


@pytest.fixture(scope="module")
def isolated(venvs: Callable[[str], Venv], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Isolated]:
    """One isolated cluster without authentication for the module: its workers see neither the
    checkout, nor either install's venv, nor this interpreter, nor the spec files."""
    roots = [venvs(name).root for name in ("spark", "connect")]
    why = spark_cluster.namespaces_work()
    if why is not None:
        unavailable(f"the Spark cluster needs mount namespaces: {why}")
    out = tmp_path_factory.mktemp("spark-out")
    try:
        state = tmp_path_factory.mktemp("noauth-cluster")
        cluster = spark_cluster.up(
            state, hidden=[ROOT, *roots, Path(sys.prefix), out], secret=None, timeout_s=240
        )
    except Exception as exc:
        unavailable(f"Spark standalone cluster could not be started: {exc}")
    try:
        yield Isolated(cluster, out)
    finally:
        cluster.down()


def test_spark_check_on_an_unauthenticated_standalone_cluster(
    venvs: Callable[[str], Venv], data: Data, isolated: Isolated
) -> None:
    """``--conf spark.authenticate=false``, as docs/deployment.md says for a cluster without a secret; the
    workers see neither the checkout nor the driver's venv; executors hold just that page's list."""
    venv = venvs("spark")
    assert {"pyspark", "pyarrow"} <= venv.distributions()  # pandas: asked of the check run below
    assert not venv.distributions() & {"grpcio", "zstandard"}  # Connect's, not this line's
    readme = _readme_executor_list()
    assert readme == {_norm(d) for d in spark_cluster.EXECUTOR_DISTRIBUTIONS}, readme
    cluster = isolated.cluster
    executors = Venv("executor", cluster.executor_python.parent.parent, 0.0).distributions()
    assert executors == readme, executors  # exactly that page's list (pip, setuptools: none)
    assert not cluster.worker_sees(venv.root / "bin" / "python")
    group = f"inst-g-{uuid.uuid4().hex[:6]}"
    commit_group_offsets(data.bootstrap, group, {(data.topic, 0): 1, (data.topic, 1): 0})
    conf = [a for c in cluster.spark_conf() for a in ("--conf", c)]
    run = venv.run(
        "check", str(_spec(isolated.out, data, group)), "--master", cluster.master_url,
        "--conf", "spark.authenticate=false", *conf, "-o", "json", timeout=600,
    )  # fmt: skip
    assert run.code == 0, run.stderr + cluster.logs()[-3000:]
    assert _records(run) == {("alive", 0): "ok", ("alive", 1): "ok", ("lag", 0): 1, ("lag", 1): 3}
    assert "pandas" in venv.distributions()  # pyspark's sql extra, which mapInArrow checks for on the driver


# ------------------------------------------------------------------------- [spark,connect]: check --remote


def _applications(cluster: spark_cluster.SparkCluster) -> set[str]:
    """The applications whose executors the cluster's workers started (their work directories)."""
    return {
        p.parent.parent.name for p in cluster.state.rglob("stderr") if p.parent.parent.name.startswith("app-")
    }


def test_connect_check_remote_on_a_connect_server_over_the_isolated_cluster(
    venvs: Callable[[str], Venv], data: Data, isolated: Isolated, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``check --remote`` on a Spark Connect server whose master is the isolated cluster: the tool's
    code reaches the executors only as the session's artifact, as on a real deployment."""
    venv = venvs("connect")
    assert {"pyspark", "pyarrow", "pandas", "grpcio", "grpcio-status", "zstandard"} <= venv.distributions()
    cluster = isolated.cluster
    state = tmp_path_factory.mktemp("connect")
    try:
        server = spark_connect.up(
            state,
            master=cluster.master_url,
            python=cluster.executor_python,
            conf=[*cluster.spark_conf(), "spark.authenticate=false"],
            timeout_s=300,
        )
    except Exception as exc:
        unavailable(f"Spark Connect server could not be started: {exc}")
    try:
        group = f"inst-g-{uuid.uuid4().hex[:6]}"
        commit_group_offsets(data.bootstrap, group, {(data.topic, 0): 1, (data.topic, 1): 0})
        run = venv.run(
            "check", str(_spec(state, data, group)), "--remote", server.url, "-o", "json", timeout=600
        )
        assert run.code == 0, run.stderr + server.log_tail() + cluster.logs()[-3000:]
        assert _records(run) == {("alive", 0): "ok", ("alive", 1): "ok", ("lag", 0): 1, ("lag", 1): 3}
        # the executors were the isolated workers', not local ones of the server
        assert any(p.name == "stderr" for p in cluster.state.rglob("stderr")), cluster.logs()[-2000:]
    finally:
        server.down()
