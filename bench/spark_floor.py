"""The floor of a Spark run of ``check``: the same session and job shapes, no Kafka, no records.

``python -m bench.spark_floor [MASTER]`` starts the session exactly as ``check`` does
(:func:`kafka_offsets_cli.spark.session.start_session`: the same JVM flags, class-data archive
and settings), runs the two jobs every ``check`` run has in their cheapest form (one
``mapInArrow`` Python task per core that returns nothing, checkpointed as the collect is; one
``groupBy().agg`` of its empty output brought back, as the roll-ups are) and stops. What it
takes is what any ``check`` run pays before reading a single offset: the JVM and session start,
the Python workers' start, the scheduling of two jobs. ``bench.bench_check`` times it beside the
direct commands in the same run, so that a target ratio can be set against what is left for the
work itself. Prints the stage times as JSON. Not part of the product.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any


def _nothing(batches: Iterator[Any]) -> Iterator[Any]:
    """A task that imports the executor side of ``check`` (as its collect tasks do) and emits nothing."""
    import importlib

    for module in ("kafka_offsets_cli.check.collect", "kafka_offsets_cli.spark.frames"):
        importlib.import_module(module)  # what a collect task's function brings in when unpickled

    for _ in batches:
        pass
    return iter(())


def main(argv: list[str]) -> int:
    """Start, run the two empty jobs, stop; print each step's seconds."""
    from kafka_offsets_cli.spark.runtime import SessionOptions
    from kafka_offsets_cli.spark.session import start_session

    master = argv[0] if argv else "local[*]"
    times: dict[str, float] = {}
    t = time.monotonic()

    def lap(name: str) -> None:
        nonlocal t
        now = time.monotonic()
        times[name] = round(now - t, 3)
        t = now

    runtime = start_session(SessionOptions(master=master))
    lap("session")
    try:
        spark = runtime.spark
        slots = max(1, int(spark.sparkContext.defaultParallelism))
        frame = spark.range(0, slots, 1, slots).mapInArrow(_nothing, "kind string, n bigint")
        done = frame.localCheckpoint(eager=True)
        lap("collect")
        rows = done.groupBy("kind").agg({"n": "sum"}).collect()
        lap("evaluate")
    finally:
        runtime.stop()
    lap("stop")
    print(json.dumps({"master": master, "slots": slots, "rows": len(rows), "timings": times}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
