"""``kafka-offsets liveness``: is data still arriving? A monitoring check on the newest records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from ..errors import ClusterError, KafkaOffsetsError, MonitoringStatus, NotFound, UsageError
from ..liveness.collect import collect, collect_with_ends
from ..measures.liveness import COLUMNS, DEFAULT_EMPTY_STATUS, DEFAULT_FUTURE_TOLERANCE_MS
from ..models.offsets import Isolation
from ..parse.durations import parse_duration
from ..parse.times import now_ms, parse_tz
from ..render.liveness import SERVICE
from ..render.liveness_metrics import SERIES_LABELS, prometheus, prometheus_down
from ..system_topics import SYSTEM_HINT
from . import liveness_view
from .app import command_help, is_debug
from .boundary import boundary
from .emit import parse_columns
from .liveness_options import (
    CritOpt,
    EmptyStatusOpt,
    ExcludeInternalCompatOpt,
    FutureStatusOpt,
    FutureToleranceOpt,
    IncludeInternalOpt,
    MinAliveOpt,
    ProblemsOpt,
    StateOpt,
    StatusName,
    WarnOpt,
    parse_states,
)
from .liveness_view import RATE_FIELD, LivenessSnapshot, LivenessView, show
from .metric_labels import PrometheusFileOpt, settings_and_labels
from .monitor_failure import report_unknown
from .options import (
    OUTPUTS,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    Format,
    IsolationOpt,
    LabelOpt,
    LivenessOutputOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    TzOpt,
    WatchOpt,
    XOpt,
    selection_from,
    watch_interval,
)
from .output import progress
from .textfile import ResultNotWritten, check_writable, write_down, write_result

if TYPE_CHECKING:
    from ..connection.settings import ClientSettings
    from ..kafka import KafkaClient
    from ..liveness.report import LivenessReport
    from ..parse.selection import Selection
    from .liveness_view import LivenessSnapshot, LivenessView


EXAMPLES = """Examples:


  kafka-offsets liveness -b localhost:9092 -t orders --warn 5m --crit 15m


  kafka-offsets liveness -b localhost:9092 --problems



  kafka-offsets liveness -b localhost:9092 -t 'orders|payments' --min-alive 4 -o nagios


  kafka-offsets liveness --cluster prod -o nagios --label env=prod \\
      --prometheus-file /var/lib/node_exporter/textfile/kafka_liveness.prom

Each partition's newest record by timestamp (ListOffsets max-timestamp, KIP-734) and its age.
Every topic but Kafka's own system topics (__consumer_offsets, __transaction_state,
__share_group_state, __remote_log_metadata, by name) unless --include-internal.
States: ok, warning (age > --warn), critical (age > --crit), empty (no record: log start
= end; OK unless --empty-status), pending (the newest record still beyond the high
watermark after ~0.6 s of asking again: UNKNOWN), future (timestamp beyond now +
--future-tolerance), error. A topic takes the status of its stalest partition, or with
--min-alive N the best status N of its partitions reach. On CreateTime topics
(see TIMESTAMP-TYPE) ages reflect the producers' clocks.

