"""``kafka-offsets lag``: consumer group lag per partition, in offsets and (``--time-lag``) in time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import typer

from ..errors import ClusterError, MonitoringStatus, NotFound, PartialFailure, UsageError
from ..gcpause import gc_paused
from ..lag.summary import SortKey
from ..measures.lag.collect import LagReport, collect, resolve_groups
from ..models.offsets import Isolation
from ..parse.durations import parse_duration
from ..parse.times import now_ms
from ..render.lag_metrics import SERIES_LABELS, SERVICE, prometheus_down
from . import lag_view
from .app import command_help, is_debug
from .boundary import boundary
from .connection import connection_of
from .emit import parse_columns
from .families import lag_monitors
from .lag_notes import failure_summary, notes
from .lag_options import (
    EXAMPLES,
    ByPartitionOpt,
    CritLagOpt,
    CritTimeLagOpt,
    GroupRegexOpt,
    MarkerCheckOpt,
    MembersOpt,
    MinLagOpt,
    MinTimeLagOpt,
    OnlyLaggingOpt,
    SortOpt,
    SummaryOpt,
    TimeLagOpt,
    WarnLagOpt,
    WarnTimeLagOpt,
    parse_thresholds,
)
from .lag_view import LagView, record_fields, show, summary_fields
from .metric_labels import PrometheusFileOpt, settings_and_labels
from .monitor_failure import unknown_reported
from .options import (
    OUTPUTS,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ExcludeInternalOpt,
    Format,
    GroupOpt,
    IsolationOpt,
    LabelOpt,
    LagOutputOpt,
    NoHeadersOpt,
    PartitionsOpt,
    TimeoutOpt,
    TopicOpt,
    TopicPartitionsOpt,
    WatchOpt,
    XOpt,
    optional_selection_from,
    watch_interval,
)
from .output import progress, write
from .textfile import check_writable, write_down, write_result

if TYPE_CHECKING:
    from ..connection.settings import ClientSettings
    from ..kafka import KafkaClient
    from ..parse.selection import Selection


def register(app: typer.Typer) -> None:
    """Add the ``lag`` command to ``app``."""
    app.command("lag", help=command_help("lag"), epilog=EXAMPLES)(lag_cmd)


def lag_cmd(
    ctx: typer.Context,
    group: GroupOpt = None,
    group_regex: GroupRegexOpt = None,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    exclude_internal_topics: ExcludeInternalOpt = False,
    time_lag: TimeLagOpt = False,
    marker_check: MarkerCheckOpt = True,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    warn_lag: WarnLagOpt = None,
    crit_lag: CritLagOpt = None,
    warn_time_lag: WarnTimeLagOpt = None,
    crit_time_lag: CritTimeLagOpt = None,
    only_lagging: OnlyLaggingOpt = False,
    min_lag: MinLagOpt = None,
    min_time_lag: MinTimeLagOpt = None,
    sort: SortOpt = SortKey.name,
    summary: SummaryOpt = False,
    by_partition: ByPartitionOpt = False,
    members: MembersOpt = False,
    output: LagOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    label: LabelOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    watch: WatchOpt = None,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
) -> None:
    """Consumer group lag per partition; with thresholds, a monitoring check."""
    debug = is_debug(ctx)
    # a monitoring run: exit status 0-3, usage errors UNKNOWN (README "Exit codes"), records with a status
    given = (warn_lag, crit_lag, warn_time_lag, crit_time_lag)
    monitor = lag_monitors(
        thresholds=any(t is not None for t in given),
        prometheus_file=prometheus_file is not None,
        output=output,
    )
    nagios = SERVICE if output == Format.nagios else None
    with boundary(debug, monitoring=monitor, nagios=nagios):
        thresholds = parse_thresholds(warn_lag, crit_lag, warn_time_lag, crit_time_lag)
        fmt = OUTPUTS["lag"].choose(output)
    status = MonitoringStatus.OK
    with boundary(debug, monitoring=monitor, nagios=nagios):
        interval = watch_interval(watch)
        if summary and by_partition:
            raise UsageError("--summary and --by-partition contradict each other")
        fields = record_fields(monitor, interval is not None, members)
        cols = parse_columns(columns, tuple(dict.fromkeys((*fields, *summary_fields(interval is not None)))))
        min_time_lag_ms = parse_duration(min_time_lag) if min_time_lag is not None else None
        # no topic named: Kafka's system topics stay out, as without any selection (system_topics)
        selection = optional_selection_from(
            topic,
            partitions,
            topic_partitions,
            exclude_internal_topics,
            exclude_system=not topic and topic_partitions is None,
        )
        if prometheus_file:
            check_writable(prometheus_file)  # a usage error before anything is contacted
        conn = connection_of(
            bootstrap_server=bootstrap_server, cluster=cluster, command_config=command_config, x=x,
            timeout=timeout, isolation=isolation,
        )  # fmt: skip
        settings, labels = settings_and_labels(conn, label, reserved=SERIES_LABELS)
        view = LagView(
            fmt=fmt,
            columns=tuple(cols) if cols else None,
            no_headers=no_headers,
            only_lagging=only_lagging,
            sort=sort,
            min_lag=min_lag,
            min_time_lag_ms=min_time_lag_ms,
            thresholds=thresholds,
            monitor=monitor,
            labels=labels,
            summary=True if summary else False if by_partition else None,
            named=bool(group),
            members=members,
        )
        query = _Query(
            groups=list(group or ()),
            regexes=list(group_regex or ()),
            selection=selection,
            isolation=isolation,
            time_lag=time_lag or thresholds.on_time or min_time_lag_ms is not None,
            marker_check=marker_check,
            # the summary's TYPE and --members: each group's members and protocol
            members=members or summary or (fmt is Format.table and not group and not by_partition),
        )
        failed = unknown_reported(
            fmt=view.fmt, service=SERVICE, down=prometheus_down, labels=view.labels,
            prometheus_file=prometheus_file, monitoring=monitor,
        )  # fmt: skip
        with failed:
            if interval is not None:
                _watch(settings, query, view, interval, prometheus_file, debug)
                return
            with gc_paused():
                report = _collect(settings, query, debug)
            _require_rows(report)
        # one text for the file and stdout (one clock); the file is written before stdout, which may be closed
        metrics = view.prometheus(report) if prometheus_file or fmt is Format.prometheus else ""
        unwritten = write_result(prometheus_file, metrics) if prometheus_file else None
        if fmt is Format.prometheus:
            write(metrics)
        else:
            with gc_paused():
                show(report, view)
        notes(report, view)
        if unwritten is not None:
            raise unwritten
        if not monitor and report.failed:
            raise PartialFailure(failure_summary(report))
        if monitor:
            status = view.status(report).status
    raise typer.Exit(int(status))


@dataclass(frozen=True, kw_only=True)
class _Query:
    """What to ask the cluster on each run (or refresh)."""

    groups: list[str]
    regexes: list[str]
    selection: Selection | None
    isolation: Isolation
    time_lag: bool
    marker_check: bool
    members: bool = False

    def run(self, client: KafkaClient, update: Callable[[str], None] | None = None) -> LagReport:
        """Resolve the groups (regexes, or every group, again on every call) and collect their lag.

        Without ``--group`` and ``--group-regex`` every group of the cluster is read (ListGroups,
        one DescribeGroups, one OffsetFetch per coordinator, all at once); those with nothing committed
        or assigned in the selection are left out quietly, so ``-t X`` alone lists the groups on X.
        """
        if self.groups or self.regexes:
            names = resolve_groups(client, self.groups, self.regexes)
        else:
            names = client.group_ids()
            if not names:
                raise NotFound("the cluster has no consumer group")
        if update is not None:
            update(f"Reading {len(names)} group(s)…")
        report = collect(
            client,
            names,
            self.selection,
            isolation=self.isolation,
            time_lag=self.time_lag,
            marker_check=self.marker_check,
            named=set(self.groups),
            remote_reads=True,  # tiered topics only: one DescribeConfigs, ListOffsets -4 if any is tiered
        )
        if not self.members:
            return report
        shown = sorted({r.group for r in report.rows})
        return replace(report, members=client.group_members(shown) if shown else {})


def _require_rows(report: LagReport) -> None:
    if not report.rows and not report.failed:
        names = ", ".join(p.group for p in report.problems) or "the matched groups"
        raise NotFound(f"no committed offsets for {names} in the selection")


def _collect(settings: ClientSettings, query: _Query, debug: bool) -> LagReport:
    from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

    with progress("Reading consumer groups…") as update, KafkaClient(settings, debug=debug) as client:
        return query.run(client, update)


def _watch(
    settings: ClientSettings,
    query: _Query,
    view: LagView,
    interval: float,
    prometheus_file: str | None,
    debug: bool,
) -> None:
    """Refresh until Ctrl-C, rewriting ``--prometheus-file`` (if given) after each refresh; the
    notes (warnings) of the first refresh are printed once."""
    from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

    first = True

    def fetch(client: KafkaClient) -> LagReport:
        nonlocal first
        try:
            report = query.run(client)
        except ClusterError as e:
            if prometheus_file:
                write_down(
                    prometheus_file, prometheus_down(MonitoringStatus.UNKNOWN, now_ms(), view.labels), e
                )
            raise
        _require_rows(report)
        if prometheus_file:
            unwritten = write_result(prometheus_file, view.prometheus(report))
            if unwritten is not None:
                raise unwritten  # UNKNOWN on the first refresh, a warning on a later one
        if first:
            first = False
            notes(report, view)
        return report

    with KafkaClient(settings, debug=debug) as client:
        lag_view.watch(client, interval, fetch, view)
