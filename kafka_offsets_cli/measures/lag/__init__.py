"""Consumer lag: the one place that decides a partition's lag, its state and its time lag.

Shared by three features: ``kafka-offsets lag`` (:mod:`kafka_offsets_cli.lag` adds thresholds,
totals, orders and ``--watch`` rates), the Spark ``check`` command (its tasks read lag rows with
:func:`~.collect.lag_rows`, its driver plans them with :func:`~.plan.plan_group`) and ``rewind
--from-cluster`` (a DR cutover's resume times from the primary's rows). They import these rules,
never copy them, and never each other: that is why this sits below the features. The data flow,
one module each:

* :mod:`.plan` (pure): which rows a group gets (:func:`~.plan.plan_group`) and the rows
  assembled from ListOffsets answers (:func:`~.plan.assemble_rows`);
* :mod:`.rows` (pure): the row model and its states (:func:`~.rows.lag_row`);
* :mod:`.markers` (pure): which rows need the transaction-marker check, and its answers applied;
* :mod:`.timelag`: the time lag and resume times, M() of a row's offsets
  (:mod:`kafka_offsets_cli.measures.timestamps`: batched ListOffsets rounds);
* :mod:`.rule` (pure): a row's monitoring status against thresholds (``lag`` and ``check``);
* :mod:`.remote`: whether a group reads below earliest-local, from remote storage (tiered topics);
* :mod:`.collect`: the I/O shell, reading the cluster around the pure steps.

Offset lag
----------
``lag = end - committed`` where ``end`` is the high watermark (``read_uncommitted``)
or the last stable offset (``--isolation read_committed``). Offsets count every
record in the log, including transaction markers (control records) and aborted
records, as ``kafka-consumer-groups --describe`` does. A number is shown only when
it means something; otherwise the state says why there is none:

* ``no-commit``: the group has no committed offset for the partition;
* ``below-start``: the committed offset is below the log start (retention or
  ``delete_records`` passed it). The group's next fetch fails with
  OFFSET_OUT_OF_RANGE and its ``auto.offset.reset`` decides what it reads, so no
  lag is shown (``end - committed`` would count records that no longer exist);
* ``ahead``: the committed offset is beyond the end offset (topic recreated,
  unclean leader election, or an offset committed by hand);
* ``marker``: ``committed == end - 1`` and the record at ``committed`` is a
  control record (a transaction commit/abort marker) — nothing is left to consume.
  Lag stays 1 (offsets, as Kafka's tool shows) and time lag is 0. Whether that
  offset holds a marker cannot be learnt from ListOffsets (timestamp lookups and
  max-timestamp return control records like data records: measured on Kafka
  4.3.1, max-timestamp points *at* the marker, whose timestamp is the broker's
  clock at commit); it comes from a one-record fetch
  (:meth:`kafka_offsets_cli.kafka.KafkaClient.control_records`);
* ``error``: the partition's log start or end could not be listed.

Time lag (``time_lag_ms``)
--------------------------
``offsetsForTimes(T)`` (ListOffsets with a timestamp) returns the earliest offset
whose record timestamp is ``>= T``. For the committed offset ``c`` it is therefore
``<= c`` exactly when some record at an offset ``<= c`` has a timestamp ``>= T``, so
bisecting on ``T`` finds::

    M(c) = max(timestamp of the records at offsets log_start .. c)

and ``time_lag_ms = max(0, now - M(c))``. When timestamps never go backwards
(LogAppendTime, or well-behaved producers) ``M(c)`` is the timestamp of the first
unconsumed record and the time lag is its age. With out-of-order CreateTime
timestamps it is the age of the newest record among those the group has consumed
plus the first unconsumed one: a lower bound on that record's age, and exactly the
latest time ``T`` for which rewinding the group to ``T`` (``rewind --to T``) would
skip no record it has not yet read. Control records and aborted records have
timestamps too and take part. A record timestamp after ``now`` gives 0. The result
is exact to the millisecond; each bisection round is one batched ListOffsets call
for all lagging partitions (about 41 rounds for current epoch times, fewer when
the answers' own timestamps narrow the interval).
"""
