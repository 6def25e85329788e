"""The options of ``kafka-offsets lag`` that no other command shares (check, filters, views); its epilog."""

from __future__ import annotations

from typing import Annotated

from ..errors import UsageError
from ..lag.summary import SortKey
from ..models.group_types import GROUP_TYPES
from .options import OUT, SEL, switch, valued

__all__ = [
    "CHECK",
    "EXAMPLES",
    "ByPartitionOpt",
    "CritLagOpt",
    "CritLossEtaOpt",
    "CritStaleOpt",
    "CritTimeLagOpt",
    "GroupTypeOpt",
    "LossEtaOpt",
    "MarkerCheckOpt",
    "MembersOpt",
    "MinLagOpt",
    "MinTimeLagOpt",
    "OnlyLaggingOpt",
    "SortOpt",
    "SparkCheckpointOpt",
    "StalenessOpt",
    "SummaryOpt",
    "TimeLagOpt",
    "WarnLagOpt",
    "WarnLossEtaOpt",
    "WarnStaleOpt",
    "WarnTimeLagOpt",
    "group_types",
]

CHECK = "Check"

EXAMPLES = """Examples:


  kafka-offsets lag -b localhost:9092 --group billing


  kafka-offsets lag -b localhost:9092 -t orders


  kafka-offsets lag -b localhost:9092 --group-regex 'billing-.*' --topic orders --time-lag --sort lag


  kafka-offsets lag -b localhost:9092 -g billing --warn-lag 1000 --crit-time-lag 15m -o nagios

Without --group and --group-regex every group is read, of every type (classic, consumer, share,
streams: the TYPE column; --type keeps some); with --topic only the groups committed on (or
assigned) the selected topics are shown. A share group's CURRENT-OFFSET is its share-partition
start offset and its LAG the broker's (KIP-1226). A table of several groups not named
with --group shows one row per group: state, type, members, partitions,
lagging partitions, lag, max time lag, status (--by-partition for every partition, the default
under --watch; --summary always, and under --watch with IN/S, CONSUMED/S and TREND:
catching-up, falling-behind or steady). --members adds each partition's CONSUMER-ID, HOST and
CLIENT-ID as kafka-consumer-groups shows them, and MEMBER-EPOCH where the group type has one.
--min-lag N and --min-time-lag D keep only the partitions at least that far behind (and those
below the log start).

States: ok (nothing left), lagging (records left); with thresholds warning or critical instead of
lagging when over one; no-commit (no committed offset); below-start (committed offset below the
log start: retention passed it, lag not shown); ahead (committed offset beyond the end); marker
(the only offset left is a transaction marker: lag 1, nothing to consume); error. Records keep
the offset state (ok for both ok and lagging) and, in a monitoring run, add status.

Monitoring (--warn-lag, --crit-lag, --warn-time-lag, --crit-time-lag, --warn-loss-eta,
--crit-loss-eta, --warn-stale, --crit-stale, -o nagios|prometheus or
--prometheus-file): the rule of check's lag checks. A partition is WARNING/CRITICAL when its lag
or time lag exceeds a threshold; below-start is CRITICAL, no-commit and ahead WARNING, errors
UNKNOWN; the run takes the worst status. Exit status 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN
(also for cluster failures and usage errors). --prometheus-file FILE writes the metrics
atomically (up 0 when the cluster cannot be reached); each series carries cluster and --label.

Time lag (--time-lag; implied by a time threshold, --min-time-lag or --sort time-lag) = now - the
newest record timestamp among the records up to and including the first unconsumed one, found by
bisection with ListOffsets timestamp lookups (Describe permission is enough; no record is read);
exact to 1 ms. With in-order timestamps it is the age of the first unconsumed record.

Data-loss ETA (--loss-eta; implied by --warn-loss-eta, --crit-loss-eta or --sort loss-eta;
implies --time-lag): how long until retention may delete the first unread record. By time,
M + retention.ms - now, M the time lag's timestamp; by size (retention.bytes), when the bytes
after the committed offset reach retention.bytes at the rate they came, from the partition's size
(DescribeLogDirs); the sooner of the two (LOSS-ETA; loss_eta_ms; a group's soonest in the summary,
the nagios perfdata and a per-group series). The earliest moment: the broker deletes whole
segments, so the record goes at or after it, within one segment plus one
log.retention.check.interval.ms. 0 below the log start (already lost) and when due; none for
retention.ms and retention.bytes -1, cleanup.policy without delete, nothing left to read. No size
bound on tiered topics or where a size did not come (a warning names the topics). A loss-ETA
threshold alerts at or below it.

Commit staleness (--staleness; implied by --warn-stale, --crit-stale or --sort staleness): how
long each partition's committed offset has not moved while records wait for it: now - the first
time this tool saw that offset with lag > 0 (STALE; commit_stale_ms; a group's stalest in the
summary, the nagios perfdata and a per-group series). Runs remember what they saw in a state file
per cluster under $XDG_STATE_HOME/kafka-offsets/staleness/ (default ~/.local/state), safe under
concurrent runs. A moved offset resets it to 0; nothing left to read (lag 0) is 0 and clears it,
so an idle topic never alerts (Burrow's rule); a lagging partition seen for the first time is
null until the next run. A staleness threshold alerts above it.

--watch 5s redraws the table every 5 seconds until Ctrl-C (exit 0), with IN/S (records/s
appended, from the log end offsets) and CONSUMED/S (records/s committed by the group, over
the commit steps of the last 30 s: committed offsets move in steps, e.g. auto-commit every 5 s;
'-' until 4 steps are seen) per partition; json, jsonl and csv get one block per refresh with
in_per_s, consumed_per_s and consumed_window_s. On a terminal LAG-TREND draws each row's and
total's lag over the last 16 refreshes as a sparkline; with --summary CATCH-UP gives the time to
catch up while the group gains (its lag over CONSUMED/S minus IN/S).
"""

