"""``kafka-offsets check SPEC``: lag and liveness checks from a spec file, run as a Spark pipeline.

The options become one :class:`~kafka_offsets_cli.spark.driver.CheckRequest`; the driver checks
and runs it (:mod:`kafka_offsets_cli.spark.driver`), :mod:`.check_show` shows the report."""

from __future__ import annotations

import typer

from ..errors import KafkaOffsetsError, MonitoringStatus, UsageError
from ..parse.times import parse_tz
from ..render.check_monitoring import SERIES_LABELS, SERVICE
from ..render.monitoring import constant_labels
from ..render.offset_compat import parse_compat
from . import check_options as co
from .app import command_help, environment_of, is_debug
from .boundary import boundary
from .metric_labels import MetricsCompatOpt, PrometheusFileOpt
from .options import OUTPUTS, CheckOutputOpt, Format, LabelOpt, TzOpt
from .textfile import check_writable


def register(app: typer.Typer) -> None:
    """Add the ``check`` command to ``app``."""
    app.command(
        "check",
        help=command_help("check"),
        epilog=co.EXAMPLES,
    )(check_cmd)


def check_cmd(
    ctx: typer.Context,
    spec: co.SpecArg,
    output: CheckOutputOpt = None,
    prometheus_file: PrometheusFileOpt = None,
    metrics_compat: MetricsCompatOpt = None,
    worst: co.WorstOpt = 20,
    label: LabelOpt = None,
    tz: TzOpt = None,
    history: co.HistoryOpt = None,
    write: co.WriteOpt = None,
    write_dir: co.WriteDirOpt = None,
    master: co.MasterOpt = "local[*]",
    remote: co.RemoteOpt = None,
    conf: co.ConfOpt = None,
    spark_ui: co.SparkUiOpt = False,
    timings: co.TimingsOpt = False,
    validate: co.ValidateOpt = False,
    example: co.ExampleOpt = False,
) -> None:
    """Lag and liveness checks from a spec file, on Spark."""
    debug, env = is_debug(ctx), environment_of(ctx)
    status = MonitoringStatus.UNKNOWN
    # here: the spec parser (yaml), the driver and the runner (rich) load only when check runs, not for --help
    from ..check.load import load_spec
    from ..spark.driver import CheckRequest, prepared, run
    from .check_show import outcome, unknown, validated
    from .output import err_console, warn

    with boundary(debug, monitoring=True, nagios=SERVICE if output == Format.nagios else None):
        zone = parse_tz(tz)
        fmt, screen = OUTPUTS["check"].select(output, env)
        labels = constant_labels(None, label or (), reserved=SERIES_LABELS)
        writes = fmt is Format.prometheus or prometheus_file is not None
        compat = parse_compat(metrics_compat, writes, needs="-o prometheus or --prometheus-file")
        # click's ParameterSource (typer may vendor click): the command line or the environment set it
        source = ctx.get_parameter_source("master")
        request = CheckRequest(
            master=master,
            master_given=getattr(source, "name", "DEFAULT") != "DEFAULT",
            remote=remote,
            conf=tuple(conf or ()),
            ui=spark_ui,
            history=history,
            write=write.value if write is not None else None,
            write_dir=write_dir,
            everything=fmt in (Format.json, Format.prometheus) or prometheus_file is not None,
            worst=worst,
            debug=debug,
        )
        # a --prometheus-file that cannot be written is a usage error (UNKNOWN) before any cluster or Spark
        how = prepared(
            request, warn=warn, outputs=lambda: check_writable(prometheus_file) if prometheus_file else None
        )
        parsed = load_spec(spec, secrets_required=not validate)  # --validate: an unset secret is a note
        if validate:
            validated(parsed)
            raise typer.Exit(0)
        try:
            report = run(parsed, how, console=err_console(env) if env.stderr_isatty else None)
        except KafkaOffsetsError as e:
            if not isinstance(e, UsageError):
                unknown(e, fmt, prometheus_file, tuple(parsed.clusters), labels)
            raise
        status = outcome(
            report,
            fmt,
            zone,
            worst=worst,
            screen=screen,
            labels=labels,
            prometheus_file=prometheus_file,
            timings=timings,
            compat=compat,
            time_lag={c.name: c.time_lag for c in parsed.lag_checks},
        )
    raise typer.Exit(int(status))
