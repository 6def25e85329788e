"""One batched group request per coordinator, asked again while coordinators are not ready.

The share-group and streams-group describes (:mod:`.share_groups`, :mod:`.streams_groups`) go the
way :mod:`.describe_groups` goes, through the adapter :mod:`.kafka_python`: one FindCoordinator v4+
for all the groups, one request per coordinator for all its groups (sent at once), each group keeping
its own answer or error. Groups whose coordinator was not ready (``NOT_COORDINATOR``,
``COORDINATOR_NOT_AVAILABLE``, ``COORDINATOR_LOAD_IN_PROGRESS``) or whose lookup failed are asked
again, with fresh coordinators, while ``--timeout`` lasts; ``REQUEST_TIMED_OUT`` is not (as there).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kafka.protocol.metadata import FindCoordinatorRequest  # type: ignore[import-untyped]

from .deadline import FIRST_ATTEMPT_S, MIN_REQUEST_S, Deadline
from .errors import COORDINATOR_NOT_READY
from .kafka_python import KafkaPython, RequestError, Route, code_name, error_name
from .settings import log

T = TypeVar("T")
K = TypeVar("K")


@dataclass(frozen=True)
class GroupRequest(Generic[T]):
    """How one group type is asked: the request for a coordinator's groups, an answer's group
    entries (each with ``group_id``) mapped to the model, and a failed group's model."""

    request: Callable[[list[str]], Any]
    answered: Callable[[str, Any], T]
    failed: Callable[[str, str], T]
    error: Callable[[T], str | None]
    entries: Callable[[Any], Sequence[Any]] = lambda answer: answer.groups


Round = Callable[[Route, Sequence[str], int], Awaitable[tuple[dict[str, T], bool]]]


def ask_coordinators(
    kafka_python: KafkaPython, deadline: Deadline, groups: Sequence[str], how: GroupRequest[T]
) -> dict[str, T]:
    """Each of ``groups`` (once each, in their order) asked of its coordinator; errors kept per group."""

    async def round_(route: Route, pending: Sequence[str], timeout_ms: int) -> tuple[dict[str, T], bool]:
        return await one_round(route, pending, how, timeout_ms)

    return in_rounds(kafka_python, deadline, groups, round_, how.error)


def in_rounds(
    kafka_python: KafkaPython,
    deadline: Deadline,
    groups: Sequence[str],
    round_: Round[T],
    error: Callable[[T], str | None],
    again: frozenset[str] = COORDINATOR_NOT_READY,
) -> dict[str, T]:
    """``round_`` over the groups, then again over those whose error is in ``again`` (by default: the
    coordinator was not ready) or whose lookup failed, while ``deadline`` lasts; each group's last
    answer, in the order asked."""
    wanted = list(dict.fromkeys(groups))
    if not wanted:
        return {}
    route = kafka_python.route()
    final: dict[str, T] = {}
    pending, backoff, limit = wanted, 0.1, FIRST_ATTEMPT_S
    while pending:
        timeout = deadline.request_timeout(limit)
        limit *= 2
        answers, lookup_failed = route.run(round_, route, pending, int(timeout * 1000), timeout_s=timeout)
        final.update(answers)
        pending = [g for g, r in answers.items() if lookup_failed or error(r) in again]
        if not pending or deadline.remaining() <= backoff:
            break
        log.debug("asking again for %d group(s)", len(pending))
        time.sleep(backoff)
        backoff = min(backoff * 2, 1.0)
    return {g: final[g] for g in wanted}


async def find_coordinators(
    route: Route, groups: Sequence[str], timeout_ms: int
) -> tuple[dict[int, list[str]], dict[str, str], str | None]:
    """One batched FindCoordinator v4+: the groups by coordinator node, each group whose lookup
    failed with its error's name, and the error of the whole lookup (then nothing else)."""
    try:
        found = await route.send(
            FindCoordinatorRequest(key_type=0, coordinator_keys=list(groups), min_version=4), None, timeout_ms
        )
    except RequestError as e:
        return {}, {}, error_name(e)
    by_node: dict[int, list[str]] = {}
    errors: dict[str, str] = {}
    for c in found.coordinators:
        if c.error_code:
            errors[c.key] = code_name(c.error_code)
        else:
            by_node.setdefault(int(c.node_id), []).append(c.key)
    return by_node, errors, None


async def each_node(
    route: Route, by_node: dict[int, list[K]], request: Callable[[list[K]], Any], timeout_ms: int
) -> list[tuple[int, list[K], Any]]:
    """``request(keys)`` sent to each node at once (its groups, or partitions); each node's answer,
    or its error's name."""
    sent: list[tuple[int, list[K], Any]] = []
    for node, keys in by_node.items():
        try:
            sent.append((node, keys, route.send(request(keys), node, timeout_ms)))
        except RequestError as e:  # kafka-python reports most on the future; never lose the others
            sent.append((node, keys, error_name(e)))
    out: list[tuple[int, list[K], Any]] = []
    for node, keys, future in sent:
        if isinstance(future, str):
            out.append((node, keys, future))
            continue
        try:
            out.append((node, keys, await future))
        except RequestError as e:
            out.append((node, keys, error_name(e)))
    return out


def left_ms(end: float) -> int:
    """Milliseconds left of a round that ends at ``end`` (monotonic), at least MIN_REQUEST_S."""
    return int(max(MIN_REQUEST_S, end - time.monotonic()) * 1000)


async def one_round(
    route: Route, groups: Sequence[str], how: GroupRequest[T], timeout_ms: int
) -> tuple[dict[str, T], bool]:
    """One attempt: the coordinators, then one request per coordinator; each group's answer, and
    whether the coordinator lookup itself failed. Both steps share ``timeout_ms``."""
    end = time.monotonic() + timeout_ms / 1000
    by_node, errors, lookup = await find_coordinators(route, groups, timeout_ms)
    if lookup is not None:
        return {g: how.failed(g, lookup) for g in groups}, True
    out: dict[str, T] = {g: how.failed(g, e) for g, e in errors.items()}
    for _, node_groups, answer in await each_node(route, by_node, how.request, left_ms(end)):
        if isinstance(answer, str):
            out.update({g: how.failed(g, answer) for g in node_groups})
            continue
        entries = {a.group_id: a for a in how.entries(answer)}
        out.update({g: how.answered(g, entries.get(g)) for g in node_groups})
    return {g: out.get(g) or how.failed(g, "COORDINATOR_NOT_AVAILABLE") for g in groups}, False
