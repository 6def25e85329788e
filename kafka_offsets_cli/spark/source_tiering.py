"""``.option("kind", "tiering")``: the data source's rows of ``kafka-offsets tiering -o json``.

The options are the CLI's names without dashes (``warn.records``, ``crit.records``, ``warn.age``,
``crit.age``, ``include.internal``), and the request is
:func:`kafka_offsets_cli.tiering.run.request_of`'s, so a value the CLI refuses is refused with the
same :class:`~kafka_offsets_cli.errors.UsageError` text. The rows are the report's records
(:meth:`kafka_offsets_cli.tiering.report.TieringReport.records`) in :data:`TIERING_DDL`'s order
(:func:`.source_plan.rows_of`).
No pyspark.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import UsageError
from ..tiering.run import TieringRequest, request_of
from .source_options import KIND_OPTIONS, kind_options, monitored_selection

__all__ = ["TIERING_DDL", "TIERING_OPTIONS", "tiering_request"]

#: The options of kind ``tiering`` beyond the connection's, ``topics`` and ``partitions``.
TIERING_OPTIONS = KIND_OPTIONS["tiering"]

#: The columns of ``tiering -o json`` (:data:`kafka_offsets_cli.tiering.rules.COLUMNS`), typed.
TIERING_DDL = (
    "topic STRING NOT NULL, partition INT, earliest BIGINT, earliest_local BIGINT, "
    "latest_tiered BIGINT, earliest_pending_upload BIGINT, latest BIGINT, local_records BIGINT, "
    "remote_records BIGINT, backlog_records BIGINT, backlog_first_offset BIGINT, "
    "backlog_timestamp BIGINT, backlog_age_ms BIGINT, state STRING NOT NULL, error STRING"
)


def tiering_request(options: Mapping[str, str]) -> TieringRequest:
    """The ``tiering`` request of the read's options, as ``kafka-offsets tiering`` builds it."""
    given = kind_options(options, "tiering", ("specs", "isolation"))
    return request_of(
        **monitored_selection(given),
        warn_records=_records("warn.records", given.get("warn.records")),
        crit_records=_records("crit.records", given.get("crit.records")),
        warn_age=given.get("warn.age") or None,
        crit_age=given.get("crit.age") or None,
    )


def _records(name: str, text: str | None) -> int | None:
    if not text:
        return None
    if not text.strip().isdigit():
        raise UsageError(f"{name} {text!r}: expected a whole number of records (0 or more)")
    return int(text)
