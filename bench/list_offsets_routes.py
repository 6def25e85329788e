"""ListOffsets by its two routes on one real cluster: librdkafka's admin API against kafka-python's
protocol layer (``kafka/list_offsets_kp.py``), in the same process, in alternation.

    .venv/bin/python -m bench.list_offsets_routes [--bootstrap HOST:PORT] [--topics REGEX]
        [--specs earliest,latest] [--reps 5]

Without ``--bootstrap`` it uses the running ``plan-scale`` cluster of ``bench.lag_scale``
(``--keep``): ``bench.m.*`` at scale 100 is 50,000 partitions, which with ``earliest,latest``
is lag's 100,000 queries. Each rep asks every (partition, spec) by both routes, each on a client
of its own made and warmed up (one small ask) before the clock starts, and reports the CPU of
the process (``time.process_time``: librdkafka's and kafka-python's threads included) and the
wall time of the call, medians and the ratio librdkafka / kafka-python. Every rep checks that
both routes gave the same offsets and errors (timestamps and epochs too); a difference stops
the run. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from datetime import timezone
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from dev import kafka as dev_kafka  # noqa: E402
from kafka_offsets_cli.connection.settings import ClientSettings  # noqa: E402
from kafka_offsets_cli.kafka.client import KafkaClient  # noqa: E402
from kafka_offsets_cli.models.offsets import OffsetResult  # noqa: E402
from kafka_offsets_cli.models.topics import TopicPartition  # noqa: E402
from kafka_offsets_cli.parse.specs import parse_specs  # noqa: E402
from kafka_offsets_cli.plan.requests import plan_requests  # noqa: E402


def _answers(results: list[OffsetResult]) -> dict[tuple[str, int, str], tuple[object, ...]]:
    return {
        (r.topic, r.partition, r.spec.name): (r.offset, r.timestamp, r.leader_epoch, r.error) for r in results
    }


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootstrap")
    ap.add_argument("--topics", default=r"bench\.m\..*")
    ap.add_argument("--specs", default="earliest,latest")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    cluster = None if args.bootstrap else dev_kafka.get("plan-scale")
    bootstrap = args.bootstrap or (cluster.bootstrap if cluster else "")
    if not bootstrap:
        print("no --bootstrap and no running plan-scale cluster (bench.lag_scale --keep)", file=sys.stderr)
        return 2
    pattern = re.compile(args.topics)
    specs = list(parse_specs(args.specs.split(","), now_ms=int(time.time() * 1000), tz=timezone.utc))
    settings = ClientSettings(bootstrap_servers=bootstrap, timeout_ms=300_000)
    rd, kp = KafkaClient(settings), KafkaClient(settings)
    md = rd.metadata(only=lambda n: bool(pattern.fullmatch(n)))
    partitions = sorted(
        TopicPartition(p.topic, p.partition) for t in md.topics.values() for p in t.partitions
    )
    requests = plan_requests(partitions, specs, leaders=md.leaders())
    print(
        f"{len(partitions)} partitions x {len(specs)} specs, {len(requests)} librdkafka calls",
        file=sys.stderr,
    )
    routes = {"librdkafka": rd.offsets_route("librdkafka"), "kafka-python": kp.offsets_route("kafka-python")}
    for lister in routes.values():  # connections and the kafka-python client made before the clock
        lister(requests[:1])
    cpu: dict[str, list[float]] = {name: [] for name in routes}
    wall: dict[str, list[float]] = {name: [] for name in routes}
    for rep in range(args.reps):
        seen = {}
        for name, lister in routes.items() if rep % 2 == 0 else reversed(routes.items()):
            c0, w0 = time.process_time(), time.perf_counter()
            results = lister(requests)
            cpu[name].append(time.process_time() - c0)
            wall[name].append(time.perf_counter() - w0)
            seen[name] = _answers(results)
        a, b = seen.values()
        if a != b:
            diff = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))[:5]
            print(f"the routes differ, e.g. {[(k, a.get(k), b.get(k)) for k in diff]}", file=sys.stderr)
            return 1
    print("| route | CPU median s | wall median s |\n|---|---:|---:|")
    for name in routes:
        print(f"| {name} | {statistics.median(cpu[name]):.3f} | {statistics.median(wall[name]):.3f} |")
    ratio = statistics.median(cpu["librdkafka"]) / statistics.median(cpu["kafka-python"])
    wratio = statistics.median(wall["librdkafka"]) / statistics.median(wall["kafka-python"])
    print(
        f"\nlibrdkafka / kafka-python: CPU {ratio:.2f}x, wall {wratio:.2f}x ({args.reps} reps, answers equal)"
    )
    rd.close()
    kp.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
