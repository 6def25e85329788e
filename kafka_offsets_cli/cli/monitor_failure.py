"""What a monitoring command (``lag``, ``liveness``, ``tiering``) prints when its run fails: defined once."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..errors import ClusterError, KafkaOffsetsError, MonitoringStatus
from ..parse.times import now_ms
from ..render.monitoring import nagios_line
from .options import Format
from .output import write
from .textfile import write_down

#: A renderer of the ``up 0`` metrics: (status, now in ms, constant labels) -> exposition text.
DownMetrics = Callable[[MonitoringStatus, int, Mapping[str, str] | None], str]


def report_unknown(
    err: KafkaOffsetsError,
    *,
    fmt: Format,
    service: str,
    down: DownMetrics,
    labels: Mapping[str, str],
    prometheus_file: str | None,
) -> None:
    """The UNKNOWN nagios line (any failure); ``up 0`` on stdout and in the textfile (cluster failures).

    The caller raises ``err`` afterwards, so the one-line error and exit 3 still come
    from the boundary; a failed textfile write is folded into that error (:func:`write_down`).
    """
    if fmt is Format.nagios:
        write(nagios_line(service, MonitoringStatus.UNKNOWN, err.message))
    if isinstance(err, ClusterError):
        text = down(MonitoringStatus.UNKNOWN, now_ms(), labels)
        if fmt is Format.prometheus:
            write(text)
        if prometheus_file:
            write_down(prometheus_file, text, err)
