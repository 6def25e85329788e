"""What ``check`` shows: the report on stdout in its format (and the ``--prometheus-file``), what
a valid spec holds (``--validate``), the stages' times, and the UNKNOWN outputs of a run that
could not be made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo
from itertools import chain
from typing import TYPE_CHECKING

from ..errors import KafkaOffsetsError, MonitoringStatus
from ..parse.times import now_ms
from ..render.check import json_chunks, rich_summary
from ..render.check_compat import check_compat_text
from ..render.check_monitoring import SERVICE, nagios, prometheus_chunks, prometheus_down
from ..render.monitoring import nagios_line
from .options import Format
from .output import Screen, err_console, print_renderable, write, write_chunks
from .textfile import ResultNotWritten, write_down, write_result

if TYPE_CHECKING:
    from ..check.report import CheckReport
    from ..check.spec import CheckSpec
    from ..render.offset_compat import Compat

__all__ = ["outcome", "show", "show_timings", "unknown", "validated"]


def validated(spec: CheckSpec) -> None:
    """``--validate``: say on stderr what the valid spec holds, and what a run will still need."""
    kinds = {t: sum(1 for c in spec.checks if c.type == t) for t in ("liveness", "lag")}
    tiering = len(spec.tiering_checks)
    err_console().print(
        f"{spec.source}: valid: {len(spec.checks) + tiering} check(s) "
        f"({kinds['liveness']} liveness, {kinds['lag']} lag"
        + (f", {tiering} tiering" if tiering else "")
        + f") on {len(spec.clusters)} cluster(s)",
        highlight=False,
        soft_wrap=True,
    )
    for t in spec.tiering_checks:  # valid for serve --spec; check itself refuses to run it
        err_console().print(
            f"note: check {t.name!r}: tiering checks are served by 'serve --spec', not run by check",
            highlight=False,
            soft_wrap=True,
        )
    for note in spec.notes:  # a secret's variable: set where the checks run, not where the file is edited
        err_console().print(f"note: {note}: a run needs it", highlight=False, soft_wrap=True)


def unknown(
    err: KafkaOffsetsError,
    fmt: Format,
    prometheus_file: str | None,
    clusters: tuple[str, ...] = (),
    labels: Mapping[str, str] | None = None,
) -> None:
    """When the check could not run: the UNKNOWN nagios line or ``up 0`` metrics, an ``up 0`` textfile."""
    if fmt is Format.nagios:
        write(nagios_line(SERVICE, MonitoringStatus.UNKNOWN, err.message))
    down = prometheus_down(MonitoringStatus.UNKNOWN, now_ms(), clusters, labels)
    if fmt is Format.prometheus:
        write(down)
    if prometheus_file:
        write_down(prometheus_file, down, err)


def show_timings(report: CheckReport) -> None:
    """``--timings``: each stage's seconds on stderr."""
    text = ", ".join(f"{k} {v:.2f}s" for k, v in report.timings.items())
    err_console().print(f"kafka-offsets: timings: {text}", highlight=False, soft_wrap=True)


def show(
    report: CheckReport,
    fmt: Format,
    zone: object,
    worst: int,
    screen: Screen,
    labels: Mapping[str, str] | None = None,
    aliases: str = "",
) -> None:
    """The report on ``screen`` in ``fmt`` (``labels``: the constant labels of prometheus series;
    ``aliases``: ``--metrics-compat``'s text, after them)."""
    assert isinstance(zone, tzinfo)
    env = screen.env
    if fmt is Format.table:
        print_renderable(rich_summary(report, zone, worst=worst), screen)
    elif fmt is Format.nagios:
        write(nagios(report), env)
    elif fmt is Format.json:
        write_chunks(json_chunks(report), env)  # the partition records a slice at a time, never one string
    elif fmt is Format.prometheus:
        write_chunks(chain(prometheus_chunks(report, labels), [aliases]), env)  # a slice at a time


def outcome(
    report: CheckReport,
    fmt: Format,
    zone: tzinfo,
    *,
    worst: int,
    screen: Screen,
    labels: Mapping[str, str],
    prometheus_file: str | None,
    timings: bool,
    compat: Sequence[Compat] = (),
    time_lag: Mapping[str, bool] | None = None,
) -> MonitoringStatus:
    """The report out (the ``--prometheus-file`` first, then stdout); its status, or
    :class:`ResultNotWritten` (UNKNOWN) once the status is shown when an output failed."""
    unwritten = None  # written before stdout; a failure is UNKNOWN once the status is shown
    aliases = check_compat_text(report, compat, time_lag or {}, labels)  # "" without --metrics-compat
    if prometheus_file:
        unwritten = write_result(prometheus_file, chain(prometheus_chunks(report, labels), [aliases]))
    if timings:
        show_timings(report)
    show(report, fmt, zone, worst, screen, labels, aliases)
    late = ([unwritten.message] if unwritten is not None else []) + list(report.unwritten)
    if late:  # the verdict is out; an output that failed makes the run UNKNOWN (3), one line
        raise ResultNotWritten("; ".join(late), hint=unwritten.hint if unwritten is not None else None)
    return report.status
