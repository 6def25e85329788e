"""serve's HTTP side on a real loopback socket: the routes, the content type, gzip, a bug's 500, the
--listen grammar, and a graceful stop that finishes the response in flight."""

from __future__ import annotations

import gzip
import os
import signal
import socket
import struct
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator

import pytest

from kafka_offsets_cli.errors import UsageError
from kafka_offsets_cli.serve.http import CONTENT_TYPE, MetricsServer, parse_listen, serve_until_stopped

TEXT = "# TYPE x gauge\nx 1\n"


@pytest.fixture
def server() -> Iterator[Callable[[Callable[[], str]], str]]:
    """Start a server (port 0) in a thread with the given metrics; its base URL."""
    started: list[tuple[MetricsServer, threading.Thread]] = []

    def start(metrics: Callable[[], str]) -> str:
        s = MetricsServer(("127.0.0.1", 0), metrics)
        t = threading.Thread(target=s.serve_forever, daemon=True)
        t.start()
        started.append((s, t))
        return s.url.removesuffix("/metrics")

    yield start
    for s, t in started:
        s.shutdown()
        s.server_close()
        t.join(10)


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_metrics_page_and_404(server: Callable[[Callable[[], str]], str]) -> None:
    base = server(lambda: TEXT)
    code, headers, body = get(f"{base}/metrics")
    assert (code, headers["Content-Type"], body) == (200, CONTENT_TYPE, TEXT.encode())
    code, headers, body = get(f"{base}/metrics?x=1", **{"Accept-Encoding": "gzip"})
    assert (code, headers.get("Content-Encoding"), gzip.decompress(body)) == (200, "gzip", TEXT.encode())
    code, headers, body = get(f"{base}/")
    assert code == 200 and headers["Content-Type"].startswith("text/html") and b'href="/metrics"' in body
    assert get(f"{base}/other")[0] == 404


def test_a_bug_in_a_collection_is_a_500(
    server: Callable[[Callable[[], str]], str], capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> str:
        raise KeyError("bug")

    assert get(f"{server(broken)}/metrics")[0] == 500
    assert "KeyError: 'bug'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("9308", ("127.0.0.1", 9308)),
        ("0.0.0.0:9308", ("0.0.0.0", 9308)),
        ("localhost:0", ("localhost", 0)),
        ("[::1]:9308", ("::1", 9308)),
    ],
)
def test_listen_addresses(text: str, address: tuple[str, int]) -> None:
    assert parse_listen(text) == address


@pytest.mark.parametrize("text", [":9308", "host:", "host:http", "1.2.3.4:70000", ""])
def test_bad_listen_addresses(text: str) -> None:
    with pytest.raises(UsageError, match="--listen"):
        parse_listen(text)


def test_an_address_in_use_is_a_usage_error() -> None:
    first = MetricsServer(("127.0.0.1", 0), lambda: TEXT)
    try:
        with pytest.raises(UsageError, match=r"--listen 127\.0\.0\.1:"):
            MetricsServer(("127.0.0.1", first.server_address[1]), lambda: TEXT)
    finally:
        first.server_close()


def test_sigterm_stops_after_the_response_in_flight() -> None:
    entered, release = threading.Event(), threading.Event()

    def slow() -> str:
        entered.set()
        assert release.wait(10)
        return TEXT

    server = MetricsServer(("127.0.0.1", 0), slow)
    got: list[tuple[int, dict[str, str], bytes]] = []
    scrape = threading.Thread(target=lambda: got.append(get(server.url)))

    def stop_while_in_flight() -> None:
        scrape.start()
        assert entered.wait(10)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)  # the stop is under way while the response is still being made
        release.set()

    before = signal.getsignal(signal.SIGTERM)
    threading.Thread(target=stop_while_in_flight).start()
    assert serve_until_stopped(server) == "SIGTERM"
    assert not any(
        t.name.startswith("Thread-") and "process_request" in t.name for t in threading.enumerate()
    )
    scrape.join(10)
    assert got and got[0][0] == 200 and got[0][2] == TEXT.encode()  # the response in flight was finished
    assert signal.getsignal(signal.SIGTERM) == before
    with pytest.raises(OSError):  # and nothing listens any more
        get(server.url)


def test_a_scraper_that_hangs_up_is_not_logged_as_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    def slow() -> str:
        time.sleep(0.2)  # the scraper gives up meanwhile (its scrape timeout)
        return TEXT * 100_000

    server = MetricsServer(("127.0.0.1", 0), slow)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    client = socket.create_connection(("127.0.0.1", server.server_address[1]))
    client.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
    client.close()
    server.shutdown()
    server.server_close()  # joins the handler: its write to the reset connection has failed by now
    thread.join(10)
    assert capsys.readouterr().err == ""
