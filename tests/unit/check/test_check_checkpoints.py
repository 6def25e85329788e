"""A lag check over Spark checkpoints (``spark_checkpoints``): planned and measured as groups (no broker)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from kafka_offsets_cli.check.collect import LagSample, unit_samples
from kafka_offsets_cli.check.load import parse_spec_text
from kafka_offsets_cli.check.plan import plan_checks
from kafka_offsets_cli.check.spec import CheckSpec
from kafka_offsets_cli.errors import SpecFileError
from kafka_offsets_cli.models.groups import GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from kafka_offsets_cli.spark.checkpoint_fs import opener
from tests.unit.fake_cluster import FakeCluster, topic
from tests.unit.parse.test_spark_checkpoint import QUERY, checkpoint, offsets_file

GROUP = f"spark:{QUERY}"


def spec(*paths: str) -> CheckSpec:
    listed = ", ".join(f"'{p}'" for p in paths)
    return parse_spec_text(
        f"""
clusters: {{c: {{bootstrap_servers: 'h:1'}}}}
checks:
  - {{name: etl, type: lag, spark_checkpoints: [{listed}], warn_lag: 5}}
""",
        environ={},
    )


class Counting(FakeCluster):
    """A cluster that counts the groups whose committed offsets it was asked for."""

    asked: list[str]

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        self.asked = [*getattr(self, "asked", []), *groups]
        return super().committed_offsets(groups, partitions)


def source() -> Counting:
    tps = {TopicPartition("orders", p): (0, 10) for p in range(2)}
    return Counting(ClusterMetadata({"orders": topic("orders", 2)}), tps, [GroupOffsets(GROUP, {})])


def test_a_checkpoint_is_a_group_measured_with_its_offsets_not_offsetfetchs(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {0: offsets_file('{"orders":{"0":4,"1":10}}')}, [0])
    s = source()  # a consumer group of the same name with nothing committed: never read
    plan = plan_checks(spec(path), lambda _name: s)
    [unit] = plan.units
    assert unit.groups == ((GROUP, (TopicPartition("orders", 0), TopicPartition("orders", 1))),)
    assert dict(unit.given) == {
        GROUP: GroupOffsets(GROUP, {TopicPartition("orders", p): o for p, o in ((0, 4), (1, 10))})
    }
    rows = [x.row for x in unit_samples(s, unit) if isinstance(x, LagSample)]
    assert [(r.group, r.partition, r.committed, r.lag, r.state.value) for r in rows] == [
        (GROUP, 0, 4, 6, "ok"),
        (GROUP, 1, 10, 0, "ok"),
    ]
    assert getattr(s, "asked", []) == [] and plan.records == () and plan.problems == {}


def test_a_checkpoint_that_cannot_be_read_is_the_checks_problem_not_a_guess(tmp_path: Path) -> None:
    half = checkpoint(tmp_path / "half", {0: offsets_file('{"orders":{"0":4,"1":10}}')}, [])
    plan = plan_checks(spec(str(tmp_path / "nowhere"), half), lambda _name: source())
    assert plan.units == ()
    assert plan.problems == {"etl": (f"c: spark_checkpoints: {tmp_path / 'nowhere'}: no such directory",)}
    assert [(r.check, r.state, r.error) for r in plan.records] == [("etl", "error", "USAGE_ERROR")]
    plan = plan_checks(spec(half), lambda _name: source())
    [problem] = plan.problems["etl"]
    assert problem.endswith("the query has committed no batch yet (offsets/0 without its commit)")


def test_a_lag_check_has_groups_or_spark_checkpoints_not_both_nor_neither() -> None:
    both = "checks:\n  - {name: x, type: lag, groups: [g], spark_checkpoints: [/cp]}\n"
    neither = "checks:\n  - {name: x, type: lag}\n"
    head = "clusters: {c: {bootstrap_servers: 'h:1'}}\n"
    with pytest.raises(SpecFileError, match=r"checks\[0\]\.groups: not with spark_checkpoints"):
        parse_spec_text(head + both, environ={})
    with pytest.raises(SpecFileError, match=r"missing: list the consumer groups .* or spark_checkpoints"):
        parse_spec_text(head + neither, environ={})
    one = parse_spec_text(head + "checks:\n  - {name: x, type: lag, spark_checkpoints: /cp}\n", environ={})
    assert one.lag_checks[0].spark_checkpoints == ("/cp",) and one.lag_checks[0].groups == ()


def test_a_checkpoint_uri_is_read_through_the_front_ends_opener(tmp_path: Path) -> None:
    path = checkpoint(tmp_path / "cp", {0: offsets_file('{"orders":{"0":4,"1":10}}')}, [0])
    uri = Path(path).as_uri()
    plan = plan_checks(spec(uri), lambda _name: source(), opener=opener("spark_checkpoints:"))
    [unit] = plan.units
    assert dict(unit.given)[GROUP].offsets == {
        TopicPartition("orders", 0): 4,
        TopicPartition("orders", 1): 10,
    }
    bare = plan_checks(spec(uri), lambda _name: source())  # no opener: a local path, which it is not
    assert bare.units == () and "no such directory" in bare.problems["etl"][0]
