"""What a scrape of ``kafka-offsets serve`` costs: the collecting one, the cached ones, a burst.

    python -m bench.serve_scrapes [--keep]

Starts a one-node cluster ``serve-bench`` with :mod:`dev.kafka` (stopped at the end unless
``--keep``), one topic of 12 partitions with 50 records each and 5 groups committed on it, then
``kafka-offsets serve --time-lag --liveness --min-interval 3s`` on a free loopback port, and prints:
the first scrape's latency (it collects) and the collection's own duration; the median of 20
sequential scrapes served from the cache; 20 concurrent scrapes once the interval is over (their
wall time and the collections they cost, from ``kafka_offsets_collections_total``); the exit on
SIGTERM. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import select
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from dev import kafka
from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text

NAME = "serve-bench"
INTERVAL_S = 3.0
BURST = 20


def _scrape(url: str) -> tuple[float, str]:
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=60) as r:
        body = r.read().decode()
    return time.monotonic() - start, body


def _value(body: str, name: str) -> float:
    return parse_prometheus_text(body)[name][0][1]


def measure(bootstrap: str) -> list[str]:
    """The lines of the report, from a served process on ``bootstrap``'s data."""
    create_topic(bootstrap, "serve.m", 12, config={"retention.ms": "-1"})
    produce(bootstrap, "serve.m", [(p, None, None, b"x") for p in range(12) for _ in range(50)])
    for g in range(5):
        commit_group_offsets(bootstrap, f"serve.g{g}", {("serve.m", p): 10 * g for p in range(12)})
    argv = ["serve", "-b", bootstrap, "--time-lag", "--liveness", "--min-interval", f"{INTERVAL_S}s"]
    p = subprocess.Popen(
        [sys.executable, "-m", "kafka_offsets_cli", *argv, "--listen", "127.0.0.1:0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert p.stderr is not None
    select.select([p.stderr], [], [], 60)
    url = p.stderr.readline().split("listening on ")[1].strip()
    first, body = _scrape(url)
    collection_s = _value(body, "kafka_offsets_collection_duration_seconds")
    lines = body.count("\n")
    out = [
        f"first scrape (collects): {first * 1000:.0f} ms; collection {collection_s * 1000:.0f} ms; "
        f"{lines} lines"
    ]
    cached = [_scrape(url)[0] for _ in range(BURST)]
    out.append(f"{BURST} cached scrapes: median {statistics.median(cached) * 1000:.1f} ms")
    time.sleep(INTERVAL_S + 0.1)
    start = time.monotonic()
    with ThreadPoolExecutor(BURST) as pool:
        bodies = [b for _, b in pool.map(lambda _: _scrape(url), range(BURST))]
    wall = time.monotonic() - start
    totals = sorted({_value(b, "kafka_offsets_collections_total") for b in bodies})
    out.append(
        f"{BURST} concurrent scrapes after the interval: {wall * 1000:.0f} ms wall; collections {totals}"
    )
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    out.append(f"SIGTERM: exit {p.returncode}: {err.strip().splitlines()[-1]}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement on a cluster of its own and print it."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.serve_scrapes", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--keep", action="store_true", help="leave the cluster running")
    args = parser.parse_args(argv)
    cluster = kafka.up(NAME)
    try:
        for line in measure(cluster.bootstrap):
            print(line)
    finally:
        if not args.keep:
            kafka.down(NAME)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
