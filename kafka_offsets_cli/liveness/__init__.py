"""``kafka-offsets liveness``: a run's report (:mod:`.report`), its collection (:mod:`.collect`)
and the use case, one request and one call (:mod:`.run`).

The states and rules per partition and topic are shared with ``check``, so they live one floor
down: :mod:`kafka_offsets_cli.measures.liveness` and :mod:`kafka_offsets_cli.measures.liveness_age`.
"""
