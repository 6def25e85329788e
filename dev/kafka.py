"""Real Apache Kafka (KRaft) clusters on loopback for tests, the demo and benchmarks.

Jars come from Maven Central through ``dev/pom.xml`` (resolved once into ``dev/target/lib``).  Each node
is a combined broker+controller JVM started detached (own session), so a cluster outlives the process
that started it; its state lives under ``dev/.state/NAME/``::

    state.json                     cluster id, ports, node ids, pids
    node-N/server.properties       broker config
    node-N/log4j2.properties       logging config: broker logs go to node-N/server.log
    node-N/console.log             the JVM's stdout/stderr (crashes, GC warnings)
    node-N/data/                   log.dirs (KRaft metadata log and partitions)

Command line (from the repository root)::

    python -m dev.kafka up [--nodes 1|3] [--name NAME]    # last stdout line: bootstrap servers
    python -m dev.kafka up --sasl [--tls]                 # + SCRAM users, ACLs, TLS (dev/secure.py)
    python -m dev.kafka up --tiered                       # + tiered storage (dev/tiered.py)
    python -m dev.kafka down [--name NAME | --all]
    python -m dev.kafka status [--name NAME]              # JSON: ports, pids, alive
    python -m dev.kafka classpath                         # Java classpath of Kafka's jars
    python -m dev.kafka resolve                           # fetch the jars (Maven) if needed
    python -m dev.kafka reap                              # down clusters whose owner process died

Python::

    from dev import kafka
    cluster = kafka.up("demo", nodes=3)
    cluster.bootstrap          # "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3"
    cluster.signal(2, signal.SIGSTOP); cluster.signal(2, signal.SIGCONT)
    cluster.stop_node(2); cluster.start_node(2)
    kafka.down("demo")

Environment: ``KAFKA_DEV_HEAP`` (broker -Xmx, default 768m), ``KAFKA_DEV_START_TIMEOUT`` (seconds, default
180), ``KAFKA_DEV_JVM_OPTS`` (extra broker JVM flags), ``KAFKA_DEV_STATE_DIR`` (default dev/.state),
``JAVA_HOME``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import dataclasses
import fcntl
import hashlib
import json
import logging
import os
import re
import resource
import shutil
import signal as _signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

DEV_DIR = Path(__file__).resolve().parent
REPO_ROOT = DEV_DIR.parent
POM = DEV_DIR / "pom.xml"
TARGET_DIR = DEV_DIR / "target"
LIB_DIR = TARGET_DIR / "lib"
STAMP = TARGET_DIR / "resolved.stamp"
TOOLS_LOG4J = TARGET_DIR / "log4j2-tools.properties"
CDS_DIR = TARGET_DIR / "cds"

HOST = "127.0.0.1"
DEFAULT_NAME = "default"
DEFAULT_HEAP = "768m"
DEFAULT_START_TIMEOUT = 180.0
#: JVM flags for short-lived Kafka command-line tools (StorageTool, GetOffsetShell, ...).
TOOL_JVM_FLAGS: tuple[str, ...] = (
    "-Xmx256m",
    "-XX:TieredStopAtLevel=1",
    "-XX:+UseSerialGC",
    "-Xshare:auto",
    "-Djava.awt.headless=true",
)

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_STARTED_MARKER = b"Kafka Server started"
_BIND_ERROR_RE = re.compile(r"Address already in use|BindException|failed to bind", re.IGNORECASE)
_LIBRDKAFKA_LOG = logging.getLogger("dev.kafka.librdkafka")
_LIBRDKAFKA_LOG.addHandler(logging.NullHandler())
_LIBRDKAFKA_LOG.propagate = False


class KafkaHarnessError(RuntimeError):
    """Anything that went wrong while resolving, starting, or stopping a dev Kafka cluster."""


class ClusterStartError(KafkaHarnessError):
    """A cluster (or node) did not come up; the message carries the tail of the broker logs."""


# --------------------------------------------------------------------------------------------------
# small utilities


def _progress(msg: str) -> None:
    print(f"[dev.kafka] {msg}", file=sys.stderr, flush=True)


def state_root() -> Path:
    """Directory holding one sub-directory per named cluster (``dev/.state`` unless overridden)."""
    override = os.environ.get("KAFKA_DEV_STATE_DIR")
    return Path(override).resolve() if override else DEV_DIR / ".state"


def _check_name(name: str) -> str:
    if not _NAME_RE.match(name):
        raise KafkaHarnessError(f"invalid cluster name {name!r}: use letters, digits, '.', '_' and '-'")
    return name


@contextlib.contextmanager
def _flock(path: Path) -> Iterator[None]:
    """Exclusive advisory lock on ``path`` (created if missing), held for the ``with`` body."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _tail(path: Path, lines: int = 40) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 64 * 1024))
            data = fh.read().decode("utf-8", "replace")
    except OSError:
        return "(no log file)"
    tail = [ln if len(ln) <= 400 else ln[:400] + " ..." for ln in data.splitlines()[-lines:]]
    return "\n".join(tail) or "(empty)"


