"""Tiered storage (KIP-405) on the dev harness's real brokers, with Kafka's own ``LocalTieredStorage``.

Kafka ships a file-system ``RemoteStorageManager`` for its tests,
``org.apache.kafka.server.log.remote.storage.LocalTieredStorage``, in ``kafka-storage``'s test jar
(``org.apache.kafka:kafka-storage:4.3.1``, classifier ``test``, on Maven Central). Its only outside
reference, ``org.apache.kafka.test.TestUtils``, is used when no storage directory is configured; one
always is here, so that jar alone is given to the broker, as ``remote.log.storage.manager.class.path``
(fetched once with ``mvn dependency:copy`` into ``dev/target/tiered-lib``, apart from
``dev/pom.xml``'s jars so that clusters already running keep theirs). Remote log metadata goes
through the default ``TopicBasedRemoteLogMetadataManager`` (topic ``__remote_log_metadata``).

Segments move quickly: the remote log manager runs every second, local retention is checked every
second, and :func:`create_topic` makes topics with ``remote.storage.enable=true``, small segments
and ``local.retention.ms=1000``, so every rolled segment is uploaded and its local copy deleted
within seconds. Every node of a cluster shares one remote storage directory (as one bucket would),
so a new leader reads what another uploaded.

Command line::

    python -m dev.kafka up --tiered [--nodes 1|3] [--name NAME]   # last stdout line: bootstrap servers
    python -m dev.kafka up --tiered --sasl [--tls]                # with dev/secure.py's listeners
    python -m dev.tiered demo-topic BOOTSTRAP TOPIC               # a tiered topic with uploaded segments
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from dev import kafka

#: The jar holding LocalTieredStorage (Maven coordinates groupId:artifactId:version:type:classifier).
STORAGE_TEST_JAR = "org.apache.kafka:kafka-storage:{version}:jar:test"
TIERED_LIB = kafka.TARGET_DIR / "tiered-lib"
_DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy"

#: Segment size of tiered topics: Kafka 4 refuses ``segment.bytes`` below 1 MiB, but its
#: test-only ``internal.segment.bytes`` (LogConfig) takes any size.
SEGMENT_BYTES = 16 * 1024

#: Broker settings of a tiered cluster (per-node paths and sizes are added by :func:`node_config`).
BROKER_CONFIG: dict[str, str] = {
    "remote.log.storage.system.enable": "true",
    "remote.log.storage.manager.class.name": "org.apache.kafka.server.log.remote.storage.LocalTieredStorage",
    "remote.log.storage.manager.impl.prefix": "rsm.config.",
    "remote.log.metadata.manager.class.name": (
        "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager"
    ),
    "remote.log.metadata.manager.impl.prefix": "rlmm.config.",
    "remote.log.metadata.manager.listener.name": "PLAINTEXT",
    "rlmm.config.remote.log.metadata.topic.num.partitions": "5",
    # copy and expire segments every second (defaults: 30 s and 5 min)
    "remote.log.manager.task.interval.ms": "1000",
    "remote.log.manager.copier.thread.pool.size": "2",
    "remote.log.manager.expiration.thread.pool.size": "2",
    "log.retention.check.interval.ms": "1000",
    # ... from the start: the log manager's first retention check otherwise waits 30 s after start-up,
    # which was most of the time a fresh broker took to delete its first uploaded segments locally
    "log.initial.task.delay.ms": "0",
    # a segment file is deleted 1 s after local retention removes it (default 1 min)
    "log.segment.delete.delay.ms": "1000",
}

#: Topic settings that make segments move within seconds.
TOPIC_CONFIG: dict[str, str] = {
    "remote.storage.enable": "true",
    "internal.segment.bytes": str(SEGMENT_BYTES),
    "local.retention.ms": "1000",
    "retention.ms": "-1",
    "retention.bytes": "-1",
}


def storage_jars() -> list[Path]:
    """The jars LocalTieredStorage needs beyond Kafka's broker jars, fetched with Maven once."""
    jar = TIERED_LIB / f"kafka-storage-{kafka.kafka_version()}-test.jar"
    TIERED_LIB.mkdir(parents=True, exist_ok=True)
    # looked at only under the lock: Maven writes the jar in place, and a lane (make test) that saw
    # it half-written would start a broker that cannot load LocalTieredStorage
    with kafka._flock(kafka.TARGET_DIR / ".tiered-resolve.lock"):
        if jar.is_file():
            return [jar]
        mvn = shutil.which("mvn")
        if mvn is None:
            raise kafka.KafkaHarnessError(
                "Maven (mvn) is not on PATH; it is needed once to fetch LocalTieredStorage"
            )
        artifact = STORAGE_TEST_JAR.format(version=kafka.kafka_version())
        proc = subprocess.run(
            [
                mvn,
                "-q",
                "-B",
                _DEPENDENCY_PLUGIN,
                f"-Dartifact={artifact}",
                f"-DoutputDirectory={TIERED_LIB}",
            ],
            cwd=TIERED_LIB,  # not dev/: its pom.xml would send the jar to dev/target/lib
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0 or not jar.is_file():
            out = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
            raise kafka.KafkaHarnessError(f"could not fetch {artifact} (exit {proc.returncode}):\n{out}")
    return [jar]


def broker_config(name: str, nodes: int) -> dict[str, str]:
    """server.properties entries of tiered cluster ``name`` (for ``dev.kafka.up`` or ``dev.secure.up``).

    The storage jar goes in through the broker's own ``remote.log.storage.manager.class.path``
    (a dedicated class loader, parent-last over the broker's classpath), so nothing else changes.
    """
    jars = storage_jars()
    return {
        **BROKER_CONFIG,
        "remote.log.storage.manager.class.path": os.pathsep.join(str(j) for j in jars),
        # one directory for every node, as one bucket would be: a new leader reads what another uploaded
        "rsm.config.dir": str(kafka.state_root() / name / "remote-storage"),
        "rlmm.config.remote.log.metadata.topic.replication.factor": str(min(nodes, 3)),
    }


def up(
    name: str = kafka.DEFAULT_NAME,
    nodes: int = 1,
    *,
    timeout: float | None = None,
    heap: str | None = None,
    owner_pid: int | None = None,
) -> kafka.Cluster:
    """Start (or reuse) cluster ``name`` with tiered storage; see :func:`dev.kafka.up`."""
    return kafka.up(
        name, nodes, timeout=timeout, heap=heap, owner_pid=owner_pid, broker_config=broker_config(name, nodes)
    )


def create_topic(
    bootstrap: str,
    topic: str,
    partitions: int = 1,
    *,
    replication: int = 1,
    tiered: bool = True,
    config: Mapping[str, str] | None = None,
) -> None:
    """Create ``topic``: tiered (:data:`TOPIC_CONFIG`), or plain with the same small segments.

    ``config`` overrides topic settings (``remote.log.copy.disable=true``: segments stay local).
    """
    from confluent_kafka.admin import AdminClient, NewTopic  # type: ignore[attr-defined]

    config = {
        **(TOPIC_CONFIG if tiered else {"internal.segment.bytes": str(SEGMENT_BYTES)}),
        **(config or {}),
    }
    from confluent_kafka import KafkaException

    admin = AdminClient({"bootstrap.servers": bootstrap})
    for attempt in range(3):  # a cluster that just started may drop the first request (_DESTROY_BROKER)
        futures = admin.create_topics([NewTopic(topic, partitions, replication, config=config)])
        try:
            futures[topic].result(60)
            break
        except KafkaException as e:
            err = e.args[0]
            if attempt and err.name() == "TOPIC_ALREADY_EXISTS":
                break  # the earlier attempt did create it
            if attempt == 2 or not (err.retriable() or err.name() in ("_DESTROY_BROKER", "_TRANSPORT")):
                raise
            time.sleep(1)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # metadata reaches every broker shortly after
        md = admin.list_topics(topic, timeout=10).topics.get(topic)
        if md is not None and md.error is None and len(md.partitions) == partitions:
            return
        time.sleep(0.1)
    raise kafka.KafkaHarnessError(f"topic {topic} did not appear in metadata")


def produce(bootstrap: str, topic: str, partitions: int, records: int, *, size: int = 1024) -> None:
    """``records`` records of ``size`` bytes into each partition (several segments' worth, flushed)."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 4 * size})
    for part in range(partitions):
        for i in range(records):
            payload = hashlib.sha256(f"{topic}/{part}/{i}".encode()).hexdigest().encode() * (size // 64)
            p.produce(topic, payload, partition=part)
            if i % 500 == 0:
                p.poll(0)
    if p.flush(60) != 0:
        raise kafka.KafkaHarnessError(f"could not produce to {topic}")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dev.tiered demo-topic BOOTSTRAP TOPIC [PARTITIONS]``: a tiered topic with data."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (3, 4) or args[0] != "demo-topic":
        print(__doc__, file=sys.stderr)
        return 2
    partitions = int(args[3]) if len(args) == 4 else 2
    create_topic(args[1], args[2], partitions)
    produce(args[1], args[2], partitions, 200)
    print(args[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
