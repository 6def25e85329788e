"""Kafka's own MirrorMaker 2 between two dev clusters: a real disaster-recovery pair on loopback.

``org.apache.kafka.connect.mirror.MirrorMaker`` (dedicated mode) comes from the Connect jars on Maven
Central (``org.apache.kafka:connect-mirror`` and what it needs: connect-runtime, connect-mirror-client,
connect-api, jetty, jersey…), fetched once with Maven into ``dev/target/mirror-lib``, apart from
``dev/pom.xml``'s broker jars (clusters already running keep theirs). The two clusters are ordinary
``dev.kafka`` clusters; MirrorMaker runs detached like a broker, its state under
``dev/.state/mirror-NAME/`` (``mm2.properties``, ``mm2.log``, ``pid``).

The flow is one way, ``primary->dr``, with short intervals so that MirrorMaker's own offset
translation is there to compare with: offset syncs, checkpoints every second and
``sync.group.offsets.enabled=true`` (it commits the translated offsets of groups on DR). The DR topic
of ``T`` is ``primary.T`` (``DefaultReplicationPolicy``) or ``T`` (``identity=True``:
``IdentityReplicationPolicy``).

Command line::

    python -m dev.mirror up PRIMARY_BOOTSTRAP DR_BOOTSTRAP [--topics REGEX] [--identity] [--name NAME]
    python -m dev.mirror down [--name NAME]
    python -m dev.mirror resolve                 # fetch the Connect jars (Maven) if needed
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from dev import kafka

MAIN_CLASS = "org.apache.kafka.connect.mirror.MirrorMaker"
MIRROR_LIB = kafka.TARGET_DIR / "mirror-lib"
#: The cluster aliases of the flow (the DR topic prefix under the default policy is ``primary.``).
PRIMARY, DR = "primary", "dr"
IDENTITY_POLICY = "org.apache.kafka.connect.mirror.IdentityReplicationPolicy"
DEFAULT_START_TIMEOUT = 120.0


def _pom_text() -> str:
    log4j = "org.apache.logging.log4j"
    return kafka.extra_pom(
        "mirror",
        MIRROR_LIB,
        [
            ("org.apache.kafka", "connect-mirror", kafka.kafka_version()),
            (log4j, "log4j-core", "2.25.4"),
            (log4j, "log4j-slf4j-impl", "2.25.4"),
        ],
    )


def resolve() -> list[Path]:
    """The Connect jars MirrorMaker needs, in ``dev/target/mirror-lib`` (Maven runs once)."""
    return kafka.resolve_extra(MIRROR_LIB, _pom_text(), "connect-mirror")


def properties(
    primary: str,
    dr: str,
    *,
    topics: str = ".*",
    identity: bool = False,
    aliases: tuple[str, str] = (PRIMARY, DR),
) -> dict[str, str]:
    """``mm2.properties`` of a one-way ``primary->dr`` flow with short sync and checkpoint intervals.

    ``aliases`` name the two clusters (the DR topic prefix, and MirrorMaker's internal topics: two
    MirrorMakers between the same clusters need different ones).
    """
    src, dst = aliases
    props = {
        "clusters": f"{src}, {dst}",
        f"{src}.bootstrap.servers": primary,
        f"{dst}.bootstrap.servers": dr,
        f"{src}->{dst}.enabled": "true",
        f"{dst}->{src}.enabled": "false",
        f"{src}->{dst}.topics": topics,
        f"{src}->{dst}.groups": ".*",
        "tasks.max": "1",
        "sync.group.offsets.enabled": "true",
        "sync.group.offsets.interval.seconds": "1",
        "emit.checkpoints.interval.seconds": "1",
        "emit.heartbeats.interval.seconds": "1",
        "refresh.topics.interval.seconds": "1",
        "refresh.groups.interval.seconds": "1",
        "sync.topic.configs.enabled": "true",
        # offset syncs held back since the last sync are written when the task commits (Connect's
        # offset flush, 60 s by default): at 1 s, MirrorMaker's translation catches up within seconds
        "offset.flush.interval.ms": "1000",
        # one-node clusters
        "replication.factor": "1",
        "checkpoints.topic.replication.factor": "1",
        "heartbeats.topic.replication.factor": "1",
        "offset-syncs.topic.replication.factor": "1",
        "offset.storage.replication.factor": "1",
        "status.storage.replication.factor": "1",
        "config.storage.replication.factor": "1",
    }
    if identity:
        props["replication.policy.class"] = IDENTITY_POLICY
    return props


@dataclass(frozen=True)
class Mirror:
    """A running MirrorMaker: its directory and pid."""

    name: str
    dir: Path
    pid: int
    identity: bool
    source_alias: str = PRIMARY

    @property
    def log_file(self) -> Path:
        """MirrorMaker's log (stdout and stderr of the JVM)."""
        return self.dir / "mm2.log"

    def remote_topic(self, topic: str) -> str:
        """The DR topic MirrorMaker writes ``topic`` to."""
        return topic if self.identity else f"{self.source_alias}.{topic}"

    def alive(self) -> bool:
        """True while the JVM runs."""
        return kafka.pid_alive(self.pid)


