"""A Structured Streaming checkpoint at a file-system URI (``s3://``, ``hdfs://``, ``gs://``,
``file://``…), read through pyarrow's file systems (:func:`pyarrow.fs.FileSystem.from_uri`).

:func:`kafka_offsets_cli.parse.spark_checkpoint.read_checkpoint` reads a checkpoint through a
:class:`~kafka_offsets_cli.parse.spark_checkpoint.CheckpointFiles`; this is the one for URIs
(pyarrow is the ``spark`` extra's, and ``spark/`` its only importer). The credentials are the file
system's own (pyarrow's S3 reads the AWS environment and profiles, HDFS the Hadoop configuration).
"""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from ..parse.spark_checkpoint import CheckpointFiles, Opener

__all__ = ["ArrowFiles", "is_uri", "open_checkpoint", "opener"]


def is_uri(path: str) -> bool:
    """Whether ``path`` names a file system (``scheme://…``) rather than a local path."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme.isascii() and scheme.replace("+", "").replace("-", "").isalnum()


class ArrowFiles:
    """A checkpoint directory on a pyarrow file system."""

    def __init__(self, fs: Any, root: str) -> None:
        self._fs = fs
        self._root = root.rstrip("/")

    def _path(self, rel: str) -> str:
        return f"{self._root}/{rel}" if rel else self._root

    def is_dir(self, rel: str) -> bool:
        """Whether ``rel`` is a directory."""
        from pyarrow.fs import FileType

        return bool(self._fs.get_file_info(self._path(rel)).type == FileType.Directory)

    def files(self, rel: str) -> list[str]:
        """The names of the regular files in ``rel``."""
        from pyarrow.fs import FileSelector, FileType

        infos = self._fs.get_file_info(FileSelector(self._path(rel), allow_not_found=False))
        return [str(i.base_name) for i in infos if i.type == FileType.File]

    def read_text(self, rel: str) -> str:
        """The UTF-8 text of ``rel``."""
        with self._fs.open_input_stream(self._path(rel)) as f:
            return bytes(f.read()).decode("utf-8")


def open_checkpoint(uri: str, option: str = "--spark-checkpoint") -> ArrowFiles:
    """The files of the checkpoint at ``uri``; a usage error when pyarrow is missing or cannot open
    the file system (an unknown scheme, a library it needs, a malformed URI)."""
    try:
        from pyarrow.fs import FileSystem
    except ImportError:
        raise UsageError(
            f"{option} {uri}: a file-system URI is read with pyarrow",
            hint="install the spark extra: pip install 'kafka-offsets[spark]'",
        ) from None
    try:
        fs, root = FileSystem.from_uri(uri)
    except (ValueError, OSError) as e:  # pyarrow.lib.ArrowInvalid is a ValueError
        raise UsageError(f"{option} {uri}: {str(e).splitlines()[0]}") from None
    return ArrowFiles(fs, root)


def opener(option: str) -> Opener:
    """The front ends' reader of checkpoint paths: a file-system URI through pyarrow (``option``
    names where it was given, in the messages); a local path as a directory (``None``)."""

    def open_files(path: str) -> CheckpointFiles | None:
        return open_checkpoint(path, option) if is_uri(path) else None

    return open_files
