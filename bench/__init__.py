"""Benchmarks of kafka-offsets against Kafka's own tools and kcat: ``python -m bench`` (see README.md)."""
