"""Work started ahead, on a thread of its own, while the caller does something else.

``lag`` asks for the cluster's metadata (librdkafka) while the groups are listed (kafka-python):
at fleet scale each is a tenth of a second or more of waiting on brokers, and neither needs the
other (``bench/lag_scale.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Generic, TypeVar

T = TypeVar("T")


class Ahead(Generic[T]):
    """``fn()`` running on a daemon thread from construction; :meth:`result` is its value or raises its
    exception. Used as a context manager: leaving the block by an error waits for ``fn`` (its own
    error dropped), so nothing still runs on a client the caller is about to close; leaving it by
    Ctrl-C does not wait."""

    def __init__(self, fn: Callable[[], T], name: str = "ahead") -> None:
        self._future: Future[T] = Future()
        threading.Thread(target=self._run, args=(fn,), name=name, daemon=True).start()

    def _run(self, fn: Callable[[], T]) -> None:
        self._future.set_running_or_notify_cancel()
        try:
            self._future.set_result(fn())
        except BaseException as e:
            self._future.set_exception(e)

    def result(self) -> T:
        """``fn``'s value (waits for it), or its exception raised here."""
        return self._future.result()

    def ready(self) -> T | None:
        """``fn``'s value if it is in (no wait), else ``None`` (still running, or failed: :meth:`result`
        raises its exception where the caller waits)."""
        future = self._future
        return future.result() if future.done() and future.exception() is None else None

    def __enter__(self) -> Ahead[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        # an error: wait (the caller's exception is the one that matters); Ctrl-C: never wait, the
        # run ends now (the thread is a daemon)
        if kind is not None and issubclass(kind, Exception):
            self._future.exception()