def pid_alive(pid: int | None) -> bool:
    """True if ``pid`` is a live (not zombie) process; reaps it when it is our own exited child."""
    if not pid:
        return False
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    except ChildProcessError:
        pass  # not our child: fine
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return True


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _free_ports(count: int) -> list[int]:
    """``count`` distinct ports that are free on the loopback address right now."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((HOST, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _port_open(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=timeout):
            return True
    except OSError:
        return False


def _raise_nofile() -> None:  # runs in the child between fork and exec
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1_048_576
    if soft == resource.RLIM_INFINITY or soft >= target:
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


# --------------------------------------------------------------------------------------------------
# jars and java


def _pom_digest() -> str:
    return hashlib.sha256(POM.read_bytes()).hexdigest()


def _resolved_jars() -> list[Path] | None:
    """The resolved jar list if the stamp matches the pom and every jar is present, else None."""
    try:
        digest, *names = STAMP.read_text().split()
    except (OSError, ValueError):
        return None
    if digest != _pom_digest() or not names:
        return None
    jars = [LIB_DIR / n for n in names]
    return jars if all(j.is_file() for j in jars) else None


def resolve(*, force: bool = False) -> list[Path]:
    """Make sure Kafka's jars are in ``dev/target/lib`` (runs Maven only when the stamp is stale).

    Idempotent and safe to call concurrently (file lock).  Returns the jar paths.
    """
    if not force and (jars := _resolved_jars()) is not None:
        return jars
    with _flock(TARGET_DIR / ".resolve.lock"):
        if not force and (jars := _resolved_jars()) is not None:
            return jars
        mvn = shutil.which("mvn")
        if mvn is None:
            raise KafkaHarnessError("Maven (mvn) is not on PATH; it is needed once to fetch Kafka's jars")
        _progress("resolving Kafka jars with Maven (first run only) ...")
        for stale in (LIB_DIR, CDS_DIR):
            if stale.exists():
                shutil.rmtree(stale)
        t0 = time.monotonic()
        proc = subprocess.run(
            [mvn, "-q", "-B", "-f", str(POM), "dependency:copy-dependencies"],
            cwd=DEV_DIR,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            out = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
            raise KafkaHarnessError(
                f"mvn dependency:copy-dependencies failed (exit {proc.returncode}):\n{out}"
            )
        jars = sorted(LIB_DIR.glob("*.jar"))
        if not jars:
            raise KafkaHarnessError(f"Maven finished but {LIB_DIR} holds no jars")
        STAMP.write_text(_pom_digest() + "\n" + "\n".join(j.name for j in jars) + "\n")
        _progress(f"resolved {len(jars)} jars in {time.monotonic() - t0:.1f}s")
        return jars


_EXTRA_POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.kafka-offsets</groupId>
  <artifactId>{name}-harness</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
{dependencies}  </dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId>
    <version>3.8.1</version>
    <configuration><outputDirectory>{lib}</outputDirectory><includeScope>runtime</includeScope></configuration>
  </plugin></plugins></build>
</project>
"""


def extra_pom(name: str, lib: Path, dependencies: Sequence[tuple[str, str, str]]) -> str:
    """A pom whose dependency plugin copies ``dependencies`` ((group, artifact, version) each) and what
    they need into ``lib``: the input of :func:`resolve_extra`."""
    deps = "".join(
        f"    <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId>\n"
        f"      <version>{v}</version></dependency>\n"
        for g, a, v in dependencies
    )
    return _EXTRA_POM.format(name=name, dependencies=deps, lib=lib)


