"""The exporter's own series, after the measures' (pure): is each cluster up, how the collections go.

``kafka_offsets_up`` per cluster (0 when it could not be reached; the measures' own ``*_up`` say
the same per measure), the last collection's duration, the collections so far, each measure's
failure in the last collection and failures so far, and the age of the result a scrape is served
(cached for ``--min-interval``). Every series carries the cluster's constant labels (``cluster``,
``--label``), as the measures' do.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..render.monitoring import MetricFamily, Sample, prometheus_text
from .collect import Collection

__all__ = ["MEASURE_LABEL", "PREFIX", "exposition", "merged"]

#: The exporter's metric name prefix.
PREFIX = "kafka_offsets"
#: The label naming a measure on the failure series (a ``--label`` may not take it).
MEASURE_LABEL = "measure"


def exporter_families(collection: Collection, index: int, age_s: float) -> list[MetricFamily]:
    """The exporter's families for cluster ``index`` of ``collection``, served ``age_s`` after it."""
    outcome = collection.clusters[index]
    failed = sorted(outcome.failed.items())
    return [
        MetricFamily(
            f"{PREFIX}_up",
            "1 if the cluster answered in the last collection, 0 if it could not be reached.",
            samples=(Sample({}, int(outcome.up)),),
        ),
        MetricFamily(
            f"{PREFIX}_collection_duration_seconds",
            "How long the last collection of the cluster took.",
            samples=(Sample({}, outcome.duration_s),),
        ),
        MetricFamily(
            f"{PREFIX}_collection_age_seconds",
            "Age of the collection this scrape is served (cached for --min-interval).",
            samples=(Sample({}, age_s),),
        ),
        MetricFamily(
            f"{PREFIX}_collections_total",
            "Collections since the exporter started (one per --min-interval at most, however many scrape).",
            type="counter",
            samples=(Sample({}, collection.number),),
        ),
        MetricFamily(
            f"{PREFIX}_collection_failed",
            "1 if the measure failed in the last collection (cluster unreachable, nothing matched…).",
            samples=tuple(Sample({MEASURE_LABEL: m}, int(bad)) for m, bad in failed),
        ),
        MetricFamily(
            f"{PREFIX}_collection_errors_total",
            "Collections in which the measure failed, since the exporter started.",
            type="counter",
            samples=tuple(
                Sample({MEASURE_LABEL: m}, collection.errors_total.get((index, m), 0)) for m, _ in failed
            ),
        ),
    ]


def merged(texts: Iterable[str]) -> str:
    """Exposition texts as one: each family's ``# HELP`` and ``# TYPE`` once, then every text's samples
    of it, families in the order they first appear. Two clusters (or two checks of a spec) render the
    same families; the text format allows a family's lines in one group only. A series two texts
    both write (the partition-offset aliases of ``--metrics-compat`` from lag, liveness and tiering
    of one cluster) is kept once, the first text's: a scrape may not repeat a series."""
    headers: dict[str, list[str]] = {}
    samples: dict[str, list[str]] = {}
    series: set[str] = set()
    for text in texts:
        for line in text.splitlines():
            if line.startswith("# "):
                parts = line.split(" ", 3)
                if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                    seen = headers.setdefault(parts[2], [])
                    samples.setdefault(parts[2], [])
                    if not any(h.split(" ", 2)[1] == parts[1] for h in seen):
                        seen.append(line)
                continue
            if line:
                name = line.split("{", 1)[0].split(" ", 1)[0]
                key = line.rsplit(" ", 1)[0]  # the name and labels (a label value may hold spaces)
                if key in series:
                    continue
                series.add(key)
                headers.setdefault(name, [])
                samples.setdefault(name, []).append(line)
    return "".join(f"{line}\n" for name in samples for line in (*headers[name], *samples[name]))


def exposition(collection: Collection, age_s: float) -> str:
    """The whole ``/metrics`` body: the clusters' measures' texts as their renderers wrote them, merged
    (:func:`merged`), then the exporter's families (one family per name, every cluster's samples under it)."""
    texts = [merged(text for outcome in collection.clusters for text in outcome.texts)]
    per_cluster = [exporter_families(collection, i, age_s) for i in range(len(collection.clusters))]
    for at, family in enumerate(per_cluster[0] if per_cluster else ()):
        samples = [
            Sample({**outcome.labels, **s.labels}, s.value)
            for outcome, families in zip(collection.clusters, per_cluster, strict=True)
            for s in families[at].samples
        ]
        texts.append(prometheus_text([MetricFamily(family.name, family.help, family.type, tuple(samples))]))
    return "".join(texts)
