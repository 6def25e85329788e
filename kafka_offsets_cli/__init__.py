"""kafka-offsets: Kafka's AdminClient.listOffsets from the shell."""

__version__ = "0.1.0"
