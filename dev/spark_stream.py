"""A real Spark Structured Streaming query reading Kafka with Spark's own Kafka source (tests only).

Maven Central serves ``spark-sql-kafka-0-10`` for Spark 4.2.0, not for the pyspark the project
installs, so the query runs on pyspark :data:`SPARK_VERSION` in a venv of its own
(``dev/target/pyspark-4.2.0``, built once by pip; about 450 MB) with the Kafka source's jars fetched
once by Maven into ``dev/target/spark-kafka-lib`` (:func:`dev.kafka.resolve_extra`). The query is
``dev/spark_stream_query.py``, run by that venv's python as a subprocess: it reads a topic with
``maxOffsetsPerTrigger``, writes to a no-op sink with a checkpoint, and stops after a given number of
batches, so the checkpoint holds committed offsets short of the topic's end.

Command line::

    python -m dev.spark_stream prepare     # build the venv and fetch the jars if needed
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from dev import kafka

SPARK_VERSION = "4.2.0"
SCALA = "2.13"
VENV = kafka.TARGET_DIR / f"pyspark-{SPARK_VERSION}"
LIB = kafka.TARGET_DIR / "spark-kafka-lib"
QUERY = Path(__file__).resolve().parent / "spark_stream_query.py"
#: what the Kafka source needs at the query's Spark version; Maven resolves what they need
ARTIFACTS = (
    ("org.apache.spark", f"spark-sql-kafka-0-10_{SCALA}", SPARK_VERSION),
    ("org.apache.spark", f"spark-token-provider-kafka-0-10_{SCALA}", SPARK_VERSION),
)
QUERY_TIMEOUT_S = 240.0


def python() -> Path:
    """The python of the pyspark :data:`SPARK_VERSION` venv, built once (under a lock: two test lanes)."""
    exe = VENV / "bin" / "python"
    stamp = VENV / "ready.stamp"
    if stamp.exists():
        return exe
    with kafka._flock(kafka.TARGET_DIR / f".{VENV.name}.lock"):
        if stamp.exists():  # built by another process while this one waited
            return exe
        if VENV.exists():
            shutil.rmtree(VENV)
        base = getattr(sys, "_base_executable", sys.executable)
        print(f"building a pyspark {SPARK_VERSION} venv in {VENV} (first run only) ...", file=sys.stderr)
        for argv in (
            [base, "-m", "venv", str(VENV)],
            [str(exe), "-m", "pip", "install", "-q", f"pyspark=={SPARK_VERSION}"],
        ):
            proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if proc.returncode != 0:
                tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
                raise kafka.KafkaHarnessError(f"{' '.join(argv)} failed (exit {proc.returncode}):\n{tail}")
        stamp.write_text(SPARK_VERSION + "\n")
    return exe


def jars() -> list[Path]:
    """The Kafka source's jars at :data:`SPARK_VERSION` and what they need (Maven runs once), without
    the jars pyspark already ships (its own Spark, Scala and Hadoop jars)."""
    pom = kafka.extra_pom("spark-kafka", LIB, ARTIFACTS)
    shipped = {_artifact(p) for p in (VENV / "lib").glob("python*/site-packages/pyspark/jars/*.jar")}
    return [j for j in kafka.resolve_extra(LIB, pom, "spark-sql-kafka-0-10") if _artifact(j) not in shipped]


def _artifact(jar: Path) -> str:
    """A jar's artifact name without its version (``scala-library-2.13.15.jar`` -> ``scala-library``):
    pyspark's own version of a jar wins over the one Maven resolved for the Kafka source."""
    return re.sub(r"-\d[^-]*(-[A-Za-z0-9.]+)?\.jar$", "", jar.name)


def run_query(bootstrap: str, topic: str, checkpoint: Path, *, per_trigger: int) -> dict[str, Any]:
    """Run the query on what ``topic`` holds now, in batches of at most ``per_trigger`` records, each
    committed in ``checkpoint``; what Spark reports of it: ``id``, ``batches``, ``last_batch`` and
    ``end_offset`` (the Kafka source's end offsets of the last batch, ``{topic: {partition: offset}}``)."""
    exe = python()
    argv = [str(exe), str(QUERY), bootstrap, topic, str(checkpoint), str(per_trigger)]
    env = {**os.environ, "SPARK_KAFKA_JARS": os.pathsep.join(map(str, jars()))}
    env.pop("SPARK_HOME", None)  # the venv's pyspark, never another installation's
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(
        argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=QUERY_TIMEOUT_S
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = "\n".join(proc.stderr.splitlines()[-30:])
        raise kafka.KafkaHarnessError(f"the streaming query failed (exit {proc.returncode}):\n{tail}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def main() -> None:
    """``prepare``: build the venv and fetch the jars."""
    parser = argparse.ArgumentParser(prog="python -m dev.spark_stream")
    parser.add_argument("action", choices=["prepare"])
    parser.parse_args()
    print(python())
    print("\n".join(map(str, jars())))


if __name__ == "__main__":
    main()
