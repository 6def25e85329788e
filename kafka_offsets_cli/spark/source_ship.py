"""The data source's code on the executors of a cluster or a Spark Connect server (:func:`register`).

``check`` ships the package when it starts its session (:mod:`.session`, :mod:`.connect`); a data
source registered on a session the user made has no such start, so :func:`ship_package` does the
same there: the zip of :func:`.deploy.zip_package` with ``addPyFile`` on a classic session whose
master is not local, or as a ``pyfile`` artifact on a Spark Connect session. A local master's Python
workers are the driver's interpreter, which imports the package already: nothing is shipped. Each
session gets it once (registering again ships nothing more); the zip lives in a directory of its own
for as long as the process, as Spark serves it from there.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

from .deploy import add_pyfile_artifact, is_connect, is_local, zip_package

__all__ = ["ship_package", "shipped_to"]

_lock = threading.Lock()
#: the sessions (by :func:`_session_key`) the package was shipped to, and the zip's directory
_shipped: set[str] = set()
_workdir: list[Path] = []


def _session_key(spark: Any) -> str:
    if is_connect(spark):
        return f"connect:{spark.session_id}"
    return f"classic:{spark.sparkContext.applicationId}"


def _zip() -> Path:
    if not _workdir:
        where = Path(tempfile.mkdtemp(prefix="kafka-offsets-source-"))
        atexit.register(shutil.rmtree, where, True)
        _workdir.append(where)
    return zip_package(_workdir[0])


def shipped_to(spark: Any) -> str | None:
    """How the package reaches ``spark``'s executors: ``artifact`` (Connect), ``pyfile`` (a classic
    session on a cluster), or ``None`` (a local master: the driver's interpreter imports it)."""
    if is_connect(spark):
        return "artifact"
    return None if is_local(spark.sparkContext.master) else "pyfile"


def ship_package(spark: Any) -> None:
    """The package (with kafka-python's) on ``spark``'s executors, once per session."""
    how = shipped_to(spark)
    if how is None:
        return
    key = _session_key(spark)
    with _lock:
        if key in _shipped:
            return
        path = str(_zip())
        if how == "artifact":
            add_pyfile_artifact(spark, path)
        else:
            spark.sparkContext.addPyFile(path)
        _shipped.add(key)
