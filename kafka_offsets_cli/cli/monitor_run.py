"""The run the monitoring commands (``lag``, ``liveness``, ``tiering``) share, written once.

Each command builds its request and its view, then hands the steps that are its own (how to read
once, how to watch, its metrics, how to show a report) to these functions: ``--prometheus-file``
checked before anything is contacted; a failure but a usage error reported UNKNOWN (the nagios
line; ``up 0`` on stdout and in the file for a cluster failure) before the boundary prints it;
the file written and the metrics pushed (``--otlp-endpoint``, :mod:`.otlp_push`) before stdout
(which may be a closed pipe), and a failed write or push raised once the report is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import typer

from ..connection.resolver import ConnectionOptions
from ..connection.settings import ClientSettings
from ..errors import ClusterError, KafkaOffsetsError, MonitoringStatus, UsageError
from ..plan.refresh import published as refreshed
from ..render.monitoring import nagios_line
from .app import environment_of, is_debug
from .command_options import NO_PUSH, Push
from .environment import Environment
from .metric_labels import settings_and_labels
from .options import Format
from .otlp_push import OtlpTarget, otlp_target, push
from .output import connecting, progress, write
from .textfile import ResultNotWritten, check_writable, write_result

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
    #: ``--otlp-endpoint``: where the metrics are pushed too
    otlp: OtlpTarget | None = None

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
    push_to: Push = NO_PUSH,
) -> MonitoredRun:
    """The run of the command in ``ctx`` (its ``--debug`` and environment): its settings and labels
    (``--label`` checked), ``--prometheus-file`` checked writable and ``--otlp-endpoint`` checked
    first: usage errors before anything is contacted."""
    if prometheus_file:
        check_writable(prometheus_file)
    otlp = otlp_target(push_to.endpoint, push_to.headers)
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
        otlp=otlp,
    )


def delivered(run: MonitoredRun, text: str) -> ResultNotWritten | None:
    """``text`` written to ``--prometheus-file`` and pushed to ``--otlp-endpoint``; what failed,
    in one error (returned: the caller raises it once the report is shown)."""
    failed = []
    if run.prometheus_file:
        failed.append(write_result(run.prometheus_file, text))
    if run.otlp is not None:
        from .. import __version__
        from ..render.otlp import export_request

        body = export_request(text, constant=run.labels, now_ms=run.env.now_ms(), version=__version__)
        failed.append(push(run.otlp, body, run.settings.timeout_ms / 1000))
    errors = [f for f in failed if f is not None]
    if len(errors) > 1:
        return ResultNotWritten(f"{errors[0].message} (and {errors[1].message})", hint=errors[0].hint)
    return errors[0] if errors else None


def _delivers(run: MonitoredRun) -> bool:
    return bool(run.prometheus_file) or run.otlp is not None


def _down(run: MonitoredRun, failure: KafkaOffsetsError, text: str | None = None) -> None:
    """The ``up 0`` metrics (``text``, else of now) delivered after ``failure``; a delivery that
    fails too is named with it."""
    undelivered = delivered(run, run.down() if text is None else text)
    if undelivered is not None:
        raise ResultNotWritten(
            f"{failure.message} (and {undelivered.message})", hint=failure.hint
        ) from failure


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
        if _delivers(run):
            _down(run, err, text)


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


def read_once(run: MonitoredRun, read: Callable[[Any, Callable[[str], None]], R], message: str) -> R:
    """``read(client, update)`` under a spinner saying ``message`` (``Connecting to…`` until a broker
    answers)."""
    with ExitStack() as stack:
        stack.enter_context(unknown_reported(run))
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

    def publish(result: R) -> None:
        undelivered = delivered(run, text(result))
        if undelivered is not None:
            raise undelivered

    on = _delivers(run)
    refresh = refreshed(
        read, publish=publish if on else None, down=partial(_down, run) if on else None, first=first
    )
    with unknown_reported(run), kafka_client(run) as client:
        loop(client, refresh)


def published(run: MonitoredRun, metrics: Callable[[], str], show: Callable[[], None]) -> None:
    """``--prometheus-file`` written and ``--otlp-endpoint`` pushed (``metrics()``), then ``show()``;
    a failed write or push raised after."""
    unwritten = delivered(run, metrics()) if _delivers(run) else None
    show()
    if unwritten is not None:
        raise unwritten
