"""``kafka-offsets check SPEC``: lag and liveness checks from a spec file, run as a Spark pipeline."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ..errors import KafkaOffsetsError, MonitoringStatus, UsageError
from ..parse.times import parse_tz
from ..render.check_monitoring import SERIES_LABELS, SERVICE, prometheus_chunks
from ..render.monitoring import constant_labels
from .app import command_help, is_debug
from .boundary import boundary
from .metric_labels import PrometheusFileOpt
from .options import OUT, OUTPUTS, CheckOutputOpt, Format, LabelOpt, TzOpt
from .textfile import ResultNotWritten, check_writable, write_result

SPARK = "Spark"
HISTORY = "History and files"


class WriteFormat(str, Enum):
    """File formats of ``--write``."""

    parquet = "parquet"
    csv = "csv"


EXAMPLES = """Examples:

  kafka-offsets check checks.yaml

  kafka-offsets check checks.yaml --output nagios --history /var/lib/kafka-offsets/history

  kafka-offsets check checks.yaml -o prometheus --prometheus-file /var/lib/node_exporter/textfile/kafka.prom

  kafka-offsets check checks.yaml --master spark://master:7077 --write parquet --write-dir /data/lag

  kafka-offsets check checks.yaml --remote sc://spark-connect:15002

  kafka-offsets check checks.yaml --validate

  kafka-offsets check --example > fleet.yaml

The spec file (YAML or JSON) names clusters and checks; it is validated before anything runs and
every problem is listed with its path and line (exit 3). A cluster may name a profile of the
config file (profile: prod) instead of repeating its settings. --example prints a documented
example (kafka_offsets_cli/examples/check-spec.example.yaml, with a JSON Schema for editors in
kafka_offsets_cli/schemas/check-spec.schema.json).

Liveness checks use the rules of `kafka-offsets liveness`, lag checks those of `kafka-offsets lag`
(time lag included); Spark (local[*] by default) collects every chunk of partitions in its own task
and rolls results up per topic, group and check. With --history DIR each run appends its samples
to a Parquet dataset and Burrow's sliding-window rules (STOP, STALL, REWIND, WARN) judge each group.

