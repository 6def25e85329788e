"""Shared pytest fixtures: a real Kafka broker (dev/kafka.py), the 3-node cluster, unique topic names.

Broker rule: tests that need Kafka use the ``bootstrap`` (or ``cluster3``) fixture.  When the broker cannot
be started they are skipped locally, but FAIL under ``CI=true``.  Set ``KAFKA_BOOTSTRAP_SERVERS`` to test
against an already running broker instead of starting one.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from dev import kafka as dev_kafka  # noqa: E402
from tests.availability import unavailable  # noqa: E402
from tests.wheel_build import Built, build  # noqa: E402


def _unavailable(what: str, exc: BaseException) -> NoReturn:
    """Skip (locally) or fail (under CI=true) because ``what`` could not be started."""
    unavailable(f"{what} could not be started: {exc}")


def _cleanup(name: str) -> None:
    """Remove what a failed start left behind (the error message already carries the log tail)."""
    with contextlib.suppress(Exception):
        dev_kafka.down(name, grace=0)


UNIT_DIR = REPO_ROOT / "tests" / "unit"
#: fixtures that start Kafka (or resolve its jars): a test that uses one is a ``broker`` test
BROKER_FIXTURES = frozenset(
    {
        "bootstrap",
        "cluster3",
        "kafka_classpath",
        "tiered_bootstrap",
        "fresh_tiered_cluster",
        "tiered_cluster3",
        "dr_pair",
        # module fixtures that start a broker of their own
        "healthy",  # tests/test_operator_defaults.py
        "secure_tiered",  # tests/test_tiered.py
        "share_version_0",  # tests/test_share_groups_protocol.py
        "demo_broker",  # tests/test_console_examples.py
    }
)
#: fixtures no test under tests/unit may use (``make unit`` runs without Java, Kafka or Spark)
NOT_UNIT_FIXTURES = BROKER_FIXTURES | {"spark_runtime", "built_dist"}


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the CLI children the tests interrupt, however the suite was started.

    A suite started in the background by a script (``make test &``, ``nohup … &``) inherits SIGINT
    ignored, as POSIX shells leave it for background jobs; an ignored signal stays ignored across
    exec, so every child would ignore the tests' Ctrl-C and Python would install no handler in it
    (seen: test_bad_input's Ctrl-C and the fuzz's --watch lines ran on, with the main thread asleep
    in the watch loop). A handled signal is reset to the default at exec: children get Python's own.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:  # a pytest-xdist worker: the run's own terminal variables, not 80x24
        for name, value in workerinput.get(_TERMINAL_KEY, {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


#: what the controller passes its workers: its COLUMNS and LINES (None: unset)
_TERMINAL_KEY = "kafka_offsets_terminal_environ"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's controller: whole units of work to one worker each (tests/lanes.py)."""
    from tests import lanes

    return lanes.scheduler(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist's controller, before a worker starts: hand it the run's COLUMNS and LINES.

    A worker's process starts with ``COLUMNS=80`` and ``LINES=24`` in its environment (seen with
    xdist 3.8), which every CLI child inherits: a table test on a 200-column pseudo-terminal then
    fitted its table to 80 columns. Workers put back what the run itself had.
    """
    node.workerinput[_TERMINAL_KEY] = {name: os.environ.get(name) for name in ("COLUMNS", "LINES")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests by where they are and what they use: everything under ``tests/unit`` is ``unit``
    (``make unit``: no Java, broker, Spark or spark/connect extras; a unit test that asks for a broker,
    Spark or a built wheel is a usage error), everything else by the Kafka fixtures it uses
    (``broker``, ``cluster3``); ``spark``, ``java`` and ``slow`` are marked by the modules.  In a
    pytest-xdist worker, the units of work go longest first (tests/lanes.py)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.path.is_relative_to(UNIT_DIR):
            if fixtures & NOT_UNIT_FIXTURES:
                raise pytest.UsageError(
                    f"{item.nodeid} is under tests/unit but uses {sorted(fixtures & NOT_UNIT_FIXTURES)}"
                )
            item.add_marker(pytest.mark.unit)
            continue
        if fixtures & BROKER_FIXTURES:
            item.add_marker(pytest.mark.broker)
        if fixtures & {"cluster3", "tiered_cluster3"}:
            item.add_marker(pytest.mark.cluster3)
    items[:] = _spark_modules_together(items)
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: ``make test``'s lanes
        items[:] = _in_lanes(items)


def _in_lanes(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` ordered longest unit of work first, once tests/units.json is checked against the fixtures."""
    from tests import lanes

    def module(item: pytest.Item) -> str:
        return item.path.relative_to(REPO_ROOT).as_posix()

    uses: dict[str, set[str]] = {}
    for item in items:
        uses.setdefault(module(item), set()).update(getattr(item, "fixturenames", ()))
    unit_of = lanes.families(uses)
    problem = lanes.stale(unit_of, lanes.load_units())
    if problem:
        raise pytest.UsageError(problem)
    ranked = lanes.order(list(uses), unit_of, lanes.load_durations())
    place = {m: n for n, m in enumerate(ranked)}
    return sorted(items, key=lambda item: place[module(item)])  # stable: a module keeps its order


