"""``.option("kind", "liveness")``'s options: the request of ``kafka-offsets liveness``, by its code.

The options are the CLI's names without dashes (``warn``, ``crit``, ``min.alive``,
``future.tolerance``, ``empty.status``, ``future.status``, ``include.internal``), their defaults the
CLI's, and the request is :func:`kafka_offsets_cli.liveness.run.request_of`'s, so a value the CLI
refuses is refused with the same :class:`~kafka_offsets_cli.errors.UsageError` text. Not yet a
kind of the data source: the planning and the tasks are still to come. No pyspark.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import MonitoringStatus, UsageError
from ..liveness.collect import LivenessRequest
from ..liveness.run import request_of
from ..measures.liveness import DEFAULT_EMPTY_STATUS, DEFAULT_FUTURE_TOLERANCE_MS

__all__ = ["LIVENESS_OPTIONS", "liveness_request"]

#: The options of kind ``liveness`` beyond the connection's, ``topics`` and ``partitions``.
LIVENESS_OPTIONS = (
    "warn",
    "crit",
    "min.alive",
    "future.tolerance",
    "empty.status",
    "future.status",
    "include.internal",
)


def liveness_request(options: Mapping[str, str]) -> LivenessRequest:
    """The ``liveness`` request of the read's options, as ``kafka-offsets liveness`` builds it."""
    given = {k.lower(): v for k, v in options.items()}
    for name in ("specs", "groups", "time.lag", "isolation"):
        if given.get(name):
            raise UsageError(f"option {name!r} is not one of kind 'liveness'")
    include = (given.get("include.internal") or "false").strip().lower()
    if include not in ("true", "false"):
        raise UsageError(f"include.internal {given['include.internal']!r}: expected true or false")
    topics = given.get("topics")
    return request_of(
        topics=[topics] if topics else None,
        partitions=given.get("partitions") or None,
        topic_partitions=None,
        include_internal=include == "true",
        exclude_internal_topics=False,
        warn=given.get("warn") or "5m",
        crit=given.get("crit") or "15m",
        min_alive=_min_alive(given.get("min.alive")),
        future_tolerance=given.get("future.tolerance") or f"{DEFAULT_FUTURE_TOLERANCE_MS // 1000}s",
        empty=_status("empty.status", given.get("empty.status"), DEFAULT_EMPTY_STATUS),
        future=_status("future.status", given.get("future.status"), MonitoringStatus.WARNING),
    )


def _min_alive(text: str | None) -> int | None:
    if not text:
        return None
    if not text.strip().isdigit() or int(text) < 1:
        raise UsageError(f"min.alive {text!r}: expected a positive integer")
    return int(text)


def _status(name: str, text: str | None, default: MonitoringStatus) -> MonitoringStatus:
    if not text:
        return default
    try:
        return MonitoringStatus[text.strip().upper()]
    except KeyError:
        choices = ", ".join(s.name.lower() for s in MonitoringStatus)
        raise UsageError(f"{name} {text!r}: expected one of {choices}") from None