Exit status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (the worst check); 3 also for a bad spec or
option (with -o nagios an UNKNOWN status line). --validate: an unset secret variable is a note.
"""


def register(app: typer.Typer) -> None:
    """Add the ``check`` command to ``app``."""
    app.command(
        "check",
        help=command_help("check"),
        epilog=EXAMPLES,
    )(check_cmd)


def _example(value: bool) -> None:
    """``--example``: the example spec file shipped with the package, on stdout."""
    if value:
        from importlib.resources import files

        from .output import write

        write((files("kafka_offsets_cli") / "examples" / EXAMPLE_FILE).read_text(encoding="utf-8"))
        raise typer.Exit(0)


#: The example spec file, package data under ``kafka_offsets_cli/examples/``.
EXAMPLE_FILE = "check-spec.example.yaml"


def check_cmd(
    ctx: typer.Context,
    spec: Annotated[
        str, typer.Argument(metavar="SPEC", help="Spec file (YAML or JSON).", show_default=False)
    ],
    output: CheckOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    worst: Annotated[
        int,
        typer.Option(
            "--worst", metavar="N", min=0, help="Worst partitions shown in the table.", rich_help_panel=OUT
        ),
    ] = 20,
    label: LabelOpt = None,
    tz: TzOpt = None,
    history: Annotated[
        str | None,
        typer.Option(
            "--history",
            metavar="DIR",
            help="Append this run's samples to the Parquet history in DIR and apply Burrow's window rules.",
            rich_help_panel=HISTORY,
            show_default=False,
        ),
    ] = None,
    write: Annotated[
        WriteFormat | None,
        typer.Option(
            "--write",
            help="Also write the full per-partition table, as parquet or csv, to --write-dir.",
            rich_help_panel=HISTORY,
            show_default=False,
            case_sensitive=False,
        ),
    ] = None,
    write_dir: Annotated[
        str | None,
        typer.Option(
            "--write-dir",
            metavar="DIR",
            help="Directory for --write (replaced if it holds an earlier --write output).",
            rich_help_panel=HISTORY,
            show_default=False,
        ),
    ] = None,
    master: Annotated[
        str,
        typer.Option(
            "--master",
            metavar="URL",
            envvar="KAFKA_OFFSETS_SPARK_MASTER",
            help="Spark master: local[*], local[N], spark://HOST:PORT, yarn, k8s://...",
            rich_help_panel=SPARK,
        ),
    ] = "local[*]",
    remote: Annotated[
        str | None,
        typer.Option(
            "--remote",
            metavar="sc://HOST:PORT",
            envvar="SPARK_REMOTE",
            help="A Spark Connect server instead of a master (no JVM starts here); not with --master.",
            rich_help_panel=SPARK,
            show_default=False,
        ),
    ] = None,
    conf: Annotated[
        list[str] | None,
        typer.Option(
            "--conf",
            metavar="KEY=VALUE",
            help="Spark configuration property (repeatable), e.g. spark.driver.memory=2g.",
            rich_help_panel=SPARK,
            show_default=False,
        ),
    ] = None,
    spark_ui: Annotated[
        bool,
        typer.Option("--spark-ui", help="Keep Spark's web UI on (off by default).", rich_help_panel=SPARK),
    ] = False,
    timings: Annotated[
        bool,
        typer.Option("--timings", help="Print the time of each stage on stderr.", rich_help_panel=SPARK),
    ] = False,
    validate: Annotated[
        bool,
        typer.Option("--validate", help="Only validate the spec file (exit 0 or 3); start nothing."),
    ] = False,
    example: Annotated[
        bool,
        typer.Option(
            "--example",
            callback=_example,
            is_eager=True,
            help="Print a documented example spec file and exit (check --example > fleet.yaml).",
        ),
    ] = False,
) -> None:
    """Lag and liveness checks from a spec file, on Spark."""
    debug = is_debug(ctx)
    status = MonitoringStatus.UNKNOWN
    # here: the spec parser (yaml) and the runner (rich) load only when check runs, not for --help
    from ..check.load import load_spec
    from .check_run import CheckRun, run, show, show_timings, unknown, validated

    with boundary(debug, monitoring=True, nagios=SERVICE if output == Format.nagios else None):
        zone = parse_tz(tz)
        fmt = OUTPUTS["check"].choose(output)
        labels = constant_labels(None, label or (), reserved=SERIES_LABELS)
        if (write is None) != (write_dir is None):
            raise UsageError("--write FORMAT and --write-dir DIR go together")
        spark_conf = _parse_conf(conf or [])
        if remote is not None:
            _remote_alone(ctx, remote)
            if spark_ui:
                from .output import warn

                warn("--spark-ui has no effect with --remote: a Spark Connect server's web UI is its own")
        if prometheus_file:
            check_writable(prometheus_file)  # a usage error (UNKNOWN) before any cluster or Spark
        if write_dir is not None:
            from ..spark.write import check_write_dir

            check_write_dir(write_dir)
        if history is not None:
            from ..spark.deploy import is_local
            from ..spark.history_store import check_dir, require_shared

            require_shared(history, remote is None and is_local(master))
            check_dir(history)
        parsed = load_spec(spec, secrets_required=not validate)  # --validate: an unset secret is a note
        if validate:
            validated(parsed)
            raise typer.Exit(0)
        try:
            everything = fmt in (Format.json, Format.prometheus) or prometheus_file is not None
            how = CheckRun(
                master=master,
                remote=remote,
                conf=tuple(spark_conf),
                ui=spark_ui,
                history=history,
                write=write.value if write is not None else None,
                write_dir=write_dir,
                everything=everything,
                worst=worst,
                debug=debug,
            )
            report = run(parsed, how)
        except KafkaOffsetsError as e:
            if not isinstance(e, UsageError):
                unknown(e, fmt, prometheus_file, tuple(parsed.clusters), labels)
            raise
        unwritten = None  # written before stdout; a failure is UNKNOWN once the status is shown
        if prometheus_file:
            unwritten = write_result(prometheus_file, prometheus_chunks(report, labels))
        if timings:
            show_timings(report)
        show(report, fmt, zone, worst, labels)
        late = ([unwritten.message] if unwritten is not None else []) + list(report.unwritten)
        if late:  # the verdict is out; an output that failed makes the run UNKNOWN (3), one line
            raise ResultNotWritten("; ".join(late), hint=unwritten.hint if unwritten is not None else None)
        status = report.status
    raise typer.Exit(int(status))


def _remote_alone(ctx: typer.Context, remote: str) -> None:
    """``--remote`` (or SPARK_REMOTE) is a valid URL and comes without ``--master`` (else a usage error)."""
    from ..spark.connect import parse_remote

    parse_remote(remote)
    # click's ParameterSource (typer may vendor click): the command line or the environment set it
    source = ctx.get_parameter_source("master")
    if getattr(source, "name", "DEFAULT") != "DEFAULT":
        raise UsageError(
            "--remote (or SPARK_REMOTE) and --master (or KAFKA_OFFSETS_SPARK_MASTER) cannot be used "
            "together: a Spark Connect server has its own master"
        )


def _parse_conf(items: list[str]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--conf {item!r}: expected KEY=VALUE")
        out.append((key.strip(), value))
    return out
