"""The ``tiering`` use case as one call: the request a front end builds from its options, and its run.

A front end (the command, a future server) parses nothing itself: it hands the options' values to
:func:`request_of` and the request and a client to :func:`run`; rendering the report is its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..parse.command_selection import monitored_selection
from ..parse.selection import Selection
from ..sources import LivenessSource
from .collect import collect
from .report import TieringReport
from .rules import Thresholds, thresholds_from


@dataclass(frozen=True, kw_only=True)
class TieringRequest:
    """What one tiering run asks: the partitions and the backlog thresholds."""

    selection: Selection
    thresholds: Thresholds


def request_of(
    *,
    topics: Sequence[str] | None,
    partitions: str | None,
    topic_partitions: str | None,
    include_internal: bool,
    warn_records: int | None = None,
    crit_records: int | None = None,
    warn_age: str | None = None,
    crit_age: str | None = None,
) -> TieringRequest:
    """The request of the options' values: thresholds checked (a usage error before anything is
    contacted), Kafka's system topics left out by name unless ``include_internal``."""
    thresholds = thresholds_from(warn_records, crit_records, warn_age, crit_age)
    selection = monitored_selection(topics, partitions, topic_partitions, include_internal=include_internal)
    return TieringRequest(selection=selection, thresholds=thresholds)


def run(client: LivenessSource, request: TieringRequest) -> TieringReport:
    """One tiering run over ``client``: five offsets per partition, the configs, the report."""
    return collect(client, request.selection, request.thresholds)
