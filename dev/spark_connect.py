"""A real Spark Connect server on loopback, from the pyspark package's own jars (tests, measurements).

The server is ``spark-submit --class org.apache.spark.sql.connect.service.SparkConnectServer``
(what ``sbin/start-connect-server.sh`` runs; ``jars/spark-connect_*.jar`` ships with pyspark 4),
master ``local[2]`` by default, its gRPC endpoint bound to a free port of 127.0.0.1. Its Python
workers run ``python`` (by default the driver's own interpreter; tests give a venv holding only
what docs/deployment.md says executors need, :func:`dev.spark_cluster.executor_venv`).

Python::

    from dev import spark_connect
    server = spark_connect.up(state_dir, python=venv_python)
    server.url          # sc://127.0.0.1:PORT
    server.down()

Shell (foreground; Ctrl-C stops it)::

    python -m dev.spark_connect [--port N] [--master local[2]]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["EXECUTOR_DISTRIBUTIONS", "ConnectServer", "ConnectServerError", "free_port", "up"]

HOST = "127.0.0.1"
SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
START_TIMEOUT_S = 120.0
#: What the server's Python workers need besides pyspark (the server's own) and kafka_offsets_cli
#: (a session artifact): the Kafka client, and pyarrow for Arrow functions (``mapInArrow``).
EXECUTOR_DISTRIBUTIONS = ("confluent-kafka", "pyarrow")
#: the line the server logs once its gRPC service listens
READY = "Spark Connect server started at"


class ConnectServerError(RuntimeError):
    """The server could not be started (the message says why, with the log tail)."""


@dataclass
class ConnectServer:
    """A running Spark Connect server: its ``sc://`` URL, process and log."""

    url: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log (for a failing test's message)."""
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def accepts(self) -> bool:
        """Whether the gRPC port accepts a TCP connection now."""
        with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), timeout=2):
            return True
        return False

    def down(self) -> None:
        """Stop the server (its process group: the JVM and its Python workers)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


def free_port() -> int:
    """A TCP port of 127.0.0.1 free right now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def up(
    state: Path,
    *,
    master: str = "local[2]",
    python: str | Path | None = None,
    port: int | None = None,
    conf: Sequence[str] = (),
    timeout_s: float = START_TIMEOUT_S,
) -> ConnectServer:
    """Start a Spark Connect server and wait until it accepts; :class:`ConnectServerError` if it cannot.

    ``state`` holds its log; ``python``: its Python workers' interpreter (default: this one);
    ``conf``: more ``KEY=VALUE`` Spark settings of the server.
    """
    state.mkdir(parents=True, exist_ok=True)
    home = _spark_home()
    port = port or free_port()
    py = str(python or sys.executable)
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": HOST, "PYSPARK_PYTHON": py}
    for var in ("SPARK_REMOTE", "PYTHONPATH", "PYSPARK_DRIVER_PYTHON"):
        env.pop(var, None)
    settings = [
        f"spark.connect.grpc.binding.port={port}",
        f"spark.connect.grpc.binding.address={HOST}",
        "spark.ui.enabled=false",
        f"spark.pyspark.python={py}",
        "spark.driver.memory=768m",
        "spark.sql.session.timeZone=UTC",
        *conf,
    ]
    cmd = [str(home / "bin" / "spark-submit"), "--class", SERVER_CLASS, "--master", master]
    for c in settings:
        cmd += ["--conf", c]
    cmd += ["--name", "kafka-offsets dev Spark Connect", "spark-internal"]
    log = state / "spark-connect.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd,
            env=env,
            cwd=state,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = ConnectServer(url=f"sc://{HOST}:{port}", port=port, proc=proc, log=log)
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            if proc.poll() is not None:
                raise ConnectServerError(f"the Spark Connect server exited ({proc.returncode})")
            with contextlib.suppress(OSError):
                if READY in log.read_text(errors="replace") and server.accepts():
                    return server
            if time.monotonic() > deadline:
                raise ConnectServerError(f"the Spark Connect server did not start within {timeout_s:g}s")
            time.sleep(0.3)
    except BaseException as e:
        server.down()
        if isinstance(e, ConnectServerError):
            raise ConnectServerError(f"{e}; {log}:\n{server.log_tail()}") from None
        raise


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run a server in the foreground until Ctrl-C (or SIGTERM); its URL on stdout."""
    ap = argparse.ArgumentParser(prog="python -m dev.spark_connect", description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--python", default=None, help="the Python workers' interpreter")
    args = ap.parse_args(argv)
    state = Path(tempfile.mkdtemp(prefix="kafka-offsets-connect-"))
    server = up(state, master=args.master, python=args.python, port=args.port)
    print(server.url, flush=True)
    print(f"log: {server.log}", file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.proc.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
