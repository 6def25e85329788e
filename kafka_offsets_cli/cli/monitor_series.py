"""Each monitoring command's metrics (its nagios service, its series' own labels, its ``up 0``),
declared once for the command and for ``serve``, which serves the same series."""

from __future__ import annotations

from ..render import lag_metrics, liveness_metrics, tiering
from ..render.liveness import SERVICE as LIVENESS_SERVICE
from .monitor_run import Series

__all__ = ["LAG", "LIVENESS", "TIERING"]

LAG = Series(
    service=lag_metrics.SERVICE, reserved=lag_metrics.SERIES_LABELS, down=lag_metrics.prometheus_down
)
LIVENESS = Series(
    service=LIVENESS_SERVICE, reserved=liveness_metrics.SERIES_LABELS, down=liveness_metrics.prometheus_down
)
TIERING = Series(service=tiering.SERVICE, reserved=tiering.SERIES_LABELS, down=tiering.prometheus_down)