#: the modules with a test that asks for ``spark_runtime`` (set at collection)
SPARK_MODULES: set[Path] = set()


def _spark_modules_together(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the modules that use ``spark_runtime`` moved, in their order, to where the first
    of them stood; everything else keeps its order.  So the run's one local session serves them one
    after the other, and is stopped before any other module starts (``_no_spark_left_behind``)."""
    SPARK_MODULES.clear()
    SPARK_MODULES.update(i.path for i in items if "spark_runtime" in getattr(i, "fixturenames", ()))
    spark = [i for i in items if i.path in SPARK_MODULES]
    if not spark:
        return items
    first = next(n for n, i in enumerate(items) if i.path in SPARK_MODULES)
    rest = [i for i in items if i.path not in SPARK_MODULES]
    return rest[:first] + spark + rest[first:]


@pytest.fixture(autouse=True)
def _no_user_profiles(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the developer's cluster profiles (~/.config/kafka-offsets, KAFKA_OFFSETS_CLUSTER) out of tests."""
    monkeypatch.setenv("KAFKA_OFFSETS_CONFIG", str(tmp_path_factory.getbasetemp() / "no-such-config.toml"))
    monkeypatch.delenv("KAFKA_OFFSETS_CLUSTER", raising=False)


@pytest.fixture(scope="session")
def bootstrap() -> Iterator[str]:
    """Bootstrap servers of a single-node Kafka: $KAFKA_BOOTSTRAP_SERVERS, or one started for this session."""
    external = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "").strip()
    if external:
        yield external
        return
    dev_kafka.reap_orphans()  # clusters left behind by killed pytest runs
    name = f"pytest-{os.getpid()}"
    try:
        cluster = dev_kafka.up(name, nodes=1, owner_pid=os.getpid())
    except Exception as exc:  # any failure (no java, no maven, timeout) -> skip locally / fail in CI
        _cleanup(name)
        _unavailable("Kafka broker", exc)
    try:
        yield cluster.bootstrap
    finally:
        dev_kafka.down(name)


@pytest.fixture(scope="session")
def cluster3() -> Iterator[dev_kafka.Cluster]:
    """A 3-node KRaft cluster (combined broker+controller nodes) started on first use; the Cluster object.

    Nodes a test killed or stopped are restored after it (``_heal_cluster3``).
    """
    name = f"pytest3-{os.getpid()}"
    try:
        cluster = dev_kafka.up(name, nodes=3, owner_pid=os.getpid())
    except Exception as exc:
        _cleanup(name)
        _unavailable("3-node Kafka cluster", exc)
    try:
        yield cluster
    finally:
        dev_kafka.down(name)


