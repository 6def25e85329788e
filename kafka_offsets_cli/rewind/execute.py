"""The ``rewind`` use case: read the group's committed offsets, build the plan, commit it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import KafkaOffsetsError, NotFound, PartialFailure, Refused
from ..models.topics import TopicPartition
from ..parse.selection import Selection
from ..plan.queries import fetch_offsets, selection_metadata
from ..plan.resolve import resolve
from ..sources import RewindSource
from .plan import Plan, PlanRow, Target, make_plan, mismatches, specs_for


def _committed(source: RewindSource, group: str) -> dict[TopicPartition, int | None]:
    [res] = source.committed_offsets([group])
    if res.error is not None:
        raise KafkaOffsetsError(f"cannot read the committed offsets of group {group!r}: {res.error}")
    return dict(res.offsets)


def build_plan(source: RewindSource, group: str, target: Target, selection: Selection | None) -> Plan:
    """Plan the reset of ``group``: the selected partitions, or (none selected) its committed ones.

    Committed partitions of topics that no longer exist, and selected partitions
    that do not exist, become error rows. Raises :class:`NotFound` when nothing is
    selected.
    """

    committed = _committed(source, group)
    md = selection_metadata(source, selection)
    gone: dict[TopicPartition, str] = {}
    missing_topics: list[tuple[str, str]] = []
    if selection is not None:
        res = resolve(selection, md).require_any()
        partitions = list(res.partitions)
        for m in res.missing:
            if m.partition is not None:
                gone[TopicPartition(m.topic, m.partition)] = m.error
            else:
                missing_topics.append((m.topic, m.error))
                gone.update({tp: m.error for tp in committed if tp.topic == m.topic})
    else:
        if not committed:
            raise NotFound(
                f"group {group!r} has no committed offsets",
                hint="name the topics to reset with --topic (a new group starts from the plan)",
            )
        partitions = []
        for tp in committed:
            info = md.topics.get(tp.topic)
            if (
                info is None
                or info.error is not None
                or tp.partition not in {p.partition for p in info.partitions}
            ):
                gone[tp] = info.error if info is not None and info.error else "UNKNOWN_TOPIC_OR_PARTITION"
            else:
                partitions.append(tp)
    results = fetch_offsets(source, sorted(set(partitions)), specs_for(target), leaders=md.leaders())
    plan = make_plan(group, target, partitions, committed, results)
    if not gone:
        return Plan(group, target, plan.rows, tuple(missing_topics))
    errors = tuple(
        PlanRow(
            group=group,
            topic=tp.topic,
            partition=tp.partition,
            current=committed.get(tp),
            target=None,
            log_start=None,
            end=None,
            note=None,
            error=err,
        )
        for tp, err in gone.items()
    )
    rows = sorted(plan.rows + errors, key=lambda r: (r.topic, r.partition))
    return Plan(group, target, tuple(rows), tuple(missing_topics))


#: What Kafka answers a commit from the admin client (no member id, generation -1) to a group
#: that has members. Apache Kafka says UNKNOWN_MEMBER_ID: so its coordinators' source reads
#: (classic, consumer and streams groups), and so a real 4.3 broker answers for classic and
#: KIP-848 consumer groups (tests/test_rewind_cmd.py). The others are what Kafka-compatible
#: coordinators send for the same state (a rebalance under way, a generation or member epoch
#: the commit lacks); none of them can mean anything else for a commit without a member id.
GROUP_ACTIVE_ERRORS = frozenset(
    {"UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION", "REBALANCE_IN_PROGRESS", "STALE_MEMBER_EPOCH"}
)


def _rejected_as_active(errors: Mapping[TopicPartition, str], wanted: int) -> str | None:
    """The error name when Kafka rejected every offset because the group has members, else ``None``.

    Only a rejection of the whole commit counts ("nothing changed" must be true): when some
    offsets were accepted, or any was rejected for another reason, the failure is partial.
    """
    names = set(errors.values())
    if len(errors) != wanted or not names or not names <= GROUP_ACTIVE_ERRORS:
        return None
    return ", ".join(sorted(names))


@dataclass(frozen=True)
class Execution:
    """What ``--execute`` did: the offsets committed and the group's offsets read back."""

    committed: Mapping[TopicPartition, int]
    read_back: Mapping[TopicPartition, int | None]


def execute(source: RewindSource, plan: Plan) -> Execution:
    """Commit the plan, only if it is complete and the group has no active members; then verify.

    Raises :class:`Refused` (nothing changed) when a selected topic is missing, a
    partition could not be planned, the group cannot be described, or it has
    active members (also when Kafka rejects the whole commit because a member joined
    after that check: :data:`GROUP_ACTIVE_ERRORS`); raises
    :class:`PartialFailure` when Kafka rejected some offsets or the committed offsets
    read back differ from the plan.
    """
    if plan.missing_topics:
        names = ", ".join(f"{t} ({e})" for t, e in plan.missing_topics)
        raise Refused(f"selected topic(s) cannot be reset: {names}; nothing changed")
    if plan.problems:
        bad = ", ".join(f"{r.topic}:{r.partition} ({r.why_not_planned})" for r in plan.problems[:5])
        more = f" and {len(plan.problems) - 5} more" if len(plan.problems) > 5 else ""
        raise Refused(
            f"{len(plan.problems)} partition(s) could not be planned: {bad}{more}; nothing changed",
            hint="narrow the selection (--topic, --partitions) to partitions that can be planned",
        )
    offsets = plan.offsets()
    if not offsets:
        raise NotFound(f"nothing to commit for group {plan.group!r}")
    desc = source.describe_groups([plan.group]).get(plan.group)
    if desc is None or desc.error is not None:
        err = desc.error if desc is not None else "NO_ANSWER"
        raise Refused(
            f"cannot check that group {plan.group!r} has no active members ({err}); nothing changed"
        )
    if desc.active:
        raise Refused(
            f"group {plan.group!r} has {desc.members} active member(s) (state {desc.state}); nothing changed",
            hint="stop the group's consumers first: Kafka only accepts offsets for a group without members",
        )
    errors = {tp: e for tp, e in source.alter_group_offsets(plan.group, offsets).items() if e is not None}
    refused_as_active = _rejected_as_active(errors, len(offsets))
    if refused_as_active is not None:
        # A consumer joined between the member check above and the commit: Kafka refused the
        # whole commit, so this is the same outcome as the check's refusal (exit 6), not a failure.
        raise Refused(
            f"group {plan.group!r} became active before the commit (Kafka answered {refused_as_active}: "
            "only a group without members accepts offsets); nothing changed",
            hint="stop the group's consumers first: Kafka only accepts offsets for a group without members",
        )
    if errors:
        listed = ", ".join(f"{tp}: {e}" for tp, e in sorted(errors.items())[:5])
        raise PartialFailure(
            f"Kafka rejected {len(errors)} of {len(offsets)} offset(s) for group {plan.group!r}: {listed}",
            hint="check the group's committed offsets with `kafka-offsets lag`",
        )
    [back] = source.committed_offsets([plan.group], sorted(offsets))
    if back.error is not None:
        raise PartialFailure(f"committed, but reading the offsets back failed: {back.error}")
    wrong = mismatches(plan, back.offsets)
    if wrong:
        listed = ", ".join(f"{tp}: planned {want}, committed {got}" for tp, want, got in wrong[:5])
        raise PartialFailure(f"verification failed for {len(wrong)} partition(s): {listed}")
    return Execution(offsets, dict(back.offsets))
