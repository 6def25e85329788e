"""The ``kafka-offsets`` PySpark data source (Spark 4's Python Data Source API).

Imported by :func:`kafka_offsets_cli.spark.register` only (it subclasses pyspark's classes, so
importing it loads pyspark). Spark builds the reader in a Python worker beside the driver: the
options are read (:mod:`.source_options`), the read is planned (:mod:`.source_plan`: one client,
the metadata once) and the reader and its partitions are pickled into the tasks; each task reads
one unit. Kinds ``liveness`` and ``tiering`` are their feature's one call
(:func:`kafka_offsets_cli.liveness.run.run`, :func:`kafka_offsets_cli.tiering.run.run`) on the
request their options build, made while the read is planned: its rows are the one partition.

Secrets: each partition carries its unit without secret values (``check``'s
:func:`.ship.strip_units`); the values travel once, in the reader, inside a holder that never
shows them (its ``repr``), and :func:`.ship.localized` puts them back in the task. Spark's own
``explain`` and event log show the options with secret-looking values redacted
(``spark.redaction.regex``). A file setting (``kafka.ssl.ca.location``…) is read at its path by
the executors (a Python data source has no ``addFile``): on a cluster, a path they all have.

A wrong option fails the read with the tool's one line (:class:`SourceOptionError`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pyspark.errors import PySparkValueError
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from ..check.units import WorkUnit
from ..connection.resolver import resolve_connection
from ..errors import KafkaOffsetsError
from ..liveness.run import run as run_liveness
from ..models.offsets import OffsetSpec
from ..parse.times import now_ms
from ..tiering.run import run as run_tiering
from .source_lag import LAG_DDL, LagPlan, lag_groups, lag_unit_rows, plan_lag
from .source_liveness import LIVENESS_DDL, liveness_request
from .source_options import SCHEMA_DDL, source_request
from .source_plan import AnsweredPlan, ReadPlan, Row, plan_read, rows_of, unit_rows
from .source_pushdown import allowed_values, narrowed_units
from .source_tiering import TIERING_DDL, tiering_request

__all__ = ["NAME", "KafkaOffsetsPushdownSource", "KafkaOffsetsSource", "SourceOptionError"]

NAME = "kafka-offsets"
#: Each kind's schema but ``offsets``' (:data:`.source_options.SCHEMA_DDL`).
KIND_DDL = {"lag": LAG_DDL, "liveness": LIVENESS_DDL, "tiering": TIERING_DDL}


class SourceOptionError(PySparkValueError):
    """The tool's one line for a read it refuses (an option, or a selection that matches nothing)."""


class _Secrets:
    """The units' secret values, out of every partition; never in a ``repr``."""

    def __init__(self, values: Mapping[str, Mapping[str, str]]) -> None:
        self.values = {k: dict(v) for k, v in values.items()}

    def __repr__(self) -> str:
        return "_Secrets(<hidden>)"


class _Partition(InputPartition):  # type: ignore[misc]
    """One task: a work unit (no secret values in it), or the rows planning already knows."""

    def __init__(self, value: int, unit: WorkUnit | None, known: tuple[Row, ...]) -> None:
        super().__init__(value)
        self.unit = unit
        self.known = known

    def __repr__(self) -> str:
        return f"_Partition({self.value}, {len(self.unit.live) if self.unit else 0} partitions)"


class _Reader(DataSourceReader):  # type: ignore[misc]
    """The planned read; pickled into the tasks."""

    def __init__(self, plan: ReadPlan | LagPlan | AnsweredPlan) -> None:
        self.units = plan.units
        # the offsets' specs; none: the lag rows of each unit's groups
        self.specs: tuple[OffsetSpec, ...] | None = plan.specs if isinstance(plan, ReadPlan) else None
        self.known = plan.known
        self.secrets = _Secrets(plan.secrets)
        self.types = plan.types if isinstance(plan, LagPlan) else {}

    def partitions(self) -> list[_Partition]:
        parts = [_Partition(i, u, ()) for i, u in enumerate(self.units)]
        if self.known:
            parts.append(_Partition(len(parts), None, self.known))
        return parts or [_Partition(0, None, ())]

    def read(self, partition: InputPartition) -> Iterator[Row]:
        assert isinstance(partition, _Partition)  # Spark hands back the partitions above
        yield from partition.known
        if partition.unit is None:
            return
        if self.specs is None:
            yield from lag_unit_rows(partition.unit, self.secrets.values, self.types)
        else:
            yield from unit_rows(partition.unit, self.specs, self.secrets.values)


class KafkaOffsetsSource(DataSource):  # type: ignore[misc]
    """``spark.read.format("kafka-offsets")``: the rows of ``kafka-offsets list -o json``
    (``.option("kind", "lag")``: of ``kafka-offsets lag -o json``; ``liveness``, ``tiering``: theirs)."""

    #: the reader made for each read (:class:`KafkaOffsetsPushdownSource`'s takes filters)
    reader_class: type[_Reader] = _Reader

    @classmethod
    def name(cls) -> str:
        return NAME

    def schema(self) -> str:
        return KIND_DDL.get(str(self.options.get("kind", "")).strip().lower(), SCHEMA_DDL)

    def reader(self, schema: Any) -> _Reader:
        try:
            options = dict(self.options)
            read = source_request(options, now_ms=now_ms())
            # the kind's own request: its usage errors before anything is contacted, as its command
            live = liveness_request(options) if read.kind == "liveness" else None
            tiers = tiering_request(options) if read.kind == "tiering" else None
            settings = resolve_connection(read.connection).settings
            from ..kafka import KafkaClient

            with KafkaClient(settings) as client:
                if live is not None:
                    return self.reader_class(AnsweredPlan(rows_of(run_liveness(client, live).records())))
                if tiers is not None:
                    return self.reader_class(AnsweredPlan(rows_of(run_tiering(client, tiers).records())))
                if read.kind == "lag":
                    groups = lag_groups(dict(self.options))
                    return self.reader_class(plan_lag(client, read, settings, groups, time_lag=read.time_lag))
                return self.reader_class(plan_read(client, read, settings))
        except KafkaOffsetsError as e:
            # the tool's one line, not a chain of this package's frames
            raise SourceOptionError(f"{NAME} data source: {e.message}") from None


class _PushdownReader(_Reader):
    """The planned read, narrowed by the filters Spark pushes (:mod:`.source_pushdown`)."""

    def pushFilters(self, filters: list[Any]) -> Iterable[Any]:  # pyspark's name
        topics, groups = allowed_values(filters, "topic"), allowed_values(filters, "group")
        if topics is not None or groups is not None:
            self.units = narrowed_units(self.units, topics, groups)
        return filters  # Spark applies each one still: the read only skips what they exclude


class KafkaOffsetsPushdownSource(KafkaOffsetsSource):
    """The source on a session that pushes filters into Python data sources (Spark 4.1+, the
    setting on): its reads skip the topics and groups a ``where`` on them excludes."""

    reader_class = _PushdownReader
