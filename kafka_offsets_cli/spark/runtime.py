"""A Spark session as ``check`` holds it: how to start one, the one running, and the error without one.

Both ways to start it speak these: a master (:mod:`.session`) and a Spark Connect server
(:mod:`.connect`). :func:`.session.start_session` hands a ``remote`` to :mod:`.connect`, so
neither of the two can own them (the other would import it back).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KafkaOffsetsError

__all__ = ["SessionOptions", "SparkRuntime", "SparkUnavailable"]


class SparkUnavailable(KafkaOffsetsError):
    """pyspark is missing or the Spark session could not start (monitoring: UNKNOWN)."""


@dataclass(frozen=True, kw_only=True)
class SessionOptions:
    """How to start Spark."""

    master: str = "local[*]"
    app_name: str = "kafka-offsets check"
    debug: bool = False
    ui: bool = False
    conf: Sequence[tuple[str, str]] = ()
    shuffle_partitions: int = 8
    #: a Spark Connect server (``sc://HOST:PORT``) instead of a master (:mod:`.connect`)
    remote: str | None = None


@dataclass(kw_only=True)
class SparkRuntime:
    """A running session, its log and whether this process owns (and so stops) it."""

    spark: Any
    log_path: Path | None
    owned: bool
    started_s: float
    workdir: Path | None = None
    #: a local master (tasks see the driver's files and interpreter)
    local: bool = True
    #: a Spark Connect session: no SparkContext, DataFrames only; stop() leaves the server running
    connect: bool = False
    #: this runtime set SPARK_CONNECT_MODE_ENABLED (pyspark's switch to its Connect APIs): unset on stop
    connect_mode_set: bool = False
    _stopped: bool = field(default=False, repr=False)

    @property
    def sc(self) -> Any:
        """The SparkContext (None on Spark Connect)."""
        return None if self.connect else self.spark.sparkContext

    def stop(self) -> None:
        """Stop the session (when this runtime started it) and remove its temporary files
        (on Spark Connect: release this client's session and close the channel; the server goes on)."""
        if self._stopped:
            return
        self._stopped = True
        if self.owned:
            with contextlib.suppress(Exception):  # best effort at shutdown (the JVM may be gone)
                _release_accumulators(self.spark)
                self.spark.stop()
        if self.connect_mode_set:
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> SparkRuntime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _release_accumulators(spark: Any) -> None:
    """Let the context's stop skip its accumulator server's shutdown (nothing here uses accumulators).

    ``SparkContext.stop`` waits for that socket server's ``serve_forever`` loop to notice, up to
    its 0.5 s poll, plus a thread join: most of a local stop's second. The server's thread is a
    daemon; it is shut down in another daemon thread and goes with the process.
    """
    sc = getattr(spark, "sparkContext", None)
    server = getattr(sc, "_accumulatorServer", None)
    if sc is None or server is None:
        return
    sc._accumulatorServer = None
    threading.Thread(target=server.shutdown, name="accumulator-server-stop", daemon=True).start()
