"""The ``kafka-offsets`` data source's read: planned as ``check`` plans, answered as ``list`` answers.

Planning (once, on the driver's side): the selection resolved against the cluster's metadata as
``list`` resolves it (:func:`kafka_offsets_cli.plan.queries.resolve_selection`), the partitions cut
into per-leader work units by ``check``'s cutter (:func:`kafka_offsets_cli.check.units.cluster_units`),
the units' secrets taken out as ``check`` takes them (:func:`.ship.strip_units`). The selected
topics and partitions that do not exist are ``list``'s error rows, known already
(:func:`kafka_offsets_cli.plan.queries.table_of`).

Reading (one task a unit): the secrets put back (:func:`.ship.localized`), one client, and ``list``'s
ListOffsets round over the unit's partitions (:func:`kafka_offsets_cli.plan.queries.fetch_offsets`,
one snapshot per partition, withheld answers settled, as ``list``). A unit whose client cannot
reach the cluster answers each of its rows with the error, as ``check``'s tasks do. No pyspark here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..check.units import WorkUnit, cluster_units
from ..connection.settings import ClientSettings
from ..errors import KafkaOffsetsError
from ..models.offsets import OffsetResult, OffsetSpec
from ..plan.queries import fetch_offsets, resolve_selection, table_of
from ..sources import OffsetSource
from .ship import localized, strip_units
from .source_options import SourceRequest

__all__ = ["CLUSTER", "AnsweredPlan", "ReadPlan", "Row", "plan_read", "rows_of", "unit_rows"]

#: The name of the read's one cluster in its units (where ``check`` names each cluster of its spec).
CLUSTER = "source"
#: One row of :data:`.source_options.SCHEMA_DDL`: topic, partition, spec, offset, timestamp,
#: leader_epoch, error (the values of ``list``'s JSON record, in its order).
Row = tuple[object, ...]


@dataclass(frozen=True, kw_only=True)
class ReadPlan:
    """What the driver hands the tasks: the units without secrets, the secrets apart, the rows known."""

    units: tuple[WorkUnit, ...]
    specs: tuple[OffsetSpec, ...]
    #: rows answered by planning: the selected topics and partitions that do not exist
    known: tuple[Row, ...]
    secrets: Mapping[str, Mapping[str, str]] = field(repr=False)


@dataclass(frozen=True)
class AnsweredPlan:
    """A read its feature's one call answered while it was planned (kinds ``liveness``, ``tiering``:
    the call reads the whole selection, its roll-ups need every partition): the rows, no units."""

    known: tuple[Row, ...]
    units: tuple[WorkUnit, ...] = ()
    secrets: Mapping[str, Mapping[str, str]] = field(default_factory=dict, repr=False)


def _row(record: Mapping[str, object]) -> Row:
    return tuple(record.values())


def rows_of(records: Iterable[Mapping[str, object]]) -> tuple[Row, ...]:
    """The rows of a command's JSON records: each record's values, in its (the schema's) order."""
    return tuple(map(_row, records))


def plan_read(source: OffsetSource, read: SourceRequest, settings: ClientSettings) -> ReadPlan:
    """The plan of ``read`` on the cluster ``source`` talks to (``settings``: its client's).

    Nothing selected is the :class:`~kafka_offsets_cli.errors.NotFound` ``list`` raises.
    """
    specs = read.request.specs
    md, res = resolve_selection(source, read.request.selection)
    units = cluster_units(
        CLUSTER,
        settings,
        res.partitions,
        md.leaders(),
        (read.parallelism, read.task_size, read.chunk_size),
        start=0,
        live=res.partitions,
        groups={},
        gone=(),
        time_lag=False,
    )
    stripped, secrets = strip_units(units, ship_to=None)
    missing = table_of(res, specs, [])
    known = [*missing.missing_records(), *(r.to_record() for r in missing.results)]
    return ReadPlan(units=tuple(stripped), specs=specs, known=tuple(map(_row, known)), secrets=secrets)


def unit_rows(
    unit: WorkUnit, specs: tuple[OffsetSpec, ...], secrets: Mapping[str, Mapping[str, str]]
) -> list[Row]:
    """In a task: the rows of ``unit`` (its secrets put back), each partition and spec once."""
    from ..kafka import KafkaClient

    unit = localized(unit, secrets)
    try:
        with KafkaClient(unit.settings) as client:
            results = fetch_offsets(
                client, unit.live, specs, chunk_size=unit.chunk_size, leaders=unit.leaders, as_kafka=True
            )
    except KafkaOffsetsError as e:  # the cluster, not a partition: every row of the unit says so
        results = [
            OffsetResult(tp.topic, tp.partition, s, None, error=e.name) for tp in unit.live for s in specs
        ]
    return [_row(r.to_record()) for r in results]
