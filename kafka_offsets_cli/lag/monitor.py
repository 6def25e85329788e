"""Lag as a monitoring check (pure): thresholds, each row's status, the run's status and shown states.

The status of a row is :func:`kafka_offsets_cli.measures.lag.rule.lag_status`, the rule the Spark
``check`` command applies to its lag checks (defined there once; this module only rolls it
up). A group's status is its worst row's (or its problem's); the run's is the worst of all,
with :func:`kafka_offsets_cli.severity.worst` (CRITICAL > WARNING > UNKNOWN > OK), as
``liveness`` and ``check`` roll up:

* a row: ``lag_status`` (lag, time lag or commit staleness above a threshold, data-loss ETA at or
  below one;
  ``below-start`` CRITICAL,
  ``no-commit`` and ``ahead`` WARNING, ``error`` UNKNOWN);
* a group that could not be read (or does not exist): UNKNOWN; a group named with
  ``--group`` that has nothing committed in the selection: WARNING (as ``no-commit``);
* a selected topic or partition that does not exist: UNKNOWN.

The state a table shows (:func:`shown_state`) never contradicts the numbers: an ``ok`` row
(the partition's offset state) with records left to consume is ``lagging``, or with
thresholds ``warning`` / ``critical`` when its status says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import MonitoringStatus, UsageError
from ..measures.lag.rows import GroupProblem, LagRow, LagState
from ..measures.lag.rule import lag_status
from ..measures.thresholds import time_lag_on, warn_above_crit
from ..parse.durations import parse_duration
from ..severity import worst

__all__ = ["LagStatus", "LagThresholds", "lag_statuses", "parse_thresholds", "shown_state"]


@dataclass(frozen=True, kw_only=True)
class LagThresholds:
    """``--warn-lag/--crit-lag`` (records), ``--warn-time-lag/--crit-time-lag`` and
    ``--warn-loss-eta/--crit-loss-eta``, ``--warn-stale/--crit-stale`` (ms); ``None``: not set."""

    warn_lag: int | None = None
    crit_lag: int | None = None
    warn_time_lag_ms: int | None = None
    crit_time_lag_ms: int | None = None
    warn_loss_eta_ms: int | None = None
    crit_loss_eta_ms: int | None = None
    warn_stale_ms: int | None = None
    crit_stale_ms: int | None = None

    @property
    def given(self) -> bool:
        """True when at least one threshold is set."""
        return any(v is not None for v in self._values)

    @property
    def on_time(self) -> bool:
        """True when a time-lag threshold is set (the time lag must then be computed)."""
        return time_lag_on(False, self.warn_time_lag_ms, self.crit_time_lag_ms)

    @property
    def on_loss(self) -> bool:
        """True when a data-loss ETA threshold is set (the ETA, and so the time lag, must be computed)."""
        return self.warn_loss_eta_ms is not None or self.crit_loss_eta_ms is not None

    @property
    def on_stale(self) -> bool:
        """True when a commit-staleness threshold is set (the staleness must be measured)."""
        return self.warn_stale_ms is not None or self.crit_stale_ms is not None

    @property
    def _values(self) -> tuple[int | None, ...]:
        return (
            self.warn_lag,
            self.crit_lag,
            self.warn_time_lag_ms,
            self.crit_time_lag_ms,
            self.warn_loss_eta_ms,
            self.crit_loss_eta_ms,
            self.warn_stale_ms,
            self.crit_stale_ms,
        )

    def status(
        self, row: LagRow, loss_eta_ms: int | None = None, stale_ms: int | None = None
    ) -> MonitoringStatus:
        """The row's status: :func:`~kafka_offsets_cli.measures.lag.rule.lag_status` with these
        thresholds (``loss_eta_ms``: the row's data-loss ETA, ``stale_ms``: its commit staleness;
        ``None``: none)."""
        return lag_status(
            row,
            self.warn_lag,
            self.crit_lag,
            self.warn_time_lag_ms,
            self.crit_time_lag_ms,
            warn_loss_eta_ms=self.warn_loss_eta_ms,
            crit_loss_eta_ms=self.crit_loss_eta_ms,
            loss_eta_ms=loss_eta_ms,
            warn_stale_ms=self.warn_stale_ms,
            crit_stale_ms=self.crit_stale_ms,
            stale_ms=stale_ms,
        )


@dataclass(frozen=True)
class LagStatus:
    """The statuses of one ``lag`` run: per row (by key), per group, and the run's."""

    rows: Mapping[tuple[str, str, int], MonitoringStatus] = field(default_factory=dict)
    groups: Mapping[str, MonitoringStatus] = field(default_factory=dict)
    status: MonitoringStatus = MonitoringStatus.OK

    def of(self, row: LagRow) -> MonitoringStatus:
        """The status of ``row`` (OK for a row not evaluated)."""
        return self.rows.get((row.group, row.topic, row.partition), MonitoringStatus.OK)

    def count(self, status: MonitoringStatus) -> int:
        """Rows with ``status``."""
        return sum(1 for s in self.rows.values() if s is status)


