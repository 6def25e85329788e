"""``kafka-offsets liveness``: is data still arriving? A monitoring check on the newest records."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import ClusterError, KafkaOffsetsError, MonitoringStatus, UsageError
from ..liveness import COLUMNS, DEFAULT_FUTURE_TOLERANCE_MS
from ..models import Isolation
from .app import is_debug
from .boundary import boundary
from .options import (
    OUT,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ConnectionArgs,
    ExcludeInternalOpt,
    IsolationOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    TzOpt,
    XOpt,
)

if TYPE_CHECKING:
    from datetime import tzinfo

    from ..config import ClientSettings
    from ..liveness import LivenessReport
    from ..selection import Selection

CHECK = "Check"


class LivenessOutput(str, Enum):
    """Output formats of ``liveness``."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    nagios = "nagios"
    prometheus = "prometheus"


class StatusName(str, Enum):
    """A monitoring status given on the command line."""

    ok = "ok"
    warning = "warning"
    critical = "critical"
    unknown = "unknown"

    @property
    def status(self) -> MonitoringStatus:
        """The matching :class:`MonitoringStatus`."""
        return MonitoringStatus[self.value.upper()]


EXAMPLES = """Examples:


  kafka-offsets liveness -b localhost:9092 -t orders --warn 5m --crit 15m


  kafka-offsets liveness -b localhost:9092 -t 'orders|payments' --min-alive 4 -o nagios


  kafka-offsets liveness -b localhost:9092 --exclude-internal-topics -o nagios \\
      --prometheus-file /var/lib/node_exporter/textfile/kafka_liveness.prom

Each partition's newest record by timestamp (ListOffsets max-timestamp, KIP-734) and its age.
States: ok, warning (age > --warn), critical (age > --crit), empty (no record), future
(timestamp beyond now + --future-tolerance), error. A topic takes the status of its stalest
partition, or with --min-alive N the best status N of its partitions reach. On CreateTime topics
(see TIMESTAMP-TYPE) ages reflect the producers' clocks.

Exit status (monitoring-plugin convention): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (cluster
unreachable, authorization or partition errors); 2 also for usage errors, before any connection.

--prometheus-file FILE writes node_exporter textfile-collector metrics atomically (temp file +
rename) whatever --output prints; if the cluster cannot be reached it still writes
kafka_offsets_liveness_up 0 with status 3. -o prometheus prints the same metrics on stdout.
"""


def register(app: typer.Typer) -> None:
    """Add the ``liveness`` command to ``app``."""
    app.command(
        "liveness",
        help="Age of each partition's newest record, as a monitoring check (exit 0/1/2/3).",
        epilog=EXAMPLES,
    )(liveness_cmd)


