"""Options shared by commands, defined once (names follow Kafka's GetOffsetShell)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, cast

import typer

from ..models.offsets import Isolation
from .complete import complete_clusters, complete_groups, complete_topic_partitions, complete_topics
from .environment import Environment
from .output import Screen

CONN = "Connection"
SEL = "Selection"
OUT = "Output"


class Format(str, Enum):
    """Every output format; each command offers some of them (:data:`OUTPUTS`)."""

    table = "table"
    wide = "wide"  # a table with every column in full (chosen as table, see Outputs.choose)
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    plain = "plain"
    nagios = "nagios"
    prometheus = "prometheus"
    text = "text"
    spark_offsets = "spark-offsets"  # list: one spec as Spark's startingOffsets/endingOffsets JSON


@dataclass(frozen=True, kw_only=True)
class Outputs:
    """The ``--output`` of one command: its formats, its default and the option's help."""

    formats: tuple[Format, ...]
    help: str
    #: when not given: ``tty`` on a terminal, ``pipe`` otherwise; or always ``fixed`` (shown in --help)
    tty: Format = Format.table
    pipe: Format = Format.jsonl
    fixed: Format | None = None

    def choose(self, given: str | None, env: Environment) -> Format:
        """The format to write: ``given`` (a choice of the option), else the default for ``env``'s stdout."""
        # -o wide is the table drawn at full width: the views see a table (render/fit.py)
        if given is not None:
            return Format.table if given == Format.wide.value else Format(given)
        if self.fixed is not None:
            return self.fixed
        return self.tty if env.stdout_isatty else self.pipe

    def select(self, given: str | None, env: Environment) -> tuple[Format, Screen]:
        """The format (:meth:`choose`) and the screen it is drawn on (``-o wide``: tables in full)."""
        return self.choose(given, env), Screen(env, wide=given == Format.wide.value)


_F = Format
_RECORDS = (_F.table, _F.wide, _F.json, _F.jsonl, _F.csv)
_TABLES = "table (default on a TTY; fits its width), wide (the table in full), "
#: the monitoring commands' records, with the nagios and prometheus formats of a check
_MONITORING = Outputs(
    formats=(*_RECORDS, _F.nagios, _F.prometheus),
    help=_TABLES + "json, jsonl (default otherwise), csv, nagios (one status line "
    "with perfdata) or prometheus (textfile-collector metrics).",
)
#: Each command's output formats, once.
OUTPUTS = {
    "list": Outputs(
        formats=(*_RECORDS, _F.plain, _F.spark_offsets),
        help=_TABLES + "json, jsonl (default otherwise), csv, plain (topic:partition:offset), or "
        "spark-offsets (one spec as the JSON Spark's Kafka source takes for startingOffsets/endingOffsets).",
    ),
    "lag": _MONITORING,
    "liveness": _MONITORING,
    "tiering": _MONITORING,
    "rewind": Outputs(
        formats=_RECORDS,
        help=_TABLES + "json, jsonl (default otherwise) or csv.",
    ),
    "check": Outputs(
        formats=(_F.table, _F.wide, _F.json, _F.nagios, _F.prometheus),
        pipe=_F.json,
        help=_TABLES + "json (default otherwise), nagios (one status line) or "
        "prometheus (textfile-collector metrics).",
    ),
    "config": Outputs(formats=(_F.text, _F.json), fixed=_F.text, help="text (for people) or json."),
}


def _output_option(command: str) -> Any:
    """The ``--output/-o`` parameter of ``command``, for typer.

    Typer offers an Enum's values as the choices, so each command gets a str Enum
    of just its formats (built here from :data:`OUTPUTS`); :meth:`Outputs.choose`
    turns the value into a :class:`Format`.
    """
    out = OUTPUTS[command]
    members = [(f.name, f.value) for f in out.formats]
    choices = cast(Any, Enum)(f"{command.title()}Format", members, type=str)  # a name made at run time
    option = typer.Option(
        "--output",
        "-o",
        help=out.help,
        rich_help_panel=OUT,
        show_default=out.fixed is not None,
        case_sensitive=False,
    )
    return Annotated[choices if out.fixed else choices | None, option]


if TYPE_CHECKING:
    # to the type checker the value is a str (each command's choices are a str Enum); see _output_option
    ListOutputOpt: TypeAlias = str | None
    LagOutputOpt: TypeAlias = str | None
    LivenessOutputOpt: TypeAlias = str | None
    TieringOutputOpt: TypeAlias = str | None
    RewindOutputOpt: TypeAlias = str | None
    CheckOutputOpt: TypeAlias = str | None
    ConfigOutputOpt: TypeAlias = str
else:
    ListOutputOpt = _output_option("list")
    LagOutputOpt = _output_option("lag")
    LivenessOutputOpt = _output_option("liveness")
    TieringOutputOpt = _output_option("tiering")
    RewindOutputOpt = _output_option("rewind")
    CheckOutputOpt = _output_option("check")
    ConfigOutputOpt = _output_option("config")


