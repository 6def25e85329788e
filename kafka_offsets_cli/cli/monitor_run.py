"""The run the monitoring commands (``lag``, ``liveness``, ``tiering``) share, written once.

Each command builds its request and its view, then hands the steps that are its own (how to read
once, how to watch, its metrics, how to show a report) to these functions: ``--prometheus-file``
checked before anything is contacted; a failure but a usage error reported UNKNOWN (the nagios
line; ``up 0`` on stdout and in the file for a cluster failure) before the boundary prints it;
the file written before stdout (which may be a closed pipe) and a failed write raised once the
report is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import typer

from ..connection.resolver import ConnectionOptions
from ..connection.settings import ClientSettings
from ..errors import ClusterError, KafkaOffsetsError, MonitoringStatus, UsageError
from ..gcpause import gc_paused
from ..plan.refresh import published as refreshed
from ..render.monitoring import nagios_line
from .app import environment_of, is_debug
from .environment import Environment
from .metric_labels import settings_and_labels
from .options import Format
from .output import connecting, progress, write
from .textfile import check_writable, down_writer, publisher, write_down, write_result

C = TypeVar("C")
R = TypeVar("R")

#: A renderer of the ``up 0`` metrics: (status, now in ms, constant labels) -> exposition text.
DownMetrics = Callable[[MonitoringStatus, int, Mapping[str, str] | None], str]


@dataclass(frozen=True, kw_only=True)
class Series:
    """A monitoring command's metrics: its nagios service, the labels its series use, its ``up 0``."""

    service: str
    reserved: Collection[str]
    down: DownMetrics


@dataclass(frozen=True, kw_only=True)
class MonitoredRun:
    """One run of a monitoring command: where it connects and how it reports."""

    series: Series
    fmt: Format
    prometheus_file: str | None
    settings: ClientSettings
    #: the constant labels of every series (``cluster``, ``--label``)
    labels: Mapping[str, str]
    debug: bool
    env: Environment
    #: a monitoring run (exit status 0-3): a failure is also reported UNKNOWN
    monitoring: bool = True

    def down(self) -> str:
        """The ``up 0`` metrics of now (status UNKNOWN)."""
        return self.series.down(MonitoringStatus.UNKNOWN, self.env.now_ms(), self.labels)


def monitored_run(
    ctx: typer.Context,
    connection: ConnectionOptions,
    series: Series,
    fmt: Format,
    prometheus_file: str | None,
    label: Sequence[str] | None,
    *,
    monitoring: bool = True,
) -> MonitoredRun:
    """The run of the command in ``ctx`` (its ``--debug`` and environment): its settings and labels
    (``--label`` checked), ``--prometheus-file`` checked writable first: usage errors before
    anything is contacted."""
    if prometheus_file:
        check_writable(prometheus_file)
    settings, labels = settings_and_labels(connection, label, reserved=series.reserved)
    env, debug = environment_of(ctx), is_debug(ctx)
    return MonitoredRun(
        series=series,
        fmt=fmt,
        prometheus_file=prometheus_file,
        settings=settings,
        labels=labels,
        debug=debug,
        env=env,
        monitoring=monitoring,
    )


def report_unknown(err: KafkaOffsetsError, run: MonitoredRun) -> None:
    """The UNKNOWN nagios line (any failure); ``up 0`` on stdout and in the textfile (cluster failures).

    The caller raises ``err`` afterwards, so the one-line error and exit 3 still come
    from the boundary; a failed textfile write is folded into that error (:func:`write_down`).
    """
    if run.fmt is Format.nagios:
        write(nagios_line(run.series.service, MonitoringStatus.UNKNOWN, err.message), run.env)
    if isinstance(err, ClusterError):
        text = run.down()
        if run.fmt is Format.prometheus:
            write(text, run.env)
        if run.prometheus_file:
            write_down(run.prometheus_file, text, err)


@contextmanager
def unknown_reported(run: MonitoredRun) -> Iterator[None]:
    """Around a run: a failure but a usage error is reported by :func:`report_unknown` (in a
    monitoring run), then raised on to the boundary."""
    try:
        yield
    except KafkaOffsetsError as e:
        if run.monitoring and not isinstance(e, UsageError):
            report_unknown(e, run)
        raise


def kafka_client(run: MonitoredRun) -> AbstractContextManager[Any]:
    """The run's client (a context manager); confluent_kafka loads only when the command runs."""
    from ..kafka import KafkaClient

    return KafkaClient(run.settings, debug=run.debug)


def read_once(
    run: MonitoredRun, read: Callable[[Any, Callable[[str], None]], R], message: str, *, paused: bool = False
) -> R:
    """``read(client, update)`` under a spinner saying ``message`` (``Connecting to…`` until a broker
    answers; ``paused``: with the GC paused)."""
    with ExitStack() as stack:
        stack.enter_context(unknown_reported(run))
        if paused:
            stack.enter_context(gc_paused())
        client = stack.enter_context(kafka_client(run))
        return read(client, stack.enter_context(progress(message, run.env, waiting=connecting(client))))


def watch(
    run: MonitoredRun,
    read: Callable[[Any], R],
    loop: Callable[[Any, Callable[[Any], R]], None],
    *,
    text: Callable[[R], str],
    first: Callable[[R], None] | None = None,
) -> None:
    """``--watch``: ``loop(client, refresh)`` until Ctrl-C, where ``refresh`` is ``read`` with
    ``--prometheus-file`` rewritten after it (its ``text``; ``up 0`` when a refresh fails)."""
    refresh = refreshed(
        read,
        publish=publisher(run.prometheus_file, text),
        down=down_writer(run.prometheus_file, run.down),
        first=first,
    )
    with unknown_reported(run), kafka_client(run) as client:
        loop(client, refresh)


def published(run: MonitoredRun, metrics: Callable[[], str], show: Callable[[], None]) -> None:
    """``--prometheus-file`` written (``metrics()``), then ``show()``; a failed write raised after."""
    unwritten = write_result(run.prometheus_file, metrics()) if run.prometheus_file else None
    show()
    if unwritten is not None:
        raise unwritten
