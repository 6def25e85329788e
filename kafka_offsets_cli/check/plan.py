"""Plan a ``check`` run: expand each check against its clusters into Spark work units (pure).

Runs on the driver, each cluster in a thread of its own with one client (anything satisfying
:class:`~kafka_offsets_cli.sources.PlanSource`, in the product
:class:`~kafka_offsets_cli.kafka.KafkaClient`):

* liveness checks: the topic patterns are resolved against the cluster's
  metadata (:func:`kafka_offsets_cli.plan.resolve.resolve`); selected topics that do
  not exist become error records;
* lag checks: groups by name or pattern (:func:`kafka_offsets_cli.measures.lag.collect.resolve_groups`),
  then each group's partitions by the function ``kafka-offsets lag`` chooses them with
  (:func:`kafka_offsets_cli.measures.lag.plan.plan_group`): every partition of each topic the
  group committed to or is assigned, within the check's topics (all such topics when
  the check names none), plus the check's literal topics.

Each check's selection is resolved once per cluster
(:func:`kafka_offsets_cli.measures.lag.plan.partition_index`), so planning costs in proportion
to the groups' own partitions, not groups x partitions. All partitions a cluster
needs are ordered by leader and cut into as many balanced units as the executors
run at once (``parallelism``; more when a unit would exceed ``task_size``, fewer when
one would be below one ListOffsets call, ``chunk_size``); a :class:`WorkUnit` is one
such chunk with the groups that have partitions in it, and carries what its task
needs from planning (leaders, partitions gone). One Spark task runs one unit with one client.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..errors import KafkaOffsetsError, NotFound, UsageError
from ..measures.lag.collect import ListedGroups, resolve_groups
from ..measures.lag.loss import LOSS_KEYS
from ..measures.lag.plan import PartitionIndex, partition_index, plan_group
from ..measures.lag.share import read_share_groups
from ..measures.liveness import TIMESTAMP_TYPE_KEY
from ..models.group_types import GroupListing
from ..models.groups import GroupOffsets
from ..models.topics import ClusterMetadata, TopicPartition
from ..parse.java_regex import names_and_patterns
from ..parse.selection import Selection, TopicRule
from ..parse.spark_checkpoint import Opener
from ..plan.queries import with_named_errors
from ..plan.resolve import resolve
from ..sources import PlanSource
from .plan_checkpoints import checkpoint_groups
from .plan_model import CheckPlan, each_at_once, merge_plans
from .plan_records import error_record, problem_record
from .records import PartitionRecord
from .spec import CheckSpec, LagCheck, LivenessCheck
from .units import WorkUnit, chunk_selection, cluster_units, unit_chunks

__all__ = ["CheckPlan", "WorkUnit", "check_selection", "chunk_selection", "plan_checks", "unit_chunks"]


def check_selection(topics: Sequence[str], exclude_internal: bool) -> Selection:
    """The selection of a check's topic patterns (each a regex matching whole names).

    ``exclude_internal`` (the spec's key, true by default) leaves out Kafka's system topics by
    name, the rule of ``liveness``, ``lag`` and ``tiering`` (:mod:`kafka_offsets_cli.system_topics`).
    """
    return Selection(
        rules=tuple(TopicRule(t) for t in topics), topics=tuple(topics), exclude_system=exclude_internal
    )


def _message(e: BaseException) -> str:
    return e.message if isinstance(e, KafkaOffsetsError) else str(e)


class _Planner:
    """Accumulates one plan across clusters."""

    def __init__(self, spec: CheckSpec, parallelism: int, opener: Opener | None = None) -> None:
        self.spec = spec
        self.parallelism = parallelism
        self.opener = opener
        self.live_routes: dict[tuple[str, str], list[str]] = {}
        self.lag_routes: dict[tuple[str, str, str], list[str]] = {}
        self.problems: dict[str, list[str]] = {}
        self.records: list[PartitionRecord] = []
        self.owners: set[tuple[str, str, TopicPartition]] = set()
        self.types: dict[tuple[str, str], str] = {}
        self.groups: dict[tuple[str, str], tuple[str, ...]] = {}
        self.group_types: dict[tuple[str, str], str] = {}  # (cluster, group) -> the listed type
        self.units: list[WorkUnit] = []
        self.down: list[str] = []
        self.indexes: dict[tuple[tuple[str, ...], bool], PartitionIndex] = {}
        #: this cluster's groups that are Spark checkpoints, with the offsets read from them
        self.given: dict[str, GroupOffsets] = {}

    def index(
        self, md: ClusterMetadata, topics: Sequence[str], exclude_internal: bool = False
    ) -> PartitionIndex:
        """The cluster's metadata indexed with these topics' selection (none: every topic), built once."""
        key = (tuple(topics), exclude_internal and bool(topics))
        if key not in self.indexes:
            selection = check_selection(topics, exclude_internal) if topics else None
            like = next(iter(self.indexes.values()), None)  # the same metadata: its tables shared
            self.indexes[key] = partition_index(md, selection, like=like)
        return self.indexes[key]

    def problem(self, check: str, text: str) -> None:
        self.problems.setdefault(check, []).append(text)

    def cluster(self, name: str, source: PlanSource) -> None:
        checks = [c for c in self.spec.checks if name in c.clusters]
        if not checks:
            return
        md = with_named_errors(source, source.metadata(), _literal_topics(checks))
        self.indexes = {}  # this cluster's: each check's topics resolved once (shared by equal checks)
        self.given = {}
        live: set[TopicPartition] = set()
        for c in checks:
            if isinstance(c, LivenessCheck):
                live |= self._liveness(name, c, md)
        group_parts: dict[str, set[TopicPartition]] = {}
        gone: set[TopicPartition] = set()
        time_lag = False
        loss: dict[str, dict[str, str]] = {}
        lag_checks = [c for c in checks if isinstance(c, LagCheck)]
        if lag_checks:
            time_lag = any(c.time_lag for c in lag_checks)
            self._lag(name, lag_checks, md, source, group_parts, gone)
        if any(c.loss_eta for c in lag_checks) and group_parts:
            # the retention the data-loss ETA needs: one DescribeConfigs for the groups' topics
            topics = sorted({tp.topic for tps in group_parts.values() for tp in tps})
            loss = source.topic_configs(topics, LOSS_KEYS)
        if live:
            topics = sorted({tp.topic for tp in live})
            configs = source.topic_configs(topics, [TIMESTAMP_TYPE_KEY])
            for t, conf in configs.items():
                if TIMESTAMP_TYPE_KEY in conf:
                    self.types[(name, t)] = conf[TIMESTAMP_TYPE_KEY]
        everything = set(live)
        for tps in group_parts.values():
            everything.update(tps)
        sizes = (self.parallelism, self.spec.task_size, self.spec.chunk_size)
        self.units += cluster_units(
            name,
            self.spec.clusters[name].settings,
            everything,
            self.index(md, ()).leader_map(),
            sizes,
            start=len(self.units),
            live=live,
            groups=group_parts,
            gone=gone,
            time_lag=time_lag,
            types={g: t for (c, g), t in self.group_types.items() if c == name},
            given=self.given,
            loss_configs=loss,
        )

    def _liveness(self, cluster: str, check: LivenessCheck, md: ClusterMetadata) -> set[TopicPartition]:
        res = self.index(md, check.topics, check.exclude_internal).resolution
        if res is None:  # no topic named: nothing selected, as resolve says
            res = resolve(check_selection((), check.exclude_internal), md)
        if res.empty:
            self.problem(check.name, f"{cluster}: {res.describe_empty()}")
            return set()
        for m in res.missing:
            self.records.append(
                error_record(check.name, "liveness", cluster, m.topic, m.partition, None, m.error)
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
        gone: set[TopicPartition],
    ) -> None:
        chosen: dict[str, list[str]] = {}
        named: dict[str, set[str]] = {}  # per check, the groups given by name (as `lag --group`)
        # every type's groups, as `lag` lists them (not asked when every check reads checkpoints)
        listing = source.group_types() if any(c.groups for c in checks) else GroupListing(types={})
        given = self.given  # emptied for each cluster
        for c in checks:
            if c.spark_checkpoints:  # Spark queries: their checkpoints' offsets, as `lag` reads them
                read = checkpoint_groups(c.spark_checkpoints, self.opener)
                if isinstance(read, KafkaOffsetsError):
                    self.problem(c.name, f"{cluster}: {read.message}")
                    self.records.append(error_record(c.name, "lag", cluster, "", None, None, read.name))
                    read = []
                given.update({g.group: g for g in read})
                chosen[c.name] = [g.group for g in read]
                named[c.name] = set(chosen[c.name])
                continue
            names, regexes = names_and_patterns(c.groups)
            named[c.name] = set(names)
            try:
                chosen[c.name] = resolve_groups(ListedGroups(listing.types), names, regexes)
            except (NotFound, UsageError) as e:
                self.problem(c.name, f"{cluster}: {_message(e)}")
                chosen[c.name] = []
            if regexes and listing.unanswered is not None:
                self.problem(c.name, f"{cluster}: a broker did not list its groups ({listing.unanswered})")
        everyone = sorted({g for gs in chosen.values() for g in gs})
        shared = [g for g in everyone if listing.types.get(g) == "share"]
        share = read_share_groups(source, shared)  # start offsets in the committed offsets' place
        for c in checks:
            if share.unavailable is not None and set(chosen[c.name]) & set(shared):
                self.problem(c.name, f"{cluster}: {share.unavailable}")  # one line, not one per group
                chosen[c.name] = [g for g in chosen[c.name] if g not in share.committed]
            self.groups[(c.name, cluster)] = tuple(chosen[c.name])
        for g in everyone:
            if g in listing.types:
                self.group_types[(cluster, g)] = listing.types[g]
        others = [g for g in everyone if g not in share.committed and g not in given]
        # committed offsets first: a group whose coordinator did not answer is not described (kafka/groups)
        committed = {g.group: g for g in source.committed_offsets(others)} if others else {}
        committed.update(share.committed)
        committed.update(given)
        descriptions = source.describe_groups(others) if others else {}
        for g, d in descriptions.items():
            for tp in d.assigned:
                self.owners.add((cluster, g, tp))
        for c in checks:
            index = self.index(md, c.topics, c.exclude_internal)  # resolved once for all its groups
            selection, res = index.selection, index.resolution
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
                    named=g in named[c.name],
                    exclude_system=c.exclude_internal,
                    index=index,
                    group_type=self.group_types.get((cluster, g)),
                )
                if plan.error is not None and (problem := plan.problem) is not None:
                    self.records.append(problem_record(c.name, cluster, problem))
                    continue
                # the check's named topics (and partitions) that do not exist or may not be read:
                # the group's lag there is unknown, as `kafka-offsets lag` reports them
                for m in res.missing if res is not None else ():
                    rec = error_record(c.name, "lag", cluster, m.topic, m.partition, g, m.error)
                    self.records.append(replace(rec, group_type=plan.group_type))
                if plan.empty:  # a named group with nothing in the selection (WARNING); else left out
                    if (problem := plan.problem) is not None:
                        self.records.append(problem_record(c.name, cluster, problem))
                    continue
                planned = (*plan.partitions, *plan.gone)
                group_parts.setdefault(g, set()).update(planned)
                gone.update(plan.gone)
                for topic in sorted({tp.topic for tp in planned}):
                    routes = self.lag_routes.setdefault((cluster, g, topic), [])
                    if c.name not in routes:
                        routes.append(c.name)

    def unreachable(self, cluster: str, e: BaseException) -> None:
        """Each check on ``cluster`` gets the reason as a problem and one error record (UNKNOWN), so
        the cluster shows in the records, as a failed partition does, not only in a summary text."""
        self.down.append(cluster)
        name = e.name if isinstance(e, KafkaOffsetsError) else type(e).__name__
        for c in self.spec.checks:
            if cluster in c.clusters:
                self.problem(c.name, f"{cluster}: {_message(e)}")
                kind = "lag" if isinstance(c, LagCheck) else "liveness"
                self.records.append(error_record(c.name, kind, cluster, "", None, None, name))

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
            group_types=dict(self.group_types),
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


#: clusters discovered at once (each a client with its own librdkafka threads and sockets)
_MAX_DISCOVERY_THREADS = 8


def plan_checks(
    spec: CheckSpec,
    connect: Callable[[str], PlanSource],
    *,
    parallelism: int | None = None,
    opener: Opener | None = None,
) -> CheckPlan:
    """Plan every check of ``spec``; ``connect(cluster)`` gives a client for a cluster (``opener``:
    the front end's reader of ``spark_checkpoints`` URIs).

    Clusters are discovered at once, each in a thread of its own with its own client
    (the time is the slowest cluster's, not the sum), and the plans merged in the
    spec's cluster order, so the plan is the same as one made cluster after cluster.
    A cluster that cannot be reached (or read) does not stop the others: each check on
    it gets a problem (UNKNOWN) with the reason. ``parallelism``: how many tasks the
    executors run at once (Spark's ``defaultParallelism``; default: this machine's CPU
    count, as ``local[*]``), the number of units per cluster within the ``task_size`` cap.
    """
    slots = parallelism if parallelism is not None else os.cpu_count() or 1

    def discover(name: str) -> _Planner:
        planner = _Planner(spec, slots, opener)
        try:
            planner.cluster(name, connect(name))
        except KafkaOffsetsError as e:
            planner.unreachable(name, e)
        return planner

    names = list(spec.clusters)
    if len(names) <= 1:
        return merge_plans([discover(n).plan() for n in names])
    return merge_plans([p.plan() for p in each_at_once(names, discover, _MAX_DISCOVERY_THREADS)])
