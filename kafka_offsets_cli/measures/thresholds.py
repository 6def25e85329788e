"""Warning and critical thresholds: the two rules every front end checks them by (pure).

``lag``, ``liveness`` and ``tiering`` (their options) and ``check`` (its spec) take thresholds in
warning/critical pairs; each refuses a pair whose warning is above its critical
(:func:`warn_above_crit`; the command as a usage error, the spec as a problem at the key), and a
time-lag threshold turns the time lag on (:func:`time_lag_on`), since it compares it. Defined
here once, below the features; each front end words its own message.
"""

from __future__ import annotations

__all__ = ["time_lag_on", "warn_above_crit"]


def warn_above_crit(warn: int | None, crit: int | None) -> bool:
    """True when both thresholds are set and the warning one is above the critical one."""
    return warn is not None and crit is not None and warn > crit


def time_lag_on(asked: bool, warn_time_lag_ms: int | None, crit_time_lag_ms: int | None) -> bool:
    """Whether the time lag is computed: when ``asked``, or when a time-lag threshold is set."""
    return asked or warn_time_lag_ms is not None or crit_time_lag_ms is not None
