"""Use cases built on ListOffsets, independent of how Kafka is reached.

Functions here take any object that satisfies :class:`OffsetSource` (in the
product, :class:`kafka_offsets_cli.kafka.KafkaClient`), so the flow
selection -> plan -> execute -> results is one path for every command.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ..errors import ClusterError
from ..models.offsets import Isolation, OffsetResult, OffsetSpec, OffsetTable
from ..models.topics import ClusterMetadata, TopicPartition
from ..parse.selection import Selection
from ..sources import OffsetSource
from .requests import DEFAULT_CHUNK, plan_requests
from .resolve import UNKNOWN_TOPIC_OR_PARTITION, Resolution, resolve, topic_candidates
from .settle import WITHHELD_KINDS, settle, unsettled
from .snapshot import close_snapshot, needs_closing


def selection_metadata(
    source: OffsetSource, selection: Selection | None, *, narrow: bool = False
) -> ClusterMetadata:
    """Cluster metadata for ``selection``: every topic, plus each plain topic name it lacks, asked by name.

    Kafka leaves topics the principal may not DESCRIBE out of its topic list; asked
    for by name it answers ``TOPIC_AUTHORIZATION_FAILED``, which is what the user
    needs to see rather than ``UNKNOWN_TOPIC_OR_PARTITION``. ``narrow`` keeps only
    the topics the selection matches (enough for :func:`resolve`, not for callers
    that look up other topics, such as a group's committed ones): when the selection
    spells out plain names, by describing just the names they can match
    (:func:`~kafka_offsets_cli.plan.resolve.topic_candidates`), one request whatever the
    size of the cluster.
    """
    if narrow and selection is not None:
        candidates = topic_candidates(selection)
        if candidates is not None:
            return _described(source.metadata(names=candidates), selection)
        md = source.metadata(only=selection.allows_topic)
    else:
        md = source.metadata()
    if selection is None:
        return md
    if selection.exclude_internal:
        md = with_internal_flags(source, md, selection.allows_topic)
    return with_named_errors(source, md, [n for rule in selection.rules for n in rule.literal_names])


#: how alike a name must be to be suggested (difflib's ratio; 0.75: one or two letters off in a short name)
CLOSE_CUTOFF = 0.75


def close_names(name: str, names: Sequence[str], most: int = 2) -> tuple[str, ...]:
    """The ``names`` close to ``name``, closest first: the same name in another case, then
    difflib's matches (``ordrs`` -> ``orders``)."""
    same = [n for n in names if n.lower() == name.lower() and n != name]
    close = difflib.get_close_matches(name, [n for n in names if n != name], n=most, cutoff=CLOSE_CUTOFF)
    return tuple(dict.fromkeys([*same, *close]))[:most]


def with_close_names(source: OffsetSource, md: ClusterMetadata, res: Resolution) -> Resolution:
    """``res`` with each named topic that does not exist given its close names (did you mean).

    The names come from ``md`` when it lists the cluster's topics; a narrowed ``md`` (the
    selection's plain names only) costs one topic listing, asked only when a name is missing
    (nothing else changes when the listing gets no answer).
    """
    unknown = [m for m in res.missing if m.partition is None and m.error == UNKNOWN_TOPIC_OR_PARTITION]
    if not unknown:
        return res
    names = [n for n, t in md.topics.items() if t.error is None]
    if not any(close_names(m.topic, names) for m in unknown):
        try:
            names = [n for n, t in source.metadata().topics.items() if t.error is None]
        except ClusterError:
            return res
    missing = tuple(replace(m, close=close_names(m.topic, names)) if m in unknown else m for m in res.missing)
    return replace(res, missing=missing)


def with_internal_flags(
    source: OffsetSource, md: ClusterMetadata, only: Callable[[str], bool] | None = None
) -> ClusterMetadata:
    """``md`` with the broker's ``is_internal`` flag on each listed topic (``only``: those it accepts).

    A topic listing does not carry the flag (see
    :meth:`~kafka_offsets_cli.kafka.admin.TopicReader.metadata`); described by name,
    every topic has it (one request). ``--exclude-internal-topics`` goes by it, as
    Kafka's tools do: ``__consumer_offsets`` and ``__transaction_state`` are internal,
    a user topic ``__app.events`` is not, whatever its name.

    Only names that start with ``__`` are asked about: every topic Kafka has ever made
    internal does (``Topic.INTERNAL_TOPICS``: ``__consumer_offsets``, ``__transaction_state``,
    ``__share_group_state``), and describing the rest would describe every partition of a
    large cluster again (1.4 s and 80 MB at 50,000 partitions) for flags that are all false.
    """
    names = [
        n
        for n, t in md.topics.items()
        if n.startswith("__") and t.error is None and (only is None or only(n))
    ]
    if not names:
        return md
    described = source.metadata(names=names).topics
    flagged = {n for n in names if (d := described.get(n)) is not None and d.internal}
    if not flagged:
        return md
    return replace(md, topics={n: replace(t, internal=n in flagged) for n, t in md.topics.items()})


def with_named_errors(source: OffsetSource, md: ClusterMetadata, names: Sequence[str]) -> ClusterMetadata:
    """``md`` plus the error Kafka gives for each of ``names`` it lacks, asked by name (one request).

    A topic listing leaves out the topics the principal may not DESCRIBE; asked for
    by name, Kafka answers ``TOPIC_AUTHORIZATION_FAILED`` for them. A name that
    simply does not exist stays absent (the caller reports it as
    ``UNKNOWN_TOPIC_OR_PARTITION``), as does every name when the request gets no
    answer.
    """
    wanted = [n for n in dict.fromkeys(names) if n not in md.topics]
    if not wanted:
        return md
    try:
        described = source.metadata(names=wanted).topics
    except ClusterError:  # no answer this time: the names stay "unknown"
        return md
    extra = {
        n: info
        for n in wanted
        if (info := described.get(n)) is not None
        and info.error is not None
        and info.error != UNKNOWN_TOPIC_OR_PARTITION
    }
    return replace(md, topics={**md.topics, **extra}) if extra else md


def _described(md: ClusterMetadata, selection: Selection) -> ClusterMetadata:
    """The described candidates as a topic listing would show them, plus the literal names' errors.

    A name that does not exist is simply absent (as from a listing); other errors
    (``TOPIC_AUTHORIZATION_FAILED``) count for the names the user spelled out, and not
    for the wildcard variants of them, which a listing would not have shown either.
    """
    literal = set(selection.literal_topics() or ())
    return replace(
        md,
        topics={
            n: t
            for n, t in md.topics.items()
            if t.error is None or (n in literal and t.error != UNKNOWN_TOPIC_OR_PARTITION)
        },
    )


def resolve_selection(source: OffsetSource, selection: Selection) -> tuple[ClusterMetadata, Resolution]:
    """Fetch metadata and resolve the selection; raise NotFound when nothing matches."""
    md = selection_metadata(source, selection, narrow=True)
    res = resolve(selection, md)
    res.require_any()
    return md, with_close_names(source, md, res)


def missing_results(res: Resolution, specs: Sequence[OffsetSpec]) -> list[OffsetResult]:
    """Error results for selected partitions that do not exist."""
    return [
        OffsetResult(m.topic, m.partition, spec, None, error=m.error)
        for m in res.missing
        if m.partition is not None
        for spec in specs
    ]


def missing_topics(res: Resolution) -> tuple[tuple[str, str], ...]:
    """Selected topics that do not exist or cannot be described, with the error."""
    return tuple((m.topic, m.error) for m in res.missing if m.partition is None)


def fetch_offsets(
    source: OffsetSource,
    partitions: Sequence[TopicPartition],
    specs: Sequence[OffsetSpec],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
    leaders: Mapping[TopicPartition, int] | None = None,
    as_kafka: bool = False,
) -> list[OffsetResult]:
    """ListOffsets for every partition and spec: one call per spec, leader and chunk, all concurrent.

    ``leaders`` (from the metadata the caller resolved its partitions with) lets every
    call go to one broker; see :func:`planner.plan_requests`. A max-timestamp or
    timestamp lookup the broker withheld (its record beyond the high watermark) is
    asked again and proven or marked ``PENDING`` (:func:`settle.settle`), never
    left to read as "no record" (``as_kafka``: see :func:`settle.settle`). The answers of each
    partition are one snapshot: none beyond its ``latest`` or below its ``earliest``
    (:func:`snapshot.close_snapshot`).
    """
    results = source.list_offsets(
        plan_requests(partitions, specs, chunk_size, leaders), isolation=isolation, progress=progress
    )
    # only max-timestamp and timestamp lookups can be withheld: no scan of 100,000 answers without one
    if any(s.kind in WITHHELD_KINDS for s in specs) and any(map(unsettled, results)):
        results = settle(
            source, results, isolation=isolation, chunk_size=chunk_size, leaders=leaders, as_kafka=as_kafka
        )
    if not needs_closing(specs):  # one spec, or no end of the log asked: nothing to disagree with
        return results
    return close_snapshot(
        source, results, isolation=isolation, chunk_size=chunk_size, leaders=leaders, as_kafka=as_kafka
    )


def list_table(
    source: OffsetSource,
    selection: Selection,
    specs: Sequence[OffsetSpec],
    *,
    isolation: Isolation | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> OffsetTable:
    """The whole ``list`` use case: resolve, fetch, and include missing selections as errors."""
    md, res = resolve_selection(source, selection)
    results = fetch_offsets(
        source,
        res.partitions,
        specs,
        isolation=isolation,
        chunk_size=chunk_size,
        progress=progress,
        leaders=md.leaders(),
        as_kafka=True,  # GetOffsetShell's answers (a max-timestamp whose records are all remote: none)
    )
    return table_of(res, specs, results)


def table_of(res: Resolution, specs: Sequence[OffsetSpec], results: Sequence[OffsetResult]) -> OffsetTable:
    """``list``'s table of ``specs`` from the answers of a round that may have asked more specs,
    the selected partitions that do not exist as errors."""
    wanted = set(specs)
    got = [r for r in results if r.spec in wanted] + missing_results(res, specs)
    close = {m.topic: m.close for m in res.missing if m.close}
    return OffsetTable(tuple(specs), tuple(res.partitions), tuple(got), missing_topics(res), close)


def index_results(results: Sequence[OffsetResult]) -> dict[tuple[TopicPartition, OffsetSpec], OffsetResult]:
    """Results keyed by (partition, spec)."""
    return {(r.tp, r.spec): r for r in results}
