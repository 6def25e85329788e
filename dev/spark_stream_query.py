"""A Structured Streaming query with Spark's own Kafka source, run by :mod:`dev.spark_stream`'s venv.

Run as ``python spark_stream_query.py BOOTSTRAP TOPIC CHECKPOINT MAX_PER_TRIGGER`` by the pyspark
venv's python (it imports nothing of the project): reads TOPIC from the earliest offsets with
``trigger(availableNow=True)`` and ``maxOffsetsPerTrigger`` (so several batches, each committed in
CHECKPOINT), writes to the no-op sink, waits for the query to end by itself, and prints its id, its
number of batches and the Kafka source's end offsets of its last batch as Spark reports them (one
JSON line on stdout). The jars of the Kafka source come in ``SPARK_KAFKA_JARS``.
"""

from __future__ import annotations

import json
import os
import sys


def _progress_dict(progress: object) -> dict[str, object]:
    """A progress as a dict: pyspark 4 gives an object with ``json``, earlier versions a dict."""
    text = getattr(progress, "json", None)
    if isinstance(text, str):
        loaded: dict[str, object] = json.loads(text)
        return loaded
    as_dict: dict[str, object] = dict(progress)  # type: ignore[call-overload]
    return as_dict


def main() -> None:
    """Run the query (see the module's docstring)."""
    from pyspark.sql import SparkSession

    bootstrap, topic, checkpoint, per_trigger = sys.argv[1:5]
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("kafka-offsets-checkpoint-test")
        .config("spark.jars", ",".join(os.environ["SPARK_KAFKA_JARS"].split(os.pathsep)))
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    frame = (
        spark.readStream.format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", per_trigger)
        .load()
    )
    query = (
        frame.writeStream.format("noop")
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    progress = [_progress_dict(p) for p in query.recentProgress]
    batches = [p for p in progress if p.get("sources")]
    last = batches[-1]
    source = last["sources"][0]  # type: ignore[index]
    end = source["endOffset"]
    print(
        json.dumps(
            {
                "id": str(query.id),
                "batches": len({p["batchId"] for p in batches}),
                "last_batch": last["batchId"],
                "end_offset": json.loads(end) if isinstance(end, str) else end,
            }
        ),
        flush=True,
    )
    spark.stop()


if __name__ == "__main__":
    main()
