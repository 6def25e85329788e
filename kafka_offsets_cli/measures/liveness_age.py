"""The age behind a liveness topic's status: the stalest partition's, or with ``min_alive = N`` the
N-th freshest (pure).

``kafka-offsets liveness`` computes it from its rows (:func:`deciding_age`); Spark's ``check``
tallies the same statistics (:func:`age_stats`) in the JVM and reads them with :func:`age_of`.
One rule for both front ends, so it sits here, below the features, next to the partition rule
(:mod:`.liveness`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..tally import Pred, Stat, Where, tally
from .liveness import LiveRow, LiveState

__all__ = ["AGED", "age_of", "age_stats", "deciding_age"]

#: the ages that decide a topic's: known, and not of a timestamp ahead of now (its age says nothing)
AGED: Where = ((Pred("age_ms", "present"), Pred("state", "not_in", (LiveState.FUTURE.value,))),)


def age_stats(min_alive: int | None) -> tuple[Stat, ...]:
    """What :func:`age_of` reads: the oldest deciding age, and the ``min_alive`` youngest."""
    return (
        Stat("age_max", "max", "age_ms", AGED),
        Stat("age_lowest", "smallest", "age_ms", AGED, max(min_alive or 0, 0)),
    )


def age_of(t: Mapping[str, Any], min_alive: int | None = None) -> int | None:
    """The age behind a topic's status from its tally (:func:`age_stats`): the oldest, or with
    ``min_alive = N`` the N-th youngest (the oldest when fewer than N partitions have an age)."""
    if min_alive is None or min_alive <= 0:
        return cast("int | None", t["age_max"])
    lowest = t["age_lowest"]
    return cast("int | None", lowest[min_alive - 1] if len(lowest) >= min_alive else t["age_max"])


def deciding_age(rows: Sequence[LiveRow], min_alive: int | None = None) -> int | None:
    """The age behind a topic's status: the oldest, or with ``min_alive = N`` the N-th youngest."""
    cols: dict[str, Sequence[Any]] = {
        "age_ms": [r.age_ms for r in rows],
        "state": [r.state.value for r in rows],
    }
    return age_of(tally(age_stats(min_alive), cols), min_alive)
