"""``rewind --execute``: check every group's plan and the group itself, then commit and verify.

:func:`preflight` refuses (:class:`Refused`, exit 6, nothing changed) before anything is
committed; :func:`execute` commits one group's plan and reads it back. The command runs
the preflight for all groups, writes the undo file, then commits group by group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import NotFound, PartialFailure, Refused
from ..models.groups import GroupDescription, GroupMembers
from ..models.topics import TopicPartition
from ..sources import RewindSource
from .build import build_plan
from .members import describe_members, until_dropped
from .plan import Plan, mismatches

__all__ = [
    "GROUP_ACTIVE_ERRORS",
    "Execution",
    "active_groups",
    "build_plan",
    "check_complete",
    "execute",
    "preflight",
]


#: What Kafka answers a commit from the admin client (no member id, generation -1) to a group
#: that has members. Apache Kafka says UNKNOWN_MEMBER_ID: so its coordinators' source reads
#: (classic, consumer and streams groups), and so a real 4.3 broker answers for classic and
#: KIP-848 consumer groups (tests/test_rewind_cmd.py). The others are what Kafka-compatible
#: coordinators send for the same state (a rebalance under way, a generation or member epoch
#: the commit lacks); none of them can mean anything else for a commit without a member id.
#: NON_EMPTY_GROUP is a share group's (AlterShareGroupOffsets to a group with members).
GROUP_ACTIVE_ERRORS = frozenset(
    {
        "UNKNOWN_MEMBER_ID",
        "ILLEGAL_GENERATION",
        "REBALANCE_IN_PROGRESS",
        "STALE_MEMBER_EPOCH",
        "NON_EMPTY_GROUP",
    }
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


def check_complete(plan: Plan) -> None:
    """Refuse (nothing changed) a plan with a missing topic or a partition that was not planned."""
    if plan.missing_topics:
        names = ", ".join(f"{t} ({e})" for t, e in plan.missing_topics)
        raise Refused(f"selected topic(s) cannot be reset: {names}; nothing changed")
    if plan.problems:
        bad = ", ".join(f"{r.topic}:{r.partition} ({r.why_not_planned})" for r in plan.problems[:5])
        more = f" and {len(plan.problems) - 5} more" if len(plan.problems) > 5 else ""
        who = f" of group {plan.group!r}" if plan.group else ""
        raise Refused(
            f"{len(plan.problems)} partition(s){who} could not be planned: {bad}{more}; nothing changed",
            hint="narrow the selection (--topic, --partitions) to partitions that can be planned",
        )


def active_groups(source: RewindSource, groups: Sequence[str]) -> dict[str, GroupMembers]:
    """The groups that have members (or cannot be described: their description's ``error`` is set)."""
    descs = source.group_members(list(groups))
    out = {}
    for g in groups:
        d = descs.get(g) or GroupMembers(GroupDescription(g, None, 0, (), "NO_ANSWER"))
        if d.description.error == "GROUP_ID_NOT_FOUND":
            continue  # a group that does not exist has no members: the reset creates it (Kafka: "Dead")
        if d.description.error is not None or d.description.active:
            out[g] = d
    return out


def refusal(source: RewindSource, active: Mapping[str, GroupMembers]) -> Refused:
    """The refusal for groups with members: who they are, and how long until they are dropped."""
    failed = {g: d.description.error for g, d in active.items() if d.description.error is not None}
    if failed:
        g, err = sorted(failed.items())[0]
        return Refused(f"cannot check that group {g!r} has no active members ({err}); nothing changed")
    kip848 = [g for g, d in active.items() if d.protocol == "consumer"]
    timeouts = source.group_session_timeouts(kip848) if kip848 else {}
    parts = [f"group {g!r} has {describe_members(d)}" for g, d in sorted(active.items())]
    g, d = sorted(active.items())[0]
    return Refused("; ".join(parts) + "; nothing changed", hint=until_dropped(d, timeouts.get(g)))


def preflight(source: RewindSource, plans: Sequence[Plan]) -> None:
    """Refuse (nothing changed) unless every plan is complete and non-empty and no group has members.

    Raises :class:`Refused` when a selected topic is missing, a partition could not be
    planned, a group cannot be described or has active members (naming them, and how
    long until a stopped one is dropped); :class:`NotFound` when there is nothing to commit.
    """
    for plan in plans:
        check_complete(plan)
    if not any(p.offsets() for p in plans):
        raise NotFound("nothing to commit for group(s) " + ", ".join(repr(p.group) for p in plans))
    active = active_groups(source, [p.group for p in plans if p.offsets()])
    if active:
        raise refusal(source, active)


def execute(source: RewindSource, plan: Plan, *, checked: bool = False) -> Execution:
    """Commit one group's plan (after :func:`preflight`, unless ``checked``), then verify it.

    Raises :class:`Refused` (nothing changed) as :func:`preflight` does, also when Kafka
    rejects the whole commit because a member joined after the check
    (:data:`GROUP_ACTIVE_ERRORS`); :class:`PartialFailure` when Kafka rejected some offsets
    or the committed offsets read back differ from the plan.
    """
    if not checked:
        preflight(source, [plan])
    offsets = plan.offsets()
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
