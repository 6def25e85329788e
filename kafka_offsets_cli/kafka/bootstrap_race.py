"""The bootstrap servers raced by kafka-python's clients: a frozen server costs a head start, never the run.

kafka-python's client bootstraps in its constructor, one server at a time: it picks one at random
and holds on a server that accepts the connection but never answers (a SIGSTOPped or GC-paused JVM:
the kernel accepts, nobody reads) for the whole bootstrap timeout, and on one that freezes between
its ApiVersions and Metadata answers for the whole request timeout. Trying servers in turn after a
failed attempt still loses the attempts that land on the frozen one (issue 27: the random first pick
and the first single-server retry both named it, and the run ended "did not answer").

So clients race: the first is given every server (kafka-python passes a refused one at once, which
a single-server client would retry until its timeout); when it has not bootstrapped within the head
start, or has failed, one client per server, each given that server alone, starts at once. The
first client bootstrapped wins; every other is closed as soon as it is made. Each client gets what
remains of ``--timeout``, and the race never outlasts it.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from .deadline import MAX_REQUEST_S, Deadline

T = TypeVar("T")

#: Seconds the client given every server may take before each server is also raised alone
#: (at most a third of --timeout): a healthy bootstrap takes milliseconds, a frozen server forever.
HEAD_START_S = 1.0


class NoWinner(Exception):
    """No client bootstrapped within ``--timeout``; ``cause`` is the last client's failure, if any."""

    def __init__(self, cause: BaseException | None) -> None:
        super().__init__(type(cause).__name__ if cause is not None else "timed out")
        self.cause = cause


def racers(servers: Sequence[str]) -> list[list[str]]:
    """The bootstrap servers of each client of the race, in starting order: all of them, then each
    alone (a single server is raced once)."""
    if len(servers) <= 1:
        return [list(servers)]
    return [list(servers), *([s] for s in servers)]


def due(count: int, elapsed_s: float, all_failed: bool, head_start_s: float) -> int:
    """How many of ``count`` clients run ``elapsed_s`` seconds into the race: the first at once, all
    of them once the first has had its head start or every started one has failed."""
    return count if elapsed_s >= head_start_s or all_failed else min(count, 1)


class _Outcomes(Generic[T]):
    """The clients' outcomes, in the order they end; a client made after the race is decided is
    discarded at once (the race's caller never sees it)."""

    def __init__(self, discard: Callable[[T], None]) -> None:
        self._discard = discard
        self._lock = threading.Lock()
        self._decided = False
        self.queue: queue.Queue[tuple[T | None, BaseException | None]] = queue.Queue()

    def made(self, client: T) -> None:
        with self._lock:
            late, self._decided = self._decided, True
        if late:
            self._discard(client)
        else:
            self.queue.put((client, None))

    def failed(self, error: BaseException) -> None:
        self.queue.put((None, error))

    def decide(self) -> None:
        with self._lock:
            self._decided = True


def race(
    make: Callable[[list[str]], T],
    servers: Sequence[str],
    deadline: Deadline,
    *,
    head_start_s: float,
    failure: type[BaseException],
    discard: Callable[[T], None],
) -> T:
    """The first client ``make`` bootstraps from the :func:`racers` of ``servers`` (:func:`due`).

    A client that raises ``failure`` has lost (the race goes on); anything else it raises ends the
    race at once and is raised here (an authentication failure is every client's). :class:`NoWinner`
    when every client failed or ``deadline`` passed first. Clients made after the winner are given
    to ``discard``.
    """
    lists = racers(servers)
    outcomes: _Outcomes[T] = _Outcomes(discard)

    def run(bootstrap: list[str]) -> None:
        try:
            client = make(bootstrap)
        except BaseException as e:
            outcomes.failed(e)
        else:
            outcomes.made(client)

    start = deadline.clock()
    started = failed = 0
    last: BaseException | None = None
    try:
        while True:
            elapsed = deadline.clock() - start
            for bootstrap in lists[started : due(len(lists), elapsed, 0 < started == failed, head_start_s)]:
                threading.Thread(
                    target=run, args=(bootstrap,), name="kafka-python-bootstrap", daemon=True
                ).start()
                started += 1
            if failed == len(lists) or deadline.remaining() <= 0:
                raise NoWinner(last)
            wait = deadline.remaining() if started == len(lists) else head_start_s - elapsed
            try:
                # at most MAX_REQUEST_S a wait: a --timeout of years overflows the lock's time_t
                client, error = outcomes.queue.get(
                    timeout=max(0.0, min(wait, deadline.remaining(), MAX_REQUEST_S))
                )
            except queue.Empty:
                continue
            if error is None:
                return client  # type: ignore[return-value]
            if not isinstance(error, failure):
                raise error
            failed, last = failed + 1, error
    finally:
        outcomes.decide()
