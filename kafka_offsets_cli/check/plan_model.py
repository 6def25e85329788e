"""A ``check`` plan (frozen): the Spark work units and what planning found; clusters planned at once.

Each cluster is planned on its own (:func:`kafka_offsets_cli.check.plan.plan_checks`, one
thread per cluster); :func:`merge_plans` joins them in the spec's cluster order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ..models.topics import TopicPartition
from .records import PartitionRecord
from .units import WorkUnit

__all__ = ["CheckPlan", "each_at_once", "merge_plans"]

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class CheckPlan:
    """Everything the Spark stages need, and what planning already found wrong.

    ``live_routes`` maps (cluster, topic) and ``lag_routes`` (cluster, group,
    topic) to the checks that evaluate them. ``problems`` are per-check messages
    (UNKNOWN); ``records`` are error records for topics or groups that could not
    be read. ``owners`` are the (cluster, group, partition) a live member owns;
    ``group_types`` each planned (cluster, group)'s type as the brokers list it.
    """

    units: tuple[WorkUnit, ...]
    live_routes: Mapping[tuple[str, str], tuple[str, ...]]
    lag_routes: Mapping[tuple[str, str, str], tuple[str, ...]]
    problems: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    records: tuple[PartitionRecord, ...] = ()
    owners: frozenset[tuple[str, str, TopicPartition]] = frozenset()
    timestamp_types: Mapping[tuple[str, str], str] = field(default_factory=dict)
    groups: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    group_types: Mapping[tuple[str, str], str] = field(default_factory=dict)
    down: tuple[str, ...] = ()

    @property
    def partitions(self) -> int:
        """Distinct (cluster, partition) pairs the units cover."""
        return sum(u.size for u in self.units)


def merge_plans(plans: Sequence[CheckPlan]) -> CheckPlan:
    """One plan from the clusters' ``plans``, in order: the same as planning them one after another.

    Units are numbered across the clusters; routes, problems and records concatenate in order
    (routes and groups are keyed by cluster, so no two plans share a key).
    """
    units: list[WorkUnit] = []
    live: dict[tuple[str, str], tuple[str, ...]] = {}
    lag: dict[tuple[str, str, str], tuple[str, ...]] = {}
    problems: dict[str, tuple[str, ...]] = {}
    for p in plans:
        units += [replace(u, index=len(units) + i) for i, u in enumerate(p.units)]
        live.update(p.live_routes)
        lag.update(p.lag_routes)
        for check, texts in p.problems.items():
            problems[check] = problems.get(check, ()) + tuple(texts)
    return CheckPlan(
        units=tuple(units),
        live_routes=live,
        lag_routes=lag,
        problems=problems,
        records=tuple(r for p in plans for r in p.records),
        owners=frozenset(o for p in plans for o in p.owners),
        timestamp_types={k: v for p in plans for k, v in p.timestamp_types.items()},
        groups={k: v for p in plans for k, v in p.groups.items()},
        group_types={k: v for p in plans for k, v in p.group_types.items()},
        down=tuple(d for p in plans for d in p.down),
    )


def each_at_once(names: Sequence[str], work: Callable[[str], T], most: int) -> list[T]:
    """``work`` of each name, in threads (at most ``most`` at a time); the answers in ``names``' order.

    Daemon threads joined by the caller's thread, not a thread pool: Ctrl-C interrupts the
    join at once, and the process exits without waiting for a cluster that is slow to answer
    (a pool's exit would wait out every pending call). A thread's exception is raised here.
    """
    slots = threading.BoundedSemaphore(most)
    done: dict[str, T | BaseException] = {}

    def run(name: str) -> None:
        try:
            with slots:
                done[name] = work(name)
        except BaseException as e:  # raised in the caller's thread below
            done[name] = e

    threads = [threading.Thread(target=run, args=(n,), name=f"discover {n}", daemon=True) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out: list[T] = []
    for n in names:
        got = done[n]
        if isinstance(got, BaseException):
            raise got
        out.append(got)
    return out