@pytest.fixture(autouse=True)
def _heal_cluster3(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used ``cluster3``: SIGCONT every node and restart killed ones (fault tests)."""
    if "cluster3" not in request.fixturenames:
        yield
        return
    cluster: dev_kafka.Cluster = request.getfixturevalue("cluster3")
    yield
    for node in cluster.nodes:
        if node.alive() and node.pid is not None:
            os.kill(node.pid, signal.SIGCONT)
        else:
            cluster.start_node(node.node_id, wait=False)
    cluster.wait_ready()


@pytest.fixture(name="cluster")
def healed_cluster3(cluster3: dev_kafka.Cluster) -> Iterator[dev_kafka.Cluster]:
    """``cluster3`` healed (every node running and unfrozen, leaders back) before and after the test:
    for the fault tests that kill or freeze a node (``cluster`` in their signatures)."""
    from tests.fault_helpers import heal

    heal(cluster3)
    try:
        yield cluster3
    finally:
        heal(cluster3)


@contextlib.contextmanager
def _tiered_broker(name: str) -> Iterator[dev_kafka.Cluster]:
    """A single-node broker with tiered storage (LocalTieredStorage, dev/tiered.py), stopped after."""
    from dev import tiered

    try:
        cluster = tiered.up(name, nodes=1, owner_pid=os.getpid())
    except Exception as exc:
        _cleanup(name)
        _unavailable("Kafka broker with tiered storage", exc)
    try:
        yield cluster
    finally:
        dev_kafka.down(name)


@pytest.fixture(scope="session")
def tiered_bootstrap() -> Iterator[str]:
    """Bootstrap servers of a single-node Kafka with tiered storage, shared by the session."""
    with _tiered_broker(f"pytest-tiered-{os.getpid()}") as cluster:
        yield cluster.bootstrap


@pytest.fixture
def fresh_tiered_cluster() -> Iterator[dev_kafka.Cluster]:
    """A new single-node broker with tiered storage for one test, as ``make demo`` starts one.

    The shared ``tiered_bootstrap`` broker has seen many topics created and deleted by then; on it,
    in one CI run, local deletion of already-uploaded segments stopped for 6 minutes (others report
    the same of Kafka: out-of-retention local segments of a partition left until its leader
    restarts). :func:`tests.kafka_helpers.broker_warnings` gives a failing test the broker's side.
    """
    with _tiered_broker(f"pytest-fresh-tiered-{os.getpid()}") as cluster:
        yield cluster


@pytest.fixture(scope="session")
def dr_pair() -> Iterator[tuple[str, str, Any]]:
    """A disaster-recovery pair: two one-node clusters (primary, DR) and Kafka's MirrorMaker 2 copying
    topics ``cutover-.*`` primary->dr (dev/mirror.py): (primary bootstrap, DR bootstrap, Mirror)."""
    from dev import mirror as dev_mirror

    names = [f"pytest-primary-{os.getpid()}", f"pytest-dr-{os.getpid()}"]
    try:
        primary, dr = (dev_kafka.up(n, nodes=1, owner_pid=os.getpid()) for n in names)
        mm2 = dev_mirror.up(names[1], primary.bootstrap, dr.bootstrap, topics="cutover-.*")
    except Exception as exc:
        for n in names:
            _cleanup(n)
        _unavailable("DR pair (two clusters and MirrorMaker 2)", exc)
    try:
        yield primary.bootstrap, dr.bootstrap, mm2
    finally:
        dev_mirror.down(names[1], grace=5)
        for n in names:
            dev_kafka.down(n)


@pytest.fixture(scope="session")
def tiered_cluster3() -> Iterator[dev_kafka.Cluster]:
    """A 3-node cluster with tiered storage (one remote storage directory shared by the nodes)."""
    from dev import tiered

    name = f"pytest3-tiered-{os.getpid()}"
    try:
        cluster = tiered.up(name, nodes=3, heap="384m", owner_pid=os.getpid())
    except Exception as exc:
        _cleanup(name)
        _unavailable("3-node Kafka cluster with tiered storage", exc)
    try:
        yield cluster
    finally:
        dev_kafka.down(name)


class _SharedSpark:
    """The run's one local Spark runtime, while the ``spark_runtime`` modules run."""

    runtime: Any = None

    @classmethod
    def stop(cls) -> None:
        if cls.runtime is not None:
            runtime, cls.runtime = cls.runtime, None
            runtime.stop()


@pytest.fixture(scope="module")
def spark_runtime() -> Any:
    """A local[2] Spark session (the package's :class:`~kafka_offsets_cli.spark.runtime.SparkRuntime`)
    shared by the modules that ask for it; ``check`` run in-process joins it and leaves it running.

    Those modules run one after the other (``_spark_modules_together``) and the session is stopped
    before any other module starts: a module that starts Spark its own way (a cluster, Connect) finds
    no session left behind.  One session, not one per module: each new one cost 3-4 s (its context
    and first job; the JVM stays).  Under CI=true a session that cannot start fails the tests.
    """
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    if _SharedSpark.runtime is None:
        try:
            _SharedSpark.runtime = start_session(SessionOptions(master="local[2]", shuffle_partitions=2))
        except Exception as exc:  # no Java, no pyspark...: skip locally, fail in CI
            unavailable(f"Spark session could not start: {exc}")
    return _SharedSpark.runtime


@pytest.fixture(scope="module", autouse=True)
def _no_spark_left_behind(request: pytest.FixtureRequest) -> Iterator[None]:
    """Stop the shared Spark session before a module that does not use it, and after the last."""
    if request.node.path not in SPARK_MODULES:
        _SharedSpark.stop()
    yield


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The shared Spark session ends with the run at the latest."""
    _SharedSpark.stop()


@pytest.fixture(scope="session")
def kafka_classpath() -> str:
    """Java classpath of Kafka's jars (broker, tools, log4j2), resolved with Maven on first use."""
    try:
        return dev_kafka.classpath()
    except Exception as exc:
        _unavailable("Kafka classpath", exc)


@pytest.fixture
def topic_name(request: pytest.FixtureRequest) -> str:
    """A topic name unique to this test (and run): ``t-<test name>-<random>``, valid for Kafka."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", request.node.name).strip("-.")[:120]
    return f"t-{base}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def built_dist(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The sdist and wheel of ``python -m build`` on a copy of the source tree, built once per session."""
    return build(tmp_path_factory.mktemp("pkg"))
