"""``rewind``'s own options, declared once for typer (the shared ones are in :mod:`.options`), and
the examples of its help."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from typer.core import TyperCommand

from .complete import complete_groups
from .options import SEL, switch, valued

RESET = "Reset"

EXAMPLES = """Examples:


  # reconsume the last 6 hours (dry run: prints the plan, changes nothing)
  kafka-offsets rewind -b localhost:9092 --group billing --to '6h ago'


  # approve a plan, then apply exactly that plan (refused if the group moved since)
  kafka-offsets rewind -b localhost:9092 --group billing --to PT6H --export billing.csv
  kafka-offsets rewind -b localhost:9092 --from-file billing.csv --execute


  # roll back: every --execute writes the previous offsets as a plan and prints its path
  kafka-offsets rewind -b localhost:9092 --from-file ~/.local/state/kafka-offsets/rewind-undo-….csv --execute


  # other modes: an offset, the committed offsets, a shift; several groups at once
  kafka-offsets rewind -b localhost:9092 --group new-reader --topic orders --to-offset 0
  kafka-offsets rewind -b localhost:9092 --group-regex 'billing-.*' --shift-by -100


  # delete a group's committed offsets of a topic (as kafka-consumer-groups --delete-offsets)
  kafka-offsets rewind -b localhost:9092 --group billing --topic old-orders --delete-offsets --execute


  # copy another group's committed offsets (kafkactl clone, rpk --to-group)
  kafka-offsets rewind -b localhost:9092 --group billing-v2 --to-group billing


  # DR cutover: each partition where the group stopped on the primary (a cluster profile)
  kafka-offsets rewind --cluster dr -g billing --from-cluster primary --remote-topic-prefix primary.

Groups: -g (repeatable), --group-regex, --all-groups; with --from-file the file's groups
(narrowed by -g / --group-regex). Partitions: the selection (--topic, --partitions,
--topic-partitions), or every partition each group has committed offsets for. --to TIME
takes the earliest offset whose timestamp is >= TIME (relative times are resolved once, and
the instant is printed); a partition without such a record gets its end offset, with a
warning. --to-offset, --shift-by and --from-file offsets are clamped to [log start, end], as
kafka-consumer-groups clamps them. --export FILE writes the plan as the CSV that
kafka-consumer-groups --reset-offsets --from-file reads, and FILE.seen beside it; a partition
that could not be planned is left out of it, named on stderr, and the command exits 1.

--execute commits only when every partition was planned and no group has active members
(else exit 6, nothing changed; also when a consumer joins before the commit and Kafka rejects
it), with --from-file only when the groups' committed offsets are still those in FILE.seen
(--force overrides), writes the previous offsets as an undo plan first, then reads the
offsets back and checks them against the plan.

Kafka's own flags work too: a kafka-consumer-groups --reset-offsets command line runs here with
the same plan (--to-earliest, --to-latest, --to-datetime, --by-duration, --dry-run, --all-topics,
a bare --export for the CSV on stdout, --topic TOPIC:PARTS; see the reference), and a
kafka-consumer-groups (or kafka-share-groups) --delete-offsets line gives its plan (a dry run
without --execute). Kafka deletes a group's offsets of a topic only while no member reads it:
each topic it keeps is named on stderr (exit 6 when nothing was deleted).

--to-group SOURCE gives one group the committed offsets of SOURCE on every partition of
SOURCE's topics (or of the selection); a partition SOURCE has no offset on is left as it is,
named in the plan.
"""


#: the options of the Reset panel
_opt = partial(valued, panel=RESET)
_flag = partial(switch, panel=RESET)


AllGroupsOpt = Annotated[bool, switch("--all-groups", "Every consumer group of the cluster.", panel=SEL)]
ToOpt = Annotated[
    str | None,
    _opt(
        "--to",
        "TIME|earliest|latest|PT…",
        "Target: a time (ISO-8601, '6h ago', -30m…), a duration back (PT30M), earliest or latest.",
    ),
]
ToOffsetOpt = Annotated[
    int | None, _opt("--to-offset", "N", "Target: offset N on every partition, clamped to the log.")
]
ToCurrentOpt = Annotated[
    bool, _flag("--to-current", "Target: the committed offset (the end offset where none is).")
]
ShiftByOpt = Annotated[
    int | None,
    _opt("--shift-by", "N", "Target: the committed offset plus N (negative: back), clamped to the log."),
]
FromFileOpt = Annotated[
    str | None,
    _opt("--from-file", "FILE", "Target: the offsets of a plan file (kafka-consumer-groups CSV, --export)."),
]
FromClusterOpt = Annotated[
    str | None,
    _opt(
        "--from-cluster",
        "PROFILE",
        "Target, DR cutover: per partition, where the group stopped on this cluster profile (primary).",
    ),
]
FromLagFileOpt = Annotated[
    str | None,
    _opt(
        "--from-lag-file",
        "FILE",
        "Target, DR cutover with the primary down: --from-cluster's plan from a saved "
        "`lag -o json --time-lag` of the primary.",
    ),
]
RemoteTopicPrefixOpt = Annotated[
    str,
    _opt(
        "--remote-topic-prefix",
        "PREFIX",
        "With --from-cluster/--from-lag-file: DR topic = PREFIX + primary topic.",
    ),
]
DeleteOffsetsOpt = Annotated[
    bool,
    _flag(
        "--delete-offsets",
        "Delete the committed offsets of the selected topics (or of an exported plan, --from-file).",
    ),
]
ToGroupOpt = Annotated[
    str | None,
    _opt(
        "--to-group",
        "SOURCE",
        "Target: the committed offsets of group SOURCE (on its topics, or the selected ones).",
        autocompletion=complete_groups,
    ),
]
ExecuteOpt = Annotated[
    bool, _flag("--execute", "Commit the plan (only if the group has no active members). Default: dry run.")
]
AllowFutureOpt = Annotated[
    bool,
    _flag(
        "--allow-future",
        "With --to: plan a time after now (every partition goes to its end). Default: refused.",
    ),
]
AllowOtherClusterOpt = Annotated[
    bool,
    _flag(
        "--allow-other-cluster",
        "With --from-file: apply a plan made on another cluster (its FILE.seen names it). Default: refused.",
    ),
]
ForceOpt = Annotated[
    bool,
    _flag("--force", "With --from-file: commit even if the group's offsets moved since the plan was made."),
]
ExportOpt = Annotated[
    str | None,
    _opt("--export", "FILE", "Write the plan as kafka-consumer-groups --reset-offsets --from-file CSV."),
]
UndoFileOpt = Annotated[
    str | None,
    _opt(
        "--undo-file",
        "FILE",
        "Where --execute writes the previous offsets [default: $XDG_STATE_HOME/kafka-offsets/].",
    ),
]


class KafkaFlagsCommand(TyperCommand):
    """``rewind`` that also takes Kafka's ``--reset-offsets`` flags (:mod:`...parse.reset_flags`)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse ``args`` after mapping Kafka's reset flags to ``rewind``'s options."""
        if not ctx.resilient_parsing:  # completion sees the words as typed
            from ..errors import UsageError
            from ..parse.reset_flags import translate

            takes_value = frozenset(
                o
                for p in self.params
                if p.param_type_name == "option" and not getattr(p, "is_flag", True)
                for o in p.opts
            )
            try:
                args = translate(args, takes_value)
            except UsageError as e:
                ctx.fail(e.message)  # click's usage error: one line and the --help hint
        return list(super().parse_args(ctx, args))
