"""The trend of a value over the refreshes of ``--watch``, per key (pure): what ``lag``'s LAG-TREND
(each row's and group's lag) and ``liveness``' AGE-TREND (each partition's and topic's age) draw.

History is bounded: the last :data:`TREND_SIZE` refreshes, the width of the trend column in full
(:func:`kafka_offsets_cli.render.sparkline.trend_cell`). A key missing from a refresh is forgotten
and starts over when it returns (as the watch's rates do); an unknown value (``None``) is kept, a
blank in the sparkline.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Generic, TypeVar

__all__ = ["TREND_SIZE", "Trends"]

K = TypeVar("K", bound=Hashable)

#: Refreshes a trend keeps: the widest form of its column.
TREND_SIZE = 16


class Trends(Generic[K]):
    """Each key's last ``size`` values, from one :meth:`observe` per refresh."""

    def __init__(self, size: int = TREND_SIZE) -> None:
        if size < 1:
            raise ValueError(f"a trend keeps at least one value, not {size}")
        self.size = size
        self._seen: dict[K, tuple[int | None, ...]] = {}

    def observe(self, values: Mapping[K, int | None]) -> dict[K, tuple[int | None, ...]]:
        """Add one refresh's ``values``; each key's last values, oldest first (keys not in
        ``values`` are forgotten)."""
        self._seen = {k: (*self._seen.get(k, ()), v)[-self.size :] for k, v in values.items()}
        return dict(self._seen)
