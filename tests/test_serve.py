"""``kafka-offsets serve`` as a real process against the suite's broker, scraped by curl-like clients and by
Debian's Prometheus.

One served process for the module (lag and liveness of one topic, a one-hour --min-interval):
its first scrapes are concurrent and must cost one collection; its series pass ``promtool check
metrics`` and equal ``lag -o json`` / ``liveness -o json`` on the same data; a real Prometheus
scrapes it every second and its query API returns the lag series; SIGTERM ends it with exit 0.
A second process serves a closed port: HTTP 200 with ``up 0``, and Ctrl-C ends it with exit 0.
Under CI=true a missing promtool or prometheus fails these tests.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from kafka_offsets_cli.serve.http import CONTENT_TYPE
from tests.availability import unavailable
from tests.cli_runner import cli
from tests.test_prometheus_lint import lint, uid

#: concurrent first scrapes of the served process
SCRAPERS = 12


@dataclass
class Served:
    """A running ``kafka-offsets serve``: the process and its /metrics URL."""

    process: subprocess.Popen[str]
    url: str

    def stop(self, sig: signal.Signals) -> tuple[int, str]:
        """Send ``sig``; the exit code and the rest of stderr."""
        self.process.send_signal(sig)
        _out, err = self.process.communicate(timeout=30)
        return self.process.returncode, err


def serve(*args: str) -> Served:
    """Start ``kafka-offsets serve ARGS --listen 127.0.0.1:0`` and read the address it listens on."""
    env = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    p = subprocess.Popen(
        [sys.executable, "-m", "kafka_offsets_cli", "serve", *args, "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert p.stderr is not None
    ready, _, _ = select.select([p.stderr], [], [], 60)
    line = p.stderr.readline() if ready else ""
    if "listening on " not in line:
        p.kill()
        pytest.fail(f"serve did not start: {line}{p.communicate()[1]}")
    return Served(p, line.split("listening on ", 1)[1].strip())


def scrape(url: str) -> tuple[int, str, str]:
    """GET ``url``: status, content type, body."""
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.headers["Content-Type"], r.read().decode()


def one(text: str, name: str, **labels: str) -> float:
    """The value of the one sample of ``name`` whose labels include ``labels``."""
    found = [v for lab, v in parse_prometheus_text(text).get(name, []) if labels.items() <= lab.items()]
    assert len(found) == 1, (name, labels, found)
    return found[0]


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        unavailable(f"{name} not found: `bash dev/system-deps.sh` installs Debian's prometheus package")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def data(bootstrap: str) -> dict[str, str]:
    """A topic of two partitions with records and a group committed on it."""
    topic, group = f"serve-{uid()}", f"serve-g-{uid()}"
    create_topic(bootstrap, topic, 2, config={"retention.ms": "-1"})
    produce(bootstrap, topic, [(p, None, None, b"x") for p in (0, 1) for _ in range(7)])
    commit_group_offsets(bootstrap, group, {(topic, 0): 2, (topic, 1): 7})
    return {"bootstrap": bootstrap, "topic": topic, "group": group}


@pytest.fixture(scope="module")
def served(data: dict[str, str]) -> Iterator[tuple[Served, list[str]]]:
    """The served process and the bodies of its first, concurrent, scrapes."""
    s = serve(
        "-b",
        data["bootstrap"],
        "-g",
        data["group"],
        "-t",
        data["topic"],
        "--liveness",
        "--min-interval",
        "1h",
    )
    try:
        with ThreadPoolExecutor(SCRAPERS) as pool:
            answers = list(pool.map(lambda _: scrape(s.url), range(SCRAPERS)))
        assert {(code, ctype) for code, ctype, _ in answers} == {(200, CONTENT_TYPE)}
        yield s, [body for _, _, body in answers]
    finally:
        if s.process.poll() is None:
            s.process.kill()
            s.process.communicate()


def test_concurrent_scrapes_cost_one_collection(
    served: tuple[Served, list[str]], data: dict[str, str]
) -> None:
    _s, bodies = served
    labels = {"cluster": data["bootstrap"]}
    assert {one(b, "kafka_offsets_collections_total", **labels) for b in bodies} == {1.0}
    # one collection's stamp in every answer (a second collection would have its own)
    assert len({one(b, "kafka_offsets_lag_last_run_timestamp_seconds") for b in bodies}) == 1
    assert {one(b, "kafka_offsets_up", **labels) for b in bodies} == {1.0}


def test_the_series_pass_promtool_and_equal_the_commands_json(
    served: tuple[Served, list[str]], data: dict[str, str]
) -> None:
    s, _ = served
    _code, _ctype, body = scrape(s.url)
    lint(body)
    assert one(body, "kafka_offsets_collections_total") == 1.0  # served from the cache
    lag = cli("lag", "-b", data["bootstrap"], "-g", data["group"], "-t", data["topic"], "-o", "json")
    assert lag.code == 0, lag.stderr
    rows = [r for r in lag.json() if r.get("partition") is not None]
    assert [r["lag"] for r in rows] == [5, 0]
    for r in rows:
        where = {"group": r["group"], "topic": r["topic"], "partition": str(r["partition"])}
        assert one(body, "kafka_offsets_lag_partition_lag", **where) == r["lag"]
    assert one(body, "kafka_offsets_lag_group_lag", group=data["group"]) == 5
    live = cli("liveness", "-b", data["bootstrap"], "-t", data["topic"], "-o", "json")
    assert live.code == 0, live.stderr
    for r in live.json():
        where = {"topic": r["topic"], "partition": str(r["partition"])}
        assert one(body, "kafka_offsets_liveness_max_timestamp_offset", **where) == r["offset"]
        assert one(body, "kafka_offsets_liveness_max_timestamp_seconds", **where) == r["timestamp"] / 1000
    assert one(body, "kafka_offsets_collection_failed", measure="lag") == 0


def test_prometheus_scrapes_it_then_sigterm_ends_it(
    served: tuple[Served, list[str]], data: dict[str, str], tmp_path: Path
) -> None:
    s, _ = served
    target = urllib.parse.urlsplit(s.url).netloc
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global: {scrape_interval: 1s, scrape_timeout: 1s}\n"
        f"scrape_configs:\n  - job_name: kafka-offsets\n    static_configs: [{{targets: ['{target}']}}]\n"
    )
    port = free_port()
    prom = subprocess.Popen(
        [
            tool("prometheus"),
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    query = urllib.parse.urlencode({"query": f'kafka_offsets_lag_partition_lag{{group="{data["group"]}"}}'})
    result: list[dict[str, object]] = []
    try:
        deadline = time.monotonic() + 60
        while not result and time.monotonic() < deadline:
            assert prom.poll() is None, prom.communicate()[1]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/query?{query}", timeout=5) as r:
                    result = json.load(r)["data"]["result"]
            except OSError:
                pass  # not listening yet
            if not result:
                time.sleep(0.5)
    finally:
        prom.terminate()
        prom.communicate(timeout=30)
    got = {(m["metric"]["partition"], m["value"][1]) for m in result}  # type: ignore[index]
    assert got == {("0", "5"), ("1", "0")}, result
    assert {m["metric"]["job"] for m in result} == {"kafka-offsets"}  # type: ignore[index]
    code, err = s.stop(signal.SIGTERM)
    assert code == 0, err
    assert err.strip().splitlines()[-1] == "kafka-offsets serve: SIGTERM: stopped"


def test_a_cluster_that_cannot_be_reached_is_up_0_with_http_200() -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        nowhere = f"127.0.0.1:{closed.getsockname()[1]}"
        s = serve("-b", nowhere, "--timeout", "2s", "--tiering")
        try:
            code, ctype, body = scrape(s.url)
        finally:
            exit_code, err = s.stop(signal.SIGINT)  # Ctrl-C
    assert (code, ctype) == (200, CONTENT_TYPE)
    lint(body)
    assert one(body, "kafka_offsets_up", cluster=nowhere) == 0
    assert one(body, "kafka_offsets_lag_up") == one(body, "kafka_offsets_tiering_up") == 0
    assert one(body, "kafka_offsets_lag_status") == 3
    assert one(body, "kafka_offsets_collection_failed", measure="tiering") == 1
    assert exit_code == 0, err
    lines = err.strip().splitlines()
    assert lines[-1] == "kafka-offsets serve: SIGINT: stopped"
    assert any(line.startswith(f"kafka-offsets serve: cluster={nowhere}: lag: ") for line in lines)
