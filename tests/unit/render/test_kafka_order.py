"""GetOffsetShell's line order for ``list -o plain``: ``topic-partition`` compared as Java strings."""

from __future__ import annotations

from datetime import timezone

from kafka_offsets_cli.cli import list_view
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render.offsets import render_plain
from kafka_offsets_cli.render.order import SortKey, kafka_order, partition_order

L = OffsetSpec.latest()


def table(sizes: dict[str, int]) -> OffsetTable:
    tps = tuple(sorted(TopicPartition(t, p) for t, n in sizes.items() for p in range(n)))
    return OffsetTable((L,), tps, tuple(OffsetResult(tp.topic, tp.partition, L, tp.partition) for tp in tps))


def lines(text: str) -> list[str]:
    return [line.rsplit(":", 1)[0] for line in text.splitlines()]


def test_siblings_sort_as_the_string_topic_dash_partition() -> None:
    # "lex-1" < "lex-1-0" < "lex-10": '-' (0x2d) sorts before the digits
    t = table({"lex": 12, "lex-1": 2})
    assert lines(render_plain(t)) == [
        "lex:0",
        "lex:1",
        "lex-1:0",
        "lex-1:1",
        "lex:10",
        "lex:11",
        *(f"lex:{p}" for p in range(2, 10)),
    ]


def test_fifty_partitions_of_consumer_offsets() -> None:
    got = [tp.partition for tp in kafka_order(table({"__consumer_offsets": 50}).partitions)]
    want = [0, 1, *range(10, 20), 2, *range(20, 30), 3, *range(30, 40), 4, *range(40, 50), 5, 6, 7, 8, 9]
    assert got == want


def test_case_dots_and_letters_sort_by_code_unit() -> None:
    # 'L' (0x4c) < 'l'; '-' (0x2d) < '.' (0x2e) < digits < 'A' (0x41)
    t = table({"lex": 1, "lex-1": 1, "lex.1": 1, "lexA": 1, "Lex": 1})
    assert lines(render_plain(t)) == ["Lex:0", "lex:0", "lex-1:0", "lex.1:0", "lexA:0"]


def test_utf16_code_units_not_code_points() -> None:
    # Java: U+10000 is the surrogate pair D800 DC00, below U+FFFF; Python's str order says the opposite
    a, b = TopicPartition("\U00010000", 0), TopicPartition("\uffff", 0)
    assert kafka_order([b, a]) == [a, b]
    assert sorted([b, a]) == [b, a]


def test_plain_view_uses_kafka_order_other_formats_topic_then_number() -> None:
    t = table({"lex": 11, "lex-1": 1})
    plain = list_view.ListView(fmt=Format.plain, zone=timezone.utc)
    jsonl = list_view.ListView(fmt=Format.jsonl, zone=timezone.utc)
    assert [str(tp) for tp in plain.order(t)][:4] == [
        str(TopicPartition(*x)) for x in [("lex", 0), ("lex", 1), ("lex-1", 0), ("lex", 10)]
    ]
    assert jsonl.order(t) == sorted(t.partitions)
    assert lines(list_view.render(t, plain))[:4] == ["lex:0", "lex:1", "lex-1:0", "lex:10"]


def test_explicit_sort_keys_still_apply_to_plain_with_kafka_ties() -> None:
    t = table({"lex": 11, "lex-1": 2})
    by_part = partition_order(t, SortKey.PARTITION, kafka=True)
    assert [str(tp) for tp in by_part[:3]] == [
        str(TopicPartition(*x)) for x in [("lex", 0), ("lex-1", 0), ("lex", 1)]
    ]
    rev = partition_order(t, SortKey.TOPIC, reverse=True, kafka=True)
    assert rev == list(reversed(kafka_order(t.partitions)))
