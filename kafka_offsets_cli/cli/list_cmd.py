"""``kafka-offsets list``: offsets of partitions by spec (GetOffsetShell compatible)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import PartialFailure, UsageError
from ..models.offsets import Isolation, SpecKind
from ..parse.specs import parse_spec, parse_specs
from ..parse.time_words import future_note, time_notes
from ..parse.times import now_ms, parse_tz
from ..plan.queries import list_table
from ..render.list_tiering import FIELDS as TIERING_FIELDS
from ..render.list_tiering import failed as tiering_failed
from ..render.offsets import COLUMNS
from ..render.order import SortKey
from . import list_view
from .app import command_help, is_debug
from .boundary import boundary
from .connection import connection_settings
from .emit import parse_columns
from .list_view import RATE_FIELD, ListView, show
from .options import (
    OUT,
    OUTPUTS,
    BootstrapOpt,
    ClusterOpt,
    ColumnsOpt,
    CommandConfigOpt,
    ExcludeInternalOpt,
    Format,
    IsolationOpt,
    ListOutputOpt,
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
from .output import progress, stdout_is_tty, warn

if TYPE_CHECKING:
    from ..connection.settings import ClientSettings
    from ..models.offsets import OffsetSpec, OffsetTable
    from ..parse.selection import Selection
    from ..tiering.report import TieringReport

SPEC_HELP = (
    "What to look up (repeatable; default latest): earliest|-2, latest|-1, max-timestamp|-3, "
    "tiered storage: earliest-local|-4, latest-tiered|-5, earliest-pending-upload|-6, "
    "or a time: epoch ms, epoch seconds (@1795490000), ISO-8601 (2026-11-21T06:00:00Z, 2026-11-21), "
    "today, yesterday, 03:30, relative (6h ago, -30m, 2d). "
    "A time gives the earliest offset whose timestamp is >= it (KIP-79), none if no such record."
)

EXAMPLES = """Examples:

  kafka-offsets list -b localhost:9092 -t orders

  kafka-offsets list -b localhost:9092 -t 'orders\\..*' --spec earliest --spec latest --spec max-timestamp

  kafka-offsets list -b localhost:9092 --topic-partitions 'orders:0-3' --time '6h ago' -o json

  kafka-offsets list --bootstrap-server localhost:9092 --topic orders --time -1 -o plain
