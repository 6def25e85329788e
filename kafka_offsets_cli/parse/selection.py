"""Topic/partition selection with the semantics of Kafka's GetOffsetShell (Kafka 4.x).

Options, as in ``kafka-get-offsets.sh``:

``--topic-partitions LIST``
    Comma-separated rules ``TOPIC_REGEX[:PARTITIONS]``; each item must match
    ``([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?``. An empty topic part
    matches every topic. ``PARTITIONS`` is ``N``, ``N-M`` (lower inclusive,
    upper EXCLUSIVE), ``N-``, ``-M`` or omitted/empty (all partitions). The list
    is split as Java's ``String.split(",")`` does: trailing empty items are
    dropped, an empty item in the middle is a rule matching everything, and a
    list of only commas has no rule (matches nothing). Cannot be combined with
    ``--topic``/``--partitions``.
``--topic REGEX`` (repeatable here; the union is selected)
    Default: every topic. As Kafka's ``IncludeList``, the regex is trimmed,
    spaces are removed, surrounding quotes are stripped and ``,`` means ``|``
    (so ``--topic a,b`` selects ``a`` and ``b``).
``--partitions LIST``
    Comma-separated partition ids (Kafka) - and, an extension of this tool,
    ranges ``N-M`` (upper EXCLUSIVE, as in ``--topic-partitions``) and ``N-``.
    ``-M`` is refused (Kafka would read it as the id -M, which never exists).
    Empty means all partitions.
``--exclude-internal-topics``
    Drops topics the cluster's metadata flags as internal (GetOffsetShell lists
    topics with ``listInternal(false)``); names are not inspected.
``exclude_system`` (no option: the default of ``liveness``, ``lag``, ``tiering`` and ``check``)
    Drops Kafka's own system topics by name
    (:data:`kafka_offsets_cli.system_topics.KAFKA_SYSTEM_TOPICS`), which include
    ``__remote_log_metadata``, a topic the broker does not flag internal.

Regexes are JAVA regular expressions and match the WHOLE topic name (Java's
``String.matches``), as in Kafka: they are translated exactly, or refused with one line
naming the construct, by :mod:`kafka_offsets_cli.parse.java_regex`.

Applying a selection to a cluster's metadata (what is selected, what is missing) is
:mod:`kafka_offsets_cli.plan.resolve`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import UsageError
from .java import include_list_regex, java_split_commas
from .java_regex import JavaPattern, compile_java_regex
from .text import require_utf8

__all__ = [
    "INT_MAX",
    "MAX_REPORTED_RANGE",
    "TOPIC_PARTITION_PATTERN",
    "PartitionRange",
    "Selection",
    "TopicRule",
    "parse_partitions",
    "parse_selection",
    "parse_topic_partitions",
    "selection_summary",
]

#: GetOffsetShell's rule pattern (each comma-separated item must match it whole).
TOPIC_PARTITION_PATTERN = re.compile(r"([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?")

#: Java's ``Integer.MAX_VALUE``: partition numbers are Java ints.
INT_MAX = 2**31 - 1

#: A bounded range wider than this is not treated as naming each of its
#: partitions: ``t:0-100000`` reports no Missing entries for absent partitions.
MAX_REPORTED_RANGE = 1000

_PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]+")

_ID_ITEM = re.compile(r"([0-9]+)(?:(-)([0-9]*))?")


def _partition_number(digits: str, where: str) -> int:
    n = int(digits)
    if n > INT_MAX:
        raise UsageError(f"partition number {digits} in {where} is too large (max {INT_MAX})")
    return n


@dataclass(frozen=True)
class PartitionRange:
    """Partitions ``lower <= p < upper``; ``upper`` ``None`` means no upper bound."""

    lower: int = 0
    upper: int | None = None

    @classmethod
    def single(cls, partition: int) -> PartitionRange:
        """Exactly one partition."""
        return cls(partition, partition + 1)

    def __contains__(self, partition: object) -> bool:
        if not isinstance(partition, int):
            return False
        return partition >= self.lower and (self.upper is None or partition < self.upper)

    @property
    def explicit(self) -> tuple[int, ...]:
        """The partitions this range names one by one (bounded and at most
        :data:`MAX_REPORTED_RANGE` wide), else ``()``."""
        if self.upper is None or self.upper - self.lower > MAX_REPORTED_RANGE:
            return ()
        return tuple(range(self.lower, self.upper))

    def __str__(self) -> str:
        if self.upper is None:
            return f"{self.lower}-"
        if self.upper == self.lower + 1:
            return str(self.lower)
        return f"{self.lower}-{self.upper}"


@dataclass(frozen=True)
class TopicRule:
    """One rule: topics whose whole name matches ``regex``, and some of their partitions.

    ``partitions`` empty means every partition; otherwise a partition is selected
    when any range contains it. The regex is a Java regex, compiled on creation
    (:func:`compile_java_regex`); an invalid or untranslatable one raises :class:`UsageError`.
    """

    regex: str
    partitions: tuple[PartitionRange, ...] = ()
    pattern: JavaPattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        require_utf8("topic regex", [self.regex])  # no topic name can match it: say so, not "nothing matched"
        object.__setattr__(self, "pattern", compile_java_regex(self.regex, "topic regex"))

    def allows_topic(self, topic: str) -> bool:
        """True when the whole topic name matches the regex (Java's ``String.matches``)."""
        return self.pattern.matches(topic)

    def allows_partition(self, partition: int) -> bool:
        """True when the partition number is selected (topic not checked)."""
        return not self.partitions or any(partition in r for r in self.partitions)

    def allows(self, topic: str, partition: int) -> bool:
        """True when this rule selects ``topic:partition``."""
        return self.allows_topic(topic) and self.allows_partition(partition)

    @property
    def literal_names(self) -> tuple[str, ...]:
        """Plain topic names the regex spells out (``orders``, or ``a|b`` -> both), else ``()``.

        A plain name uses only ``[A-Za-z0-9._-]``; such names are reported as
        missing when nothing matches them.
        """
        names = self.regex.split("|")
        if all(_PLAIN_NAME.fullmatch(n) for n in names):
            return tuple(dict.fromkeys(names))
        return ()

    @property
    def explicit_partitions(self) -> tuple[int, ...]:
        """Partition numbers named one by one (single ids and bounded ranges), sorted."""
        return tuple(sorted({p for r in self.partitions for p in r.explicit}))

    def __str__(self) -> str:
        parts = ",".join(str(r) for r in self.partitions)
        return f"{self.regex}:{parts}" if parts else self.regex


@dataclass(frozen=True, kw_only=True)
class Selection:
    """Which topic partitions to query: a union of :class:`TopicRule`.

    ``topics``, ``partitions`` and ``topic_partitions`` keep the user's input
    for messages; ``rules`` is what :func:`resolve` applies.
    """

    rules: tuple[TopicRule, ...]
    exclude_internal: bool = False
    topics: tuple[str, ...] = ()
    partitions: str | None = None
    topic_partitions: str | None = None
    #: leave out Kafka's system topics by name (:mod:`kafka_offsets_cli.system_topics`)
    exclude_system: bool = False

    def allows_topic(self, topic: str) -> bool:
        """True when some rule matches the topic name (internal flag not checked)."""
        return any(r.allows_topic(topic) for r in self.rules)

    def allows(self, topic: str, partition: int) -> bool:
        """True when some rule selects ``topic:partition`` (internal flag not checked)."""
        return any(r.allows(topic, partition) for r in self.rules)

    def literal_topics(self) -> tuple[str, ...] | None:
        """The topic names when every rule spells out plain names, else ``None``.

        Lets a client describe just these topics instead of listing the cluster;
        note that a plain name is still a regex (``a.b`` also matches ``axb``).
        """
        names: list[str] = []
        for rule in self.rules:
            literal = rule.literal_names
            if not literal:
                return None
            names.extend(literal)
        return tuple(dict.fromkeys(names))


def parse_topic_partitions(text: str) -> tuple[TopicRule, ...]:
    """Parse a ``--topic-partitions`` list the way GetOffsetShell does.

    Example: ``topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3`` selects topic1
    partition 1; topic2 partitions 0, 1, 2; all of topic3; topic4 from 5 up;
    topic5 partitions 0, 1, 2. An item that does not match
    :data:`TOPIC_PARTITION_PATTERN` (``a:b``, ``a:1:2``, ``a:1-2-3``), a partition
    number beyond a Java int, or an invalid regex raises :class:`UsageError`.
    """
    rules: list[TopicRule] = []
    for item in java_split_commas(text):
        m = TOPIC_PARTITION_PATTERN.fullmatch(item)
        if m is None:
            raise UsageError(
                f"invalid --topic-partitions rule {item!r}: expected TOPIC_REGEX[:N|N-M|N-|-M] "
                "(range upper bound exclusive), e.g. topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3"
            )
        topic, single, lower, upper = (g if g else None for g in m.groups())
        regex = include_list_regex(topic) if topic is not None else ".*"
        where = f"--topic-partitions rule {item!r}"
        if single is not None:
            ranges: tuple[PartitionRange, ...] = (PartitionRange.single(_partition_number(single, where)),)
        elif lower is None and upper is None:
            ranges = ()
        else:
            lo = _partition_number(lower, where) if lower is not None else 0
            hi = _partition_number(upper, where) if upper is not None else None
            ranges = (PartitionRange(lo, hi),)
        rules.append(TopicRule(regex, ranges))
    return tuple(rules)


def parse_partitions(text: str | None) -> tuple[PartitionRange, ...]:
    """Parse ``--partitions``: comma-separated ids, plus ranges ``N-M`` (upper exclusive) and ``N-``.

    ``None`` or ``""`` means all partitions (``()``). Whitespace around items is
    ignored; trailing commas are dropped as Kafka does; empty items, ``-M``,
    empty ranges (``4-2``) and non-numbers raise :class:`UsageError`.
    """
    if not text:
        return ()
    ranges: list[PartitionRange] = []
    where = f"--partitions {text!r}"
    for raw in java_split_commas(text):
        item = raw.strip()
        m = _ID_ITEM.fullmatch(item)
        if m is None:
            hint = ""
            if re.fullmatch(r"-[0-9]+", item):
                hint = f" (for partitions below {item[1:]} write 0{item})"
            raise UsageError(
                f"invalid --partitions item {item!r} in {text!r}: expected comma-separated "
                f"partition ids or ranges N-M (upper bound exclusive) or N-{hint}"
            )
        first, dash, last = m.groups()
        lo = _partition_number(first, where)
        if dash is None:
            ranges.append(PartitionRange.single(lo))
        elif not last:
            ranges.append(PartitionRange(lo, None))
        else:
            hi = _partition_number(last, where)
            if hi <= lo:
                raise UsageError(
                    f"empty --partitions range {item!r}: the upper bound is exclusive, "
                    f"so {lo}-{lo + 1} selects partition {lo}"
                )
            ranges.append(PartitionRange(lo, hi))
    return tuple(dict.fromkeys(ranges))


def parse_selection(
    topics: Sequence[str] = (),
    partitions: str | None = None,
    topic_partitions: str | None = None,
    exclude_internal: bool = False,
    *,
    exclude_system: bool = False,
) -> Selection:
    """Build a :class:`Selection` from the CLI options (see the module docstring).

    ``topic_partitions`` together with ``topics`` or ``partitions`` (even empty
    ones) raises :class:`UsageError`, as GetOffsetShell does; so do invalid
    regexes, rules and partition lists.
    """
    topics = tuple(topics)
    if topic_partitions is not None:
        if topics or partitions is not None:
            raise UsageError("--topic-partitions cannot be used with --topic or --partitions")
        return Selection(
            rules=parse_topic_partitions(topic_partitions),
            exclude_internal=exclude_internal,
            topic_partitions=topic_partitions,
            exclude_system=exclude_system,
        )
    ranges = parse_partitions(partitions)
    regexes = [include_list_regex(t) for t in topics] or [".*"]
    rules = tuple(TopicRule(r, ranges) for r in dict.fromkeys(regexes))
    return Selection(
        rules=rules,
        exclude_internal=exclude_internal,
        topics=topics,
        partitions=partitions,
        exclude_system=exclude_system,
    )


def _quote(regex: str) -> str:
    return regex if _PLAIN_NAME.fullmatch(regex) else repr(regex)


def selection_summary(selection: Selection) -> str:
    """A short description for messages, e.g. ``topic orders partitions 0,2-4``."""
    if selection.topic_partitions is not None:
        text = f"--topic-partitions {selection.topic_partitions!r}"
    else:
        regexes = [r.regex for r in selection.rules]
        if regexes == [".*"] and not selection.topics:
            text = "all topics"
        else:
            names = [n for r in selection.rules for n in r.literal_names]
            if len(names) == len(regexes) == 1:
                text = f"topic {names[0]}"
            elif names and all(r.literal_names for r in selection.rules):
                text = "topics " + ", ".join(dict.fromkeys(names))
            else:
                text = "topics matching " + ", ".join(_quote(r) for r in regexes)
        ranges = selection.rules[0].partitions if selection.rules else ()
        if ranges:
            single = len(ranges) == 1 and ranges[0].upper == ranges[0].lower + 1
            text += (" partition " if single else " partitions ") + ",".join(str(r) for r in ranges)
    if selection.exclude_internal:
        text += " (internal topics excluded)"
    elif selection.exclude_system:
        text += " (Kafka's system topics excluded)"
    return text