def resolve_extra(lib: Path, pom_text: str, what: str) -> list[Path]:
    """The jars of ``pom_text`` (a pom whose dependency plugin copies into ``lib``), fetched with Maven
    once into ``lib``, apart from ``dev/pom.xml``'s broker jars (clusters already running keep theirs).

    ``lib/resolved.stamp`` holds the pom's digest; a changed pom fetches again. ``what`` names the
    artifact in the error when Maven cannot fetch it.
    """
    stamp = lib / "resolved.stamp"
    digest = hashlib.sha256(pom_text.encode()).hexdigest()

    def fetched() -> bool:
        with contextlib.suppress(OSError):
            return stamp.read_text().strip() == digest
        return False

    if fetched():
        return sorted(lib.glob("*.jar"))
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaHarnessError(f"Maven (mvn) is not on PATH; it is needed once to fetch {what}")
    pom = lib.parent / f"{lib.name}-pom" / "pom.xml"
    with _flock(TARGET_DIR / f".{lib.name}.lock"):
        # asked again under the lock: another process (a second pytest-xdist lane) may have fetched
        # it while this one waited, and is using the jars this one would otherwise delete and fetch again
        if fetched():
            return sorted(lib.glob("*.jar"))
        pom.parent.mkdir(parents=True, exist_ok=True)
        pom.write_text(pom_text)
        if lib.exists():
            shutil.rmtree(lib)
        proc = subprocess.run(
            [mvn, "-q", "-B", "-f", str(pom), "dependency:copy-dependencies"],
            cwd=pom.parent,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
        jars = sorted(lib.glob("*.jar"))
        if proc.returncode != 0 or not jars:
            out = "\n".join((proc.stdout + proc.stderr).splitlines()[-30:])
            raise KafkaHarnessError(f"mvn could not fetch {what} (exit {proc.returncode}):\n{out}")
        stamp.write_text(digest + "\n")
    return jars


def classpath(release: str | None = None) -> str:
    """Java classpath of Kafka's broker, tools and logging jars (resolving them first if needed).

    ``release``: an older Kafka release's broker instead of the pinned one (:mod:`dev.releases`).
    """
    if release is not None:
        from dev import releases  # the pinned broker's runs never resolve another release

        return os.pathsep.join(str(j) for j in releases.resolve(release))
    return os.pathsep.join(str(j) for j in resolve())


def kafka_version() -> str:
    """The Kafka version the harness runs (read from the resolved kafka-clients jar)."""
    for jar in resolve():
        m = re.fullmatch(r"kafka-clients-(.+)\.jar", jar.name)
        if m:
            return m.group(1)
    raise KafkaHarnessError("kafka-clients jar not found in the resolved classpath")


def java_executable() -> str:
    """Path of the ``java`` launcher: ``$JAVA_HOME/bin/java`` or ``java`` on PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise KafkaHarnessError("java is not installed (need Java 17+): set JAVA_HOME or put java on PATH")
    return found


def _tools_log4j() -> Path:
    text = (
        "status = error\n"
        "appender.err.type = Console\n"
        "appender.err.name = STDERR\n"
        "appender.err.target = SYSTEM_ERR\n"
        "appender.err.layout.type = PatternLayout\n"
        "appender.err.layout.pattern = [%d] %p %m (%c)%n\n"
        "rootLogger.level = WARN\n"
        "rootLogger.appenderRef.err.ref = STDERR\n"
    )
    if not TOOLS_LOG4J.is_file() or TOOLS_LOG4J.read_text() != text:
        TOOLS_LOG4J.parent.mkdir(parents=True, exist_ok=True)
        tmp = TOOLS_LOG4J.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(TOOLS_LOG4J)
    return TOOLS_LOG4J


def _cds_archive(main_class: str, release: str | None = None) -> Path:
    cp = classpath(release)
    key = hashlib.sha256(f"{os.path.realpath(java_executable())}\0{cp}".encode()).hexdigest()[:12]
    return CDS_DIR / f"{main_class.rsplit('.', 1)[-1]}-{key}.jsa"


def _tool_argv(
    main_class: str,
    args: Sequence[str],
    jvm_flags: Sequence[str],
    cds: str | None,
    release: str | None = None,
) -> list[str]:
    return [
        java_executable(),
        *jvm_flags,
        *([cds] if cds else []),
        # JVM warnings (e.g. CDS) would otherwise go to stdout, which carries the tool's data
        "-Xlog:disable",
        "-Xlog:all=warning:stderr",
        f"-Dlog4j2.configurationFile={_tools_log4j()}",
        "-cp",
        classpath(release),
        main_class,
        *args,
    ]


def tool_command(
    main_class: str, *args: str, jvm_flags: Sequence[str] = TOOL_JVM_FLAGS, release: str | None = None
) -> list[str]:
    """argv that runs a Kafka command-line tool's ``main_class`` with light JVM settings (from the jars
    of ``release``, an older Kafka release, when given).

    Uses the tool's class-data-sharing archive when ``run_tool`` has already made one.
    """
    archive = _cds_archive(main_class, release)
    cds = f"-XX:SharedArchiveFile={archive}" if archive.is_file() else None
    return _tool_argv(main_class, args, jvm_flags, cds, release)


@contextlib.contextmanager
def _tool_argv_recording(
    main_class: str, args: Sequence[str], release: str | None = None
) -> Iterator[list[str]]:
    """argv for a tool run; when the tool has no CDS archive yet, this run records one (at JVM exit)."""
    archive = _cds_archive(main_class, release)
    if archive.is_file():
        yield _tool_argv(main_class, args, TOOL_JVM_FLAGS, f"-XX:SharedArchiveFile={archive}", release)
        return
    CDS_DIR.mkdir(parents=True, exist_ok=True)
    tmp = archive.with_name(f"{archive.name}.{os.getpid()}.{uuid.uuid4().hex[:6]}.tmp")
    try:
        yield _tool_argv(main_class, args, TOOL_JVM_FLAGS, f"-XX:ArchiveClassesAtExit={tmp}", release)
        if tmp.is_file() and tmp.stat().st_size > 0:
            tmp.replace(archive)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def run_tool(
    main_class: str, *args: str, timeout: float = 120.0, check: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run a Kafka tool (e.g. ``org.apache.kafka.tools.GetOffsetShell``) and capture its output.

    The first run of each tool records a class-data-sharing archive under dev/target/cds, which
    roughly halves the JVM start of later runs.
    """
    with _tool_argv_recording(main_class, args) as argv:
        return subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, check=check
        )


# --------------------------------------------------------------------------------------------------
# configuration


def _random_cluster_id() -> str:
    while True:
        cid = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not cid.startswith("-"):
            return cid


