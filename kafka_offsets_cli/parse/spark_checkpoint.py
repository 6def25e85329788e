"""A Spark Structured Streaming checkpoint's Kafka positions, read from its plain files (no pyspark).

The layout is Spark's (``HDFSMetadataLog``, ``OffsetSeqLog``, ``CommitLog``): ``offsets/<batchId>``
holds a batch's offsets, written before the batch runs; ``commits/<batchId>`` is written once it is
done; ``metadata`` is ``{"id": "<query id>"}``. Only names that are whole numbers are batch files
(``.0.crc`` checksums and ``.<n>.<uuid>.tmp`` files being written are not). A batch file is written
to a temporary file and renamed, so one that exists is whole. An offsets file is::

    v1                               the format version
    {"batchWatermarkMs":0,...}       the batch's metadata (JSON)
    {"orders":{"0":23,"1":42}}       one line per source, in the query's order ("-": no offset)

and in format ``v2`` (Spark's ``OffsetMap``) each source line is ``<sourceId>:<offset JSON>``. A
Kafka source's offset (``KafkaSourceOffset``, through ``JsonUtils.partitionOffsets``) maps each topic
to its partitions' next offsets to read: the position a consumer group commits. A query restarted
from the checkpoint resumes after its newest committed batch, from the offsets that batch ended at;
a newer offsets file without its commit is a batch in flight (or cut short) and is not a position.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..errors import NotFound, UsageError
from ..models.groups import GroupOffsets
from ..models.topics import TopicPartition

__all__ = [
    "READ_VERSIONS",
    "CheckpointFiles",
    "CheckpointSource",
    "LocalFiles",
    "OffsetLog",
    "Opener",
    "SparkCheckpoint",
    "kafka_offsets",
    "parse_offset_log",
    "read_checkpoint",
]

#: The offsets-log format versions this module reads (Spark's ``OffsetSeqLog`` 1 and 2).
READ_VERSIONS = (1, 2)
_VOID = "-"  # Spark's SERIALIZED_VOID_OFFSET: the source has no offset in this batch


@dataclass(frozen=True)
class OffsetLog:
    """One offsets file: its format version and each source's id and offset text (``None``: void).

    A source's id is its position in the query (``v1``) or the id Spark wrote (``v2``)."""

    version: int
    sources: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True)
class CheckpointSource:
    """A Kafka source of a query: its id and the next offset to read of each partition."""

    source: str
    offsets: Mapping[TopicPartition, int]


@dataclass(frozen=True, kw_only=True)
class SparkCheckpoint:
    """What a checkpoint says of its Kafka sources at its newest committed batch."""

    path: str
    query_id: str | None
    batch: int
    kafka: tuple[CheckpointSource, ...]
    #: the batch's sources that are not Kafka's (or have no offset), by id: left out
    other: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """``spark:<query id>`` (else the checkpoint directory's name): the rows' group."""
        return "spark:" + (self.query_id or Path(self.path).name)

    def group_offsets(self) -> list[GroupOffsets]:
        """The Kafka sources as committed offsets of groups: one group per source, the source's id
        appended (``spark:<id>/<source>``) only when the query has more than one."""
        several = len(self.kafka) > 1
        return [
            GroupOffsets(self.name + (f"/{s.source}" if several else ""), dict(s.offsets)) for s in self.kafka
        ]


