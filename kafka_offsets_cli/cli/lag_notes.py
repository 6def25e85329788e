"""What ``lag`` says on stderr besides its data: warnings, notes under a table, the failure line."""

from __future__ import annotations

from ..measures.lag.collect import GROUP_ID_NOT_FOUND, LagReport
from ..render.lag import time_lag_note
from . import lag_view
from .environment import Environment
from .lag_view import LagView
from .options import Format
from .output import Screen, note, warn, write

__all__ = ["failure_summary", "notes", "shown_with_notes"]


def shown_with_notes(report: LagReport, view: LagView, screen: Screen, metrics: str) -> None:
    """One run's report on ``screen`` (``-o prometheus``: its ``metrics``), then its notes on stderr."""
    if view.fmt is Format.prometheus:
        write(metrics, screen.env)
    else:  # under the command's pause of the collector (lag_cmd)
        lag_view.show(report, view, screen)
    notes(report, view, screen.env)


def notes(report: LagReport, view: LagView, env: Environment | None = None) -> None:
    """The run's warnings, and for a table on a terminal its notes, on stderr: missing groups and
    topics, failed checks; group states, how time lag was found."""
    for m in report.missing:
        warn(f"{m}", env)
    for line in report.unavailable:
        warn(line, env)
    for p in report.problems:
        if p.error == GROUP_ID_NOT_FOUND:
            hint = f" (did you mean {' or '.join(repr(n) for n in p.close)}?)" if p.close else ""
            warn(f"consumer group '{p.group}' does not exist ({p.error}){hint}", env)
        elif p.error:
            warn(f"group {p.group}: {p.error}", env)
        else:
            warn(f"group {p.group} has no committed offsets or assignments in the selection", env)
    if report.marker_unchecked:
        why = ", ".join(f"{n} x {e}" for e, n in sorted(report.marker_unchecked.items()))
        warn(
            f"could not check if the last offset is a transaction marker ({why}); shown as lag 1, state ok",
            env,
        )
    if report.remote_unchecked:
        why = ", ".join(f"{n} x {e}" for e, n in sorted(report.remote_unchecked.items()))
        warn(f"could not tell if some partitions are read from remote storage ({why}); remote_read null", env)
    lost = report.loss_topics
    if lost.unread:
        warn(
            f"loss ETA: could not read the retention configs of {', '.join(lost.unread)}; loss_eta_ms null",
            env,
        )
    if lost.tiered:
        warn(
            f"loss ETA: retention.bytes on tiered {', '.join(lost.tiered)} counts remote data, whose size no "
            "Kafka API gives: by time only, size may delete records sooner",
            env,
        )
    unsized = [t for t in lost.sized if t not in lost.tiered]
    if unsized:
        warn(
            f"loss ETA: could not read the partition sizes of {', '.join(unsized)} (DescribeLogDirs: "
            f"{lost.size_error or 'no answer'}): by time only, retention.bytes may delete records sooner",
            env,
        )
    for line in report.stale_notes:
        warn(line, env)
    if report.stale_first_sight:  # once, when it explains a null: the next run knows
        n = report.stale_first_sight
        warn(
            f"commit staleness: {n} lagging partition(s) seen for the first time; null until the next run",
            env,
        )
    if report.time_lag and report.time_lag_failed:
        warn(f"time lag: {report.time_lag_failed} search(es) failed; their time lag is null", env)
    if view.fmt is not Format.table:
        return  # a machine format's stderr: warnings and errors only
    # for the person at a terminal (note(): nothing off one, e.g. in cron mail)
    if report.marker_checked:
        note(f"checked {report.marker_checked} partition(s) with lag 1 for a transaction marker", env)
    # the groups shown per partition (the summary has a row for each): state, protocol, members
    # (decided once: summary_of looks at every row)
    per_partition = not view.summary_of(report)
    shown = {r.group for r in report.rows} | {p.group for p in report.problems if p.error is None}
    for g, d in sorted(report.groups.items()):
        if d.error is None and g in shown and per_partition:
            kind = report.members[g].protocol if g in report.members else None
            what = ", ".join(x for x in (d.state or "unknown state", kind) if x)
            note(f"group {g}: {what}, {d.members} member(s)", env)
    if report.time_lag:
        note(time_lag_note(report.time_lag_rounds, report.time_lag_searched), env)


def failure_summary(report: LagReport) -> str:
    """The one error line of a run whose groups or partitions failed: errors by count."""
    by: dict[str, int] = {}
    for m in report.missing:
        by[m.error] = by.get(m.error, 0) + 1
    for p in report.problems:
        if p.error:
            by[p.error] = by.get(p.error, 0) + 1
    for row in report.rows:
        if row.error:
            by[row.error] = by.get(row.error, 0) + 1
    parts = ", ".join(f"{n} x {e}" for e, n in sorted(by.items(), key=lambda kv: -kv[1]))
    return f"some groups or partitions failed: {parts}"