def valued(flag: str, metavar: str | None, text: str, *aliases: str, panel: str | None, **extra: Any) -> Any:
    """A ``typer.Option`` that takes a value: ``flag`` (then its ``aliases``) shown as ``metavar``
    with help ``text`` in the help ``panel``.

    No default is shown (most of these default to "not given"); ``show_default=True`` in ``extra``
    shows it.
    """
    extra.setdefault("show_default", False)
    return typer.Option(flag, *aliases, metavar=metavar, help=text, rich_help_panel=panel, **extra)


def switch(flag: str, text: str, *aliases: str, panel: str | None, **extra: Any) -> Any:
    """A boolean ``typer.Option``: ``flag`` (then its ``aliases``) with help ``text`` in ``panel``."""
    return typer.Option(flag, *aliases, help=text, rich_help_panel=panel, **extra)


# The connection options (--cluster … --isolation): declared once; the commands take them through
# command_options.targeted (shell completion reads them from the context).
ClusterOpt = Annotated[
    str | None,
    valued(
        "--cluster",
        "NAME",
        "Cluster profile from the config file (see `kafka-offsets config path`) "
        "[env: KAFKA_OFFSETS_CLUSTER].",
        panel=CONN,
        autocompletion=complete_clusters,
    ),
]
BootstrapOpt = Annotated[
    str | None,
    valued(
        "--bootstrap-server",
        "HOST:PORT[,...]",
        "Kafka bootstrap servers [env: KAFKA_BOOTSTRAP_SERVERS].",
        "-b",
        "--broker-list",
        panel=CONN,
    ),
]
CommandConfigOpt = Annotated[
    str | None,
    valued(
        "--command-config",
        "FILE",
        "Java client properties file (as for Kafka's tools); shared keys are translated for librdkafka.",
        panel=CONN,
    ),
]
XOpt = Annotated[
    list[str] | None, valued("-X", "KEY=VALUE", "Raw librdkafka property (repeatable).", panel=CONN)
]
TimeoutOpt = Annotated[
    str,
    valued(
        "--timeout",
        "DURATION",
        "Give up after this long, with a unit (e.g. 30s, 2m, 500ms); partitions still failing then show "
        "their error.",
        panel=CONN,
        show_default=True,
    ),
]
IsolationOpt = Annotated[
    Isolation,
    valued(
        "--isolation",
        None,
        "read_uncommitted: latest = high watermark; read_committed: latest = last stable offset.",
        panel=CONN,
        show_default=True,
        case_sensitive=False,
    ),
]
TopicOpt = Annotated[
    list[str] | None,
    valued(
        "--topic",
        "REGEX",
        "Topic name or Java regular expression (as in Kafka's tools) matching whole names"
        " (repeatable). Default: all topics.",
        "-t",
        panel=SEL,
        autocompletion=complete_topics,
    ),
]
PartitionsOpt = Annotated[
    str | None,
    valued(
        "--partitions",
        "LIST",
        "Comma-separated partition ids (ranges N-M exclude M, as --topic-partitions).",
        "-p",
        panel=SEL,
    ),
]
TopicPartitionsOpt = Annotated[
    str | None,
    valued(
        "--topic-partitions",
        "PATTERNS",
        "GetOffsetShell patterns: 'orders:0-5,payments:3,logs.*:' (N-M excludes M, N-, -M).",
        panel=SEL,
        autocompletion=complete_topic_partitions,
    ),
]
GroupOpt = Annotated[
    list[str] | None,
    valued(
        "--group", "GROUP", "Consumer group id (repeatable).", "-g", panel=SEL, autocompletion=complete_groups
    ),
]
ExcludeInternalOpt = Annotated[
    bool,
    switch(
        "--exclude-internal-topics",
        "Leave out the topics the broker flags internal (__consumer_offsets…), as Kafka's tools.",
        panel=SEL,
    ),
]
TzOpt = Annotated[
    str | None,
    valued(
        "--tz",
        "ZONE",
        "Time zone for naive input times and shown times: UTC (default), local, +01:00, Europe/Paris.",
        panel=OUT,
    ),
]
NoHeadersOpt = Annotated[bool, switch("--no-headers", "Omit the header row (table, csv).", panel=OUT)]
ColumnsOpt = Annotated[
    str | None,
    valued(
        "--columns",
        "COL,...",
        "Only these record fields, in this order (json, jsonl, csv; a table: the columns showing them).",
        panel=OUT,
    ),
]
LabelOpt = Annotated[
    list[str] | None,
    valued(
        "--label",
        "NAME=VALUE",
        "Constant label on every Prometheus series (repeatable); each series already has cluster.",
        panel=OUT,
    ),
]
WatchOpt = Annotated[
    str | None,
    valued(
        "--watch",
        "DURATION",
        "Refresh every DURATION (e.g. 5s) until Ctrl-C: a live table with records/s on a terminal, "
        "one block per refresh otherwise.",
        panel=OUT,
    ),
]


def watch_interval(watch: str | None) -> float | None:
    """``--watch`` in seconds, or ``None`` when not watching."""
    if watch is None:
        return None
    from .watch import parse_interval  # here: the watch loop's module is loaded only to watch

    return parse_interval(watch)


#: lag and rewind
GroupRegexOpt = Annotated[
    list[str] | None,
    valued("--group-regex", "REGEX", "Consumer groups whose whole id matches (repeatable).", panel=SEL),
]