def _dir(name: str) -> Path:
    return kafka.state_root() / f"mirror-{name}"


def up(
    name: str,
    primary: str,
    dr: str,
    *,
    topics: str = ".*",
    identity: bool = False,
    aliases: tuple[str, str] = (PRIMARY, DR),
    timeout: float = DEFAULT_START_TIMEOUT,
    extra: Mapping[str, str] | None = None,
) -> Mirror:
    """Start MirrorMaker ``name`` (stopping one left under that name) and wait until its flow runs.

    Ready: the JVM logs that MirrorMaker started and the heartbeats topic exists on DR. Raises
    :class:`dev.kafka.KafkaHarnessError` with the log's tail when it exits or ``timeout`` passes.
    """
    jars = resolve()
    down(name)
    d = _dir(name)
    d.mkdir(parents=True, exist_ok=True)
    props = {**properties(primary, dr, topics=topics, identity=identity, aliases=aliases), **(extra or {})}
    (d / "mm2.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    argv = [
        kafka.java_executable(),
        "-Xmx256m",
        "-XX:+UseSerialGC",
        "-Djava.net.preferIPv4Stack=true",
        f"-Dlog4j2.configurationFile={_log4j(d)}",
        "-cp",
        os.pathsep.join(str(j) for j in jars),
        MAIN_CLASS,
        str(d / "mm2.properties"),
        "--clusters",  # (after the file: it takes one or more values)
        aliases[1],
    ]
    with open(d / "mm2.log", "wb") as out:
        proc = subprocess.Popen(
            argv,
            cwd=d,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    kafka._CHILDREN.append(proc)  # reaped by subprocess if it exits while we run
    (d / "pid").write_text(str(proc.pid))
    mirror = Mirror(name, d, proc.pid, identity, aliases[0])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not mirror.alive():
            raise kafka.KafkaHarnessError(f"MirrorMaker exited:\n{kafka._tail(mirror.log_file)}")
        if b"MirrorMaker started" in mirror.log_file.read_bytes():
            return mirror
        time.sleep(0.5)
    tail = kafka._tail(mirror.log_file)
    down(name)
    raise kafka.KafkaHarnessError(f"MirrorMaker not started after {timeout:.0f}s:\n{tail}")


def _log4j(d: Path) -> Path:
    path = d / "log4j2.properties"
    path.write_text(
        "status = error\n"
        "appender.out.type = Console\nappender.out.name = OUT\n"
        "appender.out.layout.type = PatternLayout\nappender.out.layout.pattern = [%d] %p %m (%c)%n\n"
        "rootLogger.level = INFO\nrootLogger.appenderRef.out.ref = OUT\n"
        "logger.kafka.name = org.apache.kafka.clients\nlogger.kafka.level = WARN\n"
    )
    return path


def down(name: str, *, grace: float = 10.0) -> bool:
    """Stop MirrorMaker ``name`` (SIGTERM, then SIGKILL after ``grace``) and remove its directory;
    False when none ran."""
    pid_file = _dir(name) / "pid"
    try:
        pid = int(pid_file.read_text())
    except (OSError, ValueError):
        return False
    ran = kafka.pid_alive(pid) and MAIN_CLASS in kafka._cmdline(pid)
    if ran:
        kafka._terminate([pid], grace)
    shutil.rmtree(_dir(name), ignore_errors=True)  # as dev.kafka's down: nothing is left behind
    return ran


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dev.mirror up|down|resolve``."""
    ap = argparse.ArgumentParser(prog="python -m dev.mirror", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("up")
    u.add_argument("primary")
    u.add_argument("dr")
    u.add_argument("--topics", default=".*")
    u.add_argument("--identity", action="store_true")
    u.add_argument("--name", default=kafka.DEFAULT_NAME)
    dn = sub.add_parser("down")
    dn.add_argument("--name", default=kafka.DEFAULT_NAME)
    sub.add_parser("resolve")
    args = ap.parse_args(argv)
    if args.cmd == "resolve":
        print(os.pathsep.join(str(j) for j in resolve()))
    elif args.cmd == "up":
        m = up(args.name, args.primary, args.dr, topics=args.topics, identity=args.identity)
        print(f"MirrorMaker {m.name} running (pid {m.pid}, log {m.log_file})")
    else:
        down(args.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