def broker_properties(
    node_id: int,
    port: int,
    controller_port: int,
    voters: Mapping[int, int],
    data_dir: Path,
    cluster_size: int,
    overrides: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """server.properties for one combined broker+controller node of a ``cluster_size``-node cluster."""
    rf = str(min(cluster_size, 3))
    props: dict[str, str] = {
        "process.roles": "broker,controller",
        "node.id": str(node_id),
        "controller.quorum.voters": ",".join(
            f"{nid}@{HOST}:{cport}" for nid, cport in sorted(voters.items())
        ),
        "listeners": f"PLAINTEXT://{HOST}:{port},CONTROLLER://{HOST}:{controller_port}",
        "advertised.listeners": f"PLAINTEXT://{HOST}:{port}",
        "controller.listener.names": "CONTROLLER",
        "inter.broker.listener.name": "PLAINTEXT",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs": str(data_dir),
        # test-friendly semantics
        "auto.create.topics.enable": "false",
        "num.partitions": "1",
        "default.replication.factor": "1",
        "group.initial.rebalance.delay.ms": "0",
        "offsets.topic.replication.factor": rf,
        "offsets.topic.num.partitions": "10",
        "transaction.state.log.replication.factor": rf,
        "transaction.state.log.min.isr": "1",
        "transaction.state.log.num.partitions": "10",
        "share.coordinator.state.topic.replication.factor": rf,
        "share.coordinator.state.topic.min.isr": "1",
        "min.insync.replicas": "1",
        # let tests produce records with any CreateTime (Kafka 4 rejects > 1h in the future by default)
        "log.message.timestamp.after.max.ms": str(2**63 - 1),
        # many partitions on a small machine: small index files (mmapped), small cleaner buffer
        "log.index.size.max.bytes": str(256 * 1024),
        "log.cleaner.dedupe.buffer.size": str(16 * 1024 * 1024),
        "num.network.threads": "2",
        "num.io.threads": "4",
        "num.recovery.threads.per.data.dir": "2",
        "log.flush.offset.checkpoint.interval.ms": "5000",
    }
    if overrides:
        props.update({k: str(v) for k, v in overrides.items()})
    return props


def _log4j_properties(log_file: Path) -> str:
    quiet = {
        "state.change.logger": "WARN",
        "kafka.request.logger": "WARN",
        "kafka.cluster": "WARN",
        "kafka.log": "WARN",
        "org.apache.kafka.storage.internals": "WARN",
        "kafka.server.ReplicaFetcherThread": "WARN",
        "kafka.server.ReplicaFetcherManager": "WARN",
        "org.apache.kafka.server.ReplicaFetcherManager": "WARN",
        # one line per partition (and leader change) from the controller: floods with 10k partitions
        "org.apache.kafka.controller.ReplicationControlManager": "WARN",
        "org.apache.kafka.controller.PartitionChangeBuilder": "WARN",
    }
    lines = [
        "status = error",
        "name = kafka-dev",
        "appender.file.type = File",
        "appender.file.name = FILE",
        f"appender.file.fileName = {log_file}",
        "appender.file.append = true",
        "appender.file.layout.type = PatternLayout",
        "appender.file.layout.pattern = [%d] %p %m (%c)%n",
        "rootLogger.level = INFO",
        "rootLogger.appenderRef.file.ref = FILE",
    ]
    for i, (logger, level) in enumerate(quiet.items()):
        lines += [f"logger.q{i}.name = {logger}", f"logger.q{i}.level = {level}"]
    return "\n".join(lines) + "\n"


def _write_properties(path: Path, props: Mapping[str, str]) -> None:
    path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))


# --------------------------------------------------------------------------------------------------
# cluster model


@dataclasses.dataclass(frozen=True)
class Node:
    """One combined broker+controller process of a dev cluster."""

    node_id: int
    port: int
    controller_port: int
    pid: int | None
    dir: Path
    #: size of server.log when this JVM was spawned: its "started" line comes after this offset
    log_offset: int = 0

    @property
    def bootstrap(self) -> str:
        """``host:port`` of this node's client listener."""
        return f"{HOST}:{self.port}"

    @property
    def config_file(self) -> Path:
        return self.dir / "server.properties"

    @property
    def log4j_file(self) -> Path:
        return self.dir / "log4j2.properties"

    @property
    def log_file(self) -> Path:
        return self.dir / "server.log"

    @property
    def console_file(self) -> Path:
        return self.dir / "console.log"

    @property
    def data_dir(self) -> Path:
        return self.dir / "data"

    def started(self) -> bool:
        """True once this JVM logged that the server finished starting (registered and unfenced)."""
        try:
            with open(self.log_file, "rb") as fh:
                fh.seek(self.log_offset)
                return _STARTED_MARKER in fh.read()
        except OSError:
            return False

    def alive(self) -> bool:
        """True if this node's JVM is running (and is really this node's process)."""
        return self.pid is not None and pid_alive(self.pid) and str(self.config_file) in _cmdline(self.pid)


