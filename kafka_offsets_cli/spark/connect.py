"""Spark Connect: ``kafka-offsets check --remote sc://HOST:PORT`` (or ``SPARK_REMOTE``).

A long-lived Spark Connect server owns the Spark application (its driver JVM, its executors);
each run is a client session of it: no JVM starts here. What differs from a master:

* the client needs pyspark's Connect dependencies (the ``connect`` extra: pandas, grpcio,
  grpcio-status, googleapis-common-protos, zstandard);
* an unreachable server is one line, fast: a TCP connect of at most :data:`CONNECT_TIMEOUT_S`
  first, then gRPC calls retried :data:`RETRIES` times (about 3 s), not pyspark's default
  policy (15 retries, up to 10 minutes);
* the ``kafka_offsets_cli`` package reaches the server's Python workers as a session artifact
  (``addArtifacts(pyfile=True)``); what else they need is checked by :mod:`.preflight`;
* files of cluster settings and the secrets travel as session files (:mod:`.ship`), which
  the server deletes when the session is released;
* the runtime has no SparkContext (``sc`` is None); stopping it releases this client's session
  and closes the channel, the server keeps running;
* ``--conf`` settings are session settings (SQL ones: the server's own, core ones, are its own);
* a failed job's line names the server-side cause (:mod:`.failure`); with ``--debug`` the session
  asks the server for its stack traces (:data:`DEBUG_CONF`), shown in full on stderr.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import socket
import tempfile
import time
import urllib.parse
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .deploy import add_pyfile_artifact, zip_package
from .runtime import SessionOptions, SparkRuntime, SparkUnavailable

__all__ = ["CONNECT_TIMEOUT_S", "DEBUG_CONF", "RETRIES", "Remote", "parse_remote", "start_connect"]

#: Seconds a TCP connection to the server may take before the run gives up.
CONNECT_TIMEOUT_S = 5.0
#: gRPC retries of a call that found the server unavailable (backoff 50 ms x4 each, at most 2 s).
RETRIES = 4
MAX_BACKOFF_MS = 2000
DEFAULT_PORT = 15002  # pyspark's default Spark Connect port
#: ``--debug``: the server sends its stack trace with an error (:mod:`.failure` shows it): in the
#: error's details, and in its gRPC metadata (the only place for a task's ``PythonException``)
DEBUG_CONF = (
    ("spark.sql.connect.serverStacktrace.enabled", "true"),
    ("spark.sql.pyspark.jvmStacktrace.enabled", "true"),
)
#: pyspark's loggers of errors with a query context (``PySparkException._log_exception``)
QUERY_CONTEXT_LOGGERS = ("DataFrameQueryContextLogger", "SQLQueryContextLogger")


@dataclass(frozen=True, kw_only=True)
class Remote:
    """A parsed ``sc://HOST:PORT/;key=value`` URL (pyspark's rules)."""

    url: str
    host: str
    port: int
    #: TLS on the channel (``use_ssl=true``; a token implies it, as in pyspark)
    tls: bool

    @property
    def loopback(self) -> bool:
        """The server is on this machine (``localhost``, 127.0.0.0/8, ::1)."""
        if self.host == "localhost":
            return True
        with contextlib.suppress(ValueError):
            return ipaddress.ip_address(self.host).is_loopback
        return False

    @property
    def shown(self) -> str:
        """The URL without its parameters (a ``token`` is a secret)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"sc://{host}:{self.port}"


def parse_remote(url: str) -> Remote:
    """Parse a Spark Connect URL; :class:`UsageError` (exit 2) when pyspark would refuse it."""
    where = f"--remote {url.split(';')[0]!r}"
    if not url.startswith("sc://"):
        raise UsageError(f"{where}: a Spark Connect URL starts with sc:// (sc://HOST:PORT)")
    parsed = urllib.parse.urlparse("http" + url[2:])
    if parsed.path not in ("", "/"):
        raise UsageError(f"{where}: no path allowed (sc://HOST:PORT/;key=value)")
    params: dict[str, str] = {}
    for part in filter(None, parsed.params.split(";")):
        key, sep, value = part.partition("=")
        if not sep or "=" in value:
            raise UsageError(f"{where}: parameter {key!r} is not key=value")
        params[key] = urllib.parse.unquote(value)
    try:
        port = parsed.port or DEFAULT_PORT
    except ValueError:
        raise UsageError(f"{where}: the port is not a number from 1 to 65535") from None
    if not parsed.hostname:
        raise UsageError(f"{where}: no host (sc://HOST:PORT)")
    # as pyspark's ChannelBuilder: a token (in the URL or its environment variable) means TLS
    token = "token" in params or bool(os.environ.get("SPARK_CONNECT_AUTHENTICATE_TOKEN"))
    tls = params.get("use_ssl", "").lower() == "true" or token
    return Remote(url=url, host=parsed.hostname, port=port, tls=tls)


def _reachable(remote: Remote) -> None:
    """:class:`SparkUnavailable` at once when nothing accepts TCP connections at the server's address."""
    try:
        with socket.create_connection((remote.host, remote.port), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as e:
        why = "timed out" if isinstance(e, TimeoutError) else (e.strerror or str(e))
        raise SparkUnavailable(
            f"the Spark Connect server {remote.shown} could not be reached: {why}",
            hint="is the server running (sbin/start-connect-server.sh) and the address right?",
        ) from None


def _quiet_client(debug: bool) -> None:
    """pyspark's Connect client warns on stderr (retries exceeded, pandas versions): not for cron mail.

    Nor its error logs: an error with a query context is logged as JSON on stderr when the client
    makes the exception (kept with ``--debug``; the exception itself is the one line).
    """
    warnings.filterwarnings("ignore", message=r".*RETRIES_EXCEEDED.*")
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pyspark(\.|$)")
    if not debug:
        from pyspark.logger import PySparkLogger

        for name in QUERY_CONTEXT_LOGGERS:
            PySparkLogger.getLogger(name).setLevel(logging.CRITICAL + 1)


def _short_retries(spark: Any) -> None:
    from pyspark.sql.connect.client.retries import DefaultPolicy

    spark.client.set_retry_policies([DefaultPolicy(max_retries=RETRIES, max_backoff=MAX_BACKOFF_MS)])


def start_connect(options: SessionOptions) -> SparkRuntime:
    """A client session of the Spark Connect server ``options.remote``; :class:`SparkUnavailable` if not."""
    assert options.remote is not None
    t0 = time.monotonic()
    remote = parse_remote(options.remote)
    _quiet_client(options.debug)
    try:
        from pyspark.sql.connect.session import SparkSession
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies()
    except ImportError as e:
        raise SparkUnavailable(
            f"--remote needs pyspark's Spark Connect client: {e}",
            hint="install the connect extra: pip install 'kafka-offsets[spark,connect]' "
            "(pandas, grpcio, grpcio-status, googleapis-common-protos, zstandard)",
        ) from None
    _reachable(remote)
    spark = None
    workdir = Path(tempfile.mkdtemp(prefix="kafka-offsets-connect-"))
    # what pyspark.sql.SparkSession.builder.remote() sets: pyspark.sql.functions, Column and the
    # other shared APIs dispatch to their Connect versions while it is set (removed on stop)
    mode_set = "SPARK_CONNECT_MODE_ENABLED" not in os.environ
    os.environ["SPARK_CONNECT_MODE_ENABLED"] = "1"
    try:
        # the Connect builder itself: the generic one refuses while a classic context runs here
        spark = SparkSession.builder.remote(remote.url).getOrCreate()
        _short_retries(spark)
        settings = [
            ("spark.sql.session.timeZone", "UTC"),
            ("spark.sql.shuffle.partitions", str(options.shuffle_partitions)),
            ("spark.sql.sources.partitionOverwriteMode", "dynamic"),
            *(DEBUG_CONF if options.debug else ()),
            *options.conf,
        ]
        for key, value in settings:
            spark.conf.set(key, value)
        # the executor side, for the server's Python workers (the session's own sys.path entry)
        add_pyfile_artifact(spark, str(zip_package(workdir)))
    except Exception as e:
        if mode_set:
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
        if spark is not None:
            with contextlib.suppress(Exception):
                spark.stop()
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)
        raise SparkUnavailable(
            f"the Spark Connect session ({remote.shown}) could not start: {_first_line(e)}",
            hint="--debug shows the full error",
        ) from e
    return SparkRuntime(
        spark=spark,
        log_path=None,
        owned=True,
        started_s=time.monotonic() - t0,
        workdir=workdir,
        local=False,
        connect=True,
        connect_mode_set=mode_set,
    )


def _first_line(e: BaseException) -> str:
    """The informative line of a Connect client error (gRPC's ``details``, else the message's first line)."""
    text = str(e)
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("details = "):
            return line[len("details = ") :].strip('"')[:300]
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), type(e).__name__)
    return first[:300]
