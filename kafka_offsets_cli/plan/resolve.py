"""A selection applied to a cluster's metadata: the partitions selected, and what is missing.

Unlike GetOffsetShell, :func:`resolve` reports what was asked for but does not
exist (:class:`Missing`) instead of silently dropping it. The grammar of a selection
is :mod:`kafka_offsets_cli.parse.selection`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import NotFound
from ..models.topics import ClusterMetadata, TopicInfo, TopicPartition
from ..parse.java_regex import compile_java_regex
from ..parse.selection import Selection, TopicRule, selection_summary
from ..system_topics import SYSTEM_HINT, is_system_topic

__all__ = [
    "INTERNAL_HINT",
    "LEGAL_TOPIC_CHARS",
    "UNKNOWN_TOPIC_OR_PARTITION",
    "Missing",
    "Resolution",
    "resolve",
    "topic_candidates",
]

#: Kafka's error name for a topic or partition that does not exist.
UNKNOWN_TOPIC_OR_PARTITION = "UNKNOWN_TOPIC_OR_PARTITION"

#: The hint's words when internal topics were left out of a selection that matched nothing.
INTERNAL_HINT = "internal topics are excluded"

#: The characters Kafka allows in a topic name (org.apache.kafka.common.internals.Topic).
LEGAL_TOPIC_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


def topic_candidates(selection: Selection) -> tuple[str, ...] | None:
    """Every topic name ``selection`` can match, when that is a short list; else ``None``.

    A selection that spells out plain names (see :meth:`Selection.literal_topics`) can
    only match names of their shape: ``orders`` is itself, and in ``orders.v1`` the dot,
    a regex wildcard, stands for any of the 65 characters Kafka allows in a topic name.
    Describing those names by name answers the selection exactly without listing the
    whole cluster. ``None`` when a rule is a real regex, or a name has more than one dot
    (65^2 names and more: listing the cluster is cheaper).
    """
    names = selection.literal_topics()
    if names is None:
        return None
    out: list[str] = []
    for name in names:
        dots = name.count(".")
        if dots > 1:
            return None
        if dots == 0:
            out.append(name)
            continue
        head, tail = name.split(".")
        out += [head + c + tail for c in LEGAL_TOPIC_CHARS]
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Missing:
    """Something the selection names that the cluster cannot serve.

    ``partition`` is ``None`` for a whole topic. ``error`` is Kafka's error name
    (``UNKNOWN_TOPIC_OR_PARTITION``, ``TOPIC_AUTHORIZATION_FAILED``…). ``close``: the cluster's
    topic names close to a topic that does not exist (:func:`~.queries.with_close_names`), said as
    "did you mean".
    """

    topic: str
    partition: int | None
    error: str
    close: tuple[str, ...] = ()

    @property
    def hint(self) -> str:
        """`` (did you mean 'orders'?)``, or ``''`` without close names."""
        if not self.close:
            return ""
        return f" (did you mean {' or '.join(repr(n) for n in self.close)}?)"

    def __str__(self) -> str:
        where = self.topic if self.partition is None else f"{self.topic}:{self.partition}"
        return f"{where}: {self.error}{self.hint}"


def _missing_key(m: Missing) -> tuple[str, int, str]:
    return (m.topic, -1 if m.partition is None else m.partition, m.error)


@dataclass(frozen=True)
class Resolution:
    """A selection applied to cluster metadata.

    ``partitions`` are sorted by topic then partition, without duplicates;
    ``missing`` lists what the selection names that does not exist or carries
    an error, sorted the same way (whole topics first).
    """

    partitions: tuple[TopicPartition, ...]
    missing: tuple[Missing, ...] = ()
    selection: Selection | None = None

    @property
    def empty(self) -> bool:
        """True when nothing was selected and nothing is missing."""
        return not self.partitions and not self.missing

    @property
    def topics(self) -> tuple[str, ...]:
        """The distinct topics of :attr:`partitions`, sorted."""
        return tuple(dict.fromkeys(tp.topic for tp in self.partitions))

    def describe_empty(self) -> str:
        """A one-line message for a selection that matched nothing."""
        what = selection_summary(self.selection) if self.selection is not None else "the selection"
        return f"no topic partitions matched {what}"

    def require_any(self) -> Resolution:
        """Return ``self``, or raise :class:`NotFound` when :attr:`empty`."""
        if self.empty:
            hint = "topic regexes must match the whole topic name"
            if self.selection is not None and self.selection.exclude_internal:
                hint += f"; {INTERNAL_HINT}"
            elif self.selection is not None and self.selection.exclude_system:
                hint += f"; {SYSTEM_HINT}"
            raise NotFound(self.describe_empty(), hint=hint)
        return self


def _usable(info: TopicInfo, selection: Selection) -> bool:
    """False for a topic the selection leaves out on purpose: flagged internal by the broker
    (``--exclude-internal-topics``), or one of Kafka's system topics by name (``exclude_system``)."""
    if selection.exclude_internal and info.internal:
        return False
    return not (selection.exclude_system and is_system_topic(info.name))


def resolve(selection: Selection, metadata: ClusterMetadata) -> Resolution:
    """Apply ``selection`` to ``metadata``: the selected partitions and what is missing.

    Selected: every partition of every topic (internal ones unless excluded by
    their metadata flag, Kafka's system topics unless excluded by name) that some rule
    allows. Reported as :class:`Missing`:

    * a topic the selection matches whose metadata carries an error (e.g.
      ``TOPIC_AUTHORIZATION_FAILED``): ``Missing(topic, None, error)``;
    * a plain topic name (see :attr:`TopicRule.literal_names`) that matches no
      topic: ``Missing(name, None, "UNKNOWN_TOPIC_OR_PARTITION")``;
    * a partition named one by one (``t:7``, ``t:0-3``, ``--topic t --partitions 7``)
      that the existing topic ``t`` does not have: ``Missing(t, 7, ...)``.

    Pure: no I/O.
    """
    rules = selection.rules
    found: list[TopicPartition] = []  # built in order: topics sorted, each topic's partitions sorted
    missing: set[Missing] = set()
    usable = [n for n in sorted(metadata.topics) if _usable(metadata.topics[n], selection)]
    for name in usable:
        info = metadata.topics[name]
        matching = [r for r in rules if r.allows_topic(name)]
        if not matching:
            continue
        if info.error is not None:
            missing.add(Missing(name, None, info.error))
            continue
        numbers = {p.partition for p in info.partitions}
        if all(r.partitions for r in matching):  # else some rule takes every partition
            numbers = {n for n in numbers if any(r.allows_partition(n) for r in matching)}
        found += [TopicPartition(name, n) for n in sorted(numbers)]
    for rule in rules:
        for name in rule.literal_names:
            missing.update(_missing_for_literal(rule, name, metadata, usable, selection))
    return Resolution(tuple(found), tuple(sorted(missing, key=_missing_key)), selection)


def _missing_for_literal(
    rule: TopicRule, name: str, metadata: ClusterMetadata, usable: Sequence[str], selection: Selection
) -> Iterator[Missing]:
    info = metadata.topics.get(name)
    if info is None:
        literal = compile_java_regex(name, "topic regex")
        if not any(literal.matches(t) for t in usable):
            yield Missing(name, None, UNKNOWN_TOPIC_OR_PARTITION)
        return
    if info.error is not None or not _usable(info, selection):
        return  # reported above as an error, or excluded on purpose
    existing = {p.partition for p in info.partitions}
    for p in rule.explicit_partitions:
        if p not in existing:
            yield Missing(name, p, UNKNOWN_TOPIC_OR_PARTITION)
