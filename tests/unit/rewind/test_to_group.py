"""Unit tests of ``rewind --to-group``'s pure parts: the plan rows (copied, clamped, untouched), the
files a plan makes, the words on stderr, the source's refusals and the command line's checks (against
a real broker and Kafka's own tool: tests/test_rewind_to_group.py)."""

from __future__ import annotations

from datetime import timezone
from typing import Any, cast

import pytest

from kafka_offsets_cli.errors import NotFound
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.render.rewind import effect, summary, target_text
from kafka_offsets_cli.rewind.clone import clone_selection, only_source_topics, source_offsets
from kafka_offsets_cli.rewind.group_types import GroupTypes
from kafka_offsets_cli.rewind.plan import Note, Plan, Target, make_plan
from kafka_offsets_cli.rewind.planfile import export_csv, undo_csv
from tests.cli_runner import cli

A0, A1, B0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)
E, L = OffsetSpec.earliest(), OffsetSpec.latest()
SOURCE = Target.group("src")


def logs(start: int, end: int, *tps: TopicPartition) -> list[OffsetResult]:
    return [OffsetResult(tp.topic, tp.partition, s, o) for tp in tps for s, o in ((E, start), (L, end))]


def clone_plan(copied: dict[TopicPartition, int], current: dict[TopicPartition, int | None]) -> Plan:
    tps = sorted({*copied, *current})
    return make_plan("dst", SOURCE, tps, current, logs(10, 50, *tps), copied)


def test_each_partition_gets_the_sources_offset_clamped_to_the_log() -> None:
    plan = clone_plan({A0: 20, A1: 5, B0: 70}, {A0: 30, A1: None, B0: 40})
    got = {r.tp: (r.target, r.note) for r in plan.rows}
    assert got == {A0: (20, None), A1: (10, Note.CLAMPED_TO_START), B0: (50, Note.CLAMPED_TO_END)}
    assert plan.offsets() == {A0: 20, A1: 10, B0: 50} and plan.complete


def test_a_partition_the_source_has_no_offset_on_is_untouched_not_a_problem() -> None:
    plan = clone_plan({A0: 20}, {A0: 30, A1: 7})
    [_, untouched] = plan.rows
    assert (untouched.tp, untouched.target, untouched.note) == (A1, None, Note.NO_SOURCE_OFFSET)
    assert untouched.untouched and not untouched.planned
    assert untouched.to_record()["note"] == "no-source-offset"
    assert effect(untouched) == "untouched: no offset in source"
    assert plan.complete and plan.problems == () and plan.offsets() == {A0: 20}
    assert export_csv([plan]) == "a,0,20\n"  # the exported plan, and the undo, leave it out
    assert undo_csv([plan]) == ("dst,a,0,30\n", [])


def test_the_summary_names_the_source_and_the_untouched_partitions() -> None:
    plan = clone_plan({A0: 20}, {A0: 30, A1: 7})
    assert target_text(plan, timezone.utc) == "the committed offsets of group 'src'"
    text = summary(plan, timezone.utc, executed=False)
    assert "would commit 1 offset(s) for group 'dst' (the committed offsets of group 'src')" in text
    assert (
        "10 offset(s) re-read" in text and "1 partition(s) untouched (no offset in the source group)" in text
    )


def test_without_a_selection_the_sources_topics_are_planned() -> None:
    chosen = clone_selection({A0: 1, B0: 2}, None)
    assert chosen.literal_topics() == ("a", "b")
    plan = make_plan("dst", SOURCE, [A0, TopicPartition("axb", 0)], {}, [], {A0: 1})
    [kept] = only_source_topics([plan], {A0: 1})
    assert [r.topic for r in kept.rows] == ["a"]  # "a" is a regex; "axb" is not the source's


class Groups:
    """A source with these groups, ``offsets`` committed by each."""

    def __init__(self, offsets: dict[str, dict[TopicPartition, int | None]], error: str | None = None):
        self.offsets, self.error = offsets, error

    def committed_offsets(self, groups: list[str]) -> list[GroupOffsets]:
        [g] = groups
        return [GroupOffsets(g, self.offsets.get(g, {}), self.error)]

    def group_ids(self) -> list[str]:
        return sorted(self.offsets)


def test_the_source_is_read_or_refused_in_one_line() -> None:
    groups = cast(Any, Groups({"billing": {A0: 4, A1: None}, "idle": {}}))
    assert source_offsets(groups, "billing", GroupTypes()) == {A0: 4}
    with pytest.raises(NotFound, match=r"'biling': no such group \(did you mean 'billing'\?\)"):
        source_offsets(groups, "biling", GroupTypes())
    with pytest.raises(NotFound, match="'idle': the group has no committed offsets; nothing to copy"):
        source_offsets(groups, "idle", GroupTypes())


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["-g", "g", "--to-group", "g"], "is the group being reset"),
        (["-g", "g", "-g", "h", "--to-group", "s"], "copies into one group"),
        (["--group-regex", "g.*", "--to-group", "s"], "copies into one group"),
        (["-g", "g", "--to-group", "s", "--to", "earliest"], "leave out --to"),
        (["-g", "g", "--to-group", "s", "--delete-offsets"], "leave out --delete-offsets"),
        (["-g", "g", "--to-group", "s", "--from-file", "p.csv"], "leave out --from-file"),
        (["-g", "g", "--to-group", " "], "--to-group needs the id"),
        (["-g", "g", "--to-group", "s", "--force"], "--force only applies to --from-file"),
    ],
)
def test_the_command_line_is_checked_before_the_cluster_is_asked(words: list[str], says: str) -> None:
    res = cli("rewind", "-b", "127.0.0.1:1", *words)
    assert res.code == 2 and says in res.stderr, res.stderr
