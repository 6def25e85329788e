"""Plan files: the CSV ``kafka-consumer-groups --reset-offsets`` exports and reads with ``--from-file``.

Two formats, as in Kafka's ``ConsumerGroupCommand`` (``CsvUtils``), headerless:

* ``topic,partition,offset``: a plan for the one group named with ``--group``;
* ``group,topic,partition,offset``: any number of groups.

Kafka reads the first line with the three-column schema: when that works and exactly one
``--group`` is named, every line is a three-column line for that group; otherwise every
line is a four-column line. Kafka's reader has no comments (a ``#`` line is read as a
topic), so what this tool records beside a plan goes in a separate file,
``FILE.seen``: the group's committed offsets when the plan was made, which
``rewind --from-file FILE`` compares with the group's offsets before it commits.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

from ..errors import NotFound, UsageError
from ..models.topics import TopicPartition
from ..parse.java_regex import compile_java_regex
from .identity import ClusterIdentity, identity_lines
from .plan import Plan

__all__ = [
    "SEEN_SUFFIX",
    "FileOffsets",
    "export_csv",
    "groups_to_apply",
    "moved",
    "parse_plan_file",
    "parse_seen",
    "seen_csv",
    "undo_csv",
]

#: Offsets per group, per partition, as a plan file holds them.
FileOffsets = dict[str, dict[TopicPartition, int]]

#: The file beside a plan that records the committed offsets seen when it was made.
SEEN_SUFFIX = ".seen"
_MAX_OFFSET = 2**63 - 1


def _csv_line(fields: Iterable[object]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(list(fields))
    return buf.getvalue()


def export_csv(plans: Sequence[Plan], *, with_group: bool | None = None) -> str:
    """The plans' planned offsets as Kafka's ``--export`` writes them, sorted by group, topic, partition.

    ``with_group`` ``None``: one group's plan in the three-column format (what Kafka's tool
    writes for one ``--group``), several groups' in the four-column one.
    A ``--delete-offsets`` plan's lines hold the offsets it deletes (the committed ones), which
    ``--from-file FILE --delete-offsets`` deletes after checking that they have not moved.
    """
    if with_group is None:
        with_group = len(plans) != 1
    out = []
    for plan in sorted(plans, key=lambda p: p.group):
        for r in sorted(plan.planned, key=lambda r: (r.topic, r.partition)):
            head = [r.group] if with_group else []
            offset = r.current if r.target is None else r.target  # --delete-offsets: what it deletes
            out.append(_csv_line([*head, r.topic, r.partition, offset]))
    return "".join(out)


def undo_csv(plans: Sequence[Plan]) -> tuple[str, list[str]]:
    """The groups' offsets before the reset, as a four-column plan that puts them back.

    Returns the file's text and the ``group topic:partition`` of the planned partitions that
    had no committed offset: a plan file cannot say "no offset", so those stay as reset
    (``kafka-offsets rewind --delete-offsets`` removes them).
    """
    out, none = [], []
    for plan in sorted(plans, key=lambda p: p.group):
        for r in sorted(plan.planned, key=lambda r: (r.topic, r.partition)):
            if r.current is None:
                none.append(f"{r.group} {r.topic}:{r.partition}")
            else:
                out.append(_csv_line([r.group, r.topic, r.partition, r.current]))
    return "".join(out), none


def seen_csv(
    plans: Sequence[Plan],
    *,
    planned_at: str,
    offsets: str = "current",
    cluster: ClusterIdentity | None = None,
) -> str:
    """The ``FILE.seen`` record: each planned partition's committed offset (empty: none) when planned,
    and the ``cluster`` it was planned on (``#`` lines, see :mod:`.identity`).

    ``offsets`` ``"target"`` records the plan's own offsets instead (beside an undo file: the
    offsets the reset committed, so a rollback notices consumption after the reset).
    """
    lines = [
        "# kafka-offsets: the committed offsets seen when the plan beside this file was made "
        f"({planned_at}); `kafka-offsets rewind --from-file` refuses the plan if they have moved, "
        "or if it is applied to another cluster\n",
        identity_lines(cluster) if cluster else "",
    ]
    for plan in sorted(plans, key=lambda p: p.group):
        for r in sorted(plan.planned, key=lambda r: (r.topic, r.partition)):
            off = r.current if offsets == "current" else r.target
            lines.append(_csv_line([r.group, r.topic, r.partition, "" if off is None else off]))
    return "".join(lines)


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """Numbered CSV lines; Kafka splits on ``\\n`` (a trailing ``\\r`` and blank lines are dropped here)."""
    out = []
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if line.strip():
            out.append((n, next(csv.reader([line]))))
    return out


def _number(text: str, what: str, where: str, *, top: int) -> int:
    s = text.strip()
    if not s.isascii() or not s.isdigit() or int(s) > top:
        raise UsageError(f"{where}: invalid {what} {text!r} (a whole number from 0 to {top})")
    return int(s)


def parse_plan_file(text: str, path: str, single_group: str | None) -> FileOffsets:
    """Read a plan file as Kafka's ``--from-file`` does: ``{group: {partition: offset}}``.

    ``single_group`` is the group when exactly one ``--group`` was named: then a file whose
    first line has three columns is that group's plan. Otherwise every line must have four.
    A later line for the same group and partition replaces an earlier one (Kafka's map).
    """
    lines = _lines(text)
    if not lines:
        raise UsageError(f"{path}: the plan file is empty")
    three = len(lines[0][1]) == 3
    if three and single_group is None:
        raise UsageError(
            f"{path} is a topic,partition,offset plan (one group's): name its group with one --group"
        )
    want = 3 if three else 4
    out: FileOffsets = {}
    for n, fields in lines:
        where = f"{path}:{n}"
        if len(fields) != want:
            form = "topic,partition,offset" if three else "group,topic,partition,offset"
            raise UsageError(f"{where}: expected {form}, found {len(fields)} field(s)")
        group = single_group if three else fields[0]
        topic, partition, offset = fields[-3:]
        if not group or not topic:
            raise UsageError(f"{where}: empty group or topic")
        tp = TopicPartition(topic, _number(partition, "partition", where, top=2**31 - 1))
        assert group is not None
        out.setdefault(group, {})[tp] = _number(offset, "offset", where, top=_MAX_OFFSET)
    return out


def parse_seen(text: str, path: str) -> dict[str, dict[TopicPartition, int | None]]:
    """Read a ``FILE.seen`` record (``#`` lines are comments; an empty offset: nothing committed)."""
    out: dict[str, dict[TopicPartition, int | None]] = {}
    for n, fields in _lines(text):
        if fields[0].startswith("#"):
            continue
        where = f"{path}:{n}"
        if len(fields) != 4:
            raise UsageError(f"{where}: expected group,topic,partition,offset")
        group, topic, partition, offset = fields
        tp = TopicPartition(topic, _number(partition, "partition", where, top=2**31 - 1))
        off = None if not offset.strip() else _number(offset, "offset", where, top=_MAX_OFFSET)
        out.setdefault(group, {})[tp] = off
    return out


def groups_to_apply(
    in_file: Sequence[str], names: Sequence[str], regexes: Sequence[str], all_groups: bool, path: str
) -> list[str]:
    """The file's groups to apply: all of them, or those ``-g``, ``--group-regex``, ``--all-groups`` pick.

    A ``-g`` group the file has no offsets for is an error (Kafka's tool prints "No reset
    plan for group G found" and resets nothing for it).
    """
    if not names and not regexes:
        return sorted(in_file)
    lacking = [g for g in names if g not in in_file]
    if lacking:
        raise NotFound(
            f"{path} has no offsets for group(s) {', '.join(repr(g) for g in lacking)}",
            hint=f"the file's groups: {', '.join(sorted(in_file))}",
        )
    picked = dict.fromkeys(names)
    for rx in regexes:
        c = compile_java_regex(rx, "--group-regex")  # Java regexes, as lag's --group-regex
        picked.update(dict.fromkeys(g for g in in_file if c.matches(g)))
    if all_groups:
        picked.update(dict.fromkeys(in_file))
    if not picked:
        raise NotFound(f"no group of {path} matched " + ", ".join(repr(r) for r in regexes))
    return sorted(picked)


def moved(
    seen: Mapping[str, Mapping[TopicPartition, int | None]],
    requested: Mapping[str, Mapping[TopicPartition, int]],
    committed: Mapping[str, Mapping[TopicPartition, int | None]],
) -> list[str]:
    """Why the plan no longer fits the group: each partition whose committed offset moved since planning.

    A partition of the plan that the record does not cover counts too (the plan was edited,
    or the record belongs to another plan); one already at the plan's offset does not (applying
    it again changes nothing). Empty: safe to apply.
    """
    out = []
    for group, offsets in sorted(requested.items()):
        was = seen.get(group, {})
        now = committed.get(group, {})
        for tp in sorted(offsets):
            if tp not in was:
                out.append(f"{group} {tp}: not in the record of the planning")
            elif was[tp] != now.get(tp) and now.get(tp) != offsets[tp]:  # already applied: not a move
                then, cur = ("none" if x is None else x for x in (was[tp], now.get(tp)))
                out.append(f"{group} {tp}: {then} when planned, now {cur}")
    return out