@dataclasses.dataclass
class Cluster:
    """A named dev cluster on loopback.  ``nodes`` reflects state.json; methods keep it up to date."""

    name: str
    cluster_id: str
    nodes: list[Node]
    heap: str = DEFAULT_HEAP
    owner_pid: int | None = None
    #: an older Kafka release the nodes run (:mod:`dev.releases`); ``None``: the pinned one
    release: str | None = None

    # -- derived -------------------------------------------------------------------------------
    @property
    def dir(self) -> Path:
        return state_root() / self.name

    @property
    def bootstrap(self) -> str:
        """Comma-separated ``host:port`` of every node's client listener."""
        return ",".join(n.bootstrap for n in self.nodes)

    @property
    def node_ids(self) -> list[int]:
        return [n.node_id for n in self.nodes]

    def node(self, node_id: int) -> Node:
        """The node with ``node_id`` (KeyError if unknown)."""
        for n in self.nodes:
            if n.node_id == node_id:
                return n
        raise KeyError(f"cluster {self.name!r} has no node {node_id} (nodes: {self.node_ids})")

    def alive_nodes(self) -> list[int]:
        """Ids of nodes whose JVM is running (a SIGSTOPped node counts as running)."""
        return [n.node_id for n in self.nodes if n.alive()]

    def is_running(self) -> bool:
        """True if every node's JVM is running."""
        return len(self.alive_nodes()) == len(self.nodes)

    # -- persistence ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cluster_id": self.cluster_id,
            "heap": self.heap,
            "owner_pid": self.owner_pid,
            "release": self.release,
            "bootstrap": self.bootstrap,
            "nodes": [
                {
                    "node_id": n.node_id,
                    "port": n.port,
                    "controller_port": n.controller_port,
                    "pid": n.pid,
                    "log_offset": n.log_offset,
                    "dir": str(n.dir),
                }
                for n in self.nodes
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Cluster:
        nodes = [
            Node(
                node_id=int(n["node_id"]),
                port=int(n["port"]),
                controller_port=int(n["controller_port"]),
                pid=int(n["pid"]) if n.get("pid") else None,
                dir=Path(n["dir"]),
                log_offset=int(n.get("log_offset") or 0),
            )
            for n in data["nodes"]
        ]
        return cls(
            name=str(data["name"]),
            cluster_id=str(data["cluster_id"]),
            nodes=nodes,
            heap=str(data.get("heap") or DEFAULT_HEAP),
            owner_pid=int(data["owner_pid"]) if data.get("owner_pid") else None,
            release=str(data["release"]) if data.get("release") else None,
        )

    def save(self) -> None:
        """Write state.json atomically."""
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.dir / f"state.json.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(self.to_json(), indent=2) + "\n")
        tmp.replace(self.dir / "state.json")

    def _set_pid(self, node_id: int, pid: int | None, log_offset: int | None = None) -> None:
        def update(n: Node) -> Node:
            if log_offset is None:
                return dataclasses.replace(n, pid=pid)
            return dataclasses.replace(n, pid=pid, log_offset=log_offset)

        self.nodes = [update(n) if n.node_id == node_id else n for n in self.nodes]
        self.save()

    def _spawn(self, node_id: int) -> None:
        node = self.node(node_id)
        try:
            offset = node.log_file.stat().st_size
        except OSError:
            offset = 0
        self._set_pid(node_id, _spawn_node(node, self.heap, self.release), offset)

    # -- process control -----------------------------------------------------------------------
    def signal(self, node_id: int, sig: int) -> None:
        """Send ``sig`` (e.g. SIGKILL, SIGSTOP, SIGCONT) to node ``node_id``'s JVM."""
        node = self.node(node_id)
        if not node.alive():
            raise KafkaHarnessError(f"node {node_id} of cluster {self.name!r} is not running")
        assert node.pid is not None
        os.kill(node.pid, sig)

    def kill_node(self, node_id: int) -> None:
        """SIGKILL node ``node_id`` and wait until it is gone (data kept; ``start_node`` brings it back)."""
        self.stop_node(node_id, grace=0.0)

    def stop_node(self, node_id: int, grace: float = 30.0) -> None:
        """Stop node ``node_id``: SIGTERM (controlled shutdown), SIGKILL after ``grace`` s.  Data is kept."""
        node = self.node(node_id)
        if node.alive():
            assert node.pid is not None
            _terminate([node.pid], grace)
        self._set_pid(node_id, None)

    def start_node(self, node_id: int, *, wait: bool = True, timeout: float | None = None) -> Node:
        """(Re)start node ``node_id`` with its existing config and data; optionally wait until it serves."""
        node = self.node(node_id)
        if node.alive():
            return node
        self._spawn(node_id)
        if wait:
            self.wait_ready(timeout, require={node_id})
        return self.node(node_id)

    def wait_ready(self, timeout: float | None = None, *, require: set[int] | None = None) -> float:
        """Block until cluster metadata lists the ``require``d node ids (default: all nodes).

        Raises ClusterStartError (with the tail of the broker logs) on timeout or if a node's JVM exits.
        Returns the seconds waited.
        """
        from confluent_kafka.admin import AdminClient  # harness-only dependency

        want = set(self.node_ids) if require is None else set(require)
        limit = _start_timeout() if timeout is None else timeout
        t0 = time.monotonic()
        deadline = t0 + limit
        admin: Any = None
        admin_ports: set[int] = set()
        confirmed: set[int] = set()
        seen: set[int] = set()
        last_error = ""
        while True:
            for nid in want:
                if not self.node(nid).alive():
                    raise ClusterStartError(self._failure(f"node {nid} exited during startup", {nid}))
            # A restarted node is listed in metadata under its old registration until the controller
            # fences it, so also require its own "started" log line, written once it is unfenced.
            confirmed |= {nid for nid in want - confirmed if self.node(nid).started()}
            starting = sorted(want - confirmed)
            # bootstrap from every node that listens: a node that is still starting accepts connections
            # before it serves requests, while the others can already tell whether it has joined
            live = [n for n in self.nodes if _port_open(n.port)]
            if live:
                ports = {n.port for n in live}
                if admin is None or ports != admin_ports:
                    admin_ports = ports
                    conf: dict[str, Any] = {
                        "bootstrap.servers": ",".join(n.bootstrap for n in live),
                        "logger": _LIBRDKAFKA_LOG,
                        "socket.connection.setup.timeout.ms": 2000,
                    }
                    admin = AdminClient(conf)
                try:
                    md = admin.list_topics(timeout=1)
                    seen = set(md.brokers)
                    if want <= seen and not starting:
                        return time.monotonic() - t0
                except Exception as exc:  # KafkaException while the cluster forms
                    last_error = str(exc)
            if time.monotonic() > deadline:
                detail = f"metadata lists brokers {sorted(seen)}, want {sorted(want)}"
                if starting:
                    detail += f"; nodes {starting} have not logged 'Kafka Server started'"
                if last_error:
                    detail += f"; last error: {last_error}"
                raise ClusterStartError(
                    self._failure(f"cluster {self.name!r} not ready after {limit:.0f}s ({detail})", want)
                )
            time.sleep(0.25)

    def _failure(self, headline: str, node_ids: set[int]) -> str:
        parts = [headline]
        for nid in sorted(node_ids):
            n = self.node(nid)
            parts.append(f"--- node {nid}: tail of {n.log_file} ---\n{_tail(n.log_file, 30)}")
            console = _tail(n.console_file, 20)
            if console not in ("(empty)", "(no log file)"):
                parts.append(f"--- node {nid}: tail of {n.console_file} ---\n{console}")
        return "\n".join(parts)

    def _bind_failed(self) -> bool:
        return any(
            _BIND_ERROR_RE.search(_tail(n.log_file, 200)) or _BIND_ERROR_RE.search(_tail(n.console_file, 50))
            for n in self.nodes
        )


# --------------------------------------------------------------------------------------------------
# process helpers


def _start_timeout() -> float:
    try:
        return float(os.environ.get("KAFKA_DEV_START_TIMEOUT", DEFAULT_START_TIMEOUT))
    except ValueError:
        return DEFAULT_START_TIMEOUT


def _broker_command(node: Node, heap: str, release: str | None = None) -> list[str]:
    return [
        java_executable(),
        f"-Xmx{heap}",
        "-Xms64m",
        "-Xss1m",
        "-XX:+UseSerialGC",
        "-XX:+ExitOnOutOfMemoryError",
        "-Xshare:auto",
        "-Djava.awt.headless=true",
        "-Djava.net.preferIPv4Stack=true",
        *os.environ.get("KAFKA_DEV_JVM_OPTS", "").split(),
        f"-Dlog4j2.configurationFile={node.log4j_file}",
        f"-Dkafka.logs.dir={node.dir}",
        "-cp",
        classpath(release),
        "kafka.Kafka",
        str(node.config_file),
    ]


def _spawn_node(node: Node, heap: str, release: str | None = None) -> int:
    """Start ``node``'s JVM detached (new session, survives us); returns its pid."""
    cmd = _broker_command(node, heap, release)
    with open(node.console_file, "ab") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=node.dir,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
            preexec_fn=_raise_nofile,
        )
    # Keep a reference so the child is reaped by subprocess if it exits while we run.
    _CHILDREN.append(proc)
    return proc.pid


