"""``kafka-offsets lag``'s own layer over the lag rows of :mod:`kafka_offsets_cli.measures.lag`.

What a partition's lag is (rows, states, time lag, the reading of a cluster, the status rule) is
shared with ``check`` and ``rewind``, so it lives one floor down, in
:mod:`kafka_offsets_cli.measures.lag`; here is only what the ``lag`` command adds:

* :mod:`.run`: the use case, one request and one call (the groups resolved, their lag collected);
* :mod:`.monitor` (pure): thresholds (parsed and checked), each row's and group's status and the
  run's, the shown state;
* :mod:`.summary` (pure): totals per topic and group, row orders, the ``--watch`` trend;
* :mod:`.rates` (pure): ``--watch``'s commit rates.
"""
