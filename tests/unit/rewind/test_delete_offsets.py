"""Unit tests of ``rewind --delete-offsets``'s pure parts: the plan rows, the export and undo files,
Kafka's answers turned into refusals, the words on stderr and the command line's checks (against a
real broker and Kafka's own tool: tests/test_rewind_delete_offsets.py)."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import timezone
from typing import Any, cast

import pytest

from kafka_offsets_cli.errors import ExitCode, NotFound, PartialFailure, Refused
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.offsets import OffsetResult, OffsetSpec
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.parse.reset_flags import translate
from kafka_offsets_cli.render.rewind import effect, summary
from kafka_offsets_cli.rewind.deletes import delete_all, preflight_deletes
from kafka_offsets_cli.rewind.plan import Note, Plan, Target, make_plan, plan_row
from kafka_offsets_cli.rewind.planfile import export_csv, parse_plan_file, seen_csv, undo_csv
from tests.cli_runner import cli

A0, A1, B0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)
E, L = OffsetSpec.earliest(), OffsetSpec.latest()


def logs(*tps: TopicPartition) -> list[OffsetResult]:
    return [OffsetResult(tp.topic, tp.partition, s, o) for tp in tps for s, o in ((E, 0), (L, 50))]


def delete_plan(committed: dict[TopicPartition, int | None]) -> Plan:
    return make_plan("g", Target.delete(), sorted(committed), committed, logs(*committed))


def test_a_committed_partition_is_deleted_whatever_the_log_says() -> None:
    broken = OffsetResult("a", 0, E, None, error="NOT_LEADER_OR_FOLLOWER")
    row = plan_row("g", A0, 7, Target.delete(), broken, broken)
    assert (row.target, row.note, row.error, row.planned, row.delta) == (None, Note.DELETE, None, True, None)
    assert row.to_record()["note"] == "delete"
    assert effect(row) == "deletes the offset"


def test_a_partition_without_a_commit_has_nothing_to_delete() -> None:
    plan = delete_plan({A0: 7, A1: None, B0: 3})
    assert [r.tp for r in plan.rows] == [A0, B0]
    assert plan.deletions() == (A0, B0)
    assert plan.offsets() == {} and plan.complete


def test_export_holds_the_offsets_deleted_and_undo_commits_them_again() -> None:
    plan = delete_plan({A0: 7, B0: 3})
    assert export_csv([plan]) == "a,0,7\nb,0,3\n"
    assert parse_plan_file(export_csv([plan]), "p.csv", "g") == {"g": {A0: 7, B0: 3}}
    text, without = undo_csv([plan])
    assert (text, without) == ("g,a,0,7\ng,b,0,3\n", [])
    after = seen_csv([plan], planned_at="t", offsets="target").splitlines()[-2:]
    assert after == ["g,a,0,", "g,b,0,"]  # beside the undo: nothing committed after the deletion
    assert seen_csv([plan], planned_at="t").splitlines()[-2:] == ["g,a,0,7", "g,b,0,3"]


def test_summary_says_what_is_deleted_and_how_to_apply_an_export() -> None:
    plan = delete_plan({A0: 7, B0: 3})
    dry = summary(plan, timezone.utc, executed=False, cluster="c", exported="p.csv")
    assert dry.startswith("Dry run: would delete 2 committed offset(s) of group 'g' on c")
    assert "--from-file p.csv --delete-offsets --execute" in dry
    assert summary(plan, timezone.utc, executed=True).startswith("Deleted 2 committed offset(s)")


def test_nothing_committed_on_the_selection_is_not_found() -> None:
    with pytest.raises(NotFound, match="nothing to delete"):
        preflight_deletes([delete_plan({A0: None})])


class Answers:
    """A source whose OffsetDelete gets the given per-partition answers; what it deletes reads back
    as nothing committed (``stays``: partitions that read back as still committed)."""

    def __init__(
        self, answers: dict[TopicPartition, str | None], stays: frozenset[TopicPartition] = frozenset()
    ):
        self.answers, self.stays = answers, stays

    def delete_group_offsets(
        self, group: str, partitions: list[TopicPartition]
    ) -> dict[TopicPartition, str | None]:
        return {tp: self.answers.get(tp) for tp in partitions}

    def committed_offsets(self, groups: list[str], partitions: list[TopicPartition]) -> list[GroupOffsets]:
        return [GroupOffsets(groups[0], {tp: 1 for tp in partitions if tp in self.stays})]


class Said:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def warn(self, text: str) -> None:
        self.lines.append(text)

    def progress(self, text: str) -> Any:
        return nullcontext()


def run_deletes(answers: Answers) -> tuple[int | BaseException, list[str]]:
    said = Said()
    try:
        done: int | BaseException = delete_all(
            cast(Any, answers), [delete_plan({A0: 7, A1: 8, B0: 3})], cast(Any, said)
        )
    except (Refused, PartialFailure) as e:
        done = e
    return done, said.lines


def test_all_deleted_and_read_back_as_gone() -> None:
    assert run_deletes(Answers({})) == (3, [])


@pytest.mark.parametrize("kept", ["GROUP_SUBSCRIBED_TO_TOPIC", "NON_EMPTY_GROUP"])
def test_every_topic_kept_as_read_is_one_line_and_a_refusal(kept: str) -> None:
    done, lines = run_deletes(Answers({A0: kept, A1: kept, B0: kept}))
    assert isinstance(done, Refused) and done.exit_code == ExitCode.REFUSED
    assert "nothing changed" in str(done)
    assert lines == [
        f"topic {t}: group 'g' has members subscribed to it ({kept}): offsets kept" for t in "ab"
    ]


def test_some_topics_kept_is_partial() -> None:
    done, lines = run_deletes(Answers({A0: "GROUP_SUBSCRIBED_TO_TOPIC", A1: "GROUP_SUBSCRIBED_TO_TOPIC"}))
    assert isinstance(done, PartialFailure) and done.exit_code == ExitCode.PARTIAL
    assert "1 offset(s) deleted, the offsets of 1 topic(s) kept" in str(done)
    assert lines == [
        "topic a: group 'g' has members subscribed to it (GROUP_SUBSCRIBED_TO_TOPIC): offsets kept"
    ]


def test_other_errors_and_offsets_still_there_are_named() -> None:
    done, _ = run_deletes(Answers({A0: "GROUP_AUTHORIZATION_FAILED"}, stays=frozenset({B0})))
    assert isinstance(done, PartialFailure)
    assert "g a:0: GROUP_AUTHORIZATION_FAILED" in str(done) and "g b:0: still 1" in str(done)
    assert "(1 deleted; the undo plan puts them back)" in str(done)


def test_kafkas_delete_offsets_line_keeps_its_words() -> None:
    words = ["--delete-offsets", "--group", "g", "--topic", "a:0,1", "--topic", "b"]
    valued = frozenset({"--group", "--topic"})
    assert translate(words, valued) == [
        "--delete-offsets",
        "--group",
        "g",
        "--topic-partitions",
        "a:0,a:1,b:",
    ]


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["-g", "g", "--delete-offsets"], "--delete-offsets needs the topics"),
        (["-g", "g", "--delete-offsets", "-t", "a", "--to", "earliest"], "leave out --to"),
        (["-g", "g", "--delete-offsets", "-t", "a", "--shift-by", "-1"], "leave out --shift-by"),
        (["--delete-offsets", "--from-file", "p.csv", "-t", "a"], "takes its partitions from the file"),
    ],
)
def test_the_command_line_is_checked_before_the_cluster_is_asked(words: list[str], says: str) -> None:
    res = cli("rewind", "-b", "127.0.0.1:1", *words)
    assert res.code == 2 and says in res.stderr, res.stderr
