"""Unit tests of list's output polish: --sort/--reverse, digit grouping on terminals, NO_COLOR."""

from __future__ import annotations

import io
import json
import re
from datetime import timezone

from kafka_offsets_cli.cli import list_view, output
from kafka_offsets_cli.cli.options import Format
from kafka_offsets_cli.cli.output import Screen
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec, OffsetTable
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render.order import SortKey, partition_order
from tests.mock_environment import MockEnvironment

L, M = OffsetSpec.latest(), OffsetSpec.max_timestamp()


def table() -> OffsetTable:
    res = [
        OffsetResult("b", 0, L, 1_234_567, None, 0),
        OffsetResult("b", 0, M, 1_234_566, 1_700_000_000_300, 0),
        OffsetResult("a", 1, L, 50, None, 0),
        OffsetResult("a", 1, M, 49, 1_700_000_000_100, 0),
        OffsetResult("a", 0, L, None, error="NOT_LEADER_OR_FOLLOWER"),
        OffsetResult("a", 0, M, 3, 1_700_000_000_200, 0),
        OffsetResult("c", 0, L, 50, None, 0),
        OffsetResult("c", 0, M, None),
    ]
    tps = tuple(sorted({r.tp for r in res}))
    return OffsetTable((L, M), tps, tuple(res))


def names(tps: list[TopicPartition]) -> list[str]:
    return [str(tp) for tp in tps]


def test_sort_keys() -> None:
    t = table()
    assert names(partition_order(t)) == ["a:0", "a:1", "b:0", "c:0"]
    assert names(partition_order(t, reverse=True)) == ["c:0", "b:0", "a:1", "a:0"]
    assert names(partition_order(t, SortKey.PARTITION)) == ["a:0", "b:0", "c:0", "a:1"]
    # by the first spec's offset; ties by name; errors last, also when reversed
    assert names(partition_order(t, SortKey.OFFSET)) == ["a:1", "c:0", "b:0", "a:0"]
    assert names(partition_order(t, SortKey.OFFSET, reverse=True)) == ["b:0", "a:1", "c:0", "a:0"]


def test_sort_by_timestamp_uses_the_first_spec_with_a_time() -> None:
    t = table()
    t2 = OffsetTable((M, L), t.partitions, t.results)
    assert names(partition_order(t2, SortKey.TIMESTAMP)) == ["a:1", "a:0", "b:0", "c:0"]


def test_sort_applies_to_machine_formats() -> None:
    def v(fmt: Format) -> list_view.ListView:
        return list_view.ListView(fmt=fmt, zone=timezone.utc, sort=SortKey.OFFSET, reverse=True)

    jsonl = list_view.render(table(), v(Format.jsonl))
    assert [(r["topic"], r["partition"]) for r in map(json.loads, jsonl.splitlines())][::2] == [
        ("b", 0),
        ("a", 1),
        ("c", 0),
        ("a", 0),
    ]
    plain = list_view.render(table(), v(Format.plain))
    assert plain == "b:0:1234567\na:1:50\nc:0:50\n"  # the first spec; errors omitted as in GetOffsetShell
    csv_text = list_view.render(table(), v(Format.csv))
    assert [line.split(",")[0] for line in csv_text.splitlines()[1::2]] == ["b", "a", "c", "a"]


def _table_text(group_digits: bool, *, color: bool = False) -> str:
    v = list_view.ListView(fmt=Format.table, zone=timezone.utc, group_digits=group_digits)
    buf = io.StringIO()
    from rich.console import Console

    Console(file=buf, force_terminal=color, no_color=not color, width=200).print(list_view.render(table(), v))
    return buf.getvalue()


def test_thousands_separators_only_when_asked() -> None:
    assert "1,234,567" in _table_text(True)
    plain = _table_text(False)
    assert "1234567" in plain and "1,234,567" not in plain


_COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25];[0-9;]+)m")


def test_no_color_turns_colour_off_on_a_terminal() -> None:
    """The data console colours a terminal's table (errors in red) unless NO_COLOR is set."""
    buf = io.StringIO()
    terminal = MockEnvironment(stdout=buf, stdout_isatty=True, environ={}, width=200)
    v = list_view.ListView(fmt=Format.table, zone=timezone.utc)
    output.print_renderable(list_view.render(table(), v), Screen(terminal))
    assert _COLOUR.search(buf.getvalue()), "expected colour on a terminal"

    buf2 = io.StringIO()
    no_color = MockEnvironment(stdout=buf2, stdout_isatty=True, environ={"NO_COLOR": "1"}, width=200)
    output.print_renderable(list_view.render(table(), v), Screen(no_color))
    assert "NOT_LEADER_OR_FOLLOWER" in buf2.getvalue()
    assert not _COLOUR.search(buf2.getvalue())


def test_no_colour_at_all_off_a_terminal() -> None:
    buf = io.StringIO()
    pipe = MockEnvironment(stdout=buf, stdout_isatty=False, environ={})
    output.print_renderable(
        list_view.render(table(), list_view.ListView(fmt=Format.table, zone=timezone.utc)), Screen(pipe)
    )
    assert "\x1b[" not in buf.getvalue()