"""


#: The Apache Kafka release whose kafka-get-offsets.sh command line ``list`` takes (and is tested against).
KAFKA_TOOLS_VERSION = "4.3.1"


def _version(value: bool) -> None:
    """``kafka-get-offsets.sh --version``: Kafka prints its own release; this prints what it is."""
    if value:
        from .. import __version__
        from ..kafka import library_versions

        ck, rd = library_versions()
        typer.echo(
            f"kafka-offsets {__version__}\nconfluent-kafka {ck}\nlibrdkafka {rd}\n"
            f"command line of kafka-get-offsets.sh (GetOffsetShell), Apache Kafka {KAFKA_TOOLS_VERSION}"
        )
        raise typer.Exit()


def register(app: typer.Typer) -> None:
    """Add the ``list`` command to ``app``."""
    app.command("list", help=command_help("list"), epilog=EXAMPLES)(list_cmd)


def list_cmd(
    ctx: typer.Context,
    bootstrap_server: BootstrapOpt = None,
    cluster: ClusterOpt = None,
    topic: TopicOpt = None,
    partitions: PartitionsOpt = None,
    topic_partitions: TopicPartitionsOpt = None,
    exclude_internal_topics: ExcludeInternalOpt = False,
    spec: Annotated[
        list[str] | None,
        typer.Option("--spec", "--time", "-s", metavar="SPEC", help=SPEC_HELP, show_default=False),
    ] = None,
    isolation: IsolationOpt = Isolation.READ_UNCOMMITTED,
    output: ListOutputOpt = None,
    tz: TzOpt = None,
    no_headers: NoHeadersOpt = False,
    columns: ColumnsOpt = None,
    sort: Annotated[
        SortKey,
        typer.Option(
            "--sort",
            help="Row order: topic (then partition), partition, or the first spec's offset or timestamp.",
            rich_help_panel=OUT,
            case_sensitive=False,
        ),
    ] = SortKey.TOPIC,
    reverse: Annotated[
        bool, typer.Option("--reverse", "-r", help="Reverse the --sort order.", rich_help_panel=OUT)
    ] = False,
    watch: WatchOpt = None,
    tiering: Annotated[
        bool,
        typer.Option(
            "--tiering",
            help=(
                "Add the tiering view per partition: LOCAL (earliest-local..latest-1), REMOTE "
                "(earliest..latest-tiered), BACKLOG (records not yet tiered) and BACKLOG-AGE, and a "
                "total per topic (as `kafka-offsets tiering` computes them). Not with -o plain."
            ),
            rich_help_panel=OUT,
        ),
    ] = False,
    command_config: CommandConfigOpt = None,
    x: XOpt = None,
    timeout: TimeoutOpt = "30s",
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Show versions and the kafka-get-offsets.sh release whose options list takes, and exit.",
        ),
    ] = False,
) -> None:
    """Offsets of partitions by spec."""
    debug = is_debug(ctx)
    with boundary(debug):
        zone = parse_tz(tz)
        now = now_ms()
        specs = parse_specs(spec or [], now_ms=now, tz=zone)
        for note in (n for text in spec or [] for n in time_notes(text, now, zone)):
            warn(note)  # e.g. epoch seconds typed where Kafka reads milliseconds
        for text in spec or []:  # answered as GetOffsetShell answers it, but said: most likely a typo
            s = parse_spec(text, now_ms=now, tz=zone)
            at = s.timestamp_ms if s.kind is SpecKind.TIMESTAMP else None
            ahead = future_note(text, at, now, zone) if at is not None else None
            if ahead is not None:
                warn(ahead)
        fmt = OUTPUTS["list"].choose(output)
        if fmt is Format.plain and len(specs) > 1:
            raise UsageError(
                "--output plain takes one spec (as kafka-get-offsets.sh); use json or csv for several"
            )
        if tiering and fmt is Format.plain:
            raise UsageError(
                "--tiering has no place in --output plain (kafka-get-offsets.sh prints "
                "topic:partition:offset only); use table, wide, json, jsonl or csv"
            )
        if tiering and watch is not None:
            raise UsageError(
                "--tiering cannot be refreshed with --watch; run `kafka-offsets tiering` in a loop"
            )
        known = (
            (*COLUMNS, RATE_FIELD) if watch is not None else (*COLUMNS, *(TIERING_FIELDS if tiering else ()))
        )
        cols = parse_columns(columns, known)
        interval = watch_interval(watch)
        selection = selection_from(topic, partitions, topic_partitions, exclude_internal_topics)
        settings = connection_settings(ctx)
        view = ListView(
            fmt=fmt,
            zone=zone,
            no_headers=no_headers,
            columns=tuple(cols) if cols else None,
            sort=sort,
            reverse=reverse,
            group_digits=_tty(),
        )
        if interval is not None:
            _watch(settings, selection, specs, view, interval, debug)
            return
        table, report = _fetch(settings, selection, specs, debug, tiering=tiering)
        show(table, view, report)
        if table.failed or (report is not None and tiering_failed(report)):
            raise PartialFailure(
                _failure_summary(table, tiering_failed(report) if report is not None else [])
            )


def _tty() -> bool:
    return stdout_is_tty()


def _fetch(
    settings: ClientSettings,
    selection: Selection,
    specs: Sequence[OffsetSpec],
    debug: bool,
    *,
    tiering: bool = False,
) -> tuple[OffsetTable, TieringReport | None]:
    """The offset table; with ``tiering`` also the tiering view's report (its collection, no thresholds)."""
    from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

    with progress("Fetching metadata…") as update, KafkaClient(settings, debug=debug) as client:
        done = 0

        def tick(n: int) -> None:
            nonlocal done
            done += n
            update(f"ListOffsets: {done} queries answered…")

        if not tiering:
            return list_table(client, selection, specs, progress=tick), None
        from ..tiering.collect import list_and_collect

        return list_and_collect(client, selection, specs, progress=tick)


def _watch(
    settings: ClientSettings,
    selection: Selection,
    specs: Sequence[OffsetSpec],
    view: ListView,
    interval: float,
    debug: bool,
) -> None:
    from ..kafka import KafkaClient  # confluent_kafka loads only when the command runs

    with KafkaClient(settings, debug=debug) as client:
        list_view.watch(client, interval, lambda c: list_table(c, selection, specs), view)


def _failure_summary(table, more: Sequence[str] = ()) -> str:  # type: ignore[no-untyped-def]
    errs = table.errors
    by: dict[str, int] = {}
    for e in more:
        by[e] = by.get(e, 0) + 1
    for res in errs:
        by[res.error] = by.get(res.error, 0) + 1
    for _topic, err in table.missing_topics:
        by[err] = by.get(err, 0) + 1
    parts = ", ".join(f"{n} x {e}" for e, n in sorted(by.items(), key=lambda kv: -kv[1]))
    return f"some queries failed: {parts}"
