"""``--watch DURATION``: refresh a command's view until Ctrl-C, with per-row rates.

A command supplies four functions and this module runs the loop, reusing one
:class:`~kafka_offsets_cli.kafka.KafkaClient` (with a fresh ``--timeout``
budget per refresh):

* ``fetch(client) -> S``: one snapshot (a table of results);
* ``counters(S) -> Counters``: the monotonic offsets in it, by row key --
  ``produced`` (log end offsets, for records/s in) and ``consumed`` (committed
  offsets, for records/s consumed) -- and the ``levels`` a trend column follows
  (lag, age), kept over the last refreshes (:class:`~kafka_offsets_cli.measures.trend.Trends`);
* ``live(S, Rates) -> renderable``: the view redrawn in place on a terminal;
* ``block(S, Rates) -> str``: the text printed once per refresh when stdout is
  not a terminal (a pipe or file gets one block per refresh); a table block starts
  with :func:`block_stamp`, the time it was taken, so that a log of blocks tells when.

Records/s in are the offset deltas between two refreshes divided by the seconds
between them; a row seen for the first time, or whose offset went backwards
(a recreated topic, a rewound group), has no rate. Records/s consumed come from
committed offsets, which move in commit steps (auto-commit: every 5 s), so they are
measured over the steps of a window of refreshes instead
(:class:`~kafka_offsets_cli.lag.rates.CommitRates`). Ctrl-C ends the loop
normally (exit status 0). A cluster error on a later refresh is shown and the
loop carries on; on the first refresh it ends the command as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from ..errors import KafkaOffsetsError, UsageError, interrupted
from ..lag.rates import CommitRate, CommitRates, window_for
from ..measures.trend import Trends
from ..parse.durations import format_duration, parse_duration
from .environment import Environment
from .output import Screen, data_console, err_console, write

K = TypeVar("K", bound=Hashable)
S = TypeVar("S")


class Refreshable(Protocol):
    """What the loop needs from the client."""

    def restart_clock(self) -> None:
        """Start a new ``--timeout`` budget."""
        ...


@dataclass(frozen=True)
class Counters(Generic[K]):
    """Monotonic offsets observed at one refresh, by row key."""

    produced: Mapping[K, int] = field(default_factory=dict)
    consumed: Mapping[K, int] = field(default_factory=dict)
    #: values whose trend the view draws (a row's or group's lag, a partition's age), by any key
    levels: Mapping[Any, int | None] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Rates(Generic[K]):
    """Per-row records/s since the previous refresh (``None``: not known yet)."""

    records_in: Mapping[K, float | None] = field(default_factory=dict)
    records_consumed: Mapping[K, float | None] = field(default_factory=dict)
    seconds: float | None = None
    refresh: int = 1
    #: seconds of commit steps each consumed rate spans (``None``: no rate yet)
    consumed_window: Mapping[K, float | None] = field(default_factory=dict)
    #: when the refresh's snapshot was taken, epoch milliseconds (records' ``refreshed_ms``)
    taken_ms: int | None = None
    #: each level's values over the last refreshes, oldest first (:attr:`Counters.levels`)
    trends: Mapping[Any, tuple[int | None, ...]] = field(default_factory=dict)

    def in_rate(self, key: K) -> float | None:
        """Records/s appended to the row's partition."""
        return self.records_in.get(key)

    def consumed_rate(self, key: K) -> float | None:
        """Records/s consumed (committed) for the row."""
        return self.records_consumed.get(key)


def _deltas(prev: Mapping[K, int], cur: Mapping[K, int], seconds: float | None) -> dict[K, float | None]:
    out: dict[K, float | None] = {}
    for key, value in cur.items():
        before = prev.get(key)
        if seconds is None or seconds <= 0 or before is None or value < before:
            out[key] = None
        else:
            out[key] = (value - before) / seconds
    return out


def rates_between(
    prev: Counters[K] | None, cur: Counters[K], seconds: float | None, refresh: int = 1
) -> Rates[K]:
    """Rates from two consecutive refreshes ``seconds`` apart (pure)."""
    before: Counters[K] = prev if prev is not None else Counters()
    secs = seconds if prev is not None else None
    return Rates(
        records_in=_deltas(before.produced, cur.produced, secs),
        records_consumed=_deltas(before.consumed, cur.consumed, secs),
        seconds=secs,
        refresh=refresh,
    )


def with_commit_rates(rates: Rates[K], consumed: Mapping[K, CommitRate | None]) -> Rates[K]:
    """``rates`` with records/s consumed from :class:`~kafka_offsets_cli.lag.rates.CommitRates`."""
    return replace(
        rates,
        records_consumed={k: None if r is None else r.per_s for k, r in consumed.items()},
        consumed_window={k: None if r is None else r.window_s for k, r in consumed.items()},
    )


