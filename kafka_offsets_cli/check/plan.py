"""Plan a ``check`` run: expand each check against its clusters into Spark work units (pure).

Runs on the driver with one client per cluster (anything satisfying
:class:`~kafka_offsets_cli.sources.PlanSource`, in the product
:class:`~kafka_offsets_cli.kafka.KafkaClient`):

* liveness checks: the topic patterns are resolved against the cluster's
  metadata (:func:`kafka_offsets_cli.plan.resolve.resolve`); selected topics that do
  not exist become error records;
* lag checks: groups by name or pattern (:func:`kafka_offsets_cli.lag.collect.resolve_groups`),
  then each group's partitions by the function ``kafka-offsets lag`` chooses them with
  (:func:`kafka_offsets_cli.lag.plan.plan_group`): every partition of each topic the
  group committed to or is assigned, within the check's topics (all such topics when
  the check names none), plus the check's literal topics.

All partitions a cluster needs are sorted and cut into chunks of
``task_size``; a :class:`WorkUnit` is one chunk with the groups that have
partitions in it. One Spark task runs one unit with one client.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..connection.settings import ClientSettings
from ..errors import KafkaOffsetsError, MonitoringStatus, NotFound, UsageError
from ..lag.collect import resolve_groups
from ..lag.plan import plan_group
from ..liveness.collect import TIMESTAMP_TYPE_KEY
from ..models.topics import ClusterMetadata, TopicPartition
from ..parse.selection import PartitionRange, Selection, TopicRule
from ..plan.queries import with_internal_flags, with_named_errors
from ..plan.requests import chunked
from ..plan.resolve import UNKNOWN_TOPIC_OR_PARTITION, resolve
from ..sources import PlanSource
from .report import PartitionRecord
from .spec import CheckSpec, LagCheck, LivenessCheck

__all__ = ["CheckPlan", "WorkUnit", "check_selection", "chunk_selection", "plan_checks"]

_PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]+")


@dataclass(frozen=True, kw_only=True)
class WorkUnit:
    """One Spark task: a chunk of one cluster's partitions.

    ``live`` are the partitions whose newest record (max-timestamp) liveness
    checks need; ``groups`` the lag groups with their planned partitions in this
    chunk (partitions of deleted topics included, to show as errors).
    """

    cluster: str
    index: int
    settings: ClientSettings = field(repr=False)  # holds secrets: never in a repr or a trace
    live: tuple[TopicPartition, ...]
    groups: tuple[tuple[str, tuple[TopicPartition, ...]], ...]
    time_lag: bool
    chunk_size: int

    @property
    def size(self) -> int:
        """Distinct partitions in the unit."""
        return len(set(self.live) | {tp for _, tps in self.groups for tp in tps})


@dataclass(frozen=True, kw_only=True)
class CheckPlan:
    """Everything the Spark stages need, and what planning already found wrong.

    ``live_routes`` maps (cluster, topic) and ``lag_routes`` (cluster, group,
    topic) to the checks that evaluate them. ``problems`` are per-check messages
    (UNKNOWN); ``records`` are error records for topics or groups that could not
    be read. ``owners`` are the (cluster, group, partition) a live member owns.
    """

    units: tuple[WorkUnit, ...]
    live_routes: Mapping[tuple[str, str], tuple[str, ...]]
    lag_routes: Mapping[tuple[str, str, str], tuple[str, ...]]
    problems: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    records: tuple[PartitionRecord, ...] = ()
    owners: frozenset[tuple[str, str, TopicPartition]] = frozenset()
    timestamp_types: Mapping[tuple[str, str], str] = field(default_factory=dict)
    groups: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    down: tuple[str, ...] = ()

    @property
    def partitions(self) -> int:
        """Distinct (cluster, partition) pairs the units cover."""
        return sum(u.size for u in self.units)


def check_selection(topics: Sequence[str], exclude_internal: bool) -> Selection:
    """The selection of a check's topic patterns (each a regex matching whole names)."""
    return Selection(tuple(TopicRule(t) for t in topics), exclude_internal, topics=tuple(topics))


