"""The options of ``kafka-offsets liveness`` that no other command has (its check and its filters)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ..errors import MonitoringStatus, UsageError
from ..measures.liveness import LiveState
from .options import OUT, SEL, switch, valued

__all__ = [
    "CHECK",
    "EXAMPLES",
    "CritOpt",
    "EmptyStatusOpt",
    "ExcludeInternalCompatOpt",
    "FutureStatusOpt",
    "FutureToleranceOpt",
    "IncludeInternalOpt",
    "MinAliveOpt",
    "ProblemsOpt",
    "StateOpt",
    "StatusName",
    "WarnOpt",
    "parse_states",
]

CHECK = "Check"

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
appended, from the latest offsets listed in the same round; in_per_s in json, jsonl and csv)
and, on a terminal, AGE-TREND: each partition's age over the last 16 refreshes as a sparkline
(each topic's after its age in its line); other formats print one block per refresh. A watch
always exits 0 on Ctrl-C (a cluster error on the first refresh still exits 3). With
--prometheus-file the file is rewritten atomically after every refresh (up 0 when a refresh
cannot reach the cluster); without it no file is written.
"""


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


IncludeInternalOpt = Annotated[
    bool,
    switch(
        "--include-internal",
        "Also check Kafka's system topics (__consumer_offsets, __remote_log_metadata…), left out by default.",
        panel=SEL,
    ),
]
ExcludeInternalCompatOpt = Annotated[
    bool,
    typer.Option("--exclude-internal-topics", hidden=True, help="The default (kept for old scripts)."),
]
WarnOpt = Annotated[
    str,
    valued(
        "--warn", "DURATION", "WARNING when the newest record is older.", "-w", panel=CHECK, show_default=True
    ),
]
CritOpt = Annotated[
    str,
    valued(
        "--crit",
        "DURATION",
        "CRITICAL when the newest record is older.",
        "-c",
        panel=CHECK,
        show_default=True,
    ),
]
MinAliveOpt = Annotated[
    int | None,
    valued(
        "--min-alive",
        "N",
        "A topic is as good as its N-th best partition (default: all partitions must be fresh).",
        panel=CHECK,
        min=1,
    ),
]
FutureToleranceOpt = Annotated[
    str,
    valued(
        "--future-tolerance",
        "DURATION",
        "Timestamps up to this far after now count as age 0; beyond it, state future.",
        panel=CHECK,
        show_default=True,
    ),
]
EmptyStatusOpt = Annotated[
    StatusName,
    valued(
        "--empty-status",
        None,
        "Status of an empty partition (no record at all).",
        panel=CHECK,
        show_default=True,
        case_sensitive=False,
    ),
]
FutureStatusOpt = Annotated[
    StatusName,
    valued(
        "--future-status",
        None,
        "Status of a partition with a future timestamp.",
        panel=CHECK,
        show_default=True,
        case_sensitive=False,
    ),
]
ProblemsOpt = Annotated[
    bool,
    switch(
        "--problems",
        "Show only partitions whose status is not OK (the exit status stays the whole run's).",
        panel=OUT,
    ),
]
StateOpt = Annotated[
    str | None,
    valued(
        "--state",
        "STATE,...",
        "Only partitions in these states: ok, warning, critical, empty, pending, future, error.",
        panel=OUT,
    ),
]


def parse_states(text: str | None) -> frozenset[str] | None:
    """``--state warning,critical`` as a set of state names (a UsageError for an unknown one)."""
    if text is None:
        return None
    names = [s.value for s in LiveState]
    given = [part.strip().lower() for part in text.split(",") if part.strip()]
    if not given or any(g not in names for g in given):
        raise UsageError(f"--state {text!r}: expected a comma-separated list of {', '.join(names)}")
    return frozenset(given)
