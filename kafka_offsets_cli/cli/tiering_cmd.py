"""``kafka-offsets tiering``: is tiered storage keeping up? Local and remote spans and the upload backlog."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import KafkaOffsetsError, MonitoringStatus, UsageError
from ..parse.durations import parse_duration
from ..parse.times import parse_tz
from ..render import tiering as render
from ..tiering.rules import COLUMNS, Thresholds
from .app import command_help, is_debug
from .boundary import boundary
from .emit import parse_columns, records_text
from .emit import show as show_output
from .liveness_options import CHECK, IncludeInternalOpt, ProblemsOpt
from .metric_labels import PrometheusFileOpt, settings_and_labels
from .monitor_failure import report_unknown
from .options import (
    OUTPUTS,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    Format,
    LabelOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TieringOutputOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    TzOpt,
    XOpt,
    selection_from,
)
from .output import err_console, progress, write
from .textfile import check_writable, write_result

if TYPE_CHECKING:
    from ..tiering.report import TieringReport

EXAMPLES = """Examples:


  kafka-offsets tiering -b localhost:9092 -t orders --warn-age 2h --crit-age 8d


  kafka-offsets tiering --cluster prod --warn-records 500000 --crit-records 5000000 -o nagios


  kafka-offsets tiering --cluster prod --warn-age 2h --crit-age 8d \\
      --prometheus-file /var/lib/node_exporter/textfile/kafka_tiering.prom

Per partition, from ListOffsets earliest, earliest-local (-4), latest-tiered (-5),
earliest-pending-upload (-6) and latest: LOCAL, the offsets still on the leader's disk
(earliest-local..latest-1); REMOTE, the offsets in remote storage (earliest..latest-tiered);
BACKLOG, the records not yet copied to remote storage (latest - latest-tiered - 1; with
nothing tiered yet, from earliest-pending-upload); BACKLOG-AGE, how old the oldest of them
is (now - the newest timestamp up to the first not-yet-tiered offset, as lag's time lag).
The active segment is uploaded only once it rolls: thresholds must leave room for one
segment (segment.bytes, segment.ms). There are none by default.

States: ok, warning (backlog above --warn-records or older than --warn-age), critical
(above --crit-records or older than --crit-age), not-tiered (remote.storage.enable is not
true: OK), error (UNKNOWN). A topic takes its worst partition's status. A table ends with
a line per topic and one for the run on stderr.

Exit status (monitoring-plugin convention): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (cluster
unreachable, authorization or partition errors, and usage errors, found before any connection;
with -o nagios an UNKNOWN status line).

--prometheus-file FILE writes the metrics atomically whatever --output prints (up 0 and
status 3 if the cluster cannot be reached); -o prometheus prints them. Every series carries
cluster (the --cluster profile's name, or the bootstrap servers) and each --label NAME=VALUE.
"""

WarnRecordsOpt = Annotated[
    int | None,
    typer.Option(
        "--warn-records",
        metavar="N",
        min=0,
        help="WARNING above N records not yet tiered.",
        rich_help_panel=CHECK,
        show_default=False,
    ),
]
CritRecordsOpt = Annotated[
    int | None,
    typer.Option(
        "--crit-records",
        metavar="N",
        min=0,
        help="CRITICAL above N records not yet tiered.",
        rich_help_panel=CHECK,
        show_default=False,
    ),
]
WarnAgeOpt = Annotated[
    str | None,
    typer.Option(
        "--warn-age",
        metavar="DURATION",
        help="WARNING when the oldest record not yet tiered is older.",
        rich_help_panel=CHECK,
        show_default=False,
    ),
]
CritAgeOpt = Annotated[
    str | None,
    typer.Option(
        "--crit-age",
        metavar="DURATION",
        help="CRITICAL when the oldest record not yet tiered is older.",
        rich_help_panel=CHECK,
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``tiering`` command to ``app``."""
    app.command("tiering", help=command_help("tiering"), epilog=EXAMPLES)(tiering_cmd)


def thresholds_from(
    warn_records: int | None, crit_records: int | None, warn_age: str | None, crit_age: str | None
) -> Thresholds:
    """The checked thresholds; a warning above its critical is a usage error."""
    wa = parse_duration(warn_age) if warn_age else None
    ca = parse_duration(crit_age) if crit_age else None
    for name, w, c in (("records", warn_records, crit_records), ("age", wa, ca)):
        if w is not None and c is not None and w > c:
            raise UsageError(f"--warn-{name} is above --crit-{name}")
    return Thresholds(warn_records=warn_records, crit_records=crit_records, warn_age_ms=wa, crit_age_ms=ca)


def tiering_cmd(
    ctx: typer.Context,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    include_internal: IncludeInternalOpt = False,
    warn_records: WarnRecordsOpt = None,
    crit_records: CritRecordsOpt = None,
    warn_age: WarnAgeOpt = None,
    crit_age: CritAgeOpt = None,
    output: TieringOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    problems: ProblemsOpt = False,
    label: LabelOpt = None,
    tz: TzOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Local and remote spans and the upload backlog of tiered topics, as a monitoring check."""
    debug = is_debug(ctx)
    status = MonitoringStatus.UNKNOWN
    with boundary(debug, monitoring=True, nagios=render.SERVICE if output == Format.nagios else None):
        thresholds = thresholds_from(warn_records, crit_records, warn_age, crit_age)
        zone = parse_tz(tz)
        fmt = OUTPUTS["tiering"].choose(output)
        cols = parse_columns(columns, COLUMNS)
        selection = selection_from(
            topic, partitions, topic_partitions, False, exclude_system=not include_internal
        )
        if prometheus_file:
            check_writable(prometheus_file)  # a usage error (UNKNOWN) before anything is contacted
        settings, labels = settings_and_labels(ctx, label, reserved=render.SERIES_LABELS)
        try:
            from ..kafka import KafkaClient
            from ..tiering.collect import collect

            with progress("Listing tiered offsets…"), KafkaClient(settings, debug=debug) as client:
                report = collect(client, selection, thresholds)
        except KafkaOffsetsError as e:
            if not isinstance(e, UsageError):
                report_unknown(
                    e,
                    fmt=fmt,
                    service=render.SERVICE,
                    down=render.prometheus_down,
                    labels=labels,
                    prometheus_file=prometheus_file,
                )
            raise
        unwritten = (
            write_result(prometheus_file, render.prometheus(report, labels)) if prometheus_file else None
        )
        _show(report, fmt, zone, cols, no_headers, problems, labels)
        if unwritten is not None:
            raise unwritten
        status = report.status
    raise typer.Exit(int(status))


def _show(
    report: TieringReport,
    fmt: Format,
    zone: tzinfo,
    cols: list[str] | None,
    no_headers: bool,
    problems: bool,
    labels: Mapping[str, str],
) -> None:
    """Data on stdout; under a table, a line per topic and the run's on stderr."""
    if fmt is Format.nagios:
        write(render.nagios(report))
        return
    if fmt is Format.prometheus:
        write(render.prometheus(report, labels))
        return
    shown = report.shown(problems)
    if fmt is Format.table:
        show_output(render.rich_table(shown, zone, header=not no_headers, columns=cols))
        c = err_console()
        for line in [*render.topic_lines(shown), render.summary_line(report)]:
            c.print(line, highlight=False, soft_wrap=True)
        return
    write(records_text(render.records(shown), fmt, COLUMNS, cols, header=not no_headers))