def liveness_cmd(
    ctx: typer.Context,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    exclude_internal_topics: ExcludeInternalOpt = False,
    warn: Annotated[
        str,
        typer.Option(
            "--warn",
            "-w",
            metavar="DURATION",
            help="WARNING when the newest record is older.",
            rich_help_panel=CHECK,
        ),
    ] = "5m",
    crit: Annotated[
        str,
        typer.Option(
            "--crit",
            "-c",
            metavar="DURATION",
            help="CRITICAL when the newest record is older.",
            rich_help_panel=CHECK,
        ),
    ] = "15m",
    min_alive: Annotated[
        int | None,
        typer.Option(
            "--min-alive",
            metavar="N",
            min=1,
            help="A topic is as good as its N-th best partition (default: all partitions must be fresh).",
            rich_help_panel=CHECK,
            show_default=False,
        ),
    ] = None,
    future_tolerance: Annotated[
        str,
        typer.Option(
            "--future-tolerance",
            metavar="DURATION",
            help="Timestamps up to this far after now count as age 0; beyond it, state future.",
            rich_help_panel=CHECK,
        ),
    ] = f"{DEFAULT_FUTURE_TOLERANCE_MS // 1000}s",
    empty_status: Annotated[
        StatusName,
        typer.Option(
            "--empty-status",
            help="Status of an empty partition.",
            rich_help_panel=CHECK,
            case_sensitive=False,
        ),
    ] = StatusName.critical,
    future_status: Annotated[
        StatusName,
        typer.Option(
            "--future-status",
            help="Status of a partition with a future timestamp.",
            rich_help_panel=CHECK,
            case_sensitive=False,
        ),
    ] = StatusName.warning,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: Annotated[
        LivenessOutput | None,
        typer.Option(
            "--output",
            "-o",
            help="table (default on a TTY), json, jsonl (default otherwise), csv, nagios (one status line "
            "with perfdata) or prometheus (textfile-collector metrics).",
            rich_help_panel=OUT,
            show_default=False,
            case_sensitive=False,
        ),
    ] = None,
    prometheus_file: Annotated[
        str | None,
        typer.Option(
            "--prometheus-file",
            metavar="FILE",
            help="Also write the Prometheus metrics to FILE atomically (node_exporter textfile collector).",
            rich_help_panel=OUT,
            show_default=False,
        ),
    ] = None,
    tz: TzOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Age of each partition's newest record, as a monitoring check."""
    debug = is_debug(ctx)
    status = MonitoringStatus.UNKNOWN
    with boundary(debug, monitoring=True):
        from ..selection import parse_selection
        from ..timeparse import parse_duration, parse_tz
        from .emit import default_format, parse_columns
        from .options import settings_from

        warn_ms, crit_ms = parse_duration(warn), parse_duration(crit)
        if warn_ms > crit_ms:
            raise UsageError(f"--warn {warn} is longer than --crit {crit}")
        tolerance_ms = parse_duration(future_tolerance)
        zone = parse_tz(tz)
        fmt = LivenessOutput(output.value if output else default_format("table", "jsonl"))
        cols = parse_columns(columns, COLUMNS)
        selection = parse_selection(
            topics=topic or (),
            partitions=partitions,
            topic_partitions=topic_partitions,
            exclude_internal=exclude_internal_topics,
        )
        settings = settings_from(
            ConnectionArgs(bootstrap_server, command_config, tuple(x or ()), timeout, isolation, cluster)
        )
        try:
            report = _collect(
                settings,
                selection,
                warn_ms,
                crit_ms,
                min_alive,
                tolerance_ms,
                empty_status.status,
                future_status.status,
                isolation,
                debug,
            )
        except KafkaOffsetsError as e:
            if not isinstance(e, UsageError):
                _unknown(e, fmt, prometheus_file)
            raise
        if prometheus_file:
            from ..render.liveness import prometheus
            from .textfile import write_atomic

            write_atomic(prometheus_file, prometheus(report))
        _show(report, fmt, zone, cols, no_headers)
        status = report.status
    raise typer.Exit(int(status))


def _collect(
    settings: ClientSettings,
    selection: Selection,
    warn_ms: int,
    crit_ms: int,
    min_alive: int | None,
    tolerance_ms: int,
    empty: MonitoringStatus,
    future: MonitoringStatus,
    isolation: Isolation,
    debug: bool,
) -> LivenessReport:
    from ..client import KafkaClient
    from ..liveness import collect
    from .output import progress

    with progress("Listing max-timestamp offsets…"), KafkaClient(settings, debug=debug) as client:
        return collect(
            client,
            selection,
            warn_ms,
            crit_ms,
            min_alive=min_alive,
            future_tolerance_ms=tolerance_ms,
            empty=empty,
            future=future,
            isolation=isolation,
        )


def _unknown(err: KafkaOffsetsError, fmt: LivenessOutput, prometheus_file: str | None) -> None:
    """On a cluster failure: the UNKNOWN nagios line on stdout and an ``up 0`` textfile, then exit 3."""
    from ..render.liveness import SERVICE, prometheus_down
    from ..render.monitoring import nagios_line
    from ..timeparse import now_ms
    from .output import write

    if prometheus_file and isinstance(err, ClusterError):
        from .textfile import write_atomic

        write_atomic(prometheus_file, prometheus_down(MonitoringStatus.UNKNOWN, now_ms()))
    if fmt is LivenessOutput.nagios:
        write(nagios_line(SERVICE, MonitoringStatus.UNKNOWN, err.message))


def _show(
    report: LivenessReport, fmt: LivenessOutput, zone: tzinfo, cols: list[str] | None, no_headers: bool
) -> None:
    from ..render import liveness as r
    from .emit import records_text
    from .output import err_console, print_renderable, write

    if fmt is LivenessOutput.table:
        print_renderable(r.rich_table(report, zone, header=not no_headers))
        c = err_console()
        for line in r.topic_lines(report):
            c.print(line, highlight=False)
    elif fmt is LivenessOutput.nagios:
        write(r.nagios(report))
    elif fmt is LivenessOutput.prometheus:
        write(r.prometheus(report))
    else:
        write(records_text(r.records(report), fmt.value, COLUMNS, cols, header=not no_headers))