def parse_interval(text: str) -> float:
    """``--watch`` DURATION in seconds (``5s``, ``1m``, ``500ms``); a UsageError unless positive."""
    try:
        ms = parse_duration(text)
    except UsageError as e:
        raise UsageError(f"--watch: {e.message}") from None
    if ms <= 0:
        raise UsageError(f"--watch {text!r}: must be positive")
    return ms / 1000


def block_stamp(now: datetime | None = None) -> str:
    """The line that starts a table block written off a terminal: ``# 2026-11-24T14:03:07+01:00``.

    Local time with its offset, as the status line on a terminal, plus the date a log needs.
    Machine formats (json, jsonl, csv, plain) get no such line: their readers parse every line.
    """
    when = (now or datetime.now()).astimezone()
    return f"# {when.isoformat(timespec='seconds')}\n"


def _status(interval: float, refresh: int, error: str | None) -> Any:
    from rich.text import Text

    stamp = datetime.now().astimezone().strftime("%H:%M:%S")
    every = format_duration(int(interval * 1000))
    line = Text(f"every {every} · refresh {refresh} at {stamp} · Ctrl-C to stop", style="dim")
    if error:
        line.append(f"\nrefresh failed: {error}", style="red")
    return line


def run_watch(
    client: Refreshable,
    interval: float,
    fetch: Callable[[Any], S],
    counters: Callable[[S], Counters[K]],
    live: Callable[[S, Rates[K]], Any],
    block: Callable[[S, Rates[K]], str],
    *,
    screen: Screen | None = None,
    tty: bool | None = None,
    max_refreshes: int | None = None,
    clock: Callable[[], float] | None = None,
    sleep: Callable[[float], None] | None = None,
    now_ms: Callable[[], int] | None = None,
) -> S | None:
    """Refresh every ``interval`` seconds until Ctrl-C (or ``max_refreshes``); return the last snapshot.

    On a terminal (``tty``, default: ``screen``'s stdout is one) a rich Live display is
    redrawn; otherwise ``block`` is written to stdout once per refresh. ``clock``, ``sleep`` and
    ``now_ms`` (when a refresh was taken) are ``screen``'s environment's unless given (default
    screen: the process's stdout).
    """
    screen = screen or Screen(Environment.of_process())
    env = screen.env
    clock, sleep, wall_ms = clock or env.clock, sleep or env.sleep, now_ms or env.now_ms
    on_tty = screen.tty if tty is None else tty
    prev: Counters[K] | None = None
    prev_t = 0.0
    last: S | None = None
    last_rates: Rates[K] = Rates()
    commits: CommitRates[K] = CommitRates(window_for(interval))
    trends: Trends[Hashable] = Trends()
    refresh = 0
    display: Any = None
    try:
        if on_tty:
            from rich.live import Live

            display = Live(console=data_console(screen), auto_refresh=False, transient=False)
            display.start()
        while True:
            started = clock()
            refresh += 1
            client.restart_clock()
            error: str | None = None
            try:
                snap = fetch(client)
            except KafkaOffsetsError as e:
                if last is None or isinstance(e, UsageError):
                    raise
                error = e.message
            else:
                now = clock()
                cur = counters(snap)
                last_rates = rates_between(prev, cur, now - prev_t if prev is not None else None, refresh)
                last_rates = with_commit_rates(last_rates, commits.observe(now, cur.consumed))
                last_rates = replace(last_rates, taken_ms=wall_ms(), trends=trends.observe(cur.levels))
                prev, prev_t, last = cur, now, snap
            if display is not None:
                from rich.console import Group

                assert last is not None
                display.update(Group(_status(interval, refresh, error), live(last, last_rates)), refresh=True)
            elif error is not None:
                from rich.markup import escape

                when = block_stamp().strip("# \n")  # a log of refreshes says when each failed
                err_console(env).print(
                    f"[yellow]kafka-offsets: warning:[/] {when}: refresh {refresh} failed: {escape(error)}",
                    soft_wrap=True,
                )
            else:
                assert last is not None
                write(block(last, last_rates), env)
            if max_refreshes is not None and refresh >= max_refreshes:
                break
            sleep(max(0.0, interval - (clock() - started)))
    except KeyboardInterrupt:
        pass
    except Exception as e:  # a Ctrl-C can surface wrapped (SystemError from a C extension)
        if not interrupted(e):
            raise
    finally:
        if display is not None:
            display.stop()
    return last
