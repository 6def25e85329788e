"""Kafka's ``kafka-consumer-groups --reset-offsets`` flags on ``rewind``'s command line.

Operators type Kafka's flags from memory; :func:`translate` maps them, in this one table, to
``rewind``'s own options before the command line is parsed, so that a ``kafka-consumer-groups.sh
--reset-offsets …`` line runs after swapping the program name, with the same plan:

=========================  ==========================================================
Kafka's flag               ``rewind``
=========================  ==========================================================
``--reset-offsets``        (the command itself: dropped)
``--dry-run``              (the default: dropped; refused with ``--execute``)
``--all-topics``           (each group's committed partitions, the default: dropped;
                           refused with ``--topic``)
``--to-earliest``          ``--to earliest``
``--to-latest``            ``--to latest``
``--to-datetime DT``       ``--to DT`` (``YYYY-MM-DDTHH:mm:SS.sss``, a zone optional)
``--by-duration PnDT…``    ``--to PnDT…`` (now minus the duration)
``--export`` (no FILE)     ``--export -`` (the plan's CSV on stdout)
``--topic T:P,P``          ``--topic-partitions T:P,T:P`` (every ``--topic`` of the line)
=========================  ==========================================================

``--to-offset``, ``--shift-by``, ``--to-current``, ``--from-file``, ``--execute``, ``--group``,
``--all-groups``, ``--delete-offsets`` and ``--bootstrap-server`` are ``rewind``'s own options
already, so a ``kafka-consumer-groups.sh --delete-offsets --group G --topic T:0,1`` line runs too
(``--topic T:P,P`` as above; a dry run until ``--execute``, where Kafka's deletes at once).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UsageError

#: flags that become nothing
DROPPED = ("--reset-offsets", "--dry-run", "--all-topics")
#: flags without a value that become a target
FIXED_TARGETS = {"--to-earliest": "earliest", "--to-latest": "latest"}
#: flags with a value that become ``--to VALUE``
VALUE_TARGETS = ("--to-datetime", "--by-duration")
#: ``rewind``'s own target options (one target per command line)
NATIVE_TARGETS = (
    "--to",
    "--to-offset",
    "--to-current",
    "--shift-by",
    "--from-file",
    "--from-cluster",
    "--from-lag-file",
)
ALIASES = (*DROPPED, *FIXED_TARGETS, *VALUE_TARGETS)

#: Kafka's ``--topic TOPIC:P,P`` (a topic name cannot hold ``:``, so this is never a name)
_TOPIC_PARTS = re.compile(r"([A-Za-z0-9._-]+):(\d+(?:,\d+)*)")
#: Kafka's --to-datetime: a date, ``T``, a time (Kafka's Utils.getDateTime needs the ``T``)
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\S+")


@dataclass(frozen=True, kw_only=True)
class _Word:
    flag: str
    value: str | None  # None: a flag without a value


def translate(args: Sequence[str], takes_value: frozenset[str]) -> list[str]:
    """``args`` (``rewind``'s words) with Kafka's reset flags replaced by ``rewind``'s options.

    ``takes_value``: ``rewind``'s options that take a value (their value is never read as a
    flag). Two targets, ``--dry-run`` with ``--execute`` and ``--all-topics`` with ``--topic``
    raise :class:`UsageError` (one line) when one of them is Kafka's spelling; ``rewind``'s own
    options alone are checked as before, by the request.
    """
    words, rest = _words(list(args), takes_value)
    flags = [w.flag for w in words]
    targets = [f for f in flags if f in NATIVE_TARGETS or f in FIXED_TARGETS or f in VALUE_TARGETS]
    kafka_given = any(f in ALIASES for f in flags)
    if kafka_given and len(targets) > 1:
        raise UsageError(f"{targets[0]} and {targets[1]} are both a reset target: give one")
    if "--dry-run" in flags and "--execute" in flags:
        raise UsageError("--dry-run and --execute: give one (without either, rewind is a dry run)")
    topics = [w.value for w in words if w.flag in ("--topic", "-t") and w.value is not None]
    if "--all-topics" in flags and topics:
        raise UsageError("--all-topics and --topic: give one (without either, each group's own partitions)")
    kafka_topics = any(_TOPIC_PARTS.fullmatch(t) for t in topics)
    out: list[str] = []
    for w in words:
        if w.flag in DROPPED:
            continue
        if w.flag in FIXED_TARGETS:
            out += ["--to", FIXED_TARGETS[w.flag]]
        elif w.flag in VALUE_TARGETS:
            out += ["--to", _target_value(w.flag, w.value)]
        elif w.flag == "--export" and w.value is None:
            out += ["--export", "-"]
        elif kafka_topics and w.flag in ("--topic", "-t"):
            continue  # all of them become one --topic-partitions, below
        else:
            out += [w.flag] if w.value is None else [w.flag, w.value]
    if kafka_topics:
        out += ["--topic-partitions", ",".join(_topic_partitions(t) for t in topics)]
    return out + rest


def _words(args: list[str], takes_value: frozenset[str]) -> tuple[list[_Word], list[str]]:
    """The options (with their values) up to ``--``, and what follows it, untouched."""
    words: list[_Word] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return words, args[i:]
        flag, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        if eq:
            words.append(_Word(flag=flag, value=value))
        elif a in VALUE_TARGETS or (a in takes_value and a != "--export"):
            words.append(_Word(flag=a, value=args[i + 1] if i + 1 < len(args) else None))
            i += 1
        elif a == "--export":  # Kafka's --export has no value: a FILE is what does not look like a flag
            nxt = args[i + 1] if i + 1 < len(args) else None
            given = nxt is not None and (nxt == "-" or not nxt.startswith("-"))
            words.append(_Word(flag=a, value=nxt if given else None))
            i += 1 if given else 0
        else:
            words.append(_Word(flag=a, value=None))
        i += 1
    return words, []


def _target_value(flag: str, value: str | None) -> str:
    if value is None:
        raise UsageError(f"{flag} needs a value")
    text = value.strip()
    if flag == "--by-duration" and text[:1] not in "pP":
        raise UsageError(
            f"--by-duration {value!r}: an ISO-8601 duration (PnDTnHnMnS, such as PT6H or P1DT12H), as Kafka's"
        )
    if flag == "--to-datetime" and not _DATETIME.fullmatch(text):
        raise UsageError(
            f"--to-datetime {value!r}: a date and time such as 2026-11-21T06:00:00.000 "
            "(Kafka's YYYY-MM-DDTHH:mm:SS.sss, a zone optional)"
        )
    return text


def _topic_partitions(topic: str) -> str:
    """Kafka's ``t:0,1`` as ``--topic-partitions``' ``t:0,t:1``; a bare ``t`` is every partition (``t:``)."""
    m = _TOPIC_PARTS.fullmatch(topic)
    if m is None:
        return f"{topic}:"
    return ",".join(f"{m.group(1)}:{p}" for p in m.group(2).split(","))
