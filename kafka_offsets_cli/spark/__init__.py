"""The Spark runtime of ``kafka-offsets check`` (optional ``spark`` extra).

This package is the only place that imports pyspark, and only the ``check``
command imports it, lazily. The engine it runs (plan, collect, evaluate) is
:mod:`kafka_offsets_cli.check`. Modules:

* :mod:`.session`: start and stop a quiet Spark session;
* :mod:`.pipeline`: the Spark stages (collect, evaluate, roll up, write);
* :mod:`.history_stage`: the ``--history`` stage (append, read back, judge, join);
* :mod:`.history_store`: the Parquet sample history;
* :mod:`.progress`: stage progress on stderr.
"""
