"""The time for a consumer to catch up with its producers (pure), one rule for ``check --history``'s
CATCH-UP and ``lag --summary --watch``'s: the lag over the net consumption rate."""

from __future__ import annotations

__all__ = ["catch_up_ms", "eta_to_catch_up_ms"]


def catch_up_ms(lag: int | None, produce: float | None, consume: float | None) -> int | None:
    """Estimated time for the consumer to reach the end: ``lag / (consume - produce)``.

    ``0`` with no lag; ``None`` when the lag or a rate is unknown, or the
    consumer is not gaining on the producers.
    """
    if lag is None:
        return None
    if lag <= 0:
        return 0
    if produce is None or consume is None:
        return None
    gain = consume - max(produce, 0.0)
    if gain <= 0:
        return None
    return round(lag / gain * 1000)


def eta_to_catch_up_ms(lag: int | None, in_per_s: float | None, consumed_per_s: float | None) -> int | None:
    """A watched group's time to catch up (:func:`catch_up_ms`), shown only while it is catching up:
    ``None`` with nothing to catch up (no lag), when a rate is not known yet (the first refreshes) or
    when the group is not gaining (consuming no faster than records come in)."""
    if lag is None or lag <= 0:
        return None
    return catch_up_ms(lag, in_per_s, consumed_per_s)
