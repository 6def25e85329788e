"""The options of ``kafka-offsets list`` that no other command has, its --version and its --help examples."""

from __future__ import annotations

from typing import Annotated

import typer

from ..listing.spark_offsets import Missing
from ..render.order import SortKey
from .options import OUT, switch, valued

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


SpecOpt = Annotated[
    list[str] | None,
    valued("--spec", "SPEC", SPEC_HELP, "--time", "-s", panel=None),
]
SortOpt = Annotated[
    SortKey,
    switch(
        "--sort",
        "Row order: topic (then partition), partition, or the first spec's offset or timestamp.",
        panel=OUT,
        case_sensitive=False,
    ),
]
ReverseOpt = Annotated[bool, switch("--reverse", "Reverse the --sort order.", "-r", panel=OUT)]
TieringOpt = Annotated[
    bool,
    switch(
        "--tiering",
        "Add the tiering view per partition: LOCAL (earliest-local..latest-1), REMOTE "
        "(earliest..latest-tiered), BACKLOG (records not yet tiered) and BACKLOG-AGE, and a "
        "total per topic (as `kafka-offsets tiering` computes them). Not with -o plain.",
        panel=OUT,
    ),
]
VersionOpt = Annotated[
    bool,
    switch(
        "--version",
        "Show versions and the kafka-get-offsets.sh release whose options list takes, and exit.",
        panel=None,
        callback=_version,
        is_eager=True,
    ),
]
SparkMissingOpt = Annotated[
    Missing,
    switch(
        "--spark-missing",
        "With -o spark-offsets: what a partition with no offset at the spec (a time after its "
        "newest record, max-timestamp on an empty partition) gets: error, or its earliest or latest "
        "offset as listed now.",
        panel=OUT,
        case_sensitive=False,
    ),
]
