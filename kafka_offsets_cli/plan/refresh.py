"""One refresh of a watched use case with its result published (``--watch`` with a metrics file).

A use case read again on every refresh (``lag --watch``, ``liveness --watch``) publishes each
result as it is read (a front end: the ``--prometheus-file``), and when the cluster cannot be
reached publishes that it is down, then fails as the run would; how to publish is the front end's
(injected), the order is this module's, so every front end keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..errors import ClusterError

C = TypeVar("C")
R = TypeVar("R")


def published(
    read: Callable[[C], R],
    *,
    publish: Callable[[R], None] | None = None,
    down: Callable[[ClusterError], None] | None = None,
    first: Callable[[R], None] | None = None,
) -> Callable[[C], R]:
    """``read`` (one refresh over a client) followed by ``publish`` of its result; a
    :class:`ClusterError` is given to ``down`` first, then raised. ``publish`` may raise (a result
    it could not write): UNKNOWN on the first refresh, a warning on a later one. ``first`` hears
    the first result only, once it is published (its notes, printed once)."""
    pending = [first] if first is not None else []

    def refresh(client: C) -> R:
        try:
            result = read(client)
        except ClusterError as e:
            if down is not None:
                down(e)
            raise
        if publish is not None:
            publish(result)
        if pending:
            pending.pop()(result)
        return result

    return refresh
