"""Today's known breaches of the layout rules, allowed until the code moves (for :mod:`dev.layout`).

Each entry is exact: the rule, the modules the breach names (relative to the package) and the one
line that says which item of issue 28 moves it. A breach not listed here fails ``python -m
dev.layout``, and so does an entry that matches no breach any more: delete the entry in the
change that moves the code, so the list only shrinks. Do not add to it: move the code instead.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Known:
    """One allowed breach: the rule, the modules it names, and why it is still there.

    ``modules`` are named relative to the package, as the breach names them: an import edge is
    ``(importer, imported)``, a cycle is its modules from the smallest, a size breach the module.
    ``lines`` (``command`` only) is the module's size today, a ceiling: growing is a new breach.
    """

    rule: str
    modules: tuple[str, ...]
    reason: str
    lines: int = 0


# The items of issue 28 that move them (one place to name each item).
_SIBLINGS = "moves in issue 28 (features as siblings)"
_CYCLES = "moves in issue 28 (no import cycles)"
_COMMANDS = "moves in issue 28 (thin commands)"
_UNLISTED = "not in issue 28's list yet (found by this check)"

KNOWN: tuple[Known, ...] = (
    # --- sibling: the liveness < tiering < lag < check (and rewind) tower; what the features share
    # (liveness' `worst` and status ages, lag's row model, timelag, collect) belongs below them.
    Known("sibling", ("check.collect", "lag.collect"), f"{_SIBLINGS}: check's collect runs lag's reads"),
    Known("sibling", ("check.collect", "lag.plan"), f"{_SIBLINGS}: check's collect plans lag's rows"),
    Known("sibling", ("check.collect", "lag.rows"), f"{_SIBLINGS}: check's collect builds lag's rows"),
    Known("sibling", ("check.evaluate", "lag.summary"), f"{_SIBLINGS}: check evaluates lag's rule"),
    Known("sibling", ("check.evaluate", "liveness.rules"), f"{_SIBLINGS}: check evaluates liveness' rule"),
    Known("sibling", ("check.plan", "lag.collect"), f"{_SIBLINGS}: check's plan resolves groups as lag does"),
    Known("sibling", ("check.plan", "lag.plan"), f"{_SIBLINGS}: check's plan indexes partitions as lag does"),
    Known("sibling", ("check.plan", "lag.rows"), f"{_SIBLINGS}: check's plan names lag's group problems"),
    Known("sibling", ("check.plan", "liveness.collect"), f"{_SIBLINGS}: check's plan reads liveness' key"),
    Known("sibling", ("check.rollups", "lag.rows"), f"{_SIBLINGS}: check's roll-ups use lag's totals"),
    Known("sibling", ("check.rollups", "liveness.report"), f"{_SIBLINGS}: check's roll-ups: liveness' ages"),
    Known("sibling", ("check.rollups", "liveness.rules"), f"{_SIBLINGS}: check's roll-ups: liveness' states"),
    Known("sibling", ("lag.monitor", "liveness.rules"), f"{_SIBLINGS}: the shared `worst` status"),
    Known("sibling", ("lag.remote", "tiering.rules"), f"{_SIBLINGS}: lag<->tiering (remote storage key)"),
    Known("sibling", ("rewind.cutover", "lag.collect"), f"{_SIBLINGS}: cutover collects lag rows"),
    Known("sibling", ("rewind.cutover", "lag.rows"), f"{_SIBLINGS}: cutover reads lag's row model"),
    Known("sibling", ("rewind.cutover", "lag.timelag"), f"{_SIBLINGS}: cutover bisects with lag's timelag"),
    Known("sibling", ("rewind.lagfile", "lag.rows"), f"{_SIBLINGS}: --from-lag-file reads lag's row model"),
    Known("sibling", ("tiering.collect", "lag.timelag"), f"{_SIBLINGS}: lag<->tiering (newest timestamps)"),
    Known("sibling", ("tiering.report", "liveness.rules"), f"{_SIBLINGS}: the shared `worst` status"),
    Known("sibling", ("tiering.rules", "liveness.rules"), f"{_SIBLINGS}: the shared `worst` status"),
    # --- cycle: each elementary cycle, from its smallest module (lazy and TYPE_CHECKING imports count)
    Known("cycle", ("cli.check_cmd", "cli.check_run"), f"{_CYCLES}: check_run types check_cmd's WriteFormat"),
    Known("cycle", ("cli.complete", "cli.connection"), f"{_CYCLES}: completion reads connection options"),
    Known("cycle", ("cli.rewind_lagfile", "cli.rewind_run"), f"{_CYCLES}: rewind_lagfile types RunOptions"),
    Known("cycle", ("cli.rewind_notes", "cli.rewind_run"), f"{_CYCLES}: rewind_notes types RunOptions"),
    Known("cycle", ("spark.connect", "spark.session"), f"{_UNLISTED}: session starts connect, types it"),
    Known("cycle", ("spark.failure", "spark.session"), f"{_UNLISTED}: failure raises SparkJobFailed"),
    # --- command: cli/*_cmd.py over 150 lines; `lines` is today's size, a ceiling
    Known("command", ("cli.check_cmd",), f"{_COMMANDS}: --example and --conf parsing in the command", 274),
    Known("command", ("cli.lag_cmd",), f"{_COMMANDS}: the query, collect and watch in the command", 300),
    Known("command", ("cli.list_cmd",), f"{_COMMANDS}: --version, fetch and watch in the command", 263),
    Known("command", ("cli.liveness_cmd",), f"{_COMMANDS}: the check, collect, watch and metrics file", 307),
    Known("command", ("cli.rewind_cmd",), f"{_COMMANDS}: the option table in the command", 321),
    Known("command", ("cli.tiering_cmd",), f"{_COMMANDS}: thresholds and the report in the command", 230),
)
