"""Each monitoring command's metrics (its nagios service, its series' own labels, its ``up 0``),
declared once for the command and for ``serve``, which serves the same series."""

from __future__ import annotations

from ..render import lag_metrics, liveness_metrics, tiering_metrics
from .monitor_run import Series

__all__ = ["LAG", "LIVENESS", "TIERING"]

LAG = Series(
    service=lag_metrics.SERVICE, reserved=lag_metrics.SERIES_LABELS, down=lag_metrics.prometheus_down
)
LIVENESS = Series(
    service=liveness_metrics.SERVICE,
    reserved=liveness_metrics.SERIES_LABELS,
    down=liveness_metrics.prometheus_down,
)
TIERING = Series(
    service=tiering_metrics.SERVICE,
    reserved=tiering_metrics.SERIES_LABELS,
    down=tiering_metrics.prometheus_down,
)
