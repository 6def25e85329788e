"""What a partition measures, defined once for every feature that reports it: one floor below the
features (``lag``, ``liveness``, ``tiering``, ``rewind``, ``check``), which are siblings and never
import each other.

A rule or lookup lives here when more than one feature applies it; a feature adds its own
thresholds, roll-ups and reports on top and never redefines it:

* :mod:`.lag` — a group's lag on each partition: the rows, their states, time lag, the reading of
  a cluster and the status rule (``lag``, ``check``, ``rewind --from-cluster``);
* :mod:`.liveness`, :mod:`.liveness_age`, :mod:`.topic_rollup` — a partition's liveness, the age
  behind a topic's status and the topic's roll-up (``liveness``, ``check``);
* :mod:`.timestamps` — M(o), the newest record timestamp up to an offset, by batched bisection
  (``lag``'s time lag, ``tiering``'s backlog age, ``rewind``'s resume times);
* :mod:`.remote_storage` — whether a topic is tiered (``lag``'s remote reads, ``tiering``);
* :mod:`.catch_up` — the time to catch up (``check --history``'s CATCH-UP, ``lag --summary --watch``'s);
* :mod:`.trend` — a value over the refreshes of ``--watch`` (``lag``'s LAG-TREND, ``liveness``' AGE-TREND).

Below it are the frozen records (:mod:`kafka_offsets_cli.models`), the client-facing planning
(:mod:`kafka_offsets_cli.plan`) and the rule vocabulary (:mod:`kafka_offsets_cli.decide`,
:mod:`kafka_offsets_cli.tally`, :mod:`kafka_offsets_cli.severity`); nothing here imports a feature,
``render/``, ``spark/`` or ``cli/``.
"""
