"""Developer tooling for kafka-offsets: a real Kafka harness (``dev.kafka``), demo data (``dev.seed``) and
the topic, record and group-offset helpers the demo, the benchmarks and the tests share (``dev.kafka_data``).

Not part of the installed package; run from the repository root, e.g. ``python -m dev.kafka up``.
"""
