"""``lag --spark-checkpoint``: the lag of Spark Structured Streaming queries, from their checkpoints.

A query reading Kafka keeps its position in its checkpoint, not in a consumer group. Each checkpoint
is read again on every run (and ``--watch`` refresh) by :func:`~..parse.spark_checkpoint.read_checkpoint`
(its newest committed batch's Kafka offsets), and those offsets go through the one lag pipeline
(:func:`~..measures.lag.collect.collect`) in place of OffsetFetch's: the same rows, states, time lag,
thresholds and outputs as a group's, under the group ``spark:<query id>``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..measures.lag.collect import LagReport, collect
from ..models.topics import ClusterMetadata
from ..parse.selection import Selection
from ..parse.spark_checkpoint import Opener, read_checkpoint
from ..sources import LagSource

__all__ = ["checkpoint_report"]


def checkpoint_report(
    client: LagSource,
    paths: Sequence[str],
    selection: Selection | None,
    *,
    time_lag: bool,
    marker_check: bool,
    clock: Callable[[], int],
    loss_eta: bool,
    metadata: ClusterMetadata,
    opener: Opener | None = None,
) -> LagReport:
    """The lag of the queries whose checkpoints are at ``paths``, measured as
    :func:`~..measures.lag.collect.collect` measures groups; each source of a query that is not
    Kafka's is named in a note (the report's ``unavailable`` lines), its Kafka sources measured.
    ``opener``: the front end's reader of the paths it can open (file-system URIs)."""
    read = [read_checkpoint(p, files=opener(p) if opener is not None else None) for p in paths]
    given = {g.group: g for c in read for g in c.group_offsets()}
    report = collect(
        client,
        sorted(given),
        selection,
        time_lag=time_lag,
        marker_check=marker_check,
        named=set(given),  # a query with nothing in the selection says so
        remote_reads=True,
        clock=clock,
        loss_eta=loss_eta,
        metadata=metadata,
        given=given,
    )
    others = tuple(
        f"{c.name}: source {s} of batch {c.batch} is not a Kafka source: left out"
        for c in read
        for s in c.other
    )
    return replace(report, unavailable=others)
