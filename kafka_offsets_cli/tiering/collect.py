"""The ``tiering`` use case: five offsets per partition, the topics' ``remote.storage.enable``, the
backlog's oldest timestamp by :func:`~kafka_offsets_cli.measures.timestamps.newest_timestamps`, the report."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..measures.remote_storage import REMOTE_KEY, remote_enabled
from ..measures.timestamps import newest_timestamps
from ..models.offsets import OffsetResult, OffsetSpec, OffsetTable, SpecKind
from ..models.topics import ClusterMetadata, TopicPartition
from ..parse.selection import Selection
from ..parse.times import now_ms
from ..plan.queries import fetch_offsets, missing_results, missing_topics, resolve_selection, table_of
from ..plan.resolve import Resolution
from ..sources import LivenessSource
from .report import TieringReport, build_report
from .rules import Answers, Thresholds, first_pending, tier_row

__all__ = ["SPECS", "answers_of", "collect", "list_and_collect"]

SPECS = {
    "earliest": OffsetSpec.earliest(),
    "earliest_local": OffsetSpec(SpecKind.EARLIEST_LOCAL),
    "latest_tiered": OffsetSpec(SpecKind.LATEST_TIERED),
    "earliest_pending_upload": OffsetSpec(SpecKind.EARLIEST_PENDING_UPLOAD),
    "latest": OffsetSpec.latest(),
}


def answers_of(results: list[OffsetResult]) -> dict[TopicPartition, Answers]:
    """Group one partition's five answers; the first error (in :data:`SPECS` order) wins."""
    by: dict[TopicPartition, dict[str, OffsetResult]] = {}
    names = {spec: name for name, spec in SPECS.items()}
    for r in results:
        by.setdefault(r.tp, {})[names[r.spec]] = r
    out: dict[TopicPartition, Answers] = {}
    for tp, rs in by.items():
        missing = [n for n in SPECS if n not in rs]
        errors = [f"{n}: {rs[n].error}" for n in SPECS if n in rs and rs[n].error is not None]
        if missing:
            errors.append(f"{missing[0]}: NO_ANSWER")
        values = {n: rs[n].offset if n in rs and rs[n].error is None else None for n in SPECS}
        out[tp] = Answers(**values, error=errors[0] if errors else None)
    return out


def list_and_collect(
    source: LivenessSource,
    selection: Selection,
    specs: Sequence[OffsetSpec],
    *,
    progress: Callable[[int], None] | None = None,
) -> tuple[OffsetTable, TieringReport]:
    """``list --tiering``: the table of ``specs`` and the tiering view (no thresholds) from one
    metadata read and one ListOffsets round asking ``specs`` and the view's five together."""
    md, res = resolve_selection(source, selection)
    asked = [*specs, *SPECS.values()]  # a spec both want is asked once (plan_requests)
    results = fetch_offsets(
        source, res.partitions, asked, progress=progress, leaders=md.leaders(), as_kafka=True
    )  # as_kafka: list's answers (it only concerns max-timestamp and time lookups, not the view's)
    return table_of(res, specs, results), collect(source, selection, Thresholds(), listed=(md, res, results))


def collect(
    source: LivenessSource,
    selection: Selection,
    thresholds: Thresholds,
    *,
    clock: Callable[[], int] | None = None,
    listed: tuple[ClusterMetadata, Resolution, Sequence[OffsetResult]] | None = None,
) -> TieringReport:
    """Resolve, one ListOffsets round of five specs, the topics' configs, the backlog timestamps, report.

    ``listed``: the selection already resolved and asked (metadata, resolution, answers that
    include the five specs'), as :func:`list_and_collect` does. The backlog's timestamp M(F)
    is searched only for tiered partitions with a backlog; the clock is read after every
    answer arrived, so a slow cluster never makes a backlog look younger.
    """
    specs = list(SPECS.values())
    if listed is None:
        md, res = resolve_selection(source, selection)
        results = fetch_offsets(source, res.partitions, specs, leaders=md.leaders())
    else:
        md, res, got = listed
        mine = set(specs)
        results = [r for r in got if r.spec in mine]
    results += missing_results(res, specs[:1])
    answers = answers_of(results)
    topics = sorted({tp.topic for tp in answers})
    configs = source.topic_configs(topics, [REMOTE_KEY])

    def tiered(tp: TopicPartition) -> bool:
        on = remote_enabled(configs.get(tp.topic, {}).get(REMOTE_KEY))
        if on is None:  # the config could not be read: an upload answer says tiering is on
            a = answers[tp]
            return a.latest_tiered is not None or a.earliest_pending_upload is not None
        return on

    points = {}
    for tp, a in answers.items():
        first = first_pending(a)
        if a.error is None and tiered(tp) and first is not None and a.latest is not None and a.latest > first:
            points[tp] = first
    stamps = newest_timestamps(source, points.items(), leaders=md.leaders())
    now = (clock or now_ms)()
    rows = []
    for tp in sorted(answers, key=lambda t: (t.topic, t.partition)):
        found = stamps.get((tp, points[tp])) if tp in points else None
        rows.append(
            tier_row(
                tp.topic,
                tp.partition,
                answers[tp],
                tiered=tiered(tp),
                thresholds=thresholds,
                now_ms=now,
                backlog_timestamp=found.timestamp if found is not None else None,
                timestamp_error=found.error if found is not None else None,
            )
        )
    on = {tp.topic for tp in answers if tiered(tp)}
    return build_report(rows, now, thresholds, tiered_topics=on, missing=missing_topics(res))
