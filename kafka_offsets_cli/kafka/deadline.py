"""The ``--timeout`` budget: how long one request may take, and how long to wait for its answer.

Every request to the cluster gets what remains of ``--timeout`` (a floor keeps a
request worth sending when the budget is nearly spent), and the tool waits a little
longer than that for its answer: librdkafka fails the request itself at its timeout,
and that answer names the error (``REQUEST_TIMED_OUT``, ``TRANSPORT``…) where a bare
wait would not.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

#: The least time a request is given, even when ``--timeout`` has (nearly) run out.
MIN_REQUEST_S = 0.5

#: How much longer than a request's own timeout the tool waits for librdkafka's answer.
ANSWER_SLACK_S = 5.0

#: How far past the whole ``--timeout`` any wait may run: the command's one shared bound. On a
#: loaded machine librdkafka's timers fire late; two requests waited on at once (lag reads the
#: metadata while it lists the groups) would each add :data:`ANSWER_SLACK_S` otherwise.
ANSWER_GRACE_S = 1.5

#: The most one request may be given: librdkafka refuses an admin request timeout above one
#: hour (``ValueError: request_timeout ... 0..3600000``), so a longer ``--timeout`` is spent
#: in several requests of at most this.
MAX_REQUEST_S = 3600.0

#: Seconds the first attempt of a request may take before it is sent again; each later attempt
#: may take twice as long as the one before (never past --timeout). A request queued for a frozen
#: broker would otherwise wait out the whole --timeout; sent again, it goes to another broker
#: (librdkafka drops a connection whose request timed out: socket.max.fails=1).
FIRST_ATTEMPT_S = 5.0


class Deadline:
    """The overall ``--timeout`` of a command (started again by ``--watch`` before each refresh)."""

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        #: the monotonic clock the budget is read on (a test gives one that it moves)
        self.clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        """Seconds left before the overall ``--timeout``."""
        return max(0.0, self._end - self.clock())

    def restart(self) -> None:
        """Start a new budget of the same length."""
        self._end = self.clock() + self.seconds

    def answer_by(self, request_timeout: float) -> float:
        """The clock time by which the answer to a request sent now with ``request_timeout`` is
        given up on: :func:`answer_wait` from now, yet never more than :data:`ANSWER_GRACE_S` past
        the later of ``--timeout`` and the request's own end."""
        now = self.clock()
        latest = max(self._end, now + request_timeout) + ANSWER_GRACE_S
        return min(now + answer_wait(request_timeout), latest)

    def request_timeout(self, cap: float = math.inf) -> float:
        """Seconds one request may take: what remains (at least :data:`MIN_REQUEST_S`), at most
        ``cap`` and :data:`MAX_REQUEST_S`."""
        return min(max(MIN_REQUEST_S, self.remaining()), cap, MAX_REQUEST_S)


def answer_wait(request_timeout: float) -> float:
    """How long to wait for the answer to a request sent with ``request_timeout``."""
    return request_timeout + ANSWER_SLACK_S
