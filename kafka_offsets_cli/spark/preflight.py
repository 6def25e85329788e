"""Before a cluster's first real task: can the executors' Python run the check at all?

A small job (a few tasks per executor core, so each executor is asked) imports the executor
side -- :mod:`kafka_offsets_cli.check.collect` and :mod:`kafka_offsets_cli.check.evaluate`, the
Kafka client library -- and answers with the python that ran it and what could not be imported.
The probe never raises: a missing module is an answer, not a task failure Spark would retry
four times. The first missing module is one line naming it, the executor's python and host.
A python that does not start at all fails the job; :func:`.session.job_failure` names it.

A local master runs the driver's own interpreter: nothing to check.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .session import SparkUnavailable

__all__ = ["EXECUTOR_MODULES", "preflight"]

#: What a task imports: the engine, and the Kafka client (imported lazily by the engine).
EXECUTOR_MODULES = (
    "kafka_offsets_cli.check.collect",
    "kafka_offsets_cli.check.evaluate",
    "kafka_offsets_cli.spark.ship",
    "confluent_kafka",
)


def probe(_: Iterator[Any]) -> Iterator[tuple[str, str, str, str | None]]:
    """(host, python, version, missing module or None): runs in a task."""
    import importlib
    import socket
    import sys

    missing = None
    for name in EXECUTOR_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as e:
            missing = f"{e.name or name} ({type(e).__name__}: {e})"
            break
    yield socket.gethostname(), sys.executable, ".".join(map(str, sys.version_info[:3])), missing


def preflight(sc: Any) -> list[tuple[str, str, str, str | None]]:
    """Run :func:`probe` on the executors; :class:`SparkUnavailable` naming what one of them lacks."""
    tasks = max(2, int(sc.defaultParallelism)) * 2
    answers: list[tuple[str, str, str, str | None]] = (
        sc.parallelize(range(tasks), tasks).mapPartitions(probe).collect()
    )
    for host, python, version, missing in answers:
        if missing is not None:
            raise SparkUnavailable(
                f"the executors cannot run the check: cannot import {missing}; python {python} "
                f"({version}) on {host}",
                hint="install kafka-offsets[spark]'s executor requirements for that python, set "
                "--conf spark.pyspark.python, or ship an environment with spark.archives (see README)",
            )
    return answers