def lag_statuses(
    rows: Sequence[LagRow],
    problems: Iterable[GroupProblem],
    thresholds: LagThresholds,
    *,
    missing: int = 0,
    loss_etas: Mapping[tuple[str, str, int], int] | None = None,
    stale_ms: Mapping[tuple[str, str, int], int] | None = None,
) -> LagStatus:
    """Every row's status, each group's (its worst row or its problem) and the run's (``missing``:
    selected topics or partitions that do not exist, each UNKNOWN; ``loss_etas``: the rows' data-loss
    ETAs by (group, topic, partition), compared when a loss-ETA threshold is set; ``stale_ms``: their
    commit staleness, compared when a staleness threshold is set)."""
    if thresholds.on_loss or thresholds.on_stale:
        etas, stale = loss_etas or {}, stale_ms or {}
        by_row = {
            (k := (r.group, r.topic, r.partition)): thresholds.status(r, etas.get(k), stale.get(k))
            for r in rows
        }
    else:
        by_row = {(r.group, r.topic, r.partition): thresholds.status(r) for r in rows}
    by_group: dict[str, list[MonitoringStatus]] = {}
    for r in rows:
        by_group.setdefault(r.group, []).append(by_row[(r.group, r.topic, r.partition)])
    for p in problems:
        by_group.setdefault(p.group, []).append(p.status)
    groups = {g: worst(s) for g, s in by_group.items()}
    run = worst([*groups.values(), *([MonitoringStatus.UNKNOWN] if missing else [])])
    return LagStatus(rows=by_row, groups=groups, status=run)


def shown_state(row: LagRow, status: MonitoringStatus | None = None) -> str:
    """The STATE a table shows for ``row``: its offset state, except for an ``ok`` row with records left.

    Such a row is ``lagging``; with thresholds (``status`` given) it is ``warning`` or
    ``critical`` when over one, and ``lagging`` below them.
    """
    if row.state is not LagState.OK or not row.lag:
        return row.state.value
    if status is MonitoringStatus.CRITICAL:
        return "critical"
    if status is MonitoringStatus.WARNING:
        return "warning"
    return "lagging"


def _duration(text: str | None) -> int | None:
    return None if text is None else parse_duration(text)


def parse_thresholds(
    warn_lag: int | None,
    crit_lag: int | None,
    warn_time_lag: str | None,
    crit_time_lag: str | None,
    warn_loss_eta: str | None = None,
    crit_loss_eta: str | None = None,
    warn_stale: str | None = None,
    crit_stale: str | None = None,
) -> LagThresholds:
    """The eight thresholds; a warning worse than its critical is a UsageError (as in a check spec): a
    lag above, a loss ETA below (a lower ETA is worse)."""
    t = LagThresholds(
        warn_lag=warn_lag,
        crit_lag=crit_lag,
        warn_time_lag_ms=_duration(warn_time_lag),
        crit_time_lag_ms=_duration(crit_time_lag),
        warn_loss_eta_ms=_duration(warn_loss_eta),
        crit_loss_eta_ms=_duration(crit_loss_eta),
        warn_stale_ms=_duration(warn_stale),
        crit_stale_ms=_duration(crit_stale),
    )
    if warn_above_crit(t.warn_lag, t.crit_lag):
        raise UsageError(f"--warn-lag {warn_lag} is above --crit-lag {crit_lag}")
    if warn_above_crit(t.warn_time_lag_ms, t.crit_time_lag_ms):
        raise UsageError(f"--warn-time-lag {warn_time_lag} is longer than --crit-time-lag {crit_time_lag}")
    if warn_above_crit(t.crit_loss_eta_ms, t.warn_loss_eta_ms):
        raise UsageError(f"--warn-loss-eta {warn_loss_eta} is shorter than --crit-loss-eta {crit_loss_eta}")
    if warn_above_crit(t.warn_stale_ms, t.crit_stale_ms):
        raise UsageError(f"--warn-stale {warn_stale} is longer than --crit-stale {crit_stale}")
    return t