_CHILDREN: list[subprocess.Popen[bytes]] = []


def _terminate(pids: Sequence[int], grace: float) -> None:
    """SIGTERM (plus SIGCONT, in case a test stopped it) then SIGKILL after ``grace`` seconds."""
    live = [p for p in pids if pid_alive(p)]
    if not live:
        return
    first = _signal.SIGKILL if grace <= 0 else _signal.SIGTERM
    for p in live:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, first)
            os.kill(p, _signal.SIGCONT)
    deadline = time.monotonic() + max(grace, 0.0)
    while time.monotonic() < deadline and any(pid_alive(p) for p in live):
        time.sleep(0.1)
    for p in live:
        if pid_alive(p):
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, _signal.SIGKILL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(pid_alive(p) for p in live):
        time.sleep(0.05)
    stuck = [p for p in live if pid_alive(p)]
    if stuck:
        raise KafkaHarnessError(f"processes {stuck} survived SIGKILL")


def _format_storage(cluster: Cluster) -> None:
    """Run Kafka's StorageTool on every node in parallel (the first may record the tool's CDS archive)."""
    tool = "kafka.tools.StorageTool"
    with contextlib.ExitStack() as stack:
        procs: list[tuple[Node, subprocess.Popen[str]]] = []
        for i, n in enumerate(cluster.nodes):
            args = ("format", "--cluster-id", cluster.cluster_id, "--config", str(n.config_file))
            r = cluster.release
            argv = (
                stack.enter_context(_tool_argv_recording(tool, args, r))
                if i == 0
                else tool_command(tool, *args, release=r)
            )
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
            procs.append((n, proc))
        errors = []
        for n, p in procs:
            out, _ = p.communicate(timeout=120)
            if p.returncode != 0:
                errors.append(f"node {n.node_id}: StorageTool format exited {p.returncode}:\n{out.strip()}")
    if errors:
        raise ClusterStartError("formatting KRaft storage failed\n" + "\n".join(errors))


# --------------------------------------------------------------------------------------------------
# public API


def _state_file(name: str) -> Path:
    return state_root() / name / "state.json"


def get(name: str = DEFAULT_NAME) -> Cluster | None:
    """The cluster recorded under ``name`` (running or not), or None if there is none."""
    path = _state_file(_check_name(name))
    try:
        return Cluster.from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise KafkaHarnessError(f"corrupt state file {path}: {exc}") from exc


def names() -> list[str]:
    """Names of all clusters that have state under dev/.state."""
    root = state_root()
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob("*/state.json"))


def _lock(name: str) -> contextlib.AbstractContextManager[None]:
    return _flock(state_root() / ".locks" / f"{name}.lock")


def _prune_locks(max_age: float = 3600.0) -> None:
    """Delete lock files of clusters that have had no state for ``max_age`` seconds."""
    now = time.time()
    for lock in (state_root() / ".locks").glob("*.lock"):
        with contextlib.suppress(OSError):
            if not (state_root() / lock.stem).exists() and now - lock.stat().st_mtime > max_age:
                lock.unlink()


