"""Which cluster a plan was made on: recorded beside it, compared before it is applied.

A plan file is the CSV Kafka's ``kafka-consumer-groups --from-file`` reads, which has no place
for anything else; the cluster goes in its ``FILE.seen`` record (as ``#`` lines, which the
record's reader skips). The Kafka cluster id (DescribeCluster) is what tells two clusters
apart: the same cluster is reached under other addresses, and two clusters can share a
profile name or an address over time. The profile name and the bootstrap servers are kept
to name the cluster to the user.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ClusterIdentity", "identity_lines", "read_identity", "same_cluster"]

_ID, _PROFILE, _SERVERS = "cluster-id", "cluster-profile", "bootstrap-servers"


@dataclass(frozen=True)
class ClusterIdentity:
    """A cluster as a run saw it: its id (``None``: unknown), the profile used, the bootstrap servers."""

    cluster_id: str | None
    profile: str | None
    bootstrap: str

    def describe(self) -> str:
        """``cluster 'prod' [kafka-1:9093, id Mk3O…]`` or ``cluster [127.0.0.1:9092, id Mk3O…]``."""
        name = f"cluster {self.profile!r}" if self.profile else "cluster"
        return f"{name} [{self.bootstrap}, id {self.cluster_id or 'unknown'}]"


def identity_lines(identity: ClusterIdentity) -> str:
    """The ``#`` lines of a ``FILE.seen`` record that name the cluster."""
    fields = ((_ID, identity.cluster_id), (_PROFILE, identity.profile), (_SERVERS, identity.bootstrap))
    return "".join(f"# {key}: {value}\n" for key, value in fields if value)


def read_identity(text: str) -> ClusterIdentity | None:
    """The cluster a ``FILE.seen`` record names; ``None`` for a record written before it named one."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.removeprefix("#").partition(":")
        if line.startswith("#") and sep and key.strip() in (_ID, _PROFILE, _SERVERS):
            found[key.strip()] = value.strip()
    if _ID not in found and _SERVERS not in found:
        return None
    return ClusterIdentity(found.get(_ID) or None, found.get(_PROFILE) or None, found.get(_SERVERS, ""))


def same_cluster(recorded: ClusterIdentity, here: ClusterIdentity) -> bool | None:
    """Whether ``recorded`` is the cluster ``here``: by cluster id, ``None`` when either id is unknown.

    Addresses and profile names do not decide: one cluster has many, and a name can be reused.
    """
    if recorded.cluster_id is None or here.cluster_id is None:
        return None
    return recorded.cluster_id == here.cluster_id
