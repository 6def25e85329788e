"""Every group of the cluster with its type, as the brokers say: ListGroups v5 to each broker.

librdkafka's ``list_consumer_groups`` (:meth:`.groups.GroupReader.group_ids`) leaves share and
streams groups out: on Kafka 4.3.1 a share group is missing from its answer altogether, while
ListGroups v5 without a type filter answers it with ``group_type`` ``share`` (``protocol_type``
``share``). So ``lag`` lists through kafka-python (:mod:`.kafka_python`), one ListGroups to each
broker (each lists the groups it coordinates), and types each group by the broker's ``group_type``
(KIP-848): ``classic``, ``consumer``, ``share`` or ``streams``. A broker before v5 has no type: its
groups are ``classic`` (the only type it has).
"""

from __future__ import annotations

from typing import Any

from .deadline import FIRST_ATTEMPT_S, Deadline
from .group_messages import ListGroupsRequest
from .kafka_python import KafkaPython, RequestError, Route, code_name, error_name


def list_group_types(kafka_python: KafkaPython, deadline: Deadline) -> tuple[dict[str, str], str | None]:
    """Every group id with its type (lower case), and the first broker's error (``None``: all answered).

    Each broker gets at most :data:`~.deadline.FIRST_ATTEMPT_S` (as a first read of any kind): a
    frozen broker costs its own groups' listing, said in the error, never the run's ``--timeout``.
    """
    timeout_s = deadline.request_timeout(FIRST_ATTEMPT_S)
    route = kafka_python.route()
    return route.run(_list, route, int(timeout_s * 1000), timeout_s=timeout_s)  # type: ignore[no-any-return]


async def _list(route: Route, timeout_ms: int) -> tuple[dict[str, str], str | None]:
    try:
        brokers = [int(b["node_id"]) for b in (await route.metadata([]))["brokers"]]
    except RequestError as e:
        return {}, error_name(e)
    sent: list[Any] = []
    error: str | None = None
    for node in brokers:
        try:
            sent.append(route.send(_request(), node, timeout_ms))
        except RequestError as e:
            error = error or error_name(e)
    out: dict[str, str] = {}
    for future in sent:
        try:
            answer = await future
        except RequestError as e:
            error = error or error_name(e)
            continue
        if answer.error_code:
            error = error or code_name(answer.error_code)
        for g in answer.groups:
            out[str(g.group_id)] = group_type(g)
    return out, error


def group_type(listed: Any) -> str:
    """A listed group's type: the broker's ``group_type`` (v5) in lower case, else ``classic``."""
    wire = getattr(listed, "group_type", None)
    return str(wire).lower() if wire else "classic"


def _request() -> Any:
    assert ListGroupsRequest is not None  # kafka-python has had it since its first release
    return ListGroupsRequest(states_filter=[], types_filter=[], max_version=5)
