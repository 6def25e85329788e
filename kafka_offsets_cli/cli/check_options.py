"""``check``'s own options, declared once for typer (the shared ones are in :mod:`.options`), and
the examples of its help."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from .options import OUT, switch, valued

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


def _example(value: bool) -> None:
    """``--example``: the example spec file shipped with the package, on stdout."""
    if value:
        from importlib.resources import files

        from .output import write

        write((files("kafka_offsets_cli") / "examples" / EXAMPLE_FILE).read_text(encoding="utf-8"))
        raise typer.Exit(0)


#: The example spec file, package data under ``kafka_offsets_cli/examples/``.
EXAMPLE_FILE = "check-spec.example.yaml"


SpecArg = Annotated[str, typer.Argument(metavar="SPEC", help="Spec file (YAML or JSON).", show_default=False)]
WorstOpt = Annotated[
    int,
    valued("--worst", "N", "Worst partitions shown in the table.", panel=OUT, min=0, show_default=True),
]
HistoryOpt = Annotated[
    str | None,
    valued(
        "--history",
        "DIR",
        "Append this run's samples to the Parquet history in DIR and apply Burrow's window rules.",
        panel=HISTORY,
    ),
]
WriteOpt = Annotated[
    WriteFormat | None,
    valued(
        "--write",
        None,
        "Also write the full per-partition table, as parquet or csv, to --write-dir.",
        panel=HISTORY,
        case_sensitive=False,
    ),
]
WriteDirOpt = Annotated[
    str | None,
    valued(
        "--write-dir",
        "DIR",
        "Directory for --write (replaced if it holds an earlier --write output).",
        panel=HISTORY,
    ),
]
MasterOpt = Annotated[
    str,
    valued(
        "--master",
        "URL",
        "Spark master: local[*], local[N], spark://HOST:PORT, yarn, k8s://...",
        panel=SPARK,
        envvar="KAFKA_OFFSETS_SPARK_MASTER",
        show_default=True,
    ),
]
RemoteOpt = Annotated[
    str | None,
    valued(
        "--remote",
        "sc://HOST:PORT",
        "A Spark Connect server instead of a master (no JVM starts here); not with --master.",
        panel=SPARK,
        envvar="SPARK_REMOTE",
    ),
]
ConfOpt = Annotated[
    list[str] | None,
    valued(
        "--conf",
        "KEY=VALUE",
        "Spark configuration property (repeatable), e.g. spark.driver.memory=2g.",
        panel=SPARK,
    ),
]
SparkUiOpt = Annotated[bool, switch("--spark-ui", "Keep Spark's web UI on (off by default).", panel=SPARK)]
TimingsOpt = Annotated[bool, switch("--timings", "Print the time of each stage on stderr.", panel=SPARK)]
ValidateOpt = Annotated[
    bool, typer.Option("--validate", help="Only validate the spec file (exit 0 or 3); start nothing.")
]
ExampleOpt = Annotated[
    bool,
    typer.Option(
        "--example",
        callback=_example,
        is_eager=True,
        help="Print a documented example spec file and exit (check --example > fleet.yaml).",
    ),
]