def up(
    name: str = DEFAULT_NAME,
    nodes: int = 1,
    *,
    timeout: float | None = None,
    heap: str | None = None,
    broker_config: Mapping[str, str] | None = None,
    owner_pid: int | None = None,
    node_config: Callable[[Node], Mapping[str, str]] | None = None,
    release: str | None = None,
) -> Cluster:
    """Start (or reuse) the ``nodes``-node cluster ``name`` and return it once metadata lists every node.

    A cluster already running under ``name`` is returned as is (dead nodes of a partly running one are
    restarted).  ``broker_config`` overrides server.properties entries; ``heap`` is the broker -Xmx
    (default $KAFKA_DEV_HEAP or 768m); ``owner_pid`` marks the cluster for ``reap_orphans`` once that
    process is gone.  ``node_config(node)`` adds per-node server.properties entries to a new cluster (extra
    listeners, see dev/secure.py).  ``release``: run an older Kafka release (one of
    :data:`dev.releases.OLDER`) instead of the pinned one.  Raises ClusterStartError with the tail of
    the broker log if it does not come up.
    """
    _check_name(name)
    if nodes < 1:
        raise KafkaHarnessError("nodes must be >= 1")
    heap = heap or os.environ.get("KAFKA_DEV_HEAP") or DEFAULT_HEAP
    with _lock(name):
        existing = get(name)
        if existing is not None:
            alive = existing.alive_nodes()
            if alive and (len(existing.nodes) != nodes or existing.release != release):
                raise KafkaHarnessError(
                    f"cluster {name!r} is running with {len(existing.nodes)} node(s) of Kafka "
                    f"{existing.release or 'pinned'}, not {nodes} of {release or 'pinned'}; "
                    f"run `python -m dev.kafka down --name {name}` first"
                )
            if alive:
                for n in existing.nodes:
                    if n.node_id not in alive:
                        _progress(f"{name}: restarting dead node {n.node_id}")
                        existing.start_node(n.node_id, wait=False)
                existing.wait_ready(timeout)
                return existing
            _remove(name)  # stale: nothing alive
        return _create(
            name,
            nodes,
            timeout=timeout,
            heap=heap,
            broker_config=broker_config,
            owner_pid=owner_pid,
            node_config=node_config,
            release=release,
        )


def _create(
    name: str,
    nodes: int,
    *,
    timeout: float | None,
    heap: str,
    broker_config: Mapping[str, str] | None,
    owner_pid: int | None,
    node_config: Callable[[Node], Mapping[str, str]] | None = None,
    release: str | None = None,
) -> Cluster:
    resolve()
    classpath(release)  # an older release's jars are fetched before any port is taken
    attempts = 3
    for attempt in range(1, attempts + 1):
        t0 = time.monotonic()
        ports = _free_ports(2 * nodes)
        node_ids = list(range(1, nodes + 1))
        voters = {nid: ports[nodes + i] for i, nid in enumerate(node_ids)}
        root = state_root() / name
        root.mkdir(parents=True, exist_ok=True)
        cluster = Cluster(
            name=name,
            cluster_id=_random_cluster_id(),
            nodes=[
                Node(
                    node_id=nid,
                    port=ports[i],
                    controller_port=voters[nid],
                    pid=None,
                    dir=root / f"node-{nid}",
                )
                for i, nid in enumerate(node_ids)
            ],
            heap=heap,
            owner_pid=owner_pid,
            release=release,
        )
        for n in cluster.nodes:
            n.dir.mkdir(parents=True, exist_ok=True)
            props = broker_properties(
                n.node_id, n.port, n.controller_port, voters, n.data_dir, nodes, broker_config
            )
            if node_config is not None:
                props.update(node_config(n))
            _write_properties(n.config_file, props)
            n.log4j_file.write_text(_log4j_properties(n.log_file))
        cluster.save()
        _progress(f"{name}: formatting {nodes} node(s) (cluster id {cluster.cluster_id})")
        _format_storage(cluster)
        t_fmt = time.monotonic() - t0
        for n in cluster.nodes:
            cluster._spawn(n.node_id)
        _progress(f"{name}: started pids {[n.pid for n in cluster.nodes]}; waiting for metadata ...")
        try:
            waited = cluster.wait_ready(timeout)
        except ClusterStartError:
            bind_failed = cluster._bind_failed()
            _terminate([n.pid for n in cluster.nodes if n.pid], grace=0)
            for n in cluster.nodes:
                cluster._set_pid(n.node_id, None)
            if bind_failed and attempt < attempts:
                _progress(f"{name}: a port was taken meanwhile; retrying with new ports")
                _remove(name)
                continue
            raise
        _progress(
            f"{name}: {nodes} node(s) ready in {time.monotonic() - t0:.1f}s "
            f"(format {t_fmt:.1f}s, start {waited:.1f}s): {cluster.bootstrap}"
        )
        return cluster
    raise AssertionError("unreachable")


