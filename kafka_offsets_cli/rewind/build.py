"""Plan a reset for one or more groups: read their committed offsets and the logs, then decide.

Every group's plan comes from one metadata request, one OffsetFetch round and one set of
ListOffsets calls for all the partitions involved, whatever the number of groups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import KafkaOffsetsError, NotFound
from ..models.offsets import Isolation
from ..models.topics import ClusterMetadata, TopicPartition
from ..parse.selection import Selection
from ..plan.queries import fetch_offsets, selection_metadata, with_close_names
from ..plan.resolve import resolve
from ..sources import RewindSource
from .plan import Plan, PlanRow, Target, make_plan, specs_for

__all__ = ["build_plan", "build_plans", "committed_offsets"]


def committed_offsets(
    source: RewindSource, groups: Sequence[str]
) -> dict[str, dict[TopicPartition, int | None]]:
    """Each group's committed offsets; raises when a group's cannot be read."""
    out: dict[str, dict[TopicPartition, int | None]] = {}
    for res in source.committed_offsets(list(groups)):
        if res.error == "GROUP_ID_NOT_FOUND":  # a new group: nothing committed yet, the reset creates it
            out[res.group] = {}
            continue
        if res.error is not None:
            raise KafkaOffsetsError(f"cannot read the committed offsets of group {res.group!r}: {res.error}")
        out[res.group] = dict(res.offsets)
    return out


def _exists(md: ClusterMetadata, tp: TopicPartition) -> str | None:
    """``None`` when ``tp`` exists in ``md``, else the error it gets."""
    info = md.topics.get(tp.topic)
    if info is None:
        return "UNKNOWN_TOPIC_OR_PARTITION"
    if info.error is not None:
        return info.error
    if tp.partition not in {p.partition for p in info.partitions}:
        return "UNKNOWN_TOPIC_OR_PARTITION"
    return None


def build_plans(
    source: RewindSource,
    groups: Sequence[str],
    target: Target,
    selection: Selection | None,
    requested: Mapping[str, Mapping[TopicPartition, int]] | None = None,
    *,
    isolation: Isolation | None = None,
) -> tuple[Plan, ...]:
    """Plan the reset of each group, sorted by group.

    Partitions: the selection's; else, for ``--from-file``, the file's (``requested``);
    else each group's committed ones. Partitions that do not exist become error rows;
    a selected topic that does not exist is a plan's ``missing_topics``. Raises
    :class:`NotFound` when no group has anything to plan.
    """
    committed = committed_offsets(source, groups)
    md = selection_metadata(source, selection)
    candidates: dict[str, list[TopicPartition]] = {}
    missing_topics: tuple[tuple[str, str], ...] = ()
    gone: dict[str, dict[TopicPartition, str]] = {g: {} for g in groups}
    if selection is not None:
        res = with_close_names(source, md, resolve(selection, md).require_any())
        # the error as shown, with the cluster's close names for a mistyped topic
        missing_topics = tuple((m.topic, m.error + m.hint) for m in res.missing if m.partition is None)
        for g in groups:
            candidates[g] = list(res.partitions)
            for m in res.missing:
                if m.partition is not None:
                    gone[g][TopicPartition(m.topic, m.partition)] = m.error
                else:
                    gone[g].update({tp: m.error for tp in committed[g] if tp.topic == m.topic})
    else:
        for g in groups:
            base = list((requested or {}).get(g, {})) if target.file is not None else list(committed[g])
            candidates[g] = []
            for tp in base:
                err = _exists(md, tp)
                if err is None:
                    candidates[g].append(tp)
                else:
                    gone[g][tp] = err
    if not any(candidates.values()) and not any(gone.values()) and not missing_topics:
        quoted = ", ".join(repr(g) for g in groups)
        raise NotFound(
            f"group {quoted} has no committed offsets"
            if len(groups) == 1
            else f"groups {quoted} have no committed offsets",
            hint="name the topics to reset with --topic (a new group starts from the plan)",
        )
    union = sorted({tp for tps in candidates.values() for tp in tps})
    specs = specs_for(target)
    results = fetch_offsets(source, union, specs, isolation=isolation, leaders=md.leaders()) if union else []
    plans = []
    for g in sorted(groups):
        plan = make_plan(g, target, candidates[g], committed[g], results, (requested or {}).get(g))
        errors = tuple(
            PlanRow(
                group=g,
                topic=tp.topic,
                partition=tp.partition,
                current=committed[g].get(tp),
                target=None,
                log_start=None,
                end=None,
                error=err,
            )
            for tp, err in gone[g].items()
        )
        rows = sorted(plan.rows + errors, key=lambda r: (r.topic, r.partition))
        plans.append(Plan(g, target, tuple(rows), missing_topics))
    return tuple(plans)


def build_plan(source: RewindSource, group: str, target: Target, selection: Selection | None) -> Plan:
    """Plan the reset of one group (see :func:`build_plans`)."""
    [plan] = build_plans(source, [group], target, selection)
    return plan
