"""A checkpoint at a file-system URI, read through pyarrow's file systems (file:// here; no Spark)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kafka_offsets_cli.errors import NotFound, UsageError
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.parse.spark_checkpoint import read_checkpoint
from kafka_offsets_cli.spark.checkpoint_fs import is_uri, open_checkpoint
from tests.unit.parse.test_spark_checkpoint import QUERY, checkpoint, offsets_file


def test_uris_and_local_paths_are_told_apart() -> None:
    assert is_uri("s3://bucket/ckpt") and is_uri("hdfs://nn:8020/c") and is_uri("file:///tmp/c")
    assert is_uri("s3a://b/c") and is_uri("viewfs+x://c")
    assert (
        not is_uri("/data/ckpt")
        and not is_uri("relative/dir")
        and not is_uri("C:\\\\c")
        and not is_uri("a b://c")
    )


def test_a_file_uri_reads_as_the_local_directory_does(tmp_path: Path) -> None:
    path = checkpoint(
        tmp_path / "cp",
        {0: offsets_file('{"orders":{"0":2,"1":2}}'), 1: offsets_file('{"orders":{"0":9,"1":7}}')},
        [0, 1],
    )
    uri = Path(path).as_uri()
    read, local = read_checkpoint(uri, files=open_checkpoint(uri)), read_checkpoint(path)
    assert (read.path, read.query_id, read.batch, read.kafka, read.other) == (uri, QUERY, 1, local.kafka, ())
    [group] = read.group_offsets()
    assert group.offsets == {TopicPartition("orders", 0): 9, TopicPartition("orders", 1): 7}


def test_a_uri_that_is_not_a_checkpoint_is_the_same_one_line(tmp_path: Path) -> None:
    missing = (tmp_path / "nowhere").as_uri()
    with pytest.raises(UsageError, match="no such directory"):
        read_checkpoint(missing, files=open_checkpoint(missing))
    bare = tmp_path / "bare"
    bare.mkdir()
    with pytest.raises(UsageError, match=r"not a Structured Streaming checkpoint \(no offsets/\)"):
        read_checkpoint(bare.as_uri(), files=open_checkpoint(bare.as_uri()))
    half = checkpoint(tmp_path / "half", {0: offsets_file('{"orders":{"0":2}}')}, [])
    with pytest.raises(NotFound, match="committed no batch yet"):
        read_checkpoint(Path(half).as_uri(), files=open_checkpoint(Path(half).as_uri()))


def test_a_file_system_pyarrow_cannot_open_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="nosuchfs://x/y: "):
        open_checkpoint("nosuchfs://x/y")


def test_without_pyarrow_a_uri_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.fs", None)  # what an install without the spark extra has
    with pytest.raises(UsageError, match="a file-system URI is read with pyarrow") as e:
        open_checkpoint("s3://bucket/ckpt")
    assert e.value.hint is not None and "kafka-offsets[spark]" in e.value.hint
