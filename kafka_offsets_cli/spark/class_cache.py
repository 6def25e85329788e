"""A class-data archive for Spark's driver JVM: later starts map Spark's classes from one file.

Most of a local ``check``'s fixed cost is the JVM loading and verifying Spark's classes, in the
session's start and again in its first jobs. Java's dynamic class-data sharing (AppCDS, JDK 13+)
keeps them: one run starts the JVM with ``-XX:ArchiveClassesAtExit=FILE`` and the JVM writes
the classes it loaded to FILE when it exits (after the CLI has returned: about 160 MB, some
seconds of CPU, once); later runs start it with ``-XX:SharedArchiveFile=FILE``.

* One archive per Java, Spark and kafka-offsets version (the key hashes the ``java`` binary,
  pyspark's jars and the version), in ``$XDG_CACHE_HOME/kafka-offsets/spark-cds/``
  (``~/.cache/…``); writing a new one removes the older archives but the newest other one;
  removing them is always safe.
* One writer at a time: a lock file made with ``O_EXCL`` (a stale one, over 15 minutes old,
  is taken over).
* An archive is used only when its header is whole (the JVM writes the header last), so a run
  never maps one that another run is still writing. A bad or foreign archive is ignored by the
  JVM itself (``-Xshare:auto``, its default), which then loads classes as usual.
* ``KAFKA_OFFSETS_SPARK_CDS=off`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import time
from collections.abc import Mapping
from pathlib import Path

__all__ = ["ARCHIVE_MAGIC", "archive_flags", "cache_dir", "first_start_note", "spark_key"]

#: The first four bytes of a complete dynamic archive (``CDS_DYNAMIC_ARCHIVE_MAGIC``, little-endian).
ARCHIVE_MAGIC = (0xF00BABA8).to_bytes(4, "little")
#: Archives of other keys kept when a new one is written (another Java or pyspark in use).
KEEP = 1
#: A writer's lock older than this belongs to a JVM that died while writing.
STALE_LOCK_S = 15 * 60
_OFF = {"0", "off", "false", "no"}


def cache_dir(environ: Mapping[str, str]) -> Path:
    """``$XDG_CACHE_HOME/kafka-offsets/spark-cds`` (``~/.cache/…`` when unset)."""
    xdg = environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path(environ.get("HOME") or Path.home()) / ".cache"
    return base / "kafka-offsets" / "spark-cds"


def _java(environ: Mapping[str, str]) -> Path | None:
    """The ``java`` Spark's launcher runs: ``$JAVA_HOME/bin/java``, else the one on ``PATH``."""
    home = environ.get("JAVA_HOME")
    found = str(Path(home) / "bin" / "java") if home else shutil.which("java", path=environ.get("PATH"))
    return Path(found).resolve() if found and Path(found).exists() else None


def spark_key(environ: Mapping[str, str]) -> str | None:
    """What an archive is valid for: the ``java`` binary, pyspark's jars and this tool's version
    (None: no java found). The version: a new release's pipeline loads classes the previous one's
    archive lacks (its expressions, its operators), and those would load from the jars for good."""
    import pyspark

    from .. import __version__

    java = _java(environ)
    if java is None:
        return None
    h = hashlib.sha256()
    st = java.stat()
    h.update(f"{java}|{st.st_size}|{st.st_mtime_ns}|{pyspark.__version__}|{__version__}".encode())
    jars = Path(pyspark.__file__).parent / "jars"
    if jars.is_dir():
        for jar in sorted(jars.iterdir()):
            h.update(f"|{jar.name}:{jar.stat().st_size}".encode())
    return h.hexdigest()[:20]


def _complete(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == ARCHIVE_MAGIC
    except OSError:
        return False


def _take_lock(lock: Path) -> bool:
    """Become the one writer of an archive (True) or learn that another run is (False)."""
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            try:
                if time.time() - lock.stat().st_mtime < STALE_LOCK_S:
                    return False
                lock.unlink()  # its writer died: take over
            except OSError:
                return False
            continue
        except OSError:
            return False
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return True
    return False


def archive_flags(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The driver JVM's class-data flags: use the archive, or have this run write it, or none."""
    if environ.get("KAFKA_OFFSETS_SPARK_CDS", "").strip().lower() in _OFF:
        return ()
    key = spark_key(environ)
    if key is None:
        return ()
    folder = cache_dir(environ)
    archive = folder / f"driver-{key}.jsa"
    if any(c.isspace() or c in "\"'" for c in str(archive)):
        return ()  # Spark splits extraJavaOptions at blanks: such a path cannot be passed whole
    if _complete(archive):
        return (f"-XX:SharedArchiveFile={archive}",)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return ()  # a read-only home: run without
    if not _take_lock(folder / f"driver-{key}.lock"):
        return ()
    _prune(folder, archive)
    return (f"{_WRITE}{archive}",)


#: the flag of a run that writes the archive (its JVM, when it exits)
_WRITE = "-XX:ArchiveClassesAtExit="


def first_start_note(flags: tuple[str, ...]) -> str | None:
    """What the progress says while a start that writes the archive runs (``None``: it does not):
    the first start with a Java and a Spark is the slow one, and leaves about 165 MB behind."""
    for flag in flags:
        if flag.startswith(_WRITE):
            where = Path(flag[len(_WRITE) :]).parent
            return (
                f"starting Spark, the first time with this Java and Spark: its classes are archived "
                f"in {where} (about 165 MB, once) so that later starts are faster"
            )
    return None


def _prune(folder: Path, new: Path) -> None:
    """Before a new archive is written: remove all but the :data:`KEEP` newest others (an upgrade
    leaves its predecessor's behind; a run still mapping one keeps its pages: Linux unlinks lazily)."""
    others = []
    for path in folder.glob("driver-*.jsa"):
        if path != new:
            try:
                others.append((path.stat().st_mtime, path))
            except OSError:
                continue
    for _, path in sorted(others, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            path.unlink()
