"""Where commit staleness remembers what earlier runs saw (:mod:`kafka_offsets_cli.measures.lag.stale`).

``lag --staleness`` keeps one small JSON file per cluster in the XDG state directory,
``$XDG_STATE_HOME/kafka-offsets/staleness/`` (``~/.local/state/kafka-offsets/staleness/`` when unset),
named for the cluster: its Kafka cluster id when the cluster gives one, else its bootstrap servers.
Concurrent runs (two cron jobs on the same cluster) never lose or corrupt each other's entries: a run
takes an exclusive lock on the file's ``.lock`` sibling, reads the file, merges its own sights in,
writes a temporary file beside it and renames it over the file (``os.replace``), then lets go. A
reader never sees half a file. A file that cannot be read as this tool's (corrupt, another program's,
another cluster's) gives one warning and a fresh start, never a failed run.

``serve --staleness`` keeps the same sights in memory (:class:`MemoryStore`), and in the same file
when asked, so a restart does not forget them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..measures.lag.rows import LagRow
from ..measures.lag.stale import Observed, RowKey, Seen, observe, pruned

__all__ = ["FORMAT", "FileStore", "MemoryStore", "StaleStore", "cluster_key", "state_dir"]

#: The file's ``format`` member: what tells this tool's file from any other JSON.
FORMAT = "kafka-offsets commit staleness"
VERSION = 1


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/kafka-offsets`` (an absolute path, as the XDG spec requires), else
    ``~/.local/state/kafka-offsets``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME", "")
    root = (
        Path(base) if base and os.path.isabs(base) else Path(env.get("HOME") or Path.home()) / ".local/state"
    )
    return root / "kafka-offsets"


def cluster_key(cluster_id: str | None, bootstrap: str) -> str:
    """The key of a cluster's sights: ``id:<cluster id>``, else ``bootstrap:<servers, sorted>``."""
    if cluster_id:
        return f"id:{cluster_id}"
    return "bootstrap:" + ",".join(sorted(s.strip() for s in bootstrap.split(",") if s.strip()))


def _file_name(key: str) -> str:
    # readable and safe: the key's letters, then a digest that keeps two keys apart
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", key)[:80]
    return f"{safe}-{hashlib.sha256(key.encode()).hexdigest()[:12]}.json"


class StaleStore(Protocol):
    """Where a run's sights are read from and merged into."""

    def observe(self, cluster: str, rows: Iterable[LagRow], now_ms: int) -> Observed:
        """Staleness of ``rows`` at ``now_ms`` against the stored sights of ``cluster``, which then
        include this run's; what went wrong with the storage is told by :meth:`notes`."""

    def notes(self) -> list[str]:
        """Warnings since the last call (a state file that could not be read or written)."""


def _encode(cluster: str, sights: Mapping[RowKey, Seen]) -> str:
    groups: dict[str, dict[str, dict[str, list[int | None]]]] = {}
    for (g, t, p), s in sorted(sights.items()):
        groups.setdefault(g, {}).setdefault(t, {})[str(p)] = [s.offset, s.since_ms, s.seen_ms]
    return json.dumps({"format": FORMAT, "version": VERSION, "cluster": cluster, "groups": groups}) + "\n"


def _decode(text: str, cluster: str) -> dict[RowKey, Seen]:
    """The sights in ``text``; ValueError (with why) when it is not this tool's file of ``cluster``."""
    doc: Any = json.loads(text)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError("not a kafka-offsets staleness file")
    if doc.get("version") != VERSION:
        raise ValueError(f"version {doc.get('version')!r}, not {VERSION}")
    if doc.get("cluster") != cluster:
        raise ValueError(f"it is cluster {doc.get('cluster')!r}'s")
    out: dict[RowKey, Seen] = {}
    for g, topics in dict(doc["groups"]).items():
        for t, parts in dict(topics).items():
            for p, (offset, since, seen) in dict(parts).items():
                if not all(isinstance(v, int) for v in (offset, seen)) or not isinstance(
                    since, (int, type(None))
                ):
                    raise ValueError(f"a bad entry for {g} {t} {p}")
                out[str(g), str(t), int(p)] = Seen(offset, since, seen)
    return out


@dataclass
class FileStore:
    """The sights in files under ``directory`` (default :func:`state_dir`), one per cluster."""

    directory: Path = field(default_factory=lambda: state_dir() / "staleness")
    _notes: list[str] = field(default_factory=list)

    def path(self, cluster: str) -> Path:
        """The state file of ``cluster``."""
        return self.directory / _file_name(cluster)

    def observe(self, cluster: str, rows: Iterable[LagRow], now_ms: int) -> Observed:
        """Read, judge and merge under the file's lock (module docstring)."""
        path = self.path(cluster)
        try:
            with _locked(path):
                before = self._read(path, cluster)
                seen = observe(before, rows, now_ms)
                _write(path, _encode(cluster, pruned(before, seen.seen, now_ms)))
                return seen
        except OSError as e:  # no state directory or a full disk: this run's values, nothing remembered
            self._notes.append(
                f"commit staleness: cannot keep state in {path} ({e.strerror or e}); not remembered"
            )
            return observe({}, rows, now_ms)

    def _read(self, path: Path, cluster: str) -> dict[RowKey, Seen]:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        try:
            return _decode(text, cluster)
        except (ValueError, TypeError, KeyError, AttributeError) as e:  # json.JSONDecodeError is a ValueError
            self._notes.append(f"commit staleness: state file {path} unreadable ({e}); starting afresh")
            return {}

    def notes(self) -> list[str]:
        """Warnings since the last call."""
        out, self._notes = self._notes, []
        return out


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``'s ``.lock`` sibling (the file itself is replaced, not locked)."""
    import fcntl  # POSIX; loaded here so the module imports everywhere

    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` atomically: a temporary file beside it, flushed, renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass
class MemoryStore:
    """The sights in memory (``serve``), or in ``backing``'s files when given (read and merged on
    every observation, as ``lag`` does: other runs may write them too)."""

    backing: FileStore | None = None
    _sights: dict[str, dict[RowKey, Seen]] = field(default_factory=dict)

    def observe(self, cluster: str, rows: Iterable[LagRow], now_ms: int) -> Observed:
        """Judge against the sights in memory and keep this run's."""
        if self.backing is not None:  # the file is the truth: other runs may write it too
            return self.backing.observe(cluster, rows, now_ms)
        before = self._sights.get(cluster, {})
        seen = observe(before, rows, now_ms)
        self._sights[cluster] = pruned(before, seen.seen, now_ms)
        return seen

    def notes(self) -> list[str]:
        """Warnings of the backing file since the last call."""
        return self.backing.notes() if self.backing is not None else []
