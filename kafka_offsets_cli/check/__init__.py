"""``kafka-offsets check``'s own layer: the spec file and the check engine (no Spark here).

The spec file (models, loading, validation):

- :mod:`.spec` — the frozen, validated spec (clusters, checks, thresholds) and the file's key names;
- :mod:`.load` — reading a spec file (bounded) and turning its text into a :class:`~.spec.CheckSpec`;
- :mod:`.document` — YAML/JSON text to a tree of values that know their line (the only YAML user);
- :mod:`.problems`, :mod:`.values` — ``path: message (line N)`` problems and the typed value readers;
- :mod:`.build`, :mod:`.build_defaults`, :mod:`.build_clusters`, :mod:`.build_checks` — the builder.

The engine, which :mod:`kafka_offsets_cli.spark` runs on Spark:

- :mod:`.plan` (pure, on the driver) — expand the spec's regexes against each cluster into work units;
- :mod:`.collect` (in Spark tasks) — one Kafka client per unit, the same fan-out as the direct
  commands (:mod:`kafka_offsets_cli.plan.queries`, :mod:`kafka_offsets_cli.measures.lag`);
- :mod:`.evaluate` (pure) — the rules of :mod:`kafka_offsets_cli.measures.lag`,
  :mod:`kafka_offsets_cli.measures.liveness` and :mod:`.history` per record and per roll-up;
- :mod:`.history` — Burrow-style verdicts over a partition's lag samples;
- :mod:`.report` — the report's records and its JSON document.

Nothing here imports confluent-kafka or pyspark. yaml is imported by :mod:`.document`, which only
the parser (:mod:`.load` and the builders) uses: :mod:`.spec` and :mod:`.problems` import no parser,
so the engine and ``history`` use the models without it.
"""
