"""Whether a topic keeps its older segments in remote storage (KIP-405 tiered storage), read once.

``lag`` asks it to tell remote reads from local ones (a group below ``earliest-local``), ``tiering``
to tell a tiered topic from one that is not: the same config read the same way, so it sits here,
below both features, and neither imports the other.
"""

from __future__ import annotations

__all__ = ["REMOTE_KEY", "remote_enabled"]

#: The topic config that turns tiered storage on (DescribeConfigs).
REMOTE_KEY = "remote.storage.enable"


def remote_enabled(value: str | None) -> bool | None:
    """A topic's ``remote.storage.enable`` value read as Kafka reads it; ``None``: not known."""
    return None if value is None else value.strip().lower() == "true"
