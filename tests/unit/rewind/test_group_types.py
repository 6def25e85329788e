"""rewind/group_types.py: options refused per group type, streams input topics only, and each group
read and written through its own type's requests (fakes of the client's share/streams methods)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from kafka_offsets_cli.errors import Refused, UsageError
from kafka_offsets_cli.models.group_descriptions import (
    ShareGroup,
    ShareMember,
    StreamsGroup,
    StreamsMember,
    StreamsTasks,
    Subtopology,
)
from kafka_offsets_cli.models.group_types import GroupTypeAnswer, ShareGroupOffsets, SharePartition
from kafka_offsets_cli.models.groups import GroupDescription, GroupMembers, GroupOffsets
from kafka_offsets_cli.models.topics import TopicPartition
from kafka_offsets_cli.parse.selection import parse_selection
from kafka_offsets_cli.rewind.group_types import (
    GroupTypes,
    TypedGroups,
    detect,
    refuse_options,
    refuse_streams_topics,
    streams_members,
)
from kafka_offsets_cli.rewind.plan import Plan, PlanRow, Target, TargetKind

T0, T1, R0 = TopicPartition("in", 0), TopicPartition("in", 1), TopicPartition("app-repartition", 0)
TOPOLOGY = (
    Subtopology(
        subtopology="0",
        source_topics=("in", "app-repartition"),
        repartition_source_topics=("app-repartition",),
    ),
)
SHARE = ShareGroup(group="sg", state="empty", group_epoch=3)
STREAMS = StreamsGroup(group="st", state="empty", subtopologies=TOPOLOGY)


class Client:
    """The client's group methods, answering for one share group ``sg`` and one streams group ``st``."""

    def __init__(self, share: ShareGroup = SHARE) -> None:
        self.share = share
        self.altered: dict[str, Mapping[TopicPartition, int]] = {}
        # what TypedGroups hands on from the client as they are: not asked here
        self.metadata = self.list_offsets = self.group_ids = self.group_session_timeouts = None

    def share_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[ShareGroup]:
        return GroupTypeAnswer(
            group_type="share",
            groups={
                g: self.share if g == "sg" else ShareGroup(group=g, state=None, error="GROUP_ID_NOT_FOUND")
                for g in groups
            },
        )

    def streams_group_descriptions(self, groups: Sequence[str]) -> GroupTypeAnswer[StreamsGroup]:
        return GroupTypeAnswer(
            group_type="streams",
            groups={
                g: STREAMS if g == "st" else StreamsGroup(group=g, state=None, error="GROUP_ID_NOT_FOUND")
                for g in groups
            },
        )

    def share_start_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> GroupTypeAnswer[ShareGroupOffsets]:
        parts = (
            SharePartition(partition=T0, start_offset=4, lag=6),
            SharePartition(partition=T1, start_offset=None),
        )
        return GroupTypeAnswer(
            group_type="share", groups={g: ShareGroupOffsets(group=g, partitions=parts) for g in groups}
        )

    def committed_offsets(
        self, groups: Sequence[str], partitions: Sequence[TopicPartition] | None = None
    ) -> list[GroupOffsets]:
        return [GroupOffsets(g, {T0: 1, R0: 2}) for g in groups]

    def group_members(self, groups: Sequence[str]) -> dict[str, GroupMembers]:
        return {g: GroupMembers(GroupDescription(g, "empty", 0)) for g in groups}

    def alter_share_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        self.altered[f"share:{group}"] = offsets
        return dict.fromkeys(offsets)

    def alter_group_offsets(
        self, group: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        self.altered[group] = offsets
        return dict.fromkeys(offsets)


def typed(client: Client) -> TypedGroups:
    return TypedGroups(client, detect(client, ["sg", "st", "cg"]))  # type: ignore[arg-type]


def test_each_group_type_is_found_by_asking() -> None:
    types = detect(Client(), ["sg", "st", "cg"])  # type: ignore[arg-type]
    assert [types.of(g) for g in ("sg", "st", "cg")] == ["share", "streams", "consumer"]


def test_a_share_groups_current_offsets_are_its_start_offsets() -> None:
    got = {o.group: dict(o.offsets) for o in typed(Client()).committed_offsets(["sg", "st", "cg"])}
    assert got == {"sg": {T0: 4, T1: None}, "st": {T0: 1}, "cg": {T0: 1, R0: 2}}  # streams: input topics only


def test_a_share_group_is_written_through_its_own_request() -> None:
    client = Client()
    source = typed(client)
    source.alter_group_offsets("sg", {T0: 0})
    source.alter_group_offsets("cg", {T0: 0})
    assert client.altered == {"share:sg": {T0: 0}, "cg": {T0: 0}}


def test_a_share_group_with_members_is_active_and_named() -> None:
    member = ShareMember(member_id="m", client_id="c", host="/10.0.0.1", member_epoch=2, assigned=(T0,))
    live = ShareGroup(group="sg", state="stable", members=(member,))
    source = TypedGroups(Client(live), GroupTypes(share={"sg": live}))  # type: ignore[arg-type]
    got = source.group_members(["sg"])["sg"]
    assert (got.description.active, got.protocol, got.members[0].client_id) == (True, "share", "c")


@pytest.mark.parametrize("flag", ["--shift-by", "--from-cluster", "--from-lag-file"])
def test_consumer_group_only_options_are_refused_for_a_share_group(flag: str) -> None:
    with pytest.raises(UsageError, match=f"{flag} is for consumer groups: group 'sg' is a share group"):
        refuse_options(GroupTypes(share={"sg": SHARE}), [flag])


def test_a_streams_group_may_shift_but_not_cut_over() -> None:
    types = GroupTypes(streams={"st": STREAMS})
    refuse_options(types, ["--shift-by"])
    with pytest.raises(UsageError, match="streams group"):
        refuse_options(types, ["--from-cluster"])
    refuse_options(GroupTypes(), ["--shift-by", "--from-cluster"])  # consumer groups: all allowed


def _plan(group: str, *tps: TopicPartition) -> Plan:
    rows = tuple(
        PlanRow(group=group, topic=tp.topic, partition=tp.partition, current=1, target=0, log_start=0, end=9)
        for tp in tps
    )
    return Plan(group, Target(TargetKind.EARLIEST), rows, ())


def test_a_streams_group_resets_input_topics_only() -> None:
    types = GroupTypes(streams={"st": STREAMS})
    refuse_streams_topics(types, [_plan("st", T0, T1), _plan("cg", R0)])
    with pytest.raises(Refused, match="app-repartition are not input topics of streams group 'st'"):
        refuse_streams_topics(types, [_plan("st", T0, R0)])
    unknown = GroupTypes(streams={"st": StreamsGroup(group="st", state="empty")})
    with pytest.raises(Refused, match="topology of streams group 'st' is not known"):
        refuse_streams_topics(unknown, [_plan("st", T0)])


def _deletion(group: str, *tps: TopicPartition) -> Plan:
    rows = tuple(
        PlanRow(
            group=group,
            topic=tp.topic,
            partition=tp.partition,
            current=1,
            target=None,
            log_start=None,
            end=None,
        )
        for tp in tps
    )
    return Plan(group, Target(TargetKind.DELETE), rows, ())


def test_a_selected_repartition_topic_is_refused_though_the_plan_has_no_row_of_it() -> None:
    """A deletion plans only partitions with a committed offset, and a streams group's repartition
    offsets are not among its offsets here: the selection itself is what names the topic."""
    types = GroupTypes(streams={"st": STREAMS})
    refuse_streams_topics(types, [_deletion("st", T0)], parse_selection(["in"]), deleting=True)
    refuse_streams_topics(types, [_deletion("st", T0)], parse_selection(["i."]), deleting=True)
    for topics in (["app-repartition"], ["in", "app-repartition"], ["app-.*"], [".*"]):
        with pytest.raises(Refused) as refused:
            refuse_streams_topics(types, [_deletion("st")], parse_selection(topics), deleting=True)
        assert refused.value.message == (
            "topic(s) app-repartition are not input topics of streams group 'st' (input topics: in): "
            "only input topics' offsets are deleted, as kafka-streams-groups --delete-offsets does; "
            "nothing changed"
        )
    with pytest.raises(Refused, match="only input topics are reset, as kafka-streams-groups does"):
        refuse_streams_topics(types, [_plan("st", T0)], parse_selection(["app-repartition"]))
    # a consumer group's selection is its own business
    refuse_streams_topics(types, [_deletion("cg", R0)], parse_selection(["app-repartition"]), deleting=True)


def test_a_streams_members_assignment_is_what_its_active_tasks_read() -> None:
    topology = (
        *TOPOLOGY,
        Subtopology(subtopology="1", source_topics=("other",)),
    )
    member = StreamsMember(
        member_id="m",
        client_id="c",
        host="/10.0.0.1",
        member_epoch=3,
        active=(
            StreamsTasks(subtopology="0", partitions=(1,)),
            StreamsTasks(subtopology="9", partitions=(0,)),
        ),
        standby=(StreamsTasks(subtopology="1", partitions=(0,)),),  # a standby reads no source topic
    )
    live = StreamsGroup(group="st", state="stable", subtopologies=topology, members=(member,))
    got = streams_members(live)
    assert got.description.assigned == (TopicPartition("app-repartition", 1), T1)
    assert (got.protocol, got.description.active, got.members[0].client_id) == ("streams", True, "c")
