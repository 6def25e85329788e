"""``kafka-offsets check``'s own layer: the spec file (models, loading, validation).

- :mod:`.spec` — the frozen, validated spec (clusters, checks, thresholds) and the file's key names;
- :mod:`.load` — reading a spec file (bounded) and turning its text into a :class:`~.spec.CheckSpec`;
- :mod:`.document` — YAML/JSON text to a tree of values that know their line (the only YAML user);
- :mod:`.problems`, :mod:`.values` — ``path: message (line N)`` problems and the typed value readers;
- :mod:`.build`, :mod:`.build_defaults`, :mod:`.build_clusters`, :mod:`.build_checks` — the builder.

Nothing here imports confluent-kafka or pyspark. yaml is imported by :mod:`.document`, which only
the parser (:mod:`.load` and the builders) uses: :mod:`.spec` and :mod:`.problems` import no parser,
so the engine and ``history`` use the models without it.
"""
