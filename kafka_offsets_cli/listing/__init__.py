"""``kafka-offsets list``: the offsets of partitions by spec, as Kafka's GetOffsetShell answers them.

The ListOffsets rounds themselves are :func:`kafka_offsets_cli.plan.queries.list_table`; here is
the use case over them (:mod:`.run`): the request a front end builds from its options (specs parsed,
what to say about the times given), one call over a client, and the run's failure summary.
"""
