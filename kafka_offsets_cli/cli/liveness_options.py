"""The options of ``kafka-offsets liveness`` that no other command has (its check and its filters)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ..errors import MonitoringStatus, UsageError
from ..measures.liveness import LiveState
from .options import OUT, SEL

__all__ = [
    "CHECK",
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
    typer.Option(
        "--include-internal",
        help="Also check Kafka's system topics (__consumer_offsets, __remote_log_metadata…), "
        "left out by default.",
        rich_help_panel=SEL,
    ),
]
ExcludeInternalCompatOpt = Annotated[
    bool,
    typer.Option("--exclude-internal-topics", hidden=True, help="The default (kept for old scripts)."),
]
WarnOpt = Annotated[
    str,
    typer.Option(
        "--warn",
        "-w",
        metavar="DURATION",
        help="WARNING when the newest record is older.",
        rich_help_panel=CHECK,
    ),
]
CritOpt = Annotated[
    str,
    typer.Option(
        "--crit",
        "-c",
        metavar="DURATION",
        help="CRITICAL when the newest record is older.",
        rich_help_panel=CHECK,
    ),
]
MinAliveOpt = Annotated[
    int | None,
    typer.Option(
        "--min-alive",
        metavar="N",
        min=1,
        help="A topic is as good as its N-th best partition (default: all partitions must be fresh).",
        rich_help_panel=CHECK,
        show_default=False,
    ),
]
FutureToleranceOpt = Annotated[
    str,
    typer.Option(
        "--future-tolerance",
        metavar="DURATION",
        help="Timestamps up to this far after now count as age 0; beyond it, state future.",
        rich_help_panel=CHECK,
    ),
]
EmptyStatusOpt = Annotated[
    StatusName,
    typer.Option(
        "--empty-status",
        help="Status of an empty partition (no record at all).",
        rich_help_panel=CHECK,
        case_sensitive=False,
    ),
]
FutureStatusOpt = Annotated[
    StatusName,
    typer.Option(
        "--future-status",
        help="Status of a partition with a future timestamp.",
        rich_help_panel=CHECK,
        case_sensitive=False,
    ),
]
ProblemsOpt = Annotated[
    bool,
    typer.Option(
        "--problems",
        help="Show only partitions whose status is not OK (the exit status stays the whole run's).",
        rich_help_panel=OUT,
    ),
]
StateOpt = Annotated[
    str | None,
    typer.Option(
        "--state",
        metavar="STATE,...",
        help="Only partitions in these states: ok, warning, critical, empty, pending, future, error.",
        rich_help_panel=OUT,
        show_default=False,
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
