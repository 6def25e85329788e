"""Developer tooling for kafka-offsets: a real Kafka harness (``dev.kafka``) and demo data (``dev.seed``).

Not part of the installed package; run from the repository root, e.g. ``python -m dev.kafka up``.
"""
