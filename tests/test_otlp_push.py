"""``--otlp-endpoint``: a run's metrics pushed once over OTLP/HTTP (issue 31.3), on a real broker.

The receiver is a plain HTTP server in the test that decodes each push with OpenTelemetry's official
protobuf definitions (``opentelemetry-proto``), independently of the tool's own encoder: every series of
the textfile the same run writes arrives with the same name, labels and value; the lag series also
under the OpenTelemetry Collector Kafka receiver's names and attributes (values equal to ``lag -o
json``); a cluster that does not answer pushes ``up 0``; a receiver that fails the push or rejects
points ends the run UNKNOWN (exit 3) after its output, and a header's value is never printed.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)

from dev.kafka_data import commit_group_offsets, create_topic, produce
from kafka_offsets_cli.render.monitoring import parse_prometheus_text
from tests.cli_runner import cli
from tests.mock_environment import watching

pytestmark = pytest.mark.broker

SECRET = "s3cret-token-5f2a"


class Receiver:
    """An OTLP/HTTP metrics receiver: what it was sent, and how it answers (``ok``, ``fail``, ``partial``)."""

    def __init__(self) -> None:
        self.pushes: list[tuple[str, dict[str, str], bytes]] = []
        self.mode = "ok"
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.pushes.append((self.path, dict(self.headers.items()), body))
                if receiver.mode == "fail":
                    self.send_response(503, "Unavailable")
                    self.end_headers()
                    return
                answer = ExportMetricsServiceResponse()
                if receiver.mode == "partial":
                    answer.partial_success.rejected_data_points = 2
                    answer.partial_success.error_message = "two points out of order"
                data = answer.SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def last(self) -> tuple[dict[str, str], dict[str, list[tuple[dict[str, Any], float]]], dict[str, Any]]:
        """The last push: its headers, its points by metric name, its resource attributes."""
        _path, headers, body = self.pushes[-1]
        request = ExportMetricsServiceRequest.FromString(body)
        points: dict[str, list[tuple[dict[str, Any], float]]] = {}
        [rm] = request.resource_metrics
        resource = {a.key: getattr(a.value, a.value.WhichOneof("value")) for a in rm.resource.attributes}
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                assert m.WhichOneof("data") == "gauge", m.name
                for p in m.gauge.data_points:
                    attrs = {a.key: getattr(a.value, a.value.WhichOneof("value")) for a in p.attributes}
                    value = getattr(p, p.WhichOneof("value"))
                    assert p.time_unix_nano > 0
                    points.setdefault(m.name, []).append((attrs, float(value)))
        return headers, points, resource


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.server.shutdown()


@pytest.fixture(scope="module")
def group(bootstrap: str) -> dict[str, str]:
    """Topic T (2 partitions, 5 and 3 records), group G committed at 2 and 3 (lag 3 and 0)."""
    u = uuid.uuid4().hex[:8]
    t, g = f"otlp-t-{u}", f"otlp-g-{u}"
    create_topic(bootstrap, t, 2, config={"retention.ms": "-1"})
    produce(
        bootstrap, t, [(0, None, None, b"x") for _ in range(5)] + [(1, None, None, b"x") for _ in range(3)]
    )
    commit_group_offsets(bootstrap, g, {(t, 0): 2, (t, 1): 3})
    return {"b": bootstrap, "t": t, "g": g}


def _series(text: str) -> set[tuple[str, tuple[tuple[str, str], ...], float]]:
    return {
        (name, tuple(sorted(labels.items())), value)
        for name, samples in parse_prometheus_text(text).items()
        for labels, value in samples
    }


def test_the_push_carries_the_textfile_and_the_kafka_receivers_names(
    group: dict[str, str], receiver: Receiver, tmp_path: Path
) -> None:
    b, t, g = group["b"], group["t"], group["g"]
    textfile = tmp_path / "lag.prom"
    run = cli(
        "lag", "-b", b, "-g", g, "-o", "json", "--prometheus-file", str(textfile),
        "--otlp-endpoint", receiver.url, "--otlp-header", f"Authorization=Bearer {SECRET}",
    )  # fmt: skip
    assert run.code == 0, run.stderr
    assert len(receiver.pushes) == 1 and receiver.pushes[0][0] == "/v1/metrics"
    headers, points, resource = receiver.last()
    assert headers["Content-Type"] == "application/x-protobuf"
    assert headers["Authorization"] == f"Bearer {SECRET}"
    pushed = {
        (name, tuple(sorted((k, str(v)) for k, v in attrs.items())), value)
        for name, ps in points.items()
        if name.startswith("kafka_offsets_")
        for attrs, value in ps
    }
    assert pushed == _series(textfile.read_text())  # the textfile's series, every one, nothing else
    assert resource["service.name"] == "kafka-offsets" and resource["messaging.system"] == "kafka"
    assert resource["kafka.cluster.alias"] == b

    rows = {(r["topic"], r["partition"]): r["lag"] for r in run.json() if r["group"] == g}
    assert rows == {(t, 0): 3, (t, 1): 0}
    lag = {(a["group"], a["topic"], a["partition"]): v for a, v in points["kafka.consumer_group.lag"]}
    assert lag == {(g, t, 0): 3, (g, t, 1): 0}  # the receiver's attributes: partition an integer
    [(attrs, total)] = points["kafka.consumer_group.lag_sum"]
    assert total == 3 and attrs["group"] == g and attrs["topic"] == t and attrs["cluster"] == b
    for a, _ in points["kafka.consumer_group.lag"]:
        assert a["messaging.consumer.group.name"] == g and a["messaging.destination.name"] == t
        assert a["messaging.destination.partition.id"] == str(a["partition"])


def test_a_cluster_that_does_not_answer_pushes_up_0(receiver: Receiver) -> None:
    run = cli("lag", "-b", "127.0.0.1:1", "-g", "g", "--timeout", "2s", "--otlp-endpoint", receiver.url + "/")
    assert run.code == 3, (run.stdout, run.stderr)
    _, points, _ = receiver.last()
    assert points["kafka_offsets_lag_up"] == [({"cluster": "127.0.0.1:1"}, 0.0)]
    assert points["kafka_offsets_lag_status"] == [({"cluster": "127.0.0.1:1"}, 3.0)]


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("fail", " failed: HTTP 503 Unavailable"),
        ("partial", ": the receiver rejected 2 data point(s): two points out of order"),
    ],
)
def test_a_failed_push_is_unknown_after_the_output_and_never_shows_the_header(
    group: dict[str, str], receiver: Receiver, mode: str, said: str
) -> None:
    receiver.mode = mode
    run = cli(
        "--debug", "lag", "-b", group["b"], "-g", group["g"], "-o", "json",
        "--otlp-endpoint", receiver.url + "/otlp/v1/metrics", "--otlp-header", f"X-Token={SECRET}",
    )  # fmt: skip
    assert run.code == 3, (run.stdout, run.stderr)
    assert {r["partition"] for r in run.json()} == {0, 1}  # the output first, whole
    assert receiver.pushes[-1][0] == "/otlp/v1/metrics"  # a URL with a path is used as given
    error = [ln for ln in run.stderr.splitlines() if ln.startswith("kafka-offsets: error: ")]
    assert error == [f"kafka-offsets: error: OTLP push to {receiver.url}/otlp/v1/metrics{said}"], run.stderr
    assert SECRET not in run.stderr + run.stdout


def test_liveness_pushes_its_textfile(
    bootstrap: str, group: dict[str, str], receiver: Receiver, tmp_path: Path
) -> None:
    textfile = tmp_path / "liveness.prom"
    run = cli(
        "liveness", "-b", bootstrap, "-t", group["t"], "-o", "nagios",
        "--prometheus-file", str(textfile), "--otlp-endpoint", receiver.url,
    )  # fmt: skip
    assert run.code in (0, 1, 2), run.stderr
    _, points, _ = receiver.last()
    pushed = {
        (name, tuple(sorted((k, str(v)) for k, v in attrs.items())), value)
        for name, ps in points.items()
        for attrs, value in ps
    }
    assert pushed == _series(textfile.read_text())  # no Kafka receiver names outside lag


def test_a_watch_pushes_after_every_refresh(group: dict[str, str], receiver: Receiver) -> None:
    b, t, g = group["b"], group["t"], group["g"]
    moved = []

    def between(n: int) -> None:  # the group catches up on partition 0 between the refreshes
        commit_group_offsets(b, g, {(t, 0): 5, (t, 1): 3})
        moved.append(n)

    args = ("lag", "-b", b, "-g", g, "-o", "json", "--watch", "2s", "--otlp-endpoint", receiver.url)
    run = cli(*args, environment=watching(2, between))
    assert run.code == 0 and moved == [1], run.stderr
    lags = []
    for _path, _headers, body in receiver.pushes:
        request = ExportMetricsServiceRequest.FromString(body)
        [sm] = request.resource_metrics[0].scope_metrics
        [m] = [m for m in sm.metrics if m.name == "kafka.consumer_group.lag_sum"]
        lags.append(m.gauge.data_points[0].as_int)
    assert lags == [3, 0]


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (("--otlp-endpoint", "ftp://collector:4318"), 3, "expected an http:// or https:// URL with a host"),
        (("--otlp-endpoint", "http://127.0.0.1:4318", "--otlp-header", "A"), 3, "expected KEY=VALUE"),
        (("--otlp-header", "A=b"), 2, "--otlp-header needs --otlp-endpoint"),  # not a monitoring run
    ],
)
def test_usage_errors_before_anything_is_contacted(args: tuple[str, ...], code: int, said: str) -> None:
    # the cluster is not there: a usage error, not "did not answer", shows nothing was contacted
    run = cli("lag", "-b", "127.0.0.1:1", "-g", "g", *args)
    assert run.code == code and said in run.stderr, (run.code, run.stderr)
    assert "did not answer" not in run.stderr
