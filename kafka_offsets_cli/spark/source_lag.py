"""``.option("kind", "lag")``: the ``kafka-offsets`` data source's rows of ``kafka-offsets lag -o json``.

Planned by ``check``'s planner (:func:`kafka_offsets_cli.check.plan.plan_checks`, one lag check on
the read's one cluster: groups by name or pattern, each group's partitions chosen by the function
``lag`` chooses them with), read by ``check``'s task (:func:`kafka_offsets_cli.check.collect.unit_samples`:
committed offsets, log start and end, the marker check and the time lag, as ``lag`` reads them),
then each row's ``remote_read`` as ``lag`` adds it
(:func:`kafka_offsets_cli.measures.lag.remote.with_remote_reads`).
A group planning answered without reading (one that does not exist, or has nothing in the
selection) is ``lag``'s record of it: its state and error, every partition field null. No pyspark.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..check.collect import LagSample, unit_samples
from ..check.plan import plan_checks
from ..check.records import PartitionRecord
from ..check.spec import CheckSpec, ClusterSpec, LagCheck
from ..check.units import WorkUnit
from ..connection.settings import ClientSettings
from ..errors import KafkaOffsetsError, UsageError
from ..measures.lag.remote import with_remote_reads
from ..measures.lag.rows import COLUMNS, error_row
from ..sources import PlanSource
from .ship import localized, strip_units
from .source_options import SourceRequest
from .source_plan import CLUSTER, Row

__all__ = ["LAG_DDL", "LagPlan", "lag_groups", "lag_unit_rows", "plan_lag"]

#: The columns of ``lag -o json`` (:data:`kafka_offsets_cli.measures.lag.rows.COLUMNS`), typed.
LAG_DDL = (
    "group STRING NOT NULL, group_type STRING, topic STRING, partition INT, committed BIGINT, "
    "log_start BIGINT, end BIGINT, lag BIGINT, time_lag_ms BIGINT, state STRING NOT NULL, error STRING, "
    "resume_timestamp BIGINT, taken_at_ms BIGINT, remote_read BOOLEAN"
)


@dataclass(frozen=True, kw_only=True)
class LagPlan:
    """The lag read's units without secrets, the secrets apart, the rows planning answered."""

    units: tuple[WorkUnit, ...]
    known: tuple[Row, ...]
    secrets: Mapping[str, Mapping[str, str]] = field(repr=False)
    #: each planned group's type, as the brokers list it (``lag``'s ``group_type``)
    types: Mapping[str, str] = field(default_factory=dict)


def lag_groups(options: Mapping[str, str]) -> tuple[str, ...]:
    """The ``groups`` option: comma-separated names or Java regexes, as a lag check's ``groups``."""
    given = {k.lower(): v for k, v in options.items()}
    for name in ("specs", "partitions"):
        if given.get(name):
            raise UsageError(f"option {name!r} is not one of kind 'lag' (its partitions are the groups')")
    groups = tuple(g.strip() for g in given.get("groups", "").split(",") if g.strip())
    if not groups:
        raise UsageError("kind 'lag' needs the option groups (names or Java regexes, comma-separated)")
    return groups


def _known(rec: PartitionRecord, types: Mapping[str, str]) -> Row:
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(group=rec.group or "", group_type=types.get(rec.group or ""))
    row.update(topic=rec.topic or None, partition=rec.partition)
    row.update(state=rec.state, error=rec.error)
    return tuple(row.values())


def plan_lag(
    source: PlanSource,
    read: SourceRequest,
    settings: ClientSettings,
    groups: tuple[str, ...],
    *,
    time_lag: bool,
) -> LagPlan:
    """The plan of a lag read: ``check``'s, for one lag check of ``groups`` on ``read``'s topics."""
    topics = read.request.selection.topics
    check = LagCheck(name="lag", clusters=(CLUSTER,), groups=groups, topics=topics, time_lag=time_lag)
    spec = CheckSpec(
        source="kafka-offsets data source",
        clusters={CLUSTER: ClusterSpec(name=CLUSTER, settings=settings)},
        checks=(check,),
        chunk_size=read.chunk_size,
        task_size=read.task_size,
    )
    plan = plan_checks(spec, lambda _name: source, parallelism=read.parallelism)
    problems = plan.problems.get(check.name, ())
    if problems:  # the cluster down, no group or topic matching: the one line, as `lag` fails
        raise UsageError("; ".join(p.removeprefix(f"{CLUSTER}: ") for p in problems))
    stripped, secrets = strip_units(plan.units, ship_to=None)
    types = {g: t for (_cluster, g), t in plan.group_types.items()}  # as planning listed them
    known = tuple(_known(r, types) for r in plan.records)
    return LagPlan(units=tuple(stripped), known=known, secrets=secrets, types=types)


def lag_unit_rows(
    unit: WorkUnit, secrets: Mapping[str, Mapping[str, str]], types: Mapping[str, str]
) -> list[Row]:
    """In a task: the lag rows of ``unit`` (its secrets put back), as ``lag -o json``'s records
    (``types``: each group's type, from planning)."""
    from ..kafka import KafkaClient

    unit = localized(unit, secrets)
    try:
        with KafkaClient(unit.settings) as client:
            read = [s.row for s in unit_samples(client, unit) if isinstance(s, LagSample)]
            # as `lag` (not check): each row's remote_read, one DescribeConfigs, -4 if a topic is tiered
            rows, _unchecked = with_remote_reads(
                client, read, leaders=unit.leaders, chunk_size=unit.chunk_size
            )
    except KafkaOffsetsError as e:  # the cluster, not a partition: every planned row says so
        rows = tuple(error_row(g, tp, e.name) for g, tps in unit.groups for tp in tps)
    return [tuple(replace(r, group_type=types.get(r.group)).to_record().values()) for r in rows]
