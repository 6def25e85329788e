"""``.option("kind", "liveness")``: the data source's rows of ``kafka-offsets liveness -o json``.

The options are the CLI's names without dashes (``warn``, ``crit``, ``min.alive``,
``future.tolerance``, ``empty.status``, ``future.status``, ``include.internal``), their defaults the
CLI's, and the request is :func:`kafka_offsets_cli.liveness.run.request_of`'s, so a value the CLI
refuses is refused with the same :class:`~kafka_offsets_cli.errors.UsageError` text (``isolation``
is the connection's, as ``--isolation``). The rows are the report's records
(:meth:`kafka_offsets_cli.liveness.report.LivenessReport.records`) in :data:`LIVENESS_DDL`'s order
(:func:`.source_plan.rows_of`).
No pyspark.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import MonitoringStatus, UsageError
from ..liveness.collect import LivenessRequest
from ..liveness.run import request_of
from ..measures.liveness import DEFAULT_CRIT, DEFAULT_EMPTY_STATUS, DEFAULT_FUTURE_TOLERANCE_MS, DEFAULT_WARN
from .source_options import KIND_OPTIONS, kind_options, monitored_selection

__all__ = ["LIVENESS_DDL", "LIVENESS_OPTIONS", "liveness_request"]

#: The columns of ``liveness -o json`` (:data:`kafka_offsets_cli.measures.liveness.COLUMNS`), typed:
#: ``partition`` is null on the row of a selected topic that could not be listed (state ``error``).
LIVENESS_DDL = (
    "topic STRING NOT NULL, partition INT, offset BIGINT, timestamp BIGINT, age_ms BIGINT, "
    "state STRING NOT NULL, timestamp_type STRING, error STRING"
)

#: The options of kind ``liveness`` beyond the connection's, ``topics`` and ``partitions``.
LIVENESS_OPTIONS = KIND_OPTIONS["liveness"]


def liveness_request(options: Mapping[str, str]) -> LivenessRequest:
    """The ``liveness`` request of the read's options, as ``kafka-offsets liveness`` builds it."""
    given = kind_options(options, "liveness", ("specs", "groups", "time.lag"))
    return request_of(
        **monitored_selection(given),
        exclude_internal_topics=False,
        warn=given.get("warn") or DEFAULT_WARN,
        crit=given.get("crit") or DEFAULT_CRIT,
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
