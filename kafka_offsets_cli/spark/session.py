"""Start and stop a quiet Spark session for ``kafka-offsets check``.

* master ``local[*]`` by default, any ``--master`` otherwise (for a non-local master the package
  is shipped to executors as a zip; what else they need is checked by :mod:`.preflight`);
* the Python of the executors: ``spark.pyspark.python`` (``--conf``), else
  ``PYSPARK_PYTHON``, as in Spark; with neither, a local master runs the driver's
  own interpreter (``sys.executable``: the same packages), a cluster Spark's
  default (``python3`` on each executor's PATH);
* with a non-local master, RPC authentication, network and local-disk encryption
  are on (:func:`secure_conf`) unless ``--conf`` says otherwise;
* the Spark UI is off and the console progress bar is off (progress is drawn
  by :mod:`.progress` on a TTY);
* Spark's log noise stays off the terminal: log4j2 is configured (through
  ``spark.driver.extraJavaOptions``) to log errors only, and the JVM's own
  stdout/stderr (JDK warnings, startup banners) go to a log file, shown when
  the session cannot start. ``--debug`` keeps warnings and the JVM output on stderr;
* ``--remote sc://…``: a client session of a Spark Connect server instead (:mod:`.connect`);
* :meth:`.runtime.SparkRuntime.stop` stops the session; it runs in ``finally`` and on
  Ctrl-C (pyspark cancels running jobs on SIGINT and raises KeyboardInterrupt).

An already running SparkContext in the process (tests, notebooks) is reused and
left running.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .class_cache import archive_flags, first_start_note
from .connect import start_connect
from .deferred import defer_pandas
from .deploy import executor_python, is_local, secure_conf, zip_package
from .failure import _java_cause
from .gateway import launch_gateway, quiet_python_side
from .runtime import SessionOptions, SparkRuntime, SparkUnavailable

__all__ = ["start_session"]

#: how to get what ``check`` needs on the driver (pyproject.toml's ``spark`` extra)
SPARK_EXTRA_HINT = (
    "add the spark extra: pipx inject kafka-offsets 'pyspark[sql]>=4.0' 'pyarrow>=14' 'pandas>=2.2,<3', "
    "or pip install '.[spark]' from a checkout (Spark also needs Java 17 or newer)"
)

LOG4J2 = """\
# kafka-offsets check: Spark and its libraries log {level} and above, to stderr.
status = error
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{{HH:mm:ss}} %p %c{{1}}: %m%n
logger.jetty.name = org.sparkproject.jetty
logger.jetty.level = error
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = error
"""


#: Driver JVM flags for local masters: quick start-up, one GC thread, shared class data.
LOCAL_JVM_FLAGS = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto")


#: how long the session start waits for the imports done while the JVM started (then goes on)
_IMPORT_WAIT_S = 30.0


def _import_while_the_jvm_starts() -> threading.Thread:
    """Import, in a daemon thread, what pyspark imports on the first py4j call with an argument.

    pyspark registers a py4j input converter (``NumpyScalarConverter``) whose ``can_convert``
    imports ``pyspark.testing.utils``, which checks pandas' version (answered without loading
    pandas: :mod:`.deferred`) and imports numpy and pyarrow. The driver's Python only waits
    while the JVM boots, so the same import is done then; the caller joins the thread once the
    JVM is up, before its first call (no two threads importing at once after that). A failure
    changes nothing: the call imports it again, and reports what pyspark reports.
    """
    import importlib

    def load() -> None:
        with contextlib.suppress(Exception):
            importlib.import_module("pyspark.testing.utils")

    thread = threading.Thread(target=load, name="pyspark-imports", daemon=True)
    thread.start()
    return thread


def _tail(path: Path | None, lines: int = 15) -> str:
    if path is None or not path.exists():
        return ""
    try:
        text = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return "\n".join(text[-lines:])


def start_session(options: SessionOptions, *, step: Callable[[str], None] | None = None) -> SparkRuntime:
    """Start (or join) a Spark session; raises :class:`SparkUnavailable` when it cannot.

    ``step`` hears what the start is doing when it is more than starting Spark (the first start
    with a Java and Spark, which writes the class-data archive: :mod:`.class_cache`)."""
    if options.remote is not None:
        return start_connect(options)
    t0 = time.monotonic()
    defer_pandas()  # pyspark checks its version on each Arrow UDF; the driver never uses it
    # py4j logs every gateway command at DEBUG (the gateway's auth token among them): never wanted
    logging.getLogger("py4j").setLevel(logging.WARNING)
    try:
        from pyspark import SparkConf, SparkContext
        from pyspark.sql import SparkSession
    except ImportError:
        raise SparkUnavailable(
            "kafka-offsets check needs pyspark, which is not installed",
            hint=SPARK_EXTRA_HINT,
        ) from None
    if importlib.util.find_spec("pandas") is None:  # the deferred module's spec: nothing loads
        # pyspark's Arrow functions (mapInArrow) check pandas' version on the driver: without it every
        # job fails, after the session started, with PACKAGE_NOT_INSTALLED
        raise SparkUnavailable(
            "kafka-offsets check needs pandas, which is not installed (pyspark checks for it on the driver)",
            hint=SPARK_EXTRA_HINT,
        )

    active = SparkContext._active_spark_context
    if active is not None:
        spark = SparkSession.builder.getOrCreate()
        return SparkRuntime(
            spark=spark,
            log_path=None,
            owned=False,
            started_s=time.monotonic() - t0,
            local=is_local(active.master or ""),
        )

    for key, value in options.conf:
        if not key:
            raise UsageError(f"--conf {key}={value}: expected KEY=VALUE")
    python = executor_python(options.master, options.conf, os.environ)
    if python is not None:  # pyspark's tasks run PYSPARK_PYTHON (the driver's variable, read below)
        os.environ["PYSPARK_PYTHON"] = python
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    local = is_local(options.master)
    if local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    workdir = Path(tempfile.mkdtemp(prefix="kafka-offsets-spark-"))
    level = "warn" if options.debug else "error"
    log4j = workdir / "log4j2.properties"
    log4j.write_text(LOG4J2.format(level=level))
    conf = SparkConf()
    conf.setMaster(options.master).setAppName(options.app_name)
    conf.set("spark.ui.enabled", "true" if options.ui else "false")
    conf.set("spark.ui.showConsoleProgress", "false")
    conf.set("spark.sql.shuffle.partitions", str(options.shuffle_partitions))
    if python is not None:
        conf.set("spark.pyspark.python", python)
    for key, value in secure_conf(options.master, options.conf):
        conf.set(key, value)
    conf.set("spark.sql.session.timeZone", "UTC")
    conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
    user_keys = {k for k, _ in options.conf}
    java_opts = f"-Dlog4j2.configurationFile=file:{log4j}"
    if local:
        # the driver JVM does little work here (Python tasks do): start it cheaply
        java_opts += " " + " ".join(LOCAL_JVM_FLAGS)
    cds = archive_flags(os.environ)  # Spark's classes, mapped: .class_cache
    java_opts = " ".join((java_opts, *cds))
    note = first_start_note(cds)
    if note is not None and step is not None:
        step(note)
    if "spark.driver.extraJavaOptions" not in user_keys:
        conf.set("spark.driver.extraJavaOptions", java_opts)
    for key, value in options.conf:
        if key == "spark.driver.extraJavaOptions":
            value = f"{java_opts} {value}"
        conf.set(key, value)

    log_path = workdir / "spark.log"
    log_file = open(log_path, "wb")  # noqa: SIM115 - handed to the JVM process, closed below
    try:
        sink: Any = sys.stderr if options.debug else log_file
        quiet_python_side(options.debug)  # py4j logs a Ctrl-C during the start as an error
        if SparkContext._gateway is None:
            importing = _import_while_the_jvm_starts()
            gateway = launch_gateway(conf, {"stdout": sink, "stderr": sink})
            importing.join(_IMPORT_WAIT_S)
            sc = SparkContext(conf=conf, gateway=gateway)
        else:  # a stopped session's JVM is still running in this process: reuse it
            sc = SparkContext(conf=conf)
        # at once: pyspark's own SIGINT handler (installed last by SparkContext) re-enters py4j
        # when Ctrl-C arrives during the calls below, and prints tracebacks
        quiet_python_side(options.debug)
        sc.setLogLevel("WARN" if options.debug else "ERROR")
        spark = SparkSession(sc)
    except KeyboardInterrupt:
        started = SparkContext._active_spark_context
        if started is not None:  # Ctrl-C after the context came up: stop it
            with contextlib.suppress(Exception):
                started.stop()
        log_file.close()
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    except Exception as e:
        log_file.close()
        tail = _tail(log_path)
        shutil.rmtree(workdir, ignore_errors=True)
        cause = _java_cause(str(e).strip())
        detail = f": {cause}" if cause else ""
        hint = "check Java (17+), JAVA_HOME and --master; --debug shows Spark's own output"
        if "spark.authenticate.secret" in detail:  # a standalone master: see deploy.secure_conf
            hint = (
                "give the standalone cluster's shared secret (spark.authenticate.secret in "
                "spark-defaults.conf), or --conf spark.authenticate=false for a cluster without one"
            )
        raise SparkUnavailable(
            f"the Spark session ({options.master}) could not start{detail}" + (f"\n{tail}" if tail else ""),
            hint=hint,
        ) from None
    log_file.close()  # the JVM keeps its own descriptor
    if not local:
        sc.addPyFile(str(zip_package(workdir)))
    return SparkRuntime(
        spark=spark,
        log_path=log_path,
        owned=True,
        started_s=time.monotonic() - t0,
        workdir=workdir,
        local=local,
    )
