"""What one Spark task does: open one client for its unit and run the direct commands' fan-out.

Liveness partitions get one max-timestamp round
(:func:`kafka_offsets_cli.queries.fetch_offsets`, as ``kafka-offsets liveness``);
lag groups go through :func:`kafka_offsets_cli.lag.collect`, restricted to the
unit's partitions (committed offsets, log start and end, the transaction-marker
check and the time-lag bisection, as ``kafka-offsets lag``). No pyspark here:
the functions run inside Spark's Python workers, and in unit tests without Spark.

Every planned partition comes back as a sample, with its error when it failed:
a cluster that cannot be reached from the task, a group whose offsets cannot
be read, or a partition without an answer is never silently missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import KafkaOffsetsError
from ..lag import LagRow, LagState, collect, lag_row
from ..models import OffsetResult, OffsetSpec, TopicPartition
from ..queries import fetch_offsets
from .plan import WorkUnit, chunk_selection

if TYPE_CHECKING:
    from ..kafka import KafkaClient

__all__ = ["LagSample", "LiveSample", "Sample", "collect_unit", "run_units"]

NO_ANSWER = "NO_ANSWER"


@dataclass(frozen=True)
class LiveSample:
    """A partition's max-timestamp answer (for liveness checks)."""

    cluster: str
    result: OffsetResult


@dataclass(frozen=True)
class LagSample:
    """A group's lag row on a partition (for lag checks and the history)."""

    cluster: str
    row: LagRow


Sample = LiveSample | LagSample


def _error_name(e: KafkaOffsetsError) -> str:
    """A stable error name for a failure of the whole task (e.g. ``CLUSTER_UNREACHABLE``)."""
    name = type(e).__name__
    out = "".join("_" + c if c.isupper() and i else c for i, c in enumerate(name)).upper()
    return out


def _failed(unit: WorkUnit, error: str) -> list[Sample]:
    spec = OffsetSpec.max_timestamp()
    out: list[Sample] = [
        LiveSample(unit.cluster, OffsetResult(tp.topic, tp.partition, spec, None, error=error))
        for tp in unit.live
    ]
    for g, tps in unit.groups:
        out += [
            LagSample(
                unit.cluster,
                LagRow(g, tp.topic, tp.partition, None, None, None, None, None, LagState.ERROR, error),
            )
            for tp in tps
        ]
    return out


def collect_unit(unit: WorkUnit, *, debug: bool = False) -> list[Sample]:
    """Samples for every planned partition of ``unit`` (errors included)."""
    from ..kafka import KafkaClient

    try:
        with KafkaClient(unit.settings, debug=debug) as client:
            return _collect(client, unit)
    except KafkaOffsetsError as e:
        return _failed(unit, _error_name(e))


def _collect(client: KafkaClient, unit: WorkUnit) -> list[Sample]:
    out: list[Sample] = []
    if unit.live:
        spec = OffsetSpec.max_timestamp()
        got = {r.tp: r for r in fetch_offsets(client, unit.live, [spec], chunk_size=unit.chunk_size)}
        for tp in unit.live:
            r = got.get(tp) or OffsetResult(tp.topic, tp.partition, spec, None, error=NO_ANSWER)
            out.append(LiveSample(unit.cluster, r))
    if unit.groups:
        planned: dict[str, set[TopicPartition]] = {g: set(tps) for g, tps in unit.groups}
        everything = sorted({tp for tps in planned.values() for tp in tps})
        try:
            report = collect(
                client,
                sorted(planned),
                chunk_selection(everything),
                time_lag=unit.time_lag,
                marker_check=True,
                chunk_size=unit.chunk_size,
            )
        except KafkaOffsetsError as e:
            out += _failed(
                WorkUnit(unit.cluster, unit.index, unit.settings, (), unit.groups, False, 1), _error_name(e)
            )
            return out
        seen: set[tuple[str, TopicPartition]] = set()
        for row in report.rows:
            if row.tp in planned.get(row.group, ()):
                out.append(LagSample(unit.cluster, row))
                seen.add((row.group, row.tp))
        out += _untouched(client, unit, planned, seen, {p.group: p.error for p in report.problems if p.error})
    return out


def _untouched(
    client: KafkaClient,
    unit: WorkUnit,
    planned: dict[str, set[TopicPartition]],
    seen: set[tuple[str, TopicPartition]],
    errors: dict[str, str | None],
) -> list[Sample]:
    """Planned rows ``lag.collect`` did not produce: a check's literal topics the group never touched.

    As ``kafka-offsets lag --topic NAME`` shows them: :func:`kafka_offsets_cli.lag.lag_row`
    with no committed offset (``no-commit``, or ``error`` when the offsets fail). A
    group whose offsets could not be read gets its error on every planned row.
    """
    missing = [(g, tp) for g, tps in unit.groups for tp in tps if (g, tp) not in seen]
    if not missing:
        return []
    out: list[Sample] = []
    todo = sorted({tp for g, tp in missing if g not in errors})
    early = OffsetSpec.earliest()
    late = OffsetSpec.latest()
    got = {(r.tp, r.spec): r for r in fetch_offsets(client, todo, [early, late], chunk_size=unit.chunk_size)}
    for g, tp in missing:
        if g in errors:
            row = LagRow(g, tp.topic, tp.partition, None, None, None, None, None, LagState.ERROR, errors[g])
        else:
            none = OffsetResult(tp.topic, tp.partition, late, None, error=NO_ANSWER)
            row = lag_row(g, tp, None, got.get((tp, early), none), got.get((tp, late), none))
        out.append(LagSample(unit.cluster, row))
    return out


def run_units(units: Iterator[WorkUnit], debug: bool = False) -> Iterator[Sample]:
    """Collect every unit of a Spark partition (``mapPartitions`` entry point)."""
    for unit in units:
        yield from collect_unit(unit, debug=debug)
