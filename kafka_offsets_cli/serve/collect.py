"""One collection: each cluster's measures read over one client and rendered by their own renderers.

A measure is what a monitoring command prints with ``-o prometheus`` (its read and its renderer,
handed in by the front end) and the ``up 0`` text it writes when the cluster cannot be asked. A
cluster that cannot be reached is never an HTTP error: its measures give their ``up 0`` series
and the collection goes on (the next cluster, the exporter's own series). A measure that fails
otherwise (nothing matched, a usage the cluster refused) leaves its series out and is counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from ..errors import ClusterError, KafkaOffsetsError

__all__ = ["ClusterJob", "ClusterOutcome", "Collection", "Measure", "collect", "collect_cluster"]


@dataclass(frozen=True, kw_only=True)
class Measure:
    """One measure of a cluster: its name (``lag``, ``liveness``, ``tiering``), how to read and render
    it over a client, and its ``up 0`` text (status UNKNOWN, stamped now)."""

    name: str
    read: Callable[[Any], str]
    down: Callable[[], str]


@dataclass(frozen=True, kw_only=True)
class ClusterJob:
    """A cluster to collect: its series' constant labels, how to open a client, its measures."""

    labels: Mapping[str, str]
    connect: Callable[[], AbstractContextManager[Any]]
    measures: tuple[Measure, ...]


@dataclass(frozen=True, kw_only=True)
class ClusterOutcome:
    """What one collection got from a cluster: the measures' exposition texts and how it went."""

    labels: Mapping[str, str]
    texts: tuple[str, ...]
    #: whether the cluster answered (no :class:`ClusterError`)
    up: bool
    #: every measure's name -> whether it failed in this collection
    failed: Mapping[str, bool]
    #: one line per failure: ``measure: message``
    errors: tuple[str, ...]
    duration_s: float


@dataclass(frozen=True, kw_only=True)
class Collection:
    """One collection of every cluster, with the counts so far (this one included)."""

    clusters: tuple[ClusterOutcome, ...]
    #: this collection's number: collections started since the exporter started, this one included
    number: int
    #: (cluster index, measure) -> failed collections since the start
    errors_total: Mapping[tuple[int, str], int] = field(default_factory=dict)


def collect_cluster(job: ClusterJob, clock: Callable[[], float] = time.monotonic) -> ClusterOutcome:
    """Every measure of ``job`` over one client (one ``--timeout`` budget). Once the cluster cannot be
    reached, the measures left give their ``up 0`` text without asking it again."""
    start = clock()
    texts: list[str] = []
    failed = dict.fromkeys((m.name for m in job.measures), False)
    errors: list[str] = []
    down: ClusterError | None = None

    def fail(measure: Measure, err: KafkaOffsetsError) -> None:
        failed[measure.name] = True
        errors.append(f"{measure.name}: {err.message}")

    try:
        with job.connect() as client:
            for m in job.measures:
                if down is not None:
                    break
                try:
                    texts.append(m.read(client))
                except ClusterError as e:
                    down = e
                except KafkaOffsetsError as e:
                    fail(m, e)
    except ClusterError as e:  # opening or closing the client
        down = e
    if down is not None:
        done = len(texts) + sum(failed.values())
        for m in job.measures[done:]:
            texts.append(m.down())
            fail(m, down)
    return ClusterOutcome(
        labels=job.labels,
        texts=tuple(texts),
        up=down is None,
        failed=failed,
        errors=tuple(errors),
        duration_s=clock() - start,
    )


def collect(
    jobs: Sequence[ClusterJob],
    before: Collection | None,
    number: int,
    clock: Callable[[], float] = time.monotonic,
) -> Collection:
    """Each cluster of ``jobs`` in turn: collection ``number`` (counted by the caller as it starts, so
    collections that overlapped would show), its failures counted on top of ``before``'s."""
    clusters = tuple(collect_cluster(job, clock) for job in jobs)
    totals = dict(before.errors_total) if before is not None else {}
    for i, outcome in enumerate(clusters):
        for name, bad in outcome.failed.items():
            totals[i, name] = totals.get((i, name), 0) + int(bad)
    return Collection(clusters=clusters, number=number, errors_total=totals)