def chunk_selection(partitions: Sequence[TopicPartition]) -> Selection:
    """A selection of exactly these partitions: what a task describes of its chunk's topics.

    Each topic is an exact (escaped, grouped) pattern, never a literal name, so the
    metadata holds just the chunk's topics (without asking for them by name) and a
    planned partition that is gone since planning shows as such
    (:func:`kafka_offsets_cli.check.collect.collect_unit`).
    """
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    rules = [
        TopicRule(f"(?:{re.escape(topic)})", _ranges(sorted(set(parts))))
        for topic, parts in sorted(by_topic.items())
    ]
    return Selection(tuple(rules))


def _ranges(parts: list[int]) -> tuple[PartitionRange, ...]:
    out: list[PartitionRange] = []
    start = prev = parts[0]
    for p in parts[1:]:
        if p == prev + 1:
            prev = p
            continue
        out.append(PartitionRange(start, prev + 1))
        start = prev = p
    out.append(PartitionRange(start, prev + 1))
    return tuple(out)


def _message(e: BaseException) -> str:
    return e.message if isinstance(e, KafkaOffsetsError) else str(e)


class _Planner:
    """Accumulates one plan across clusters."""

    def __init__(self, spec: CheckSpec) -> None:
        self.spec = spec
        self.live_routes: dict[tuple[str, str], list[str]] = {}
        self.lag_routes: dict[tuple[str, str, str], list[str]] = {}
        self.problems: dict[str, list[str]] = {}
        self.records: list[PartitionRecord] = []
        self.owners: set[tuple[str, str, TopicPartition]] = set()
        self.types: dict[tuple[str, str], str] = {}
        self.groups: dict[tuple[str, str], tuple[str, ...]] = {}
        self.units: list[WorkUnit] = []
        self.down: list[str] = []

    def problem(self, check: str, text: str) -> None:
        self.problems.setdefault(check, []).append(text)

    def cluster(self, name: str, source: PlanSource) -> None:
        checks = [c for c in self.spec.checks if name in c.clusters]
        if not checks:
            return
        md = with_named_errors(source, source.metadata(), _literal_topics(checks))
        if any(c.exclude_internal for c in checks):  # the broker's is_internal flag, not the name
            md = with_internal_flags(source, md)
        live: set[TopicPartition] = set()
        for c in checks:
            if isinstance(c, LivenessCheck):
                live |= self._liveness(name, c, md)
        group_parts: dict[str, set[TopicPartition]] = {}
        time_lag = False
        lag_checks = [c for c in checks if isinstance(c, LagCheck)]
        if lag_checks:
            time_lag = any(c.time_lag for c in lag_checks)
            self._lag(name, lag_checks, md, source, group_parts)
        if live:
            topics = sorted({tp.topic for tp in live})
            configs = source.topic_configs(topics, [TIMESTAMP_TYPE_KEY])
            for t, conf in configs.items():
                if TIMESTAMP_TYPE_KEY in conf:
                    self.types[(name, t)] = conf[TIMESTAMP_TYPE_KEY]
        everything = sorted(live | {tp for tps in group_parts.values() for tp in tps})
        settings = self.spec.clusters[name].settings
        for chunk in chunked(everything, self.spec.task_size):
            members = set(chunk)
            groups = tuple(
                (g, tuple(sorted(tps & members))) for g, tps in sorted(group_parts.items()) if tps & members
            )
            self.units.append(
                WorkUnit(
                    cluster=name,
                    index=len(self.units),
                    settings=settings,
                    live=tuple(tp for tp in chunk if tp in live),
                    groups=groups,
                    time_lag=time_lag,
                    chunk_size=self.spec.chunk_size,
                )
            )

    def _liveness(self, cluster: str, check: LivenessCheck, md: ClusterMetadata) -> set[TopicPartition]:
        res = resolve(check_selection(check.topics, check.exclude_internal), md)
        if res.empty:
            self.problem(check.name, f"{cluster}: {res.describe_empty()}")
            return set()
        for m in res.missing:
            self.records.append(
                _error_record(check.name, "liveness", cluster, m.topic, m.partition, None, m.error)
            )
        for topic in res.topics:
            self.live_routes.setdefault((cluster, topic), []).append(check.name)
        return set(res.partitions)

    def _lag(
        self,
        cluster: str,
        checks: list[LagCheck],
        md: ClusterMetadata,
        source: PlanSource,
        group_parts: dict[str, set[TopicPartition]],
    ) -> None:
        chosen: dict[str, list[str]] = {}
        for c in checks:
            names = [g for g in c.groups if _PLAIN_NAME.fullmatch(g)]
            regexes = [g for g in c.groups if not _PLAIN_NAME.fullmatch(g)]
            try:
                chosen[c.name] = resolve_groups(source, names, regexes)
            except (NotFound, UsageError) as e:
                self.problem(c.name, f"{cluster}: {_message(e)}")
                chosen[c.name] = []
            self.groups[(c.name, cluster)] = tuple(chosen[c.name])
        everyone = sorted({g for gs in chosen.values() for g in gs})
        if not everyone:
            return
        descriptions = source.describe_groups(everyone)
        committed = {g.group: g for g in source.committed_offsets(everyone)}
        for g, d in descriptions.items():
            for tp in d.assigned:
                self.owners.add((cluster, g, tp))
        for c in checks:
            selection = check_selection(c.topics, c.exclude_internal) if c.topics else None
            res = resolve(selection, md) if selection is not None else None
            if res is not None and res.empty:
                self.problem(c.name, f"{cluster}: {res.describe_empty()}")
                continue
            for g in chosen[c.name]:
                plan = plan_group(
                    g,
                    committed.get(g),
                    descriptions.get(g),
                    md,
                    selection,
                    exclude_internal=c.exclude_internal,
                )
                if plan.error is not None:
                    self.records.append(_error_record(c.name, "lag", cluster, "", None, g, plan.error))
                    continue
                # the check's named topics (and partitions) that do not exist or may not be read:
                # the group's lag there is unknown, as `kafka-offsets lag` reports them
                for m in res.missing if res is not None else ():
                    rec = _error_record(c.name, "lag", cluster, m.topic, m.partition, g, m.error)
                    self.records.append(rec)
                if plan.empty:
                    text = "the group has no committed offsets on the check's topics"
                    rec = PartitionRecord(
                        check=c.name,
                        kind="lag",
                        cluster=cluster,
                        topic="",
                        partition=None,
                        group=g,
                        state="no-commit",
                        status=MonitoringStatus.WARNING,
                        error=text,
                    )
                    self.records.append(rec)
                    continue
                planned = (*plan.partitions, *plan.gone)
                group_parts.setdefault(g, set()).update(planned)
                for topic in sorted({tp.topic for tp in planned}):
                    routes = self.lag_routes.setdefault((cluster, g, topic), [])
                    if c.name not in routes:
                        routes.append(c.name)

    def unreachable(self, cluster: str, e: BaseException) -> None:
        self.down.append(cluster)
        for c in self.spec.checks:
            if cluster in c.clusters:
                self.problem(c.name, f"{cluster}: {_message(e)}")

    def plan(self) -> CheckPlan:
        return CheckPlan(
            units=tuple(self.units),
            live_routes={k: tuple(v) for k, v in self.live_routes.items()},
            lag_routes={k: tuple(v) for k, v in self.lag_routes.items()},
            problems={k: tuple(v) for k, v in self.problems.items()},
            records=tuple(self.records),
            owners=frozenset(self.owners),
            timestamp_types=dict(self.types),
            groups=dict(self.groups),
            down=tuple(self.down),
        )


