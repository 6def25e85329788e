"""When a job fails on a cluster: could the executors' Python run the check at all?

Run by :func:`kafka_offsets_cli.spark.pipeline.run_check` after a failed job (not before every
run: on a warm Spark Connect server that cost 1.6 s of a 5 s run), so a missing module is named
instead of the job's stack of retries.

A small job (a few tasks per executor core, so each executor is asked) imports the executor
side -- :mod:`kafka_offsets_cli.check.collect` and :mod:`kafka_offsets_cli.check.evaluate`, the
Kafka client library -- and answers with the python that ran it and what could not be imported.
The probe never raises: a missing module is an answer, not a task failure Spark would retry
four times. The first missing module is one line naming it, the executor's python and host.
A python that does not start at all fails the job; :func:`.failure.job_failure` names it.

On Spark Connect (no SparkContext) the same probe runs as a small DataFrame job
(``spark.range(n).mapInArrow``, a task per core of the server) on the server's Python workers,
which must also have pyarrow.

A local master runs the driver's own interpreter: nothing to check.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .runtime import SparkUnavailable

__all__ = ["EXECUTOR_MODULES", "PROBE_ROWS", "preflight"]

#: Rows of the probe on Spark Connect: ``spark.range`` without a partition count splits them into the
#: server's default parallelism (its executors' cores), one task each (the client cannot ask for it).
PROBE_ROWS = 4096
Answer = tuple[str, str, str, str | None]
_CONNECT_HINT = (
    "install confluent-kafka and pyarrow for the Python the Spark Connect server runs "
    "(its spark.pyspark.python or PYSPARK_PYTHON; see README)"
)

#: What a task imports: the engine, and the Kafka client (imported lazily by the engine).
EXECUTOR_MODULES = (
    "kafka_offsets_cli.check.collect",
    "kafka_offsets_cli.check.evaluate",
    "kafka_offsets_cli.spark.ship",
    "confluent_kafka",
    "pyarrow",  # the tasks exchange Arrow batches with Spark (mapInArrow, applyInArrow)
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


def probe_arrow(batches: Iterator[Any]) -> Iterator[Any]:
    """:func:`probe` as a ``mapInArrow`` function (Spark Connect): one row per task."""
    import pyarrow as pa

    for _ in batches:
        pass
    rows = [dict(zip(("host", "python", "version", "missing"), a, strict=True)) for a in probe(iter(()))]
    yield pa.RecordBatch.from_pylist(rows, schema=_arrow_schema())


def _arrow_schema() -> Any:
    import pyarrow as pa

    return pa.schema([(n, pa.string()) for n in ("host", "python", "version", "missing")])


def preflight(target: Any) -> list[Answer]:
    """Run :func:`probe` on the executors; :class:`SparkUnavailable` naming what one of them lacks.

    ``target``: a :class:`.runtime.SparkRuntime` (a SparkContext or, on Spark Connect, its session)
    or a SparkContext.
    """
    answers: list[Answer]
    if getattr(target, "connect", False):
        df = target.spark.range(0, PROBE_ROWS).mapInArrow(
            probe_arrow, "host string, python string, version string, missing string"
        )
        answers = [(r.host, r.python, r.version, r.missing) for r in df.collect()]
    else:
        sc = getattr(target, "sc", target)
        tasks = max(2, int(sc.defaultParallelism)) * 2
        answers = sc.parallelize(range(tasks), tasks).mapPartitions(probe).collect()
    for host, python, version, missing in answers:
        if missing is not None:
            raise SparkUnavailable(
                f"the executors cannot run the check: cannot import {missing}; python {python} "
                f"({version}) on {host}",
                hint=_CONNECT_HINT
                if getattr(target, "connect", False)
                else "install kafka-offsets[spark]'s executor requirements for that python, set "
                "--conf spark.pyspark.python, or ship an environment with spark.archives (see README)",
            )
    return answers
