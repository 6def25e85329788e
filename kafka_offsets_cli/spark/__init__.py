"""The Spark engine of ``kafka-offsets check`` (optional ``spark`` extra).

This package is the only place that imports pyspark, and only the ``check``
command imports it, lazily. Modules:

* :mod:`.plan` (pure): expand the spec's regexes against each cluster into work units;
* :mod:`.collect` (runs in Spark tasks): one Kafka client per unit, the same fan-out
  as the direct commands (:mod:`kafka_offsets_cli.queries`, :mod:`kafka_offsets_cli.lag`);
* :mod:`.evaluate` (pure): the rules of :mod:`kafka_offsets_cli.lag`,
  :mod:`kafka_offsets_cli.liveness` and :mod:`kafka_offsets_cli.history` per record
  and per roll-up;
* :mod:`.session`: start and stop a quiet Spark session;
* :mod:`.pipeline`: the Spark stages (collect, evaluate, roll up, history, write);
* :mod:`.history_store`: the Parquet sample history;
* :mod:`.progress`: stage progress on stderr.
"""
