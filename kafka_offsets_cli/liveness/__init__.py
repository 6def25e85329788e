"""Partition liveness: the states and rules per partition and topic (:mod:`.rules`), a run's
report (:mod:`.report`) and the ``liveness`` use case (:mod:`.collect`)."""