GroupTypeOpt = Annotated[
    str | None,
    valued(
        "--type",
        "TYPE,...",
        "Only groups of these types: classic, consumer, share, streams (as the brokers list them; "
        "default every type).",
        panel=None,
    ),
]


SparkCheckpointOpt = Annotated[
    list[str] | None,
    valued(
        "--spark-checkpoint",
        "PATH",
        "Lag of the Spark Structured Streaming query whose checkpoint directory this is, a local path "
        "or a file-system URI such as s3://… (its newest committed batch's Kafka offsets, group "
        "spark:<query id>; repeatable; not with --group, --group-regex or --type).",
        panel=SEL,
    ),
]


def group_types(value: str | None) -> tuple[str, ...] | None:
    """The types ``--type`` names (comma-separated, each once), ``None`` for every type."""
    if value is None:
        return None
    names = tuple(dict.fromkeys(t.strip().lower() for t in value.split(",") if t.strip()))
    bad = [t for t in names if t not in GROUP_TYPES]
    if bad or not names:
        raise UsageError(f"--type takes {', '.join(GROUP_TYPES)}; got {value!r}")
    return names


TimeLagOpt = Annotated[
    bool,
    switch(
        "--time-lag",
        "Also compute each lagging partition's time lag (bisection with batched ListOffsets).",
        panel=None,
    ),
]
MarkerCheckOpt = Annotated[
    bool,
    switch(
        "--marker-check/--no-marker-check",
        "For partitions with lag 1, fetch the one remaining offset to see whether it is a "
        "transaction marker (needs READ on the topic); off: lag 1 stays state ok.",
        panel=None,
    ),
]
OnlyLaggingOpt = Annotated[
    bool,
    switch(
        "--only-lagging", "Only partitions with records left to consume (or below the log start).", panel=OUT
    ),
]
SortOpt = Annotated[
    SortKey,
    switch(
        "--sort",
        "Row order: name (group, topic, partition), lag, time-lag or staleness (largest first), "
        "loss-eta (soonest first); rows without the value last. time-lag implies --time-lag, loss-eta "
        "--loss-eta, staleness --staleness.",
        panel=OUT,
        case_sensitive=False,
    ),
]
MinLagOpt = Annotated[
    int | None,
    valued("--min-lag", "N", "Only partitions with a lag of at least N records.", panel=OUT, min=0),
]
MinTimeLagOpt = Annotated[
    str | None,
    valued(
        "--min-time-lag",
        "DURATION",
        "Only partitions with a time lag of at least DURATION (implies --time-lag).",
        panel=OUT,
    ),
]
SummaryOpt = Annotated[
    bool,
    switch(
        "--summary",
        "One row per group (state, members, partitions, lag, max time lag); "
        "the default for a table of several groups not named with --group.",
        panel=OUT,
    ),
]
ByPartitionOpt = Annotated[
    bool,
    switch("--by-partition", "One row per group and partition (the default otherwise).", panel=OUT),
]
MembersOpt = Annotated[
    bool,
    switch(
        "--members",
        "Each partition's consumer: CONSUMER-ID, HOST, CLIENT-ID as kafka-consumer-groups --describe "
        "shows, and MEMBER-EPOCH where the group type has one (one more describe round).",
        panel=OUT,
    ),
]
WarnLagOpt = Annotated[
    int | None,
    valued("--warn-lag", "N", "WARNING when a partition's lag exceeds N records.", panel=CHECK, min=0),
]  # fmt: skip
LossEtaOpt = Annotated[
    bool,
    switch(
        "--loss-eta",
        "Also compute how long until retention may delete each partition's first unread record "
        "(LOSS-ETA; implies --time-lag).",
        panel=None,
    ),
]
WarnLossEtaOpt = Annotated[
    str | None,
    valued("--warn-loss-eta", "DURATION", "WARNING when retention may delete a partition's first "
        "unread record within DURATION (implies --loss-eta).", panel=CHECK),
]  # fmt: skip
CritLossEtaOpt = Annotated[
    str | None,
    valued("--crit-loss-eta", "DURATION", "CRITICAL when retention may delete a partition's first "
        "unread record within DURATION (implies --loss-eta).", panel=CHECK),
]  # fmt: skip
StalenessOpt = Annotated[
    bool,
    switch(
        "--staleness",
        "Also measure how long each partition's committed offset has not moved while records wait "
        "(STALE; kept between runs in the XDG state directory).",
        panel=None,
    ),
]
WarnStaleOpt = Annotated[
    str | None,
    valued("--warn-stale", "DURATION", "WARNING when a partition's committed offset has not moved "
        "for more than DURATION with records left (implies --staleness).", panel=CHECK),
]  # fmt: skip
CritStaleOpt = Annotated[
    str | None,
    valued("--crit-stale", "DURATION", "CRITICAL when a partition's committed offset has not moved "
        "for more than DURATION with records left (implies --staleness).", panel=CHECK),
]  # fmt: skip
CritLagOpt = Annotated[
    int | None,
    valued("--crit-lag", "N", "CRITICAL when a partition's lag exceeds N records.", panel=CHECK, min=0),
]  # fmt: skip
WarnTimeLagOpt = Annotated[
    str | None,
    valued("--warn-time-lag", "DURATION", "WARNING when a partition's time lag exceeds DURATION "
        "(implies --time-lag).", panel=CHECK),
]  # fmt: skip
CritTimeLagOpt = Annotated[
    str | None,
    valued("--crit-time-lag", "DURATION", "CRITICAL when a partition's time lag exceeds DURATION "
        "(implies --time-lag).", panel=CHECK),
]  # fmt: skip
