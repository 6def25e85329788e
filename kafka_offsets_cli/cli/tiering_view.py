"""How ``kafka-offsets tiering`` shows a report: data on stdout; under a table, a line per topic and
the run's on stderr."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING

from ..render import tiering as render
from ..render.offset_compat import Compat
from ..tiering.rules import COLUMNS
from .emit import records_text
from .emit import show as show_output
from .options import Format
from .output import Screen, err_console, warn, write

if TYPE_CHECKING:
    from ..tiering.report import TieringReport


def show(
    report: TieringReport,
    fmt: Format,
    zone: tzinfo,
    cols: list[str] | None,
    no_headers: bool,
    problems: bool,
    labels: Mapping[str, str],
    screen: Screen,
    compat: Sequence[Compat] = (),
) -> None:
    """Data on ``screen``'s stdout; under a table, a line per topic and the run's on stderr."""
    env = screen.env
    if fmt is Format.nagios:
        write(render.nagios(report), env)
        return
    if fmt is Format.prometheus:
        write(render.prometheus(report, labels, compat), env)
        return
    shown = report.shown(problems)
    if fmt is Format.table:
        show_output(render.rich_table(shown, zone, header=not no_headers, columns=cols), screen)
        c = err_console(env)
        for line in [*render.topic_lines(shown), render.summary_line(report)]:
            c.print(line, highlight=False, soft_wrap=True)
        return
    write(records_text(render.records(shown), fmt, COLUMNS, cols, header=not no_headers), env)
    for t in report.topics:  # a topic that could not be listed has no partition record: said here
        if t.error is not None:
            warn(f"{t.topic}: {t.error}", env)
