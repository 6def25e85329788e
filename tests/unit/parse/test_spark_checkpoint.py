"""Reading a Spark Structured Streaming checkpoint's Kafka positions (parse/spark_checkpoint.py).

The files are laid out as Spark 4.2.0 wrote them in a real query's checkpoint (dev/spark_stream.py):
``metadata``, ``offsets/<n>`` and ``commits/<n>`` with their ``.<n>.crc`` checksums beside them, no
newline after the last line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_offsets_cli.errors import ExitCode, NotFound, UsageError
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.parse.spark_checkpoint import kafka_offsets, parse_offset_log, read_checkpoint

QUERY = "3463586d-1b5f-4241-8eef-5885d8817641"
# the metadata line of a batch as Spark 4.2.0 wrote it (conf shortened)
META = (
    '{"batchWatermarkMs":0,"batchTimestampMs":1795902115905,"conf":{"spark.sql.shuffle.partitions":"1",'
    '"spark.sql.streaming.queryEvolution.enableSourceEvolution":"false"}}'
)
COMMIT = 'v1\n{"nextBatchWatermarkMs":0}'


def offsets_file(*sources: str, version: str = "v1") -> str:
    return "\n".join([version, META, *sources])


def checkpoint(root: Path, batches: dict[int, str], commits: list[int], query: str | None = QUERY) -> str:
    (root / "offsets").mkdir(parents=True)
    (root / "commits").mkdir()
    if query is not None:
        (root / "metadata").write_text(json.dumps({"id": query}))
    for n, text in batches.items():
        (root / "offsets" / str(n)).write_text(text)
        (root / "offsets" / f".{n}.crc").write_bytes(b"crc\x00")
    for n in commits:
        (root / "commits" / str(n)).write_text(COMMIT)
        (root / "commits" / f".{n}.crc").write_bytes(b"crc\x00")
    return str(root)


def test_newest_committed_batch(tmp_path: Path) -> None:
    path = checkpoint(
        tmp_path / "cp",
        {
            0: offsets_file('{"orders":{"0":2,"1":2,"2":2}}'),
            4: offsets_file('{"orders":{"0":10,"1":10,"2":10}}'),
            3: offsets_file('{"orders":{"0":8,"1":8,"2":8}}'),
        },
        [0, 3, 4],
    )
    cp = read_checkpoint(path)
    assert cp.batch == 4 and cp.name == f"spark:{QUERY}" and cp.other == ()
    [group] = cp.group_offsets()
    assert group.group == f"spark:{QUERY}"
    assert group.offsets == {TopicPartition("orders", p): 10 for p in range(3)}


def test_half_written_batch_is_passed_over(tmp_path: Path) -> None:
    """offsets/5 without commits/5: a batch in flight (or cut short); the position is batch 4's."""
    batches = {4: offsets_file('{"t":{"0":10}}'), 5: offsets_file('{"t":{"0":17}}')}
    cp = read_checkpoint(checkpoint(tmp_path / "cp", batches, [4]))
    assert cp.batch == 4 and cp.group_offsets()[0].offsets == {TopicPartition("t", 0): 10}


def test_temporary_files_are_not_batches(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {1: offsets_file('{"t":{"0":3}}')}, [1])
    (tmp_path / "cp" / "offsets" / ".2.6f1c.tmp").write_text("v1\n")
    (tmp_path / "cp" / "commits" / ".2.6f1c.tmp").write_text("v1\n")
    assert read_checkpoint(path).batch == 1


def test_no_committed_batch(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {0: offsets_file('{"t":{"0":3}}')}, [])
    with pytest.raises(NotFound, match=r"committed no batch yet \(offsets/0 without its commit\)") as e:
        read_checkpoint(path)
    assert e.value.exit_code is ExitCode.NOT_FOUND


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such directory") as e:
        read_checkpoint(str(tmp_path / "nope"))
    assert e.value.exit_code is ExitCode.USAGE


def test_not_a_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"not a Structured Streaming checkpoint \(no offsets/\)"):
        read_checkpoint(str(tmp_path))


def test_commit_without_offsets(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {0: offsets_file('{"t":{"0":3}}')}, [0, 1])
    with pytest.raises(UsageError, match="offsets/1: missing, though commits/1 says the batch is done"):
        read_checkpoint(path)


def test_newer_format_is_refused(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {0: offsets_file('0:{"t":{"0":3}}', version="v3")}, [0])
    with pytest.raises(UsageError, match=r"offsets log format v3, newer than .* reads \(v1, v2\)") as e:
        read_checkpoint(path)
    assert e.value.hint == "upgrade kafka-offsets"


@pytest.mark.parametrize("text", ["", "xyz\n{}", "v0\n{}", "v\n{}", "v1"])
def test_malformed_offsets_file(text: str) -> None:
    with pytest.raises(UsageError, match="not a Spark offsets log"):
        parse_offset_log(text, "cp/offsets/0")


def test_format_v2_source_ids() -> None:
    """Spark's OffsetMap (v2): ``<sourceId>:<offset>``, the id split at the first colon."""
    log = parse_offset_log(offsets_file('orders:{"a:b":{"0":3}}', "1:-", version="v2"), "f")
    assert log.version == 2 and log.sources == (("orders", '{"a:b":{"0":3}}'), ("1", None))
    with pytest.raises(UsageError, match="line 3 is not <source>:<offset>"):
        parse_offset_log(offsets_file("-", version="v2"), "f")


def test_several_sources(tmp_path: Path) -> None:
    """A file source and a void source are left out and named; two Kafka sources, two groups."""
    text = offsets_file('{"logOffset":3}', '{"a":{"0":5}}', "-", '{"b":{"1":7},"c":{"0":1}}')
    cp = read_checkpoint(checkpoint(tmp_path / "cp", {2: text}, [2]))
    assert cp.other == ("0", "2")
    assert [(g.group, dict(g.offsets)) for g in cp.group_offsets()] == [
        (f"spark:{QUERY}/1", {TopicPartition("a", 0): 5}),
        (f"spark:{QUERY}/3", {TopicPartition("b", 1): 7, TopicPartition("c", 0): 1}),
    ]


def test_no_kafka_source(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {0: offsets_file('{"logOffset":3}', "7")}, [0])
    with pytest.raises(UsageError, match=r"no Kafka source in the query \(2 source\(s\), none Kafka's\)"):
        read_checkpoint(path)


def test_name_without_metadata(tmp_path: Path) -> None:
    cp = read_checkpoint(checkpoint(tmp_path / "orders-etl", {0: offsets_file('{"t":{"0":3}}')}, [0], None))
    assert cp.query_id is None and cp.name == "spark:orders-etl"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"t":{"0":23,"1":42}}', {TopicPartition("t", 0): 23, TopicPartition("t", 1): 42}),
        ('{"logOffset":3}', None),  # a file source
        ('{"0":{"value":5,"runTimeMs":1795902115905}}', None),  # a rate source
        ('{"t":{"0":-1}}', None),  # not a position
        ('{"t":{"0":true}}', None),
        ("{}", None),
        ("12", None),  # a LongOffset
        ("not json", None),
    ],
)
def test_kafka_offsets(text: str, expected: dict[TopicPartition, int] | None) -> None:
    assert kafka_offsets(text) == expected
