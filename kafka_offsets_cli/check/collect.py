"""What one Spark task does: open one client for its unit and run the direct commands' fan-out.

Liveness partitions get one max-timestamp round
(:func:`kafka_offsets_cli.plan.queries.fetch_offsets`, as ``kafka-offsets liveness``);
lag groups get the rows planned for them through
:func:`kafka_offsets_cli.measures.lag.collect.lag_rows` (committed offsets, log start and end,
the transaction-marker check and the time-lag bisection, as ``kafka-offsets lag``).
No pyspark here: the functions run inside Spark's Python workers, and in unit tests
without Spark.

Every planned partition comes back as a sample, with its error when it failed:
a cluster that cannot be reached from the task, a group whose offsets cannot
be read, or a partition without an answer is never silently missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..errors import KafkaOffsetsError
from ..measures.lag.collect import lag_rows
from ..measures.lag.loss_read import read_loss_etas
from ..measures.lag.plan import planned_rows
from ..measures.lag.rows import LagRow, error_row
from ..measures.lag.share import read_share_groups, with_broker_lags
from ..models.offsets import OffsetResult, OffsetSpec
from ..plan.queries import fetch_offsets
from ..sources import CheckLagSource
from .plan import WorkUnit

__all__ = ["LagSample", "LiveSample", "Sample", "collect_unit", "run_units", "unit_samples"]

NO_ANSWER = "NO_ANSWER"


@dataclass(frozen=True)
class LiveSample:
    """A partition's max-timestamp answer (for liveness checks)."""

    cluster: str
    result: OffsetResult


@dataclass(frozen=True)
class LagSample:
    """A group's lag row on a partition (for lag checks and the history), with its data-loss ETA
    (:mod:`kafka_offsets_cli.measures.lag.loss`) when a check on its cluster computes it."""

    cluster: str
    row: LagRow
    loss_eta_ms: int | None = None


Sample = LiveSample | LagSample


def _failed(unit: WorkUnit, error: str) -> list[Sample]:
    spec = OffsetSpec.max_timestamp()
    out: list[Sample] = [
        LiveSample(unit.cluster, OffsetResult(tp.topic, tp.partition, spec, None, error=error))
        for tp in unit.live
    ]
    for g, tps in unit.groups:
        out += [LagSample(unit.cluster, error_row(g, tp, error, unit.types.get(g))) for tp in tps]
    return out


def collect_unit(unit: WorkUnit, *, debug: bool = False) -> list[Sample]:
    """Samples for every planned partition of ``unit`` (errors included)."""
    from ..kafka import KafkaClient

    try:
        with KafkaClient(unit.settings, debug=debug) as client:
            return unit_samples(client, unit)
    except KafkaOffsetsError as e:
        return _failed(unit, e.name)


def unit_samples(source: CheckLagSource, unit: WorkUnit) -> list[Sample]:
    """Samples for every planned partition of ``unit``, read through ``source`` (one client).

    A failure that stops the lag rows (the cluster went away) makes every planned lag
    row an ``error`` sample; a failure before that is the caller's (:func:`collect_unit`).
    """
    out: list[Sample] = []
    if unit.live:
        spec = OffsetSpec.max_timestamp()
        results = fetch_offsets(source, unit.live, [spec], chunk_size=unit.chunk_size, leaders=unit.leaders)
        got = {r.tp: r for r in results}
        for tp in unit.live:
            r = got.get(tp) or OffsetResult(tp.topic, tp.partition, spec, None, error=NO_ANSWER)
            out.append(LiveSample(unit.cluster, r))
    if unit.groups:
        try:
            rows = _lag_rows(source, unit)
        except KafkaOffsetsError as e:
            out += _failed(replace(unit, live=()), e.name)  # the live samples are in already
            return out
        if not unit.loss_configs:
            out += [LagSample(unit.cluster, row) for row in rows]
            return out
        # the ETA by lag's rule, from the rows' time-lag search and the retention planning read
        etas, _ = read_loss_etas(source, rows, unit.loss_configs, unit.leaders)
        out += [LagSample(unit.cluster, r, etas.get((r.group, r.topic, r.partition))) for r in rows]
    return out


def _lag_rows(source: CheckLagSource, unit: WorkUnit) -> tuple[LagRow, ...]:
    """The unit's planned lag rows, made as ``kafka-offsets lag`` makes them.

    The driver planned each group's rows (:func:`kafka_offsets_cli.measures.lag.plan.plan_group`)
    and put in the unit which of them were gone and every partition's leader, so the
    task describes no topic (:func:`kafka_offsets_cli.measures.lag.plan.planned_rows`: a gone
    partition is an ``error`` row). It reads the groups' committed offsets now, just
    before their log ends, as ``kafka-offsets lag`` does: offsets read on the driver
    before the Spark session started would overstate every lag by the records
    produced since (a group whose offsets cannot be read has its error on every
    planned row). Share groups are read by their start offsets and get the broker's lag
    (:mod:`kafka_offsets_cli.measures.lag.share`). Then
    :func:`kafka_offsets_cli.measures.lag.collect.lag_rows`.
    """
    shared = [g for g, _ in unit.groups if unit.types.get(g) == "share"]
    others = [g for g, _ in unit.groups if unit.types.get(g) != "share" and g not in unit.given]
    committed = {o.group: o for o in source.committed_offsets(others)} if others else {}
    committed.update(unit.given)  # Spark checkpoints: their offsets, read by the driver
    share = read_share_groups(source, shared)  # start offsets, as `lag` reads share groups
    committed.update(share.committed)
    plans = [planned_rows(g, committed.get(g), tps, unit.gone, unit.types.get(g)) for g, tps in unit.groups]
    rows = lag_rows(
        source,
        plans,
        leaders=unit.leaders,
        time_lag=unit.time_lag,
        marker_check=True,
        chunk_size=unit.chunk_size,
    ).rows
    return tuple(with_broker_lags(rows, share.lags)) if share.lags else rows


def run_units(units: Iterator[WorkUnit], debug: bool = False) -> Iterator[Sample]:
    """Collect every unit of a Spark partition (``mapPartitions`` entry point)."""
    for unit in units:
        yield from collect_unit(unit, debug=debug)