def _remove(name: str) -> None:
    """Delete cluster ``name``'s directory: renamed away at once, deleted by a detached ``rm -rf``.

    A cluster with 10k+ partitions leaves 100k+ files; deleting them can take a minute on a busy disk,
    which nobody should wait for.
    """
    root = state_root() / name
    if not root.exists():
        return
    trash = state_root() / ".trash"
    trash.mkdir(parents=True, exist_ok=True)
    target = trash / f"{name}.{uuid.uuid4().hex[:8]}"
    try:
        root.rename(target)
    except OSError:
        shutil.rmtree(root, ignore_errors=True)
        return
    try:
        subprocess.Popen(
            ["rm", "-rf", "--", str(target)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        shutil.rmtree(target, ignore_errors=True)


def down(name: str = DEFAULT_NAME, *, grace: float = 5.0) -> bool:
    """Stop every node of cluster ``name`` (SIGTERM, SIGKILL after ``grace`` s) and delete its data.

    Returns True if there was something to tear down.
    """
    _check_name(name)
    with _lock(name):
        cluster = get(name)
        root = state_root() / name
        if cluster is None:
            existed = root.exists()
            _remove(name)
            return existed
        pids = [n.pid for n in cluster.nodes if n.pid is not None and n.alive()]
        _terminate(pids, grace)
        _remove(name)
    return True


def reap_orphans() -> list[str]:
    """Tear down clusters whose ``owner_pid`` (e.g. a pytest run) no longer exists; returns their names."""
    reaped = []
    for name in names():
        try:
            cluster = get(name)
        except KafkaHarnessError:
            continue
        if cluster is not None and cluster.owner_pid and not pid_alive(cluster.owner_pid):
            down(name, grace=0)
            reaped.append(name)
    _prune_locks()
    return reaped


def status(name: str | None = None) -> list[dict[str, Any]]:
    """State of cluster ``name`` (or of all clusters): state.json plus which node JVMs are alive."""
    result = []
    for nm in [name] if name else names():
        cluster = get(nm)
        if cluster is None:
            continue
        data = cluster.to_json()
        alive = set(cluster.alive_nodes())
        for n in data["nodes"]:
            n["alive"] = n["node_id"] in alive
        data["running"] = len(alive) == len(cluster.nodes)
        result.append(data)
    return result


# --------------------------------------------------------------------------------------------------
# CLI


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dev.kafka`` entry point."""
    parser = argparse.ArgumentParser(prog="python -m dev.kafka", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_up = sub.add_parser("up", help="start a cluster; prints its bootstrap servers as the last stdout line")
    p_up.add_argument("--nodes", type=int, default=1, help="number of broker+controller nodes (default 1)")
    p_up.add_argument("--name", default=DEFAULT_NAME)
    p_up.add_argument("--timeout", type=float, default=None, help="startup timeout in seconds")
    p_up.add_argument("--heap", default=None, help="broker -Xmx (default 768m)")
    p_up.add_argument("--sasl", action="store_true", help="add SASL/SCRAM-SHA-512 listeners, users, ACLs")
    p_up.add_argument("--tls", action="store_true", help="add TLS listeners with a CA made for the run")
    p_up.add_argument(
        "--mtls",
        action="store_true",
        help="add mutual-TLS listeners (ssl.client.auth=required) and a client certificate",
    )
    p_up.add_argument(
        "--tiered", action="store_true", help="tiered storage (LocalTieredStorage, dev/tiered.py)"
    )
    p_up.add_argument(
        "--owner-pid", type=int, default=None, help="`reap` tears the cluster down once this process is gone"
    )
    p_up.add_argument(
        "--release", default=None, help="an older Kafka release (dev/releases.py OLDER), plain listeners only"
    )
    p_down = sub.add_parser("down", help="stop a cluster and delete its data")
    p_down.add_argument("--name", default=DEFAULT_NAME)
    p_down.add_argument("--all", action="store_true", help="every cluster under dev/.state")
    p_status = sub.add_parser("status", help="show clusters (JSON)")
    p_status.add_argument("--name", default=None)
    sub.add_parser("classpath", help="print the Java classpath of Kafka's jars")
    sub.add_parser("resolve", help="fetch Kafka's jars with Maven if needed")
    sub.add_parser("reap", help="tear down clusters whose owning process is gone")
    args = parser.parse_args(argv)

    try:
        if args.cmd == "up" and args.release and (args.sasl or args.tls or args.mtls or args.tiered):
            raise KafkaHarnessError(
                "--release runs plain listeners only (no --sasl, --tls, --mtls, --tiered)"
            )
        if args.cmd == "up" and (args.sasl or args.tls or args.mtls):
            from dev import secure  # SASL/TLS listeners, users and ACLs (see dev/secure.py)

            extra = None
            if args.tiered:
                from dev import tiered

                extra = tiered.broker_config(args.name, args.nodes)
            secured = secure.up(
                args.name,
                args.nodes,
                sasl=args.sasl,
                tls=args.tls,
                mtls=args.mtls,
                timeout=args.timeout,
                heap=args.heap,
                owner_pid=args.owner_pid,
                broker_config=extra,
            )
            for line in secured.summary():
                _progress(line)
            first = next(
                lst for lst, on in (("sasl", args.sasl), ("tls", args.tls), ("mtls", args.mtls)) if on
            )
            print(secured.bootstrap(first), flush=True)
        elif args.cmd == "up" and args.tiered:
            from dev import tiered  # LocalTieredStorage and the remote log settings

            cluster = tiered.up(
                args.name, args.nodes, timeout=args.timeout, heap=args.heap, owner_pid=args.owner_pid
            )
            print(cluster.bootstrap, flush=True)
        elif args.cmd == "up":
            cluster = up(
                args.name,
                args.nodes,
                timeout=args.timeout,
                heap=args.heap,
                owner_pid=args.owner_pid,
                release=args.release,
            )
            print(cluster.bootstrap, flush=True)
        elif args.cmd == "down":
            targets = names() if args.all else [args.name]
            for nm in targets:
                _progress(f"{nm}: {'stopped and removed' if down(nm) else 'nothing to stop'}")
        elif args.cmd == "status":
            info = status(args.name)
            if args.name and not info:
                _progress(f"no cluster named {args.name!r}")
                return 1
            print(json.dumps(info if not args.name else info[0], indent=2))
        elif args.cmd == "classpath":
            print(classpath())
        elif args.cmd == "resolve":
            jars = resolve()
            _progress(f"{len(jars)} jars in {LIB_DIR} (Kafka {kafka_version()})")
        elif args.cmd == "reap":
            for nm in reap_orphans():
                _progress(f"reaped {nm}")
    except KafkaHarnessError as exc:
        print(f"dev.kafka: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
