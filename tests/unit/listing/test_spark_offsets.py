"""``list -o spark-offsets``: one boundary for Spark, never a silent jump (listing/spark_offsets.py)."""

from __future__ import annotations

import pytest

from kafka_offsets_cli.errors import PartialFailure, UsageError
from kafka_offsets_cli.listing.spark_offsets import Missing, boundaries, specs_to_list
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable, SpecKind
from kafka_offsets_cli.models.topics import TopicPartition

AT = OffsetSpec(SpecKind.TIMESTAMP, 1_700_000_000_000)
EARLIEST, LATEST = OffsetSpec.earliest(), OffsetSpec.latest()


def _table(*results: OffsetResult, missing_topics: tuple[tuple[str, str], ...] = ()) -> OffsetTable:
    return OffsetTable(
        specs=tuple(dict.fromkeys(r.spec for r in results)),
        partitions=tuple(dict.fromkeys(TopicPartition(r.topic, r.partition) for r in results)),
        results=results,
        missing_topics=missing_topics,
    )


def test_every_partition_by_topic_and_number_as_spark_reads_them() -> None:
    table = _table(
        OffsetResult("b", 1, AT, 42, 1_700_000_000_100),
        OffsetResult("a", 0, AT, 23, 1_700_000_000_200),
        OffsetResult("b", 0, AT, 7, 1_700_000_000_300),
    )
    assert boundaries(table, AT, Missing.error) == {"a": {"0": 23}, "b": {"0": 7, "1": 42}}


def test_a_partition_without_an_offset_is_an_error_unless_a_choice_was_made() -> None:
    table = _table(
        OffsetResult("t", 0, AT, 5, 1_700_000_000_000),
        OffsetResult("t", 1, AT, None),  # no record at or after the time
        OffsetResult("t", 0, LATEST, 9),
        OffsetResult("t", 1, LATEST, 11),
        OffsetResult("t", 0, EARLIEST, 0),
        OffsetResult("t", 1, EARLIEST, 3),
    )
    with pytest.raises(
        PartialFailure, match=r"no offset at 1700000000000 on 1 partition\(s\) \(t-1\).*--spark-missing"
    ):
        boundaries(table, AT, Missing.error)
    assert boundaries(table, AT, Missing.latest) == {"t": {"0": 5, "1": 11}}  # 0 keeps its own answer
    assert boundaries(table, AT, Missing.earliest) == {"t": {"0": 5, "1": 3}}


def test_failed_queries_and_unlisted_topics_are_errors_whatever_the_choice() -> None:
    failed = _table(
        OffsetResult("t", 0, AT, None, error="NOT_LEADER_OR_FOLLOWER"), OffsetResult("t", 0, LATEST, 4)
    )
    with pytest.raises(PartialFailure, match=r"t-0 \(NOT_LEADER_OR_FOLLOWER\)"):
        boundaries(failed, AT, Missing.latest)
    gone = _table(OffsetResult("t", 0, AT, 1), missing_topics=(("gone", "UNKNOWN_TOPIC_OR_PARTITION"),))
    with pytest.raises(PartialFailure, match=r"gone \(UNKNOWN_TOPIC_OR_PARTITION\)"):
        boundaries(gone, AT, Missing.error)


def test_many_partitions_are_named_a_few_at_a_time() -> None:
    table = _table(*(OffsetResult("t", p, AT, None) for p in range(8)))
    with pytest.raises(PartialFailure, match=r"on 8 partition\(s\) \(t-0, t-1, t-2, t-3, t-4 and 3 more\)"):
        boundaries(table, AT, Missing.error)


def test_one_spec_with_the_choice_beside_it() -> None:
    assert specs_to_list([AT], Missing.error) == (AT,)
    assert specs_to_list([AT], Missing.latest) == (AT, LATEST)
    assert specs_to_list([LATEST], Missing.latest) == (LATEST,)
    for specs in ([], [AT, LATEST]):
        with pytest.raises(UsageError, match="takes one spec"):
            specs_to_list(specs, Missing.error)
