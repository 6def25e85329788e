"""A real Kafka Streams application (KIP-1071 ``group.protocol=streams``) on a dev cluster.

``org.apache.kafka:kafka-streams`` and what it needs (RocksDB's JNI jar among them) come from Maven
Central, fetched once into ``dev/target/streams-lib`` apart from ``dev/pom.xml``'s broker jars. The
application is ``dev/java/StreamsApp.java``, run as a single-file Java program on Kafka's classpath
plus those jars: it copies an input topic to an output topic (a stateless topology, one subtopology)
as a streams group named by its ``application.id`` (with ``repartition=True`` through a repartition
topic: two subtopologies, and an internal topic the group reads and commits), commits every 100 ms,
prints ``RUNNING`` once it runs and ``PROCESSED n`` as records pass, holds its thread on a record
``hold`` (``HOLDING``: nothing processed or committed, a lag that stays) until
:meth:`StreamsApp.release`, and closes (committing) when its stdin closes.

Command line::

    python -m dev.streams resolve          # fetch the kafka-streams jars (Maven) if needed
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from dev import kafka

STREAMS_LIB = kafka.TARGET_DIR / "streams-lib"
APP = Path(__file__).resolve().parent / "java" / "StreamsApp.java"


def resolve() -> list[Path]:
    """The kafka-streams jars, in ``dev/target/streams-lib`` (Maven runs once)."""
    pom = kafka.extra_pom(
        "streams", STREAMS_LIB, [("org.apache.kafka", "kafka-streams", kafka.kafka_version())]
    )
    return kafka.resolve_extra(STREAMS_LIB, pom, "kafka-streams")


class StreamsApp:
    """A running :data:`APP`: ``wait_for(line)`` reads its stdout; ``close()`` ends it, committing."""

    def __init__(
        self,
        bootstrap: str,
        application_id: str,
        source: str,
        sink: str,
        state_dir: Path,
        *,
        repartition: bool = False,
    ) -> None:
        classpath = os.pathsep.join([kafka.classpath(), *map(str, resolve())])
        argv = [kafka.java_executable(), "-cp", classpath, str(APP), bootstrap, application_id, source, sink]
        self.proc = subprocess.Popen(
            [*argv, str(state_dir), *(["repartition"] if repartition else [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put("")  # end of output

    def wait_for(self, wanted: str, timeout: float = 90.0) -> None:
        """Until the application prints a line starting with ``wanted``; its output in the error."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            self.output.append(line)
            if line.startswith(wanted):
                return
            if line == "" and self.proc.poll() is not None:
                break
        tail = "\n".join(self.output[-40:])
        raise kafka.KafkaHarnessError(f"StreamsApp did not print {wanted!r} in {timeout:.0f}s:\n{tail}")

    def release(self) -> None:
        """Let a thread held on a ``hold`` record go on."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.write("release\n")
            self.proc.stdin.flush()

    def close(self, timeout: float = 60.0) -> int:
        """Close its stdin (it closes the streams client, committing) and wait for it to exit."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dev.streams resolve``: fetch the kafka-streams jars."""
    parser = argparse.ArgumentParser(prog="python -m dev.streams")
    parser.add_argument("command", choices=["resolve"])
    parser.parse_args(argv)
    for jar in resolve():
        print(jar)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
