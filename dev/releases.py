"""Older Kafka releases for the harness: a broker from before a feature the tool reads.

The pinned broker (``dev/pom.xml``) has every group type. A user's cluster may be older: Kafka 4.0
has classic and consumer groups, but no streams groups (KIP-1071 came in 4.1) and share groups
only as an early-access preview, off unless enabled. The tests start such a broker to show that the
tool says so in one line per group type instead of failing the run.

Each release's jars (``kafka_2.13`` and the log4j2 binding the broker logs through) come from
Maven Central once, into ``dev/target/kafka-<release>-lib`` (:func:`dev.kafka.resolve_extra`),
apart from the pinned broker's jars.
"""

from __future__ import annotations

from pathlib import Path

from dev import kafka

#: The older releases the tests run, oldest first: the last 4.0 patch release (no streams groups).
OLDER = ("4.0.2",)

#: The log4j2 version Kafka 4.0's broker was built against (its ``log4j2`` binding).
_LOG4J2 = {"4.0.2": "2.24.3"}


def lib_dir(release: str) -> Path:
    """Where ``release``'s jars are kept."""
    return kafka.TARGET_DIR / f"kafka-{release}-lib"


def _pom_text(release: str) -> str:
    log4j = "org.apache.logging.log4j"
    return kafka.extra_pom(
        f"kafka-{release}",
        lib_dir(release),
        [
            ("org.apache.kafka", "kafka_2.13", release),
            (log4j, "log4j-core", _LOG4J2[release]),
            (log4j, "log4j-slf4j-impl", _LOG4J2[release]),
        ],
    )


def resolve(release: str) -> list[Path]:
    """The broker jars of ``release`` (one of :data:`OLDER`), fetched from Maven Central once."""
    if release not in OLDER:
        raise kafka.KafkaHarnessError(f"Kafka {release} is not one of the harness's releases {OLDER}")
    return kafka.resolve_extra(lib_dir(release), _pom_text(release), f"kafka_2.13 {release}")
