"""The HTTP side: ``/metrics`` (text exposition 0.0.4), ``/`` (a page linking it), 404 otherwise.

The standard library's threading server: each scrape has a thread, and the collection is shared
(:mod:`.cache`), so a slow cluster holds scrapers, not the server. It listens on loopback unless
``--listen`` names another address. SIGTERM and Ctrl-C stop it gracefully: no new connection is
accepted, the responses in flight are finished (their threads are joined), then the run ends.
TLS and basic auth are left to a reverse proxy (docs/reference.md says why).
"""

from __future__ import annotations

import gzip
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from .. import __version__
from ..errors import UsageError

__all__ = ["CONTENT_TYPE", "MetricsServer", "parse_listen", "serve_until_stopped"]

#: Prometheus' text exposition format.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: The address when ``--listen`` names only a port.
LOOPBACK = "127.0.0.1"
#: A socket read that waits longer ends its connection (a stalled client holds no thread).
READ_TIMEOUT_S = 60

PAGE = """<!DOCTYPE html>
<html><head><title>kafka-offsets</title></head>
<body><h1>kafka-offsets</h1><p><a href="/metrics">Metrics</a></p></body></html>
"""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[IPv6]:PORT`` or a bare ``PORT`` (loopback) as (host, port); ``:PORT`` is
    refused (it reads as every interface in some exporters: say ``0.0.0.0:PORT`` for that)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = LOOPBACK, text
    elif not host:
        raise UsageError(f"--listen {text!r}: name the address: {LOOPBACK}:{port}, or 0.0.0.0:{port} for all")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not port.isdigit() or int(port) > 65535 or not host:
        raise UsageError(f"--listen {text!r}: expected HOST:PORT or PORT (e.g. {LOOPBACK}:9308)")
    return host, int(port)


class _Handler(BaseHTTPRequestHandler):
    server: MetricsServer
    server_version = f"kafka-offsets/{__version__}"
    timeout = READ_TIMEOUT_S

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/metrics":
            try:
                body = self.server.metrics().encode("utf-8")
            except Exception:  # a bug, not a cluster (that is a series): a 500, its traceback logged
                traceback.print_exc()
                self._send(500, "text/plain; charset=utf-8", b"collection failed: see the exporter's log\n")
                return
            self._send(200, CONTENT_TYPE, body, gzipped="gzip" in self.headers.get("Accept-Encoding", ""))
        elif path == "/":
            self._send(200, "text/html; charset=utf-8", PAGE.encode("utf-8"))
        else:
            self._send(404, "text/plain; charset=utf-8", b"Not found: try /metrics\n")

    def _send(self, code: int, content_type: str, body: bytes, *, gzipped: bool = False) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        if gzipped:
            body = gzip.compress(body, compresslevel=5)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: a scrape every few seconds would drown the errors."""


class MetricsServer(ThreadingHTTPServer):
    """The endpoint: ``metrics()`` gives the ``/metrics`` body (it may block while a collection runs)."""

    daemon_threads = False  # server_close() joins the handlers: the responses in flight are finished
    block_on_close = True

    def __init__(self, address: tuple[str, int], metrics: Callable[[], str]) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.metrics = metrics
        try:
            super().__init__(address, _Handler)
        except OSError as e:
            raise UsageError(f"--listen {address[0]}:{address[1]}: {e.strerror or e}") from e

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A scraper that hung up (its scrape timeout) is no error of ours; anything else is printed."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        """The address it listens on, as a URL of its ``/metrics`` (the real port when 0 was asked)."""
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/metrics"


def serve_until_stopped(
    server: MetricsServer, signals: Sequence[signal.Signals] = (signal.SIGTERM, signal.SIGINT)
) -> str:
    """Serve in this (the main) thread until one of ``signals``; then stop accepting, finish the
    responses in flight and close. The signal's name is returned (the previous handlers restored)."""
    got: list[str] = []

    def stop(signum: int, _frame: Any) -> None:
        if not got:
            got.append(signal.Signals(signum).name)
            # shutdown() waits for serve_forever's loop to end: from another thread, not this one
            threading.Thread(target=server.shutdown, name="serve-stop").start()

    previous = {s: signal.signal(s, stop) for s in signals}
    try:
        server.serve_forever()
    finally:
        server.server_close()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return got[0] if got else "stop"
