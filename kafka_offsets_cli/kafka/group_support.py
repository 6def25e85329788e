"""Whether the cluster has share and streams groups at all: its finalized feature levels.

A cluster older than a group type never lists a group of it, so ``--type streams`` would find
"no streams group" where the truth is that the cluster cannot have one. Kafka gates both types by
a feature (KIP-584): ``share.version`` (KIP-932) and ``streams.version`` (KIP-1071). One ApiVersions
request (v3, which carries the features) tells them apart: a feature finalized at level 1 or more
is on; one the broker supports but has not finalized is off (``kafka-features disable``); one the
broker does not know predates the type (Kafka 4.0 knows neither). The message classes are
kafka-python's own (:mod:`.group_messages`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from .. import __version__
from .deadline import FIRST_ATTEMPT_S, Deadline
from .group_messages import kafka_python_class
from .kafka_python import KafkaPython, RequestError, Route

#: the feature that gates each group type beyond classic and consumer
FEATURES = {"share": "share.version", "streams": "streams.version"}

#: ApiVersions, kafka-python's own class (v3+: supported and finalized features)
ApiVersionsRequest: Any = kafka_python_class("ApiVersionsRequest", ("kafka.protocol.metadata",))


def group_type_support(
    kafka_python: KafkaPython, deadline: Deadline, group_types: Collection[str]
) -> dict[str, str]:
    """Each of ``group_types`` (``share``, ``streams``) the cluster lacks, with the one line that says
    so; a type the cluster has, or whose answer did not come, is left out (never a guess)."""
    asked = sorted(t for t in set(group_types) if t in FEATURES)
    if not asked or ApiVersionsRequest is None:
        return {}
    timeout_s = deadline.request_timeout(FIRST_ATTEMPT_S)
    route = kafka_python.route()
    features = route.run(_features, route, int(timeout_s * 1000), timeout_s=timeout_s)
    if features is None:
        return {}
    supported, finalized = features
    return {t: line for t in asked if (line := lacking(t, supported, finalized)) is not None}


def lacking(group_type: str, supported: Collection[str], finalized: Mapping[str, int]) -> str | None:
    """Why the cluster has no ``group_type`` groups, from its features; ``None`` when it has them."""
    feature = FEATURES[group_type]
    if finalized.get(feature, 0) >= 1:
        return None
    if feature in supported:
        return f"{group_type} groups are not enabled on this cluster ({feature})"
    return f"{group_type} groups are not supported by this cluster (it has no {feature} feature)"


async def _features(route: Route, timeout_ms: int) -> tuple[set[str], dict[str, int]] | None:
    request = ApiVersionsRequest(
        client_software_name="kafka-offsets", client_software_version=__version__, min_version=3
    )
    try:
        answer = await route.send(request, None, timeout_ms)
    except RequestError:
        return None
    if answer.error_code:
        return None
    supported = {str(f.name) for f in answer.supported_features or ()}
    finalized = {str(f.name): int(f.max_version_level) for f in answer.finalized_features or ()}
    return supported, finalized
