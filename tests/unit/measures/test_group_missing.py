"""``lag`` for a group that does not exist, and internal topics by the broker's flag (no broker)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kafka_offsets_cli.measures.lag.collect import GROUP_ID_NOT_FOUND, collect, group_missing
from kafka_offsets_cli.measures.lag.rows import LagState
from kafka_offsets_cli.models.groups import GroupDescription, GroupOffsets
from kafka_offsets_cli.models.topics import ClusterMetadata, TopicPartition
from kafka_offsets_cli.parse.selection import parse_selection
from kafka_offsets_cli.plan.queries import selection_metadata, with_internal_flags
from tests.unit.fake_cluster import FakeCluster, topic

TP = TopicPartition("orders", 0)


class Cluster(FakeCluster):
    """A fake cluster whose coordinator describes groups as given (unknown ids: dead, as DescribeGroups)."""

    def __init__(self, states: dict[str, str], **kw: object) -> None:
        md = ClusterMetadata({"orders": topic("orders", 1)})
        groups = [
            GroupOffsets(g, {TP: 3}) for g, s in states.items() if s == "empty"
        ]  # stable: no commit yet
        super().__init__(md, {TP: (0, 5)}, groups)
        self.states = states

    def describe_groups(self, groups: Sequence[str]) -> dict[str, GroupDescription]:
        return {g: GroupDescription(g, self.states.get(g, "dead"), 0) for g in groups}

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        return [self.groups.get(g, GroupOffsets(g, {})) for g in groups]


def test_missing_means_dead_or_not_found_and_nothing_committed() -> None:
    none = GroupOffsets("g", {})
    assert group_missing(GroupDescription("g", "dead", 0), none)
    assert group_missing(GroupDescription("g", None, 0, error=GROUP_ID_NOT_FOUND), none)
    # a group that exists with nothing committed (members, or just emptied) is not missing
    assert not group_missing(GroupDescription("g", "stable", 2), none)
    assert not group_missing(GroupDescription("g", "empty", 0), none)
    # committed offsets prove it exists, whatever a racing describe said
    assert not group_missing(GroupDescription("g", "dead", 0), GroupOffsets("g", {TP: 1}))
    assert not group_missing(None, none)


def test_lag_reports_a_missing_group_apart_from_an_empty_one() -> None:
    cluster = Cluster({"billing": "empty", "idle": "stable"})
    report = collect(cluster, ["billing", "idle", "typo"], None)
    problems = {p.group: p.error for p in report.problems}
    assert problems == {"typo": GROUP_ID_NOT_FOUND, "idle": None}
    rec = next(p for p in report.problems if p.group == "typo").to_record()
    assert (rec["state"], rec["error"]) == (LagState.ERROR.value, GROUP_ID_NOT_FOUND)
    assert [(r.group, r.lag) for r in report.rows] == [("billing", 2)]
    assert report.failed  # exit 1: a named group that does not exist is an error, like a missing topic


def test_a_listed_streams_group_without_offsets_is_not_missing() -> None:
    # the consumer-group describe does not know a streams group (dead here); ListGroups typed it
    # streams, so with its offsets deleted it has nothing to show, quietly (found by a listing)
    report = collect(Cluster({}), ["app"], None, named=set(), types={"app": "streams"})
    assert report.rows == () and report.problems == () and not report.failed
    named = collect(Cluster({}), ["app"], None, types={"app": "streams"})
    assert [p.error for p in named.problems] == [None]  # named: nothing committed, not "does not exist"


def test_a_missing_group_gets_no_rows_for_the_selections_literal_topics() -> None:
    report = collect(Cluster({}), ["typo"], parse_selection(topics=["orders"]))
    assert report.rows == () and [p.error for p in report.problems] == [GROUP_ID_NOT_FOUND]


class Flagged(FakeCluster):
    """Listing carries no internal flag (as confluent-kafka's); describing by name does."""

    def __init__(self) -> None:
        md = ClusterMetadata(
            {
                "__consumer_offsets": topic("__consumer_offsets", 2, internal=True),
                "__app.events": topic("__app.events", 1),
                "orders": topic("orders", 1),
            }
        )
        super().__init__(md, {}, [])
        self.described: list[list[str]] = []

    def metadata(
        self,
        topic: str | None = None,
        *,
        only: Callable[[str], bool] | None = None,
        names: Sequence[str] | None = None,
    ) -> ClusterMetadata:
        if names is not None:
            self.described.append(list(names))
            return super().metadata(names=names)
        listed = super().metadata(only=only)
        return ClusterMetadata({n: type(t)(t.name, t.partitions) for n, t in listed.topics.items()})


def test_exclude_internal_asks_the_broker_not_the_name() -> None:
    src = Flagged()
    md = selection_metadata(src, parse_selection(exclude_internal=True))
    assert {n for n, t in md.topics.items() if t.internal} == {"__consumer_offsets"}
    # only names that could be internal are described (every internal topic starts with "__");
    # the "__" user topic is still judged by the broker's flag, not by its name
    assert src.described == [["__consumer_offsets", "__app.events"]]
    # without --exclude-internal-topics the flag is not needed and nothing more is asked
    src2 = Flagged()
    selection_metadata(src2, parse_selection(topics=[".*"]))
    assert src2.described == []
    assert with_internal_flags(src2, ClusterMetadata({})) == ClusterMetadata({})
