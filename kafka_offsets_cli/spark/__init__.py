"""The Spark runtime of ``kafka-offsets check`` (optional ``spark`` extra).

This package is the only place that imports pyspark, and only the ``check``
command and :func:`register` import it, lazily. The engine it runs (plan, collect, evaluate) is
:mod:`kafka_offsets_cli.check`. Modules:

* :mod:`.driver`: the ``check`` use case: the request checked, planned, run (pyspark lazily);
* :mod:`.runtime`: the session as ``check`` holds it (its options, the running one, none);
* :mod:`.session`: start and stop a quiet Spark session (:mod:`.gateway`: its JVM);
* :mod:`.connect`: ``--remote``, a client session of a Spark Connect server;
* :mod:`.failure`: a failed Spark job, one readable line;
* :mod:`.deploy`: local or cluster, the executors' Python, Spark's RPC security;
* :mod:`.preflight`: can a cluster's executors import the executor side?
* :mod:`.ship`: files and secrets of cluster settings, out of the pickled work units;
* :mod:`.pipeline`: the Spark stages (collect, evaluate, roll up, write);
* :mod:`.write`: ``--write``, by the driver (or by Spark to a shared URI, read back);
* :mod:`.history_stage`: the ``--history`` stage (append, read back, judge, join);
* :mod:`.history_store`: the Parquet sample history;
* :mod:`.progress`: stage progress on stderr;
* :mod:`.source`: the ``kafka-offsets`` data source, :func:`register` (:mod:`.source_options`,
  :mod:`.source_plan`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(spark: Any) -> None:
    """Register the ``kafka-offsets`` data source on ``spark`` (a classic or Spark Connect session).

    Then ``spark.read.format("kafka-offsets").option("bootstrap.servers", "HOST:PORT")
    .option("topics", "REGEX").option("specs", "earliest,latest").load()`` is the DataFrame of
    ``kafka-offsets list -o json`` (:mod:`.source`; options: :mod:`.source_options`).

    On a cluster (a non-local master) and on Spark Connect the executors get the package as
    ``check``'s do (:func:`.deploy.zip_package`: ``addPyFile``, or a session artifact), once per
    session: they need only confluent-kafka and pyarrow of their own (docs/deployment.md).

    On a session with ``spark.sql.python.filterPushdown.enabled`` on (Spark 4.1+; set it before
    registering) a ``where`` on ``topic`` or ``group`` narrows what the tasks read
    (:mod:`.source_pushdown`).
    """
    from .source import KafkaOffsetsPushdownSource, KafkaOffsetsSource  # loads pyspark: only here
    from .source_pushdown import pushdown_on
    from .source_ship import ship_package

    ship_package(spark)
    # a reader that takes filters is refused while the session's setting is off: by the setting
    spark.dataSource.register(KafkaOffsetsPushdownSource if pushdown_on(spark) else KafkaOffsetsSource)
