"""The tiering view: what is local, what is remote, whether uploads keep up (``kafka-offsets tiering``)."""
