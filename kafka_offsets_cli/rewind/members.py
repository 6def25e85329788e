"""Explaining a group's active members: who they are, and how long until the broker drops them.

Kafka accepts offsets from an admin client only for a group without members. A consumer
that stopped cleanly leaves at once; one that crashed, was killed, or is a static member
(``group.instance.id``) stays a member until the coordinator has heard nothing from it for
the session timeout: for a KIP-848 group (``group.protocol=consumer``) the group's
``consumer.session.timeout.ms`` (a broker/group setting), for a classic group the
consumer's own ``session.timeout.ms`` (45 s by default), which only the client knows.
"""

from __future__ import annotations

from ..models.groups import GroupMembers
from ..parse.durations import format_duration

__all__ = ["CLASSIC_DEFAULT_SESSION_MS", "describe_members", "until_dropped"]

#: The consumer's default ``session.timeout.ms`` since Kafka 3.0 (KIP-735).
CLASSIC_DEFAULT_SESSION_MS = 45_000
_SHOWN = 5


def describe_members(group: GroupMembers) -> str:
    """``2 active member(s) (state stable, consumer protocol): client id 'a' on /10.0.0.1, …``."""
    desc = group.description
    proto = f", {group.protocol} protocol" if group.protocol and group.protocol != "unknown" else ""
    head = f"{desc.members} active member(s) (state {desc.state}{proto})"
    if not group.members:
        return head
    shown = []
    for m in group.members[:_SHOWN]:
        static = f" (static member {m.instance_id!r})" if m.instance_id else ""
        shown.append(f"client id {m.client_id!r} on {m.host}{static}")
    more = f" and {len(group.members) - _SHOWN} more" if len(group.members) > _SHOWN else ""
    return f"{head}: {', '.join(shown)}{more}"


def until_dropped(group: GroupMembers, session_timeout_ms: int | None) -> str:
    """What to do, and how long a stopped member stays: the hint of a refusal."""
    if group.protocol == "consumer":
        when = (
            f"{format_duration(session_timeout_ms)} (the group's consumer.session.timeout.ms)"
            if session_timeout_ms is not None
            else "the group's consumer.session.timeout.ms (45s by default)"
        )
    elif group.protocol in ("share", "streams"):
        # KIP-932 / KIP-1071: the group's share.session.timeout.ms / streams.session.timeout.ms
        when = f"the group's {group.protocol}.session.timeout.ms (45s by default)"
    else:
        default = format_duration(CLASSIC_DEFAULT_SESSION_MS)
        when = f"the consumers' session.timeout.ms ({default} by default)"
    return (
        "stop the group's consumers, then run this again: a consumer that closes leaves the group "
        f"at once; one that crashed, was killed or is a static member is dropped by the broker "
        f"{when} after its last heartbeat"
    )