def parse_offset_log(text: str, where: str) -> OffsetLog:
    """An offsets file's version and source lines (``where`` names the file in errors).

    Raises :class:`UsageError` for a file that is not an offsets log, and for a format version newer
    than :data:`READ_VERSIONS` (written by a newer Spark: never read as if it were an older one)."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    head = lines[0].strip() if lines else ""
    if not (head[:1] == "v" and head[1:].isdigit() and int(head[1:]) > 0) or len(lines) < 2:
        raise UsageError(f"{where}: not a Spark offsets log (first line {head[:20]!r}, expected v1)")
    version = int(head[1:])
    if version not in READ_VERSIONS:
        raise UsageError(
            f"{where}: offsets log format v{version}, newer than this version of kafka-offsets reads "
            f"(v{', v'.join(map(str, READ_VERSIONS))})",
            hint="upgrade kafka-offsets",
        )
    sources: list[tuple[str, str | None]] = []
    for n, line in enumerate(lines[2:]):
        source, offset = str(n), line
        if version == 2:  # sourceId:offset (the id cannot hold ':': Spark splits at the first one)
            source, colon, offset = line.partition(":")
            if not colon:
                raise UsageError(f"{where}: line {n + 3} is not <source>:<offset> (format v2)")
        sources.append((source, None if offset.strip() == _VOID else offset))
    return OffsetLog(version, tuple(sources))


def kafka_offsets(text: str) -> dict[TopicPartition, int] | None:
    """The partitions' offsets of a Kafka source's offset JSON; ``None`` for another source's.

    Kafka's is an object of topics, each an object of partition numbers to offsets
    (``{"orders":{"0":23}}``); a file source's ``{"logOffset":3}`` or a rate source's
    ``{"0":{"value":5,"runTimeMs":...}}`` is not."""
    try:
        data: Any = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not data:
        return None
    out: dict[TopicPartition, int] = {}
    for topic, partitions in data.items():
        if not isinstance(partitions, dict):
            return None
        for p, offset in partitions.items():
            if not (p.isdigit() and isinstance(offset, int) and not isinstance(offset, bool) and offset >= 0):
                return None
            out[TopicPartition(topic, int(p))] = offset
    return out


class CheckpointFiles(Protocol):
    """A checkpoint directory's files, by paths relative to it (``""``: the directory itself).

    Every method raises :class:`OSError` when the file system does: :class:`LocalFiles` for a local
    directory; :mod:`kafka_offsets_cli.spark.checkpoint_fs` for a file-system URI (pyarrow's)."""

    def is_dir(self, rel: str) -> bool:
        """Whether ``rel`` is a directory (``False`` when it does not exist)."""
        ...

    def files(self, rel: str) -> list[str]:
        """The names of the regular files in the directory ``rel``."""
        ...

    def read_text(self, rel: str) -> str:
        """The UTF-8 text of the file ``rel``."""
        ...


@dataclass(frozen=True)
class LocalFiles:
    """A checkpoint in a local (or mounted) directory."""

    root: Path

    def is_dir(self, rel: str) -> bool:
        """Whether ``rel`` is a directory."""
        return (self.root / rel).is_dir()

    def files(self, rel: str) -> list[str]:
        """The names of the regular files in ``rel``."""
        return [p.name for p in (self.root / rel).iterdir() if p.is_file()]

    def read_text(self, rel: str) -> str:
        """The text of ``rel``."""
        return (self.root / rel).read_text(encoding="utf-8")


#: A front end's reader of checkpoint paths it knows how to open (a file-system URI): the files, or
#: ``None`` for a path read as a local directory.
Opener = Callable[[str], "CheckpointFiles | None"]


def _batches(files: CheckpointFiles, directory: str) -> set[int]:
    """The batch ids of a metadata log directory (names that are whole numbers)."""
    return {int(name) for name in files.files(directory) if name.isdigit()}


def _query_id(files: CheckpointFiles) -> str | None:
    try:
        data = json.loads(files.read_text("metadata"))
    except (OSError, ValueError):
        return None
    query = data.get("id") if isinstance(data, dict) else None
    return query if isinstance(query, str) and query else None


def read_checkpoint(
    path: str, option: str = "--spark-checkpoint", files: CheckpointFiles | None = None
) -> SparkCheckpoint:
    """The Kafka positions of the checkpoint at ``path`` (a local directory) at its newest committed
    batch: offsets files newer than it (batches in flight or cut short) are passed over. ``option``
    names where the path was given, in the messages (a spec file's key, the command's option);
    ``files`` reads it (default: :class:`LocalFiles`, a local directory).

    Raises :class:`UsageError` for a path that is not a checkpoint, a committed batch without its
    offsets file, an unreadable or newer-format offsets file, or a batch without a Kafka source; and
    :class:`NotFound` for a checkpoint whose query has committed no batch yet."""
    files = files if files is not None else LocalFiles(Path(path))
    try:
        if not files.is_dir(""):
            raise UsageError(f"{option} {path}: no such directory")
        if not files.is_dir("offsets"):
            raise UsageError(f"{option} {path}: not a Structured Streaming checkpoint (no offsets/)")
        written = _batches(files, "offsets")
        committed = _batches(files, "commits") if files.is_dir("commits") else set()
    except OSError as exc:
        raise UsageError(f"{option} {path}: {exc.strerror or exc}") from exc
    if not committed:
        what = f"offsets/{max(written)} without its commit" if written else "no batch"
        raise NotFound(f"{option} {path}: the query has committed no batch yet ({what})")
    batch = max(committed)
    where = f"{path.rstrip('/')}/offsets/{batch}"
    if batch not in written:
        raise UsageError(f"{where}: missing, though commits/{batch} says the batch is done")
    try:
        text = files.read_text(f"offsets/{batch}")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{where}: cannot be read ({exc})") from exc
    log = parse_offset_log(text, where)
    kafka, other = [], []
    for source, offset in log.sources:
        found = kafka_offsets(offset) if offset is not None else None
        if found is None:
            other.append(source)
        else:
            kafka.append(CheckpointSource(source, found))
    if not kafka:
        raise UsageError(
            f"{where}: no Kafka source in the query ({len(log.sources)} source(s), none Kafka's)"
        )
    return SparkCheckpoint(
        path=path, query_id=_query_id(files), batch=batch, kafka=tuple(kafka), other=tuple(other)
    )
