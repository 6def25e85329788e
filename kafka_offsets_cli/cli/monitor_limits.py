"""liveness's and tiering's thresholds as the options gave them: the records of the ``live_limits``
and ``tier_limits`` option groups (:mod:`.command_options`), shared by ``liveness``, ``tiering``
and ``serve``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..measures.liveness import DEFAULT_CRIT, DEFAULT_EMPTY_STATUS, DEFAULT_FUTURE_TOLERANCE_MS, DEFAULT_WARN
from .liveness_options import StatusName

__all__ = ["LiveLimits", "TierLimits"]

_EMPTY_STATUS = StatusName(DEFAULT_EMPTY_STATUS.name.lower())


@dataclass(frozen=True, kw_only=True)
class LiveLimits:
    """liveness's thresholds, as the options gave them (``liveness``, ``serve``): ``--warn`` …
    ``--future-status``."""

    warn: str = DEFAULT_WARN
    crit: str = DEFAULT_CRIT
    min_alive: int | None = None
    future_tolerance: str = f"{DEFAULT_FUTURE_TOLERANCE_MS // 1000}s"
    empty_status: StatusName = _EMPTY_STATUS
    future_status: StatusName = StatusName.warning

    def request_args(self) -> dict[str, Any]:
        """The thresholds as the liveness ``request_of`` takes them (the statuses as statuses)."""
        return {
            "warn": self.warn, "crit": self.crit, "min_alive": self.min_alive,
            "future_tolerance": self.future_tolerance,
            "empty": self.empty_status.status, "future": self.future_status.status,
        }  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class TierLimits:
    """tiering's thresholds, as the options gave them (``tiering``, ``serve``): ``--warn-records`` …
    ``--crit-age``; named as the tiering ``request_of`` takes them."""

    warn_records: int | None = None
    crit_records: int | None = None
    warn_age: str | None = None
    crit_age: str | None = None