--problems shows only the partitions whose status is not OK, --state warning,critical only
those states (table, json, jsonl, csv; the exit status and nagios/prometheus output are the
whole run's). A table ends with one summary line on stderr: the status, partitions per state
and the thresholds.

Exit status (monitoring-plugin convention): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (cluster
unreachable, authorization or partition errors, and usage errors, found before any connection;
with -o nagios an UNKNOWN status line).

--prometheus-file FILE writes node_exporter textfile-collector metrics atomically (temp file +
rename) whatever --output prints; if the cluster cannot be reached it still writes
kafka_offsets_liveness_up 0 with status 3. -o prometheus prints the same metrics on stdout.
Every series carries cluster (the --cluster profile's name, or the bootstrap servers) and
each --label NAME=VALUE.
A FILE that cannot be written is a usage error (3) before anything is contacted; a write
that fails after the run (disk full) is UNKNOWN (3), the status still printed.

--watch 30s refreshes every 30 seconds until Ctrl-C, with a RECORDS/S column (records/s
appended, from the latest offsets listed in the same round; in_per_s in json, jsonl and csv);
other formats print one block per refresh. A watch always exits 0 on Ctrl-C (a cluster error
on the first refresh still exits 3). With --prometheus-file the file is rewritten atomically
after every refresh (up 0 when a refresh cannot reach the cluster); without it no file is
written.
"""


def register(app: typer.Typer) -> None:
    """Add the ``liveness`` command to ``app``."""
    app.command(
        "liveness",
        help=command_help("liveness"),
        epilog=EXAMPLES,
    )(liveness_cmd)


def liveness_cmd(
    ctx: typer.Context,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    include_internal: IncludeInternalOpt = False,
    exclude_internal_topics: ExcludeInternalCompatOpt = False,
    warn: WarnOpt = "5m",
    crit: CritOpt = "15m",
    min_alive: MinAliveOpt = None,
    future_tolerance: FutureToleranceOpt = f"{DEFAULT_FUTURE_TOLERANCE_MS // 1000}s",
    empty_status: EmptyStatusOpt = StatusName(DEFAULT_EMPTY_STATUS.name.lower()),
    future_status: FutureStatusOpt = StatusName.warning,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: LivenessOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    problems: ProblemsOpt = False,
    state: StateOpt = None,
    label: LabelOpt = None,
    tz: TzOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    watch: WatchOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Age of each partition's newest record, as a monitoring check."""
    debug = is_debug(ctx)
    status = MonitoringStatus.UNKNOWN
    with boundary(debug, monitoring=True, nagios=SERVICE if output == Format.nagios else None):
        warn_ms, crit_ms = parse_duration(warn), parse_duration(crit)
        if warn_ms > crit_ms:
            raise UsageError(f"--warn {warn} is longer than --crit {crit}")
        tolerance_ms = parse_duration(future_tolerance)
        zone = parse_tz(tz)
        fmt = OUTPUTS["liveness"].choose(output)
        cols = parse_columns(columns, (*COLUMNS, RATE_FIELD) if watch is not None else COLUMNS)
        interval = watch_interval(watch)
        if include_internal and exclude_internal_topics:
            raise UsageError("--include-internal and --exclude-internal-topics contradict each other")
        states = parse_states(state)
        selection = selection_from(
            topic, partitions, topic_partitions, False, exclude_system=not include_internal
        )
        if prometheus_file:
            check_writable(prometheus_file)  # a usage error (UNKNOWN) before anything is contacted
        settings, labels = settings_and_labels(ctx, label, reserved=SERIES_LABELS)
        check = _Check(
            selection=selection,
            warn_ms=warn_ms,
            crit_ms=crit_ms,
            min_alive=min_alive,
            tolerance_ms=tolerance_ms,
            empty=empty_status.status,
            future=future_status.status,
            isolation=isolation,
        )
        view = LivenessView(
            fmt=fmt,
            zone=zone,
            columns=tuple(cols) if cols else None,
            no_headers=no_headers,
            problems=problems,
            states=states,
            labels=labels,
        )
        try:
            if interval is not None:
                _watch(settings, check, view, interval, prometheus_file, debug)
                status = MonitoringStatus.OK  # Ctrl-C ends a watch normally
            else:
                report = _collect(settings, check, debug)
        except KafkaOffsetsError as e:
            if isinstance(e, NotFound) and e.hint and not include_internal:
                # system topics are out by default here (not in list): say how to get them
                e.hint = e.hint.replace(SYSTEM_HINT, f"{SYSTEM_HINT} (--include-internal adds them)")
            if not isinstance(e, UsageError):
                report_unknown(
                    e,
                    fmt=view.fmt,
                    service=SERVICE,
                    down=prometheus_down,
                    labels=view.labels,
                    prometheus_file=prometheus_file,
                )
            raise
        if interval is None:
            # written before stdout, which may be a closed pipe; a failure is UNKNOWN once the status is shown
            unwritten = _write_prometheus(prometheus_file, report, view) if prometheus_file else None

            show(report, view)
            if unwritten is not None:
                raise unwritten
            status = report.status
    raise typer.Exit(int(status))


@dataclass(frozen=True, kw_only=True)
class _Check:
    """The liveness check to run (once, or on every refresh)."""

    selection: Selection
    warn_ms: int
    crit_ms: int
    min_alive: int | None
    tolerance_ms: int
    empty: MonitoringStatus
    future: MonitoringStatus
    isolation: Isolation

    def run(self, client: KafkaClient) -> LivenessReport:
        """One max-timestamp round."""

        return collect(client, self.selection, self.warn_ms, self.crit_ms, **self._options())

    def snapshot(self, client: KafkaClient) -> LivenessSnapshot:
        """One max-timestamp + latest round, for ``--watch``."""

        report, ends = collect_with_ends(
            client, self.selection, self.warn_ms, self.crit_ms, **self._options()
        )
        return LivenessSnapshot(report, ends)

    def _options(self) -> dict[str, Any]:
        return {
            "min_alive": self.min_alive,
            "future_tolerance_ms": self.tolerance_ms,
            "empty": self.empty,
            "future": self.future,
            "isolation": self.isolation,
        }


def _collect(settings: ClientSettings, check: _Check, debug: bool) -> LivenessReport:
    from ..kafka import KafkaClient

    with progress("Listing max-timestamp offsets…"), KafkaClient(settings, debug=debug) as client:
        return check.run(client)


def _write_prometheus(path: str, report: LivenessReport, view: LivenessView) -> ResultNotWritten | None:
    return write_result(path, prometheus(report, view.labels))


def _watch(
    settings: ClientSettings,
    check: _Check,
    view: LivenessView,
    interval: float,
    prometheus_file: str | None,
    debug: bool,
) -> None:
    """Refresh until Ctrl-C, rewriting ``--prometheus-file`` (if given) after each refresh."""
    from ..kafka import KafkaClient

    def fetch(client: KafkaClient) -> LivenessSnapshot:
        try:
            snap = check.snapshot(client)
        except ClusterError as e:
            if prometheus_file:
                write_down(
                    prometheus_file, prometheus_down(MonitoringStatus.UNKNOWN, now_ms(), view.labels), e
                )
            raise
        if prometheus_file:
            unwritten = _write_prometheus(prometheus_file, snap.report, view)
            if unwritten is not None:
                raise unwritten  # UNKNOWN on the first refresh, a warning on a later one
        return snap

    with KafkaClient(settings, debug=debug) as client:
        liveness_view.watch(client, interval, fetch, view)
