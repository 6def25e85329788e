"""Where the Spark job runs: local or a cluster, the executors' Python, Spark's own security.

What a cluster's executors need and how it gets there is in docs/deployment.md ("check on a Spark
cluster"): the package itself is shipped (a zip, :func:`kafka_offsets_cli.spark.session.start_session`),
confluent-kafka must be importable by the executors' Python (a failed job is diagnosed by :mod:`.preflight`),
files named in cluster settings travel with ``SparkContext.addFile`` and secrets in a broadcast
variable (:mod:`.ship`). A Spark Connect server (``--remote``, :mod:`.connect`) gets the same zip
and files as session artifacts.
"""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError

__all__ = ["SECURE_CONF", "executor_python", "is_connect", "is_local", "secure_conf", "zip_package"]


def is_connect(spark: Any) -> bool:
    """Whether ``spark`` is a Spark Connect session (pyspark's client classes, not the classic ones)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def is_local(master: str) -> bool:
    """``local``, ``local[N]``, ``local[*]`` (one JVM on this machine; not ``local-cluster``)."""
    return master == "local" or master.startswith("local[")


def executor_python(master: str, conf: Sequence[tuple[str, str]], environ: Mapping[str, str]) -> str | None:
    """The Python executors run: ``spark.pyspark.python``, ``PYSPARK_PYTHON``, or for a local master
    the driver's own interpreter; ``None``: Spark's default (``python3``)."""
    given = dict(conf).get("spark.pyspark.python") or environ.get("PYSPARK_PYTHON")
    if given:
        return given
    return sys.executable if is_local(master) else None


#: Spark's RPC authentication and encryption, on for a non-local master (``--conf`` may turn them off).
SECURE_CONF = (
    ("spark.authenticate", "true"),
    ("spark.network.crypto.enabled", "true"),
    ("spark.io.encryption.enabled", "true"),
)

#: What Spark refuses without ``spark.authenticate`` (its RPC encryption is keyed by the authentication).
_NEEDS_AUTHENTICATION = frozenset({"spark.network.crypto.enabled"})


def secure_conf(master: str, conf: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """What :data:`SECURE_CONF` adds to ``conf`` for a non-local master (the user's own keys win;
    ``spark.authenticate=false`` also leaves out the RPC encryption that depends on it).

    The shared secret: on YARN and Kubernetes Spark generates one per application; a standalone
    cluster's daemons hand theirs to the executors they start, so the application must be given the
    same (``spark.authenticate.secret`` or ``.secret.file``, by ``--conf`` or spark-defaults.conf).
    """
    if is_local(master):
        return []
    given = dict(conf)
    if given.get("spark.authenticate", "").strip().lower() == "false":
        # Spark's RPC encryption runs on its authentication: with it off, Spark refuses to start
        # (NETWORK_AUTH_MUST_BE_ENABLED), so the encryption the tool adds follows it. Local-disk
        # encryption does not depend on it and stays on.
        return [(k, v) for k, v in SECURE_CONF if k not in given and k not in _NEEDS_AUTHENTICATION]
    return [(k, v) for k, v in SECURE_CONF if k not in given]


def zip_package(workdir: Path) -> Path:
    """The kafka_offsets_cli package, with kafka-python's pure-Python ``kafka`` package, as a zip for
    ``addPyFile`` (non-local masters) and Spark Connect's artifacts.

    The executors fetch committed offsets through kafka-python (``kafka/offset_fetch.py``): shipped
    here, they need nothing beyond confluent-kafka and pyarrow (docs/deployment.md).
    """
    out = workdir / "kafka_offsets_cli.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, pkg in (
            ("kafka_offsets_cli", Path(__file__).resolve().parent.parent),
            ("kafka", _kafka_python()),
        ):
            for p in pkg.rglob("*"):
                if p.is_file() and "__pycache__" not in p.parts:
                    z.write(p, Path(name) / p.relative_to(pkg))
    return out


def _kafka_python() -> Path:
    """Where kafka-python's ``kafka`` package is (found, not imported: the driver may never need it)."""
    spec = importlib.util.find_spec("kafka")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise ConfigError("kafka-python is not installed (the executors need it for committed offsets)")
    return Path(locations[0])


def add_pyfile_artifact(spark: Any, path: str) -> None:
    """``path`` (a zip) on a Spark Connect session's executors, as a pyfile artifact.

    pyspark's Connect client also puts a local pyfile zip on this process's ``sys.path``, ahead of
    site-packages: this process would then import kafka-python from the zip, and fail once the zip
    is deleted with its session (measured: ``FileNotFoundError`` from zipimport on the next import
    after ``check --remote`` ran in-process). This process has the package installed; the entry
    is taken out again.
    """
    ours = path not in sys.path
    spark.addArtifacts(path, pyfile=True)
    if ours and path in sys.path:
        sys.path.remove(path)
