"""Planning at scale without a broker: how long the driver-side work of ``lag`` and ``check`` takes.

    .venv/bin/python -m bench.plan_scale [--reps 3] [--sizes 10000/20,50000/100]

Synthetic metadata shaped like :mod:`bench.setup_data`'s data set: ``bench.p1`` (1 partition)
and ``G`` topics ``bench.m.NN`` of 500 partitions each (``P`` partitions in all), three brokers
leading them in turn; group ``bench.g.NN`` committed to all partitions of ``bench.m.NN`` and to
``bench.p1``. An in-memory source answers every Kafka call at once, so what is timed is the
product's own CPU work:

* ``lag.plan``: :func:`kafka_offsets_cli.measures.lag.collect.collect`'s planning (every group's
  :func:`~kafka_offsets_cli.measures.lag.plan.plan_group` with the selection ``bench\\.m\\..*``);
* ``lag.collect``: the whole direct ``lag`` use case (planning, ListOffsets request planning,
  rows) against the in-memory source, selection ``bench\\.m\\..*``; ``lag.collect.all``: the
  same without a selection;
* ``check.plan``: :func:`kafka_offsets_cli.check.plan.plan_checks` for a liveness check over the
  ``bench.m`` topics and a lag check over the groups (what ``check``'s ``plan`` stage runs).

Prints one line per case and size: wall time (best and median of ``--reps``) and CPU time (best;
the figure to trust on a busy machine). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Mapping, Sequence

from kafka_offsets_cli.check.spec import CheckSpec, ClusterSpec, LagCheck, LivenessCheck
from kafka_offsets_cli.connection.settings import build_settings
from kafka_offsets_cli.models.group_types import GroupListing, GroupTypeAnswer, ShareGroupOffsets
from kafka_offsets_cli.models.groups import GroupDescription, GroupOffsets
from kafka_offsets_cli.models.offsets import Isolation, OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.parse.selection import parse_selection
from kafka_offsets_cli.plan.requests import OffsetRequest

PARTS_PER_TOPIC = 500
REGEX = r"bench\.m\..*"


class MemorySource:
    """Every Kafka call answered from memory: log start 0, end 20, groups 3 behind."""

    def __init__(self, topics: int, groups: int) -> None:
        names = ["bench.p1", *(f"bench.m.{i:03d}" for i in range(topics))]
        self.md = ClusterMetadata(
            {
                n: TopicInfo(
                    n,
                    tuple(
                        PartitionInfo(n, p, 1 + (i + p) % 3, (1 + (i + p) % 3,), (1 + (i + p) % 3,))
                        for p in range(1 if n == "bench.p1" else PARTS_PER_TOPIC)
                    ),
                )
                for i, n in enumerate(names)
            },
            brokers={1: "b1:9092", 2: "b2:9092", 3: "b3:9092"},
        )
        self.groups = {
            f"bench.g.{i:03d}": GroupOffsets(
                f"bench.g.{i:03d}",
                {
                    TopicPartition("bench.p1", 0): 17,
                    **{TopicPartition(names[1 + i % topics], p): 17 for p in range(PARTS_PER_TOPIC)},
                },
            )
            for i in range(groups)
        }

    def metadata(
        self,
        topic: str | None = None,
        *,
        only: Callable[[str], bool] | None = None,
        names: Sequence[str] | None = None,
    ) -> ClusterMetadata:
        if names is not None:
            return ClusterMetadata(
                {n: self.md.topics[n] for n in names if n in self.md.topics}, self.md.brokers
            )
        return ClusterMetadata(
            {n: t for n, t in self.md.topics.items() if only is None or only(n)}, self.md.brokers
        )

    def list_offsets(
        self,
        requests: Sequence[OffsetRequest],
        *,
        isolation: Isolation | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[OffsetResult]:
        early = OffsetSpec.earliest()
        return [
            OffsetResult(tp.topic, tp.partition, spec, 0 if spec == early else 20)
            for req in requests
            for tp, spec in req.queries
        ]

    def group_ids(self) -> list[str]:
        return sorted(self.groups)

    def group_types(self) -> GroupListing:
        return GroupListing(types=dict.fromkeys(sorted(self.groups), "consumer"))

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        return GroupTypeAnswer(group_type="share")  # the bench's groups are consumer groups

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        return {g: GroupDescription(g, "empty", 0) for g in groups}

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        return [self.groups[g] for g in groups if g in self.groups]

    def control_records(
        self, points: Sequence[tuple[TopicPartition, int]]
    ) -> dict[tuple[TopicPartition, int], bool | str]:
        return {pt: False for pt in points}

    def topic_configs(self, topics: Sequence[str], keys: Sequence[str]) -> dict[str, dict[str, str]]:
        return {t: {} for t in topics}

    def partition_sizes(
        self, leaders: Mapping[TopicPartition, int]
    ) -> tuple[dict[TopicPartition, int], dict[TopicPartition, str]]:
        return {}, {}


def _spec() -> CheckSpec:
    settings = build_settings("memory:9092")
    return CheckSpec(
        source="<bench>",
        clusters={"bench": ClusterSpec("bench", settings)},
        checks=(
            LivenessCheck(
                name="alive", clusters=("bench",), topics=(REGEX,), warn_ms=3_600_000, crit_ms=86_400_000
            ),
            LagCheck(
                name="lag", clusters=("bench",), groups=(r"bench\.g\..*",), topics=(REGEX,), time_lag=True
            ),
        ),
    )


def _cases(src: MemorySource) -> dict[str, Callable[[], object]]:
    from kafka_offsets_cli.check.plan import plan_checks
    from kafka_offsets_cli.measures.lag.collect import collect
    from kafka_offsets_cli.measures.lag.plan import plan_group
    from kafka_offsets_cli.plan.queries import selection_metadata

    groups = sorted(src.groups)
    sel = parse_selection(topics=[REGEX])
    spec = _spec()

    def lag_plan() -> object:
        md = selection_metadata(src, sel)
        descriptions = src.describe_groups(groups)
        try:  # the selection resolved once per cluster (before: once per group, inside plan_group)
            from kafka_offsets_cli.measures.lag.plan import partition_index
        except ImportError:
            return [plan_group(g, src.groups[g], descriptions[g], md, sel) for g in groups]
        index = partition_index(md, sel)
        return [plan_group(g, src.groups[g], descriptions[g], md, sel, index=index) for g in groups]

    return {
        "lag.plan": lag_plan,
        "lag.collect": lambda: collect(src, groups, sel, marker_check=False),
        "lag.collect.all": lambda: collect(src, groups, None, marker_check=False),
        "check.plan": lambda: plan_checks(spec, lambda _name: src),
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Time each case at each size and print the results."""
    ap = argparse.ArgumentParser(prog="python -m bench.plan_scale", description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument(
        "--sizes", default="10000/20,50000/100", help="PARTITIONS/GROUPS,... (partitions: multiple of 500)"
    )
    ap.add_argument("--only", default="", help="run only the cases whose name starts with this")
    args = ap.parse_args(argv)
    for size in args.sizes.split(","):
        parts, groups = (int(x) for x in size.split("/"))
        src = MemorySource(parts // PARTS_PER_TOPIC, groups)
        for name, fn in _cases(src).items():
            if not name.startswith(args.only):
                continue
            times, cpus = [], []
            for _ in range(args.reps):
                t0, c0 = time.perf_counter(), time.process_time()
                fn()
                times.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
            print(
                f"{name:16} {parts:>6} partitions {groups:>4} groups: wall best {min(times):7.3f}s "
                f"median {statistics.median(times):7.3f}s  CPU best {min(cpus):7.3f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
