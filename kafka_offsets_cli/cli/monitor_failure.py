"""What a monitoring command (``lag``, ``liveness``, ``tiering``) prints when its run fails: defined once."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TypeVar

from ..errors import ClusterError, KafkaOffsetsError, MonitoringStatus, UsageError
from ..parse.times import now_ms
from ..plan.refresh import published
from ..render.monitoring import nagios_line
from .options import Format
from .output import write
from .textfile import down_writer, publisher, write_down

C = TypeVar("C")
R = TypeVar("R")

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


@contextmanager
def unknown_reported(
    *,
    fmt: Format,
    service: str,
    down: DownMetrics,
    labels: Mapping[str, str],
    prometheus_file: str | None,
    monitoring: bool = True,
) -> Iterator[None]:
    """Around a monitoring run: a failure but a usage error is reported by :func:`report_unknown`
    (when ``monitoring``), then raised on to the boundary."""
    try:
        yield
    except KafkaOffsetsError as e:
        if monitoring and not isinstance(e, UsageError):
            report_unknown(
                e, fmt=fmt, service=service, down=down, labels=labels, prometheus_file=prometheus_file
            )
        raise


def watched(
    read: Callable[[C], R],
    *,
    prometheus_file: str | None,
    text: Callable[[R], str],
    down: DownMetrics,
    labels: Mapping[str, str],
    first: Callable[[R], None] | None = None,
) -> Callable[[C], R]:
    """``read`` for every ``--watch`` refresh, ``prometheus_file`` (if any) rewritten after each
    with its ``text``, or with ``up 0`` when the cluster cannot be reached (:func:`published`)."""
    return published(
        read,
        publish=publisher(prometheus_file, text),
        down=down_writer(prometheus_file, lambda: down(MonitoringStatus.UNKNOWN, now_ms(), labels)),
        first=first,
    )
