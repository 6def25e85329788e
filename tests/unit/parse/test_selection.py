"""Unit and property tests of kafka_offsets_cli.parse.selection (pure; no broker).

The tables mirror Kafka's own GetOffsetShellParsingTest and GetOffsetShellTest
(org.apache.kafka.tools), so the semantics stay those of kafka-get-offsets.sh.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kafka_offsets_cli.errors import NotFound, UsageError
from kafka_offsets_cli.models.topics import ClusterMetadata, PartitionInfo, TopicInfo, TopicPartition
from kafka_offsets_cli.parse.selection import (
    INT_MAX,
    MAX_REPORTED_RANGE,
    PartitionRange,
    Selection,
    TopicRule,
    parse_partitions,
    parse_selection,
    parse_topic_partitions,
    selection_summary,
)
from kafka_offsets_cli.plan.resolve import UNKNOWN_TOPIC_OR_PARTITION, Missing, Resolution, resolve


def topic(name: str, partitions: int, *, internal: bool = False, error: str | None = None) -> TopicInfo:
    return TopicInfo(
        name,
        tuple(PartitionInfo(name, p, leader=1) for p in range(partitions)),
        internal=internal,
        error=error,
    )


def cluster(*topics: TopicInfo) -> ClusterMetadata:
    return ClusterMetadata({t.name: t for t in topics})


def tps(*pairs: tuple[str, int]) -> tuple[TopicPartition, ...]:
    return tuple(TopicPartition(t, p) for t, p in pairs)


def tp_filter(text: str) -> Selection:
    return parse_selection(topic_partitions=text)


# ----------------------------------------------------------------------------- Kafka's parsing tests


# (pattern, allowed topics, refused topics, allowed (topic, p), refused (topic, p)): GetOffsetShellParsingTest
KAFKA_PARSING_CASES = [
    (
        "test",
        ["test"],
        ["test1", "__consumer_offsets"],
        [("test", 0), ("test", 1)],
        [("test1", 0), ("__consumer_offsets", 0)],
    ),
    (
        "__consumer_offsets",
        ["__consumer_offsets"],
        ["test1", "test2"],
        [("__consumer_offsets", 0), ("__consumer_offsets", 1)],
        [("test1", 0), ("test2", 0)],
    ),
    (
        "test,test1,__consumer_offsets",
        ["test", "test1", "__consumer_offsets"],
        ["test2"],
        [("test", 0), ("test1", 1), ("__consumer_offsets", 0)],
        [("test2", 0)],
    ),
    (
        "test.*",
        ["test", "test1", "test2"],
        ["__consumer_offsets"],
        [("test", 0), ("test1", 1), ("test2", 0)],
        [("__consumer_offsets", 0)],
    ),
    (
        ":0",
        ["test", "test1", "test2", "__consumer_offsets"],
        [],
        [("test", 0), ("test1", 0), ("__consumer_offsets", 0)],
        [("test2", 1), ("__consumer_offsets", 1)],
    ),
    (
        ":1-3",
        ["test", "test1", "__consumer_offsets", "test2"],
        [],
        [("test", 1), ("test1", 2), ("__consumer_offsets", 2)],
        [("test2", 0), ("test2", 3), ("__consumer_offsets", 3)],
    ),
    (
        ":1-",
        ["test", "test1", "test2", "__consumer_offsets"],
        [],
        [("test", 1), ("test1", 2), ("__consumer_offsets", 2)],
        [("test2", 0), ("__consumer_offsets", 0)],
    ),
    (
        ":-3",
        ["test", "test1", "test2", "test3", "__consumer_offsets"],
        [],
        [("test", 0), ("test1", 1), ("test2", 2), ("__consumer_offsets", 2)],
        [("test3", 3), ("__consumer_offsets", 3)],
    ),
    (
        "test.*:0,__consumer_offsets:1-2,.*:3",
        ["test", "test1", "custom", "__consumer_offsets"],
        [],
        [("test", 0), ("test1", 0), ("custom", 3), ("__consumer_offsets", 1), ("__consumer_offsets", 3)],
        [("test", 1), ("test1", 1), ("custom", 0), ("__consumer_offsets", 0), ("__consumer_offsets", 2)],
    ),
    (":1", [], [], [("test", 1)], [("test", 0), ("test", 2)]),
    (":1-3", [], [], [("test", 1), ("test", 2)], [("test", 0), ("test", 3), ("test", 4), ("test", 5)]),
    (":3-", [], [], [("test", 3), ("test", 4), ("test", 5)], [("test", 0), ("test", 1), ("test", 2)]),
    (":-3", [], [], [("test", 0), ("test", 1), ("test", 2)], [("test", 3), ("test", 4), ("test", 5)]),
]


@pytest.mark.parametrize(("pattern", "yes_topics", "no_topics", "yes", "no"), KAFKA_PARSING_CASES)
def test_kafka_parsing_cases(
    pattern: str,
    yes_topics: list[str],
    no_topics: list[str],
    yes: list[tuple[str, int]],
    no: list[tuple[str, int]],
) -> None:
    sel = tp_filter(pattern)
    for t in yes_topics:
        assert sel.allows_topic(t), t
    for t in no_topics:
        assert not sel.allows_topic(t), t
    for t, p in yes:
        assert sel.allows(t, p), (t, p)
    for t, p in no:
        assert not sel.allows(t, p), (t, p)


def test_kafka_partitions_set_filter() -> None:
    """GetOffsetShellParsingTest.testPartitionsSetFilter: --topic topic --partitions 1,3,5."""
    sel = parse_selection(topics=["topic"], partitions="1,3,5")
    for p in (0, 2, 4):
        assert not sel.allows("topic", p)
    assert not sel.allows("topic1", 1)
    assert not sel.allows_topic("topic1")
    for p in (1, 3, 5):
        assert sel.allows("topic", p)
    assert sel.allows_topic("topic")


# The cluster of Kafka's GetOffsetShellTest: topicN has N partitions, 4 offsets partitions.
KAFKA_CLUSTER = cluster(
    topic("__consumer_offsets", 4, internal=True),
    *(topic(f"topic{i}", i) for i in range(5)),
)
ALL_TEST_TOPICS = tuple(TopicPartition(f"topic{i}", p) for i in range(5) for p in range(i))
OFFSETS = tps(*(("__consumer_offsets", p) for p in range(4)))


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, OFFSETS + ALL_TEST_TOPICS),  # testNoFilterOptions
        ({"exclude_internal": True}, ALL_TEST_TOPICS),  # testInternalExcluded
        ({"topics": ["topic3"]}, tps(("topic3", 0), ("topic3", 1), ("topic3", 2))),  # testTopicNameArg
        ({"topics": ["topic.*"]}, ALL_TEST_TOPICS),  # testTopicPatternArg
        (
            {"partitions": "0,1"},
            tuple(tp for tp in OFFSETS + ALL_TEST_TOPICS if tp.partition <= 1),
        ),  # testPartitionsArg
        (
            {"topics": ["topic.*"], "partitions": "0,1"},
            tuple(tp for tp in ALL_TEST_TOPICS if tp.partition <= 1),
        ),  # testTopicPatternArgWithPartitionsArg
        (
            {"topic_partitions": "topic1:0,topic2:1,topic(3|4):2,__.*:3"},
            tps(("__consumer_offsets", 3), ("topic1", 0), ("topic2", 1), ("topic3", 2), ("topic4", 2)),
        ),  # testTopicPartitionsArg
        (
            {"topic_partitions": "topic.*:0"},
            tps(("topic1", 0), ("topic2", 0), ("topic3", 0), ("topic4", 0)),
        ),  # testGetLatestOffsets
        (
            {"topic_partitions": "topic1:0,topic2:1,topic(3|4):2,__.*:3", "exclude_internal": True},
            tps(("topic1", 0), ("topic2", 1), ("topic3", 2), ("topic4", 2)),
        ),  # testTopicPartitionsArgWithInternalExcluded
        ({"topic_partitions": "__.*:0"}, tps(("__consumer_offsets", 0))),  # ...WithInternalIncluded
    ],
)
def test_kafka_get_offset_shell_cases(
    kwargs: dict[str, object], expected: tuple[TopicPartition, ...]
) -> None:
    res = resolve(parse_selection(**kwargs), KAFKA_CLUSTER)  # type: ignore[arg-type]
    assert res.partitions == tuple(sorted(expected))
    assert res.missing == ()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"topics": ["some_nonexistent_topic"]},  # reported as missing rather than an empty result
        {"topic_partitions": "__consumer_offsets", "exclude_internal": True},
    ],
)
def test_kafka_not_found_cases(kwargs: dict[str, object]) -> None:
    res = resolve(parse_selection(**kwargs), KAFKA_CLUSTER)  # type: ignore[arg-type]
    assert res.partitions == ()
    if res.missing:
        assert res.missing == (Missing("some_nonexistent_topic", None, UNKNOWN_TOPIC_OR_PARTITION),)
        res.require_any()  # something to report: not "nothing matched"
    else:
        with pytest.raises(NotFound):
            res.require_any()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"topic_partitions": "__consumer_offsets", "topics": ["topic1"]},
        {"topic_partitions": "__consumer_offsets", "partitions": "0"},
        {"topic_partitions": "x", "partitions": ""},
        {"topic_partitions": "", "topics": [""]},
    ],
)
def test_topic_partitions_excludes_topic_and_partitions(kwargs: dict[str, object]) -> None:
    with pytest.raises(UsageError, match="--topic-partitions cannot be used with --topic or --partitions"):
        parse_selection(**kwargs)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- --topic-partitions grammar


def test_documented_example() -> None:
    """The example in GetOffsetShell's --topic-partitions help text."""
    rules = parse_topic_partitions("topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3")
    assert rules == (
        TopicRule("topic1", (PartitionRange(1, 2),)),
        TopicRule("topic2", (PartitionRange(0, 3),)),
        TopicRule("topic3", ()),
        TopicRule("topic4", (PartitionRange(5, None),)),
        TopicRule("topic5", (PartitionRange(0, 3),)),
    )
    md = cluster(*(topic(f"topic{i}", 8) for i in range(1, 7)))
    res = resolve(tp_filter("topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3"), md)
    assert res.partitions == tps(
        ("topic1", 1),
        *(("topic2", p) for p in (0, 1, 2)),
        *(("topic3", p) for p in range(8)),
        *(("topic4", p) for p in (5, 6, 7)),
        *(("topic5", p) for p in (0, 1, 2)),
    )
    assert res.missing == ()


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("t", [("t", ())]),
        ("t:", [("t", ())]),  # empty partition part: all
        ("t:-", [("t", ())]),  # range without bounds: all
        ("t:7", [("t", ((7, 8),))]),
        ("t:2-4", [("t", ((2, 4),))]),
        ("t:4-2", [("t", ((4, 2),))]),  # accepted, selects nothing (as Kafka)
        ("t:5-", [("t", ((5, None),))]),
        ("t:-3", [("t", ((0, 3),))]),
        (":2", [(".*", ((2, 3),))]),
        ("", [(".*", ())]),  # Java's "".split(",") is [""]: one rule matching everything
        ("a,", [("a", ())]),  # trailing empty items are dropped (String.split)
        ("a,,,", [("a", ())]),
        (",", []),  # only commas: no rule at all, matches nothing
        ("a,,b", [("a", ()), (".*", ()), ("b", ())]),  # an empty item in the middle matches everything
        (" a ", [("a", ())]),  # IncludeList trims
        ("'a'", [("a", ())]),  # ... and strips quotes
        ('"a.*":1', [("a.*", ((1, 2),))]),
        (" ", [("", ())]),  # non-empty topic part that trims to "": matches no topic
        ("t:2147483647", [("t", ((INT_MAX, INT_MAX + 1),))]),
        ("t:007", [("t", ((7, 8),))]),
        ("topic(3|4):2", [("topic(3|4)", ((2, 3),))]),
    ],
)
def test_topic_partitions_grammar(
    text: str, rules: list[tuple[str, tuple[tuple[int, int | None], ...]]]
) -> None:
    expected = tuple(TopicRule(r, tuple(PartitionRange(lo, hi) for lo, hi in ranges)) for r, ranges in rules)
    assert parse_topic_partitions(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("t:a", "invalid --topic-partitions rule 't:a'"),
        ("t:1:2", "invalid --topic-partitions rule 't:1:2'"),
        ("t:1-2-3", "invalid --topic-partitions rule 't:1-2-3'"),
        ("t: 1", "invalid --topic-partitions rule 't: 1'"),
        ("t:+1", "invalid --topic-partitions rule"),
        ("ok,t:x", "invalid --topic-partitions rule 't:x'"),
        ("(?:a):1", "invalid --topic-partitions rule"),  # ':' cannot appear in the topic regex
        ("t:2147483648", "too large"),
        ("t:0-99999999999", "too large"),
        ("t[:1", "invalid topic regex 't['"),
        ("(", "invalid topic regex '('"),
        ("*", "invalid topic regex '*'"),
    ],
)
def test_topic_partitions_rejects(text: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        tp_filter(text)
    assert message in str(info.value)


def test_whole_name_match() -> None:
    sel = tp_filter("test")
    assert not sel.allows_topic("test1")
    assert not sel.allows_topic("atest")
    sel = parse_selection(topics=["t.st"])
    assert sel.allows_topic("test") and sel.allows_topic("t.st") and not sel.allows_topic("tests")


def test_regexes_are_ascii_like_java() -> None:
    sel = parse_selection(topics=[r"\w+"])
    assert sel.allows_topic("abc_1")
    assert not sel.allows_topic("caf\u00e9")


# ----------------------------------------------------------------------------- --topic / --partitions


def test_topic_is_an_include_list() -> None:
    sel = parse_selection(topics=["a,b"])  # Kafka's IncludeList: ',' means '|'
    assert sel.rules == (TopicRule("a|b"),)
    assert sel.allows_topic("a") and sel.allows_topic("b") and not sel.allows_topic("a,b")
    assert parse_selection(topics=[" 'orders' "]).rules == (TopicRule("orders"),)
    assert parse_selection(topics=["a b"]).rules == (TopicRule("ab"),)


def test_topic_repeated_is_a_union() -> None:
    sel = parse_selection(topics=["a", "b.*", "a"], partitions="1")
    assert sel.rules == (TopicRule("a", (PartitionRange(1, 2),)), TopicRule("b.*", (PartitionRange(1, 2),)))
    assert sel.allows("a", 1) and sel.allows("bee", 1) and not sel.allows("a", 0) and not sel.allows("c", 1)


def test_default_selects_everything() -> None:
    sel = parse_selection()
    assert sel.rules == (TopicRule(".*"),)
    assert sel.allows("anything", 12345)


def test_empty_topic_matches_nothing() -> None:
    """As Kafka: `--topic ""` is the regex "" (unlike an empty --topic-partitions topic part)."""
    assert not parse_selection(topics=[""]).allows_topic("x")
    assert resolve(parse_selection(topics=[""]), KAFKA_CLUSTER).empty


@pytest.mark.parametrize(
    ("text", "ranges"),
    [
        (None, ()),
        ("", ()),
        ("0", ((0, 1),)),
        ("1,3,5", ((1, 2), (3, 4), (5, 6))),
        ("1,2,", ((1, 2), (2, 3))),  # trailing commas dropped, as Java's split
        (" 1 , 2 ", ((1, 2), (2, 3))),
        ("2-4", ((2, 4),)),
        ("5-", ((5, None),)),
        ("0,2-4,9-", ((0, 1), (2, 4), (9, None))),
        ("3,3", ((3, 4),)),
    ],
)
def test_partitions_grammar(text: str | None, ranges: tuple[tuple[int, int | None], ...]) -> None:
    assert parse_partitions(text) == tuple(PartitionRange(lo, hi) for lo, hi in ranges)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "invalid --partitions item 'x'"),
        ("1,,2", "invalid --partitions item ''"),
        (" ", "invalid --partitions item ''"),
        ("-3", "write 0-3"),
        ("4-2", "empty --partitions range '4-2'"),
        ("2-2", "empty --partitions range"),
        ("1.5", "invalid --partitions item"),
        ("2147483648", "too large"),
        ("+1", "invalid --partitions item"),
        ("\u0661", "invalid --partitions item"),
    ],
)
def test_partitions_rejects(text: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_selection(partitions=text)
    assert message in str(info.value)


def test_partition_range_exclusive_upper_bound() -> None:
    sel = parse_selection(topics=["t"], partitions="2-4")
    assert [p for p in range(6) if sel.allows("t", p)] == [2, 3]


# ----------------------------------------------------------------------------- resolve


def test_resolve_sorted_and_unique() -> None:
    md = cluster(topic("b", 3), topic("a", 12))
    res = resolve(tp_filter("b,a:10-,a:1,.*:1,a:11"), md)
    assert res.partitions == tps(("a", 1), ("a", 10), ("a", 11), ("b", 0), ("b", 1), ("b", 2))
    assert res.topics == ("a", "b")


def test_missing_plain_topic_reported() -> None:
    md = cluster(topic("orders", 3))
    res = resolve(parse_selection(topics=["orders", "nope", "pay.*"]), md)
    assert res.partitions == tps(("orders", 0), ("orders", 1), ("orders", 2))
    assert res.missing == (Missing("nope", None, UNKNOWN_TOPIC_OR_PARTITION),)  # regexes are not reported


def test_missing_names_of_an_include_list() -> None:
    md = cluster(topic("a", 1))
    res = resolve(parse_selection(topics=["a,b,c"]), md)
    assert res.partitions == tps(("a", 0))
    assert res.missing == (
        Missing("b", None, UNKNOWN_TOPIC_OR_PARTITION),
        Missing("c", None, UNKNOWN_TOPIC_OR_PARTITION),
    )


def test_plain_name_that_matches_as_a_regex_is_not_missing() -> None:
    md = cluster(topic("my_topic", 1))
    res = resolve(parse_selection(topics=["my.topic"]), md)
    assert res.partitions == tps(("my_topic", 0))  # Kafka semantics: '.' is a regex
    assert res.missing == ()


def test_missing_partitions_reported() -> None:
    md = cluster(topic("t", 3), topic("u", 2))
    res = resolve(tp_filter("t:1,t:7,u:1-4,t:5-,:9"), md)
    assert res.partitions == tps(("t", 1), ("u", 1))
    assert res.missing == (
        Missing("t", 7, UNKNOWN_TOPIC_OR_PARTITION),
        Missing("u", 2, UNKNOWN_TOPIC_OR_PARTITION),
        Missing("u", 3, UNKNOWN_TOPIC_OR_PARTITION),
    )
    res = resolve(parse_selection(topics=["t", "u"], partitions="0,2-5"), md)
    assert res.partitions == tps(("t", 0), ("t", 2), ("u", 0))
    assert [(m.topic, m.partition) for m in res.missing] == [("t", 3), ("t", 4), ("u", 2), ("u", 3), ("u", 4)]


def test_open_or_huge_ranges_report_nothing() -> None:
    md = cluster(topic("t", 3))
    for text in ("t:5-", f"t:0-{MAX_REPORTED_RANGE + 1}", "t:9-4"):
        assert resolve(tp_filter(text), md).missing == ()
    res = resolve(tp_filter(f"t:0-{MAX_REPORTED_RANGE}"), md)
    assert len(res.missing) == MAX_REPORTED_RANGE - 3


def test_missing_topic_and_partition() -> None:
    res = resolve(tp_filter("nope:3"), cluster(topic("t", 1)))
    assert res.missing == (Missing("nope", None, UNKNOWN_TOPIC_OR_PARTITION),)


def test_topic_errors_reported() -> None:
    md = cluster(
        topic("secret", 0, error="TOPIC_AUTHORIZATION_FAILED"),
        topic("gone", 0, error=UNKNOWN_TOPIC_OR_PARTITION),
        topic("ok", 2),
    )
    res = resolve(parse_selection(), md)
    assert res.partitions == tps(("ok", 0), ("ok", 1))
    assert res.missing == (
        Missing("gone", None, UNKNOWN_TOPIC_OR_PARTITION),
        Missing("secret", None, "TOPIC_AUTHORIZATION_FAILED"),
    )
    res = resolve(tp_filter("secret:1,ok"), md)  # once, not also as a missing partition
    assert res.missing == (Missing("secret", None, "TOPIC_AUTHORIZATION_FAILED"),)
    assert resolve(parse_selection(topics=["ok"]), md).missing == ()  # not named: not reported


def test_exclude_internal_uses_the_metadata_flag() -> None:
    md = cluster(
        topic("__consumer_offsets", 2, internal=True),
        topic("__not_flagged", 1),
        topic("flagged", 1, internal=True),
    )
    res = resolve(parse_selection(exclude_internal=True), md)
    assert res.partitions == tps(("__not_flagged", 0))
    res = resolve(parse_selection(topics=["__consumer_offsets"], partitions="5", exclude_internal=True), md)
    assert res.empty  # excluded on purpose: neither selected nor missing
    with pytest.raises(NotFound) as info:
        res.require_any()
    assert "internal topics excluded" in str(info.value)
    res = resolve(parse_selection(topics=["__consumer_offsets"], partitions="5"), md)
    assert res.missing == (Missing("__consumer_offsets", 5, UNKNOWN_TOPIC_OR_PARTITION),)


def test_partition_errors_are_kept() -> None:
    """A partition without a leader is still selected; ListOffsets reports its error."""
    md = ClusterMetadata(
        {"t": TopicInfo("t", (PartitionInfo("t", 0, leader=-1, error="LEADER_NOT_AVAILABLE"),))}
    )
    assert resolve(parse_selection(), md).partitions == tps(("t", 0))


def test_require_any_and_describe_empty() -> None:
    md = cluster(topic("t", 2))
    res = resolve(tp_filter("x.*:1"), md)
    assert res.empty
    with pytest.raises(NotFound) as info:
        res.require_any()
    assert "--topic-partitions 'x.*:1'" in str(info.value)
    assert info.value.hint is not None and "whole topic name" in info.value.hint
    assert res.describe_empty() == str(info.value)
    ok = resolve(tp_filter("t"), md)
    assert ok.require_any() is ok
    assert "the selection" in Resolution(()).describe_empty()


@pytest.mark.parametrize(
    ("kwargs", "summary"),
    [
        ({}, "all topics"),
        ({"topics": ["orders"]}, "topic orders"),
        ({"topics": ["orders", "payments"]}, "topics orders, payments"),
        ({"topics": ["a,b"]}, "topics a, b"),
        ({"topics": ["ord.*"]}, "topics matching 'ord.*'"),
        ({"topics": ["orders"], "partitions": "3"}, "topic orders partition 3"),
        ({"partitions": "0,2-4,7-"}, "all topics partitions 0,2-4,7-"),
        ({"topic_partitions": "a:1,b"}, "--topic-partitions 'a:1,b'"),
        ({"exclude_internal": True}, "all topics (internal topics excluded)"),
    ],
)
def test_selection_summary(kwargs: dict[str, object], summary: str) -> None:
    assert selection_summary(parse_selection(**kwargs)) == summary  # type: ignore[arg-type]


def test_literal_topics() -> None:
    assert parse_selection(topics=["a", "b,c"]).literal_topics() == ("a", "b", "c")
    assert parse_selection(topics=["a", "b.*"]).literal_topics() is None
    assert parse_selection().literal_topics() is None
    assert tp_filter("a:1,a:2").literal_topics() == ("a",)
    assert tp_filter(":1").literal_topics() is None


# ----------------------------------------------------------------------------- properties


@given(st.text(max_size=30))
@example("a" * 10 + ":" + "9" * 40)
@example("(" * 200)
@example("a{99999999999}")
@example("\x00:1")
def test_parse_topic_partitions_total(text: str) -> None:
    try:
        sel = tp_filter(text)
    except UsageError:
        return
    assert isinstance(sel, Selection)
    for rule in sel.rules:
        assert all(0 <= r.lower <= INT_MAX for r in rule.partitions)


@given(st.lists(st.text(max_size=12), max_size=3), st.one_of(st.none(), st.text(max_size=12)), st.booleans())
@example(["[a-"], None, False)
@example([], "-1", False)
def test_parse_selection_total(topics: list[str], partitions: str | None, exclude: bool) -> None:
    try:
        sel = parse_selection(topics, partitions, exclude_internal=exclude)
    except UsageError:
        return
    assert sel.rules and sel.exclude_internal is exclude


NAMES = ["a", "b", "ab", "a.b", "__c"]
metadata_st = st.dictionaries(
    st.sampled_from(NAMES),
    st.tuples(
        st.integers(0, 6),
        st.booleans(),
        st.sampled_from([None, None, None, "TOPIC_AUTHORIZATION_FAILED"]),
    ),
).map(lambda d: cluster(*(topic(n, k, internal=i, error=e) for n, (k, i, e) in d.items())))

# A rule as (topic regex or "", partition form); the oracle below interprets it independently.
PartForm = tuple[str, int, int]
part_forms = st.tuples(
    st.sampled_from(["all", "one", "range", "from", "below"]), st.integers(0, 8), st.integers(0, 8)
)
rule_st = st.tuples(st.sampled_from(["", "a", "b", "ab", "a.b", "a.*", "__.*", "zz"]), part_forms)


def rule_text(regex: str, form: PartForm) -> str:
    kind, x, y = form
    return (
        regex + {"all": "", "one": f":{x}", "range": f":{x}-{y}", "from": f":{x}-", "below": f":-{y}"}[kind]
    )


def oracle_allows(regex: str, form: PartForm, t: str, p: int) -> bool:
    if regex and re.fullmatch(regex, t) is None:
        return False
    kind, x, y = form
    return {"all": True, "one": p == x, "range": x <= p < y, "from": p >= x, "below": p < y}[kind]


@given(metadata_st, st.lists(rule_st, min_size=1, max_size=4), st.booleans())
def test_resolve_matches_the_getoffsetshell_filter(
    md: ClusterMetadata, rules: list[tuple[str, PartForm]], exclude: bool
) -> None:
    items = [rule_text(r, f) for r, f in rules]
    text = ",".join(items)
    res = resolve(parse_selection(topic_partitions=text, exclude_internal=exclude), md)
    if len(items) > 1:  # Java's String.split drops trailing empty items (and with them, their rules)
        while items and items[-1] == "":
            items.pop()
        rules = rules[: len(items)]
    expected = sorted(
        TopicPartition(name, p.partition)
        for name, info in md.topics.items()
        if info.error is None and not (exclude and info.internal)
        for p in info.partitions
        if any(oracle_allows(r, f, name, p.partition) for r, f in rules)
    )
    assert list(res.partitions) == expected
    # missing never overlaps what was found, and names only selected topics
    found = set(res.partitions)
    for m in res.missing:
        if m.partition is not None:
            assert TopicPartition(m.topic, m.partition) not in found
            assert m.topic in md.topics and m.partition >= len(md.topics[m.topic].partitions)
        else:
            assert m.topic not in md.topics or md.topics[m.topic].error == m.error
    assert len(set(res.missing)) == len(res.missing)
    # errors of selected topics are always reported
    for name, info in md.topics.items():
        if (
            info.error
            and not (exclude and info.internal)
            and any(r == "" or re.fullmatch(r, name) for r, _ in rules)
        ):
            assert Missing(name, None, info.error) in res.missing
    if res.empty:
        with pytest.raises(NotFound):
            res.require_any()
    else:
        assert res.require_any() is res


_LEGAL = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


@given(
    st.text(alphabet="abcXYZ019_-", max_size=6),
    st.text(alphabet="abcXYZ019_-", max_size=6),
    st.sampled_from(_LEGAL),
    st.text(alphabet=_LEGAL, min_size=1, max_size=14),
)
def test_topic_candidates_are_exactly_the_names_a_plain_name_matches(
    head: str, tail: str, middle: str, probe: str
) -> None:
    from kafka_offsets_cli.plan.resolve import LEGAL_TOPIC_CHARS, topic_candidates

    assert sorted(LEGAL_TOPIC_CHARS) == sorted(_LEGAL)
    name = f"{head}.{tail}"
    cands = topic_candidates(parse_selection(topics=[name]))
    assert cands is not None and len(cands) == len(LEGAL_TOPIC_CHARS)
    assert all(re.fullmatch(name, c, re.ASCII) for c in cands)
    for candidate in (probe, head + middle + tail):  # any name; one of the shape
        assert (re.fullmatch(name, candidate, re.ASCII) is not None) == (candidate in cands)
    plain = head + tail or "x"
    assert topic_candidates(parse_selection(topics=[plain])) == (plain,)


def test_topic_candidates_give_up_on_regexes_and_several_dots() -> None:
    from kafka_offsets_cli.plan.resolve import topic_candidates

    assert topic_candidates(parse_selection(topics=["orders.*"])) is None
    assert topic_candidates(parse_selection(topics=["a.b.c"])) is None
    assert topic_candidates(parse_selection(topics=[])) is None
    assert topic_candidates(parse_selection(topic_partitions="a:0,b.c:1-3")) is not None
