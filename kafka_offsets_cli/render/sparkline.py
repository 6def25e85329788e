"""Sparklines, the one rule for every trend column (pure): ``check --history``'s TREND, and under
``--watch`` ``lag``'s LAG-TREND and ``liveness``' AGE-TREND.

A sparkline scales its values from 0 to their maximum over :data:`SPARK_CHARS`; an unknown value is a
blank. A ``--watch`` trend keeps the last :data:`~kafka_offsets_cli.measures.trend.TREND_SIZE`
refreshes (:class:`~kafka_offsets_cli.measures.trend.Trends`) and its cell has a shorter form, the
last half of them scaled on their own, for a narrow table (:mod:`.fit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..measures.trend import TREND_SIZE

__all__ = ["SPARK_CHARS", "sparkline", "trend_cell"]

#: Characters of a sparkline, lowest to highest.
SPARK_CHARS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[int | None]) -> str:
    """A one-line chart of ``values`` scaled from 0 to their maximum (unknown values are blank)."""
    known = [v for v in values if v is not None]
    if not known:
        return " " * len(values)
    top = max(max(known), 0)
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        elif top <= 0:
            out.append(SPARK_CHARS[0])
        else:
            idx = round(max(v, 0) / top * (len(SPARK_CHARS) - 1))
            out.append(SPARK_CHARS[idx])
    return "".join(out)


def trend_cell(values: Sequence[int | None]) -> Any:
    """A ``--watch`` trend column's cell: the sparkline of the last :data:`TREND_SIZE` values, and as
    its shorter form of the last half of them; a dim ``-`` when none is known."""
    if not any(v is not None for v in values):
        from rich.text import Text

        return Text("-", style="dim")
    from .fit import Forms  # here: tables only (~5 ms of import)

    full, short = values[-TREND_SIZE:], values[-(TREND_SIZE // 2) :]
    return Forms((sparkline(full), sparkline(short)), style="cyan")
