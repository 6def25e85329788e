"""The tiering view: what is local, what is remote, whether uploads keep up (``kafka-offsets tiering``).

The rules (:mod:`.rules`), the collection (:mod:`.collect`), the report (:mod:`.report`) and the use case,
one request and one call (:mod:`.run`).
"""