def _literal_topics(checks: Sequence[LivenessCheck | LagCheck]) -> list[str]:
    """The plain topic names the checks spell out (asked for by name when the listing lacks them)."""
    return [
        n
        for c in checks
        for rule in check_selection(c.topics, c.exclude_internal).rules
        for n in rule.literal_names
    ]


def _error_record(
    check: str, kind: str, cluster: str, topic: str, partition: int | None, group: str | None, error: str
) -> PartitionRecord:
    return PartitionRecord(
        check=check,
        kind=kind,
        cluster=cluster,
        topic=topic,
        partition=partition,
        group=group,
        state="error",
        status=MonitoringStatus.UNKNOWN,
        error=error or UNKNOWN_TOPIC_OR_PARTITION,
    )


def plan_checks(spec: CheckSpec, connect: Callable[[str], PlanSource]) -> CheckPlan:
    """Plan every check of ``spec``; ``connect(cluster)`` gives a client for a cluster.

    A cluster that cannot be reached (or read) does not stop the others: each
    check on it gets a problem (UNKNOWN) with the reason.
    """
    planner = _Planner(spec)
    for name in spec.clusters:
        try:
            source = connect(name)
            planner.cluster(name, source)
        except KafkaOffsetsError as e:
            planner.unreachable(name, e)
    return planner.plan()
