"""The options of the ``kafka-offsets`` data source, read as the CLI reads its own (no pyspark).

``spark.read.format("kafka-offsets").option(NAME, VALUE)``: the names are the CLI's options, each
read by the CLI's own functions, so a value the CLI refuses is refused with the same
:class:`~kafka_offsets_cli.errors.UsageError` text:

==================== ======================================================================
``bootstrap.servers`` the servers, as ``-b`` (or ``cluster``: a profile, as ``--cluster``)
``topics``            a Java regex of topic names, as ``-t`` (default: every topic)
``partitions``        as ``--partitions`` (``0,2-4``)
``specs``             comma-separated offset specs, as repeated ``-s`` (default ``latest``):
                      ``earliest``, ``latest``, ``max-timestamp``, the tiered specs, Kafka's
                      codes, any time ``-s`` takes (epoch ms, ISO-8601, ``6h ago``)
``tz``                the zone of times without one, as ``--tz`` (default UTC)
``isolation``         ``read_uncommitted`` (default) or ``read_committed``
``timeout``           as ``--timeout`` (default ``30s``)
``parallelism``       how many work units (tasks) at most; default: the planning machine's CPUs
``kafka.NAME``        a client setting, as ``-X NAME=VALUE`` (as Spark's own Kafka source names them)
``kind``              ``offsets`` (default: ``list``'s rows), ``lag``, ``liveness`` or ``tiering``
                      (that command's ``-o json`` rows)
``groups``            kind ``lag``: group names or Java regexes, comma-separated (a lag check's ``groups``)
``time.lag``          kind ``lag``: ``true`` for the time lag, as ``--time-lag``
(the others)          kinds ``liveness`` and ``tiering``: their command's options without dashes
                      (:data:`KIND_OPTIONS`, read by :mod:`.source_liveness`, :mod:`.source_tiering`)
==================== ======================================================================

Times are read once, when the read is planned: every task asks for the same instant.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..check.spec import DEFAULT_TASK_SIZE
from ..connection.resolver import ConnectionOptions
from ..errors import UsageError
from ..listing.run import ListRequest, request_of
from ..models.offsets import Isolation
from ..parse.times import parse_tz
from ..plan.requests import DEFAULT_CHUNK

__all__ = [
    "KAFKA_PREFIX",
    "KINDS",
    "KIND_OPTIONS",
    "OPTIONS",
    "SCHEMA_DDL",
    "SourceRequest",
    "flag",
    "kind_options",
    "monitored_selection",
    "source_request",
]

#: The columns of ``list -o json`` (:data:`kafka_offsets_cli.render.offsets.COLUMNS`), typed:
#: ``partition`` is null on the row of a topic that could not be listed (its error says why);
#: ``offset``, ``timestamp`` and ``leader_epoch`` are null where ``list`` prints null.
SCHEMA_DDL = (
    "topic STRING NOT NULL, partition INT, spec STRING NOT NULL, offset BIGINT, "
    "timestamp BIGINT, leader_epoch INT, error STRING"
)
#: Prefix of a client setting's option (``kafka.security.protocol`` is ``-X security.protocol=…``).
KAFKA_PREFIX = "kafka."
#: The options only some kinds take (each kind's command's options, without dashes).
KIND_OPTIONS: dict[str, tuple[str, ...]] = {
    "lag": ("groups", "time.lag"),
    "liveness": (
        "warn",
        "crit",
        "min.alive",
        "future.tolerance",
        "empty.status",
        "future.status",
        "include.internal",
    ),
    "tiering": ("warn.records", "crit.records", "warn.age", "crit.age", "include.internal"),
}
#: The data source's own options (lower case: Spark hands option names over in lower case).
OPTIONS = (
    "bootstrap.servers",
    "cluster",
    "topics",
    "partitions",
    "specs",
    "tz",
    "isolation",
    "timeout",
    "parallelism",
    "kind",
    *dict.fromkeys(o for names in KIND_OPTIONS.values() for o in names),
)
#: The kinds of rows: ``list``'s, and those of the commands ``lag``, ``liveness`` and ``tiering``.
KINDS = ("offsets", "lag", "liveness", "tiering")


@dataclass(frozen=True, kw_only=True)
class SourceRequest:
    """One read: where to connect, what to list, and how finely to cut it into tasks."""

    connection: ConnectionOptions
    request: ListRequest
    parallelism: int
    kind: str = "offsets"
    time_lag: bool = False
    task_size: int = DEFAULT_TASK_SIZE
    chunk_size: int = DEFAULT_CHUNK


def source_request(options: Mapping[str, str], *, now_ms: int) -> SourceRequest:
    """The read the options ask for; :class:`UsageError` (the CLI's text) for an option it refuses."""
    given = {k.lower(): v for k, v in options.items()}
    for name in given:
        if name not in OPTIONS and not (name.startswith(KAFKA_PREFIX) and len(name) > len(KAFKA_PREFIX)):
            known = ", ".join(OPTIONS)
            raise UsageError(
                f"unknown option {name!r}; expected one of {known}, or a client setting as kafka.NAME"
            )
    if not given.get("bootstrap.servers") and not given.get("cluster"):
        raise UsageError("give bootstrap.servers (HOST:PORT) or cluster (a profile)")
    kind = (given.get("kind") or "offsets").strip().lower()
    if kind not in KINDS:
        raise UsageError(f"kind {given['kind']!r}: expected one of {', '.join(KINDS)}")
    for name in given:
        owners = [k for k, names in KIND_OPTIONS.items() if name in names]
        if owners and kind not in owners and given[name]:
            adds = " or ".join(f".option('kind', '{k}')" for k in owners)
            raise UsageError(f"option {name!r} is one of kind {' or '.join(map(repr, owners))} (add {adds})")
    isolation = _isolation(given.get("isolation"))
    overrides = tuple(
        f"{k[len(KAFKA_PREFIX) :]}={v}" for k, v in sorted(given.items()) if k.startswith(KAFKA_PREFIX)
    )
    connection = ConnectionOptions(
        bootstrap=given.get("bootstrap.servers") or None,
        overrides=overrides,
        timeout=given.get("timeout") or ConnectionOptions.timeout,
        isolation=isolation,
        cluster=given.get("cluster") or None,
    )
    topics = given.get("topics")
    specs = [s for s in given.get("specs", "").split(",") if s.strip()]
    request = request_of(
        topics=[topics] if topics else None,
        partitions=given.get("partitions") or None,
        topic_partitions=None,
        exclude_internal_topics=False,
        specs=specs,
        now_ms=now_ms,
        zone=parse_tz(given.get("tz")),
    )
    return SourceRequest(
        connection=connection,
        request=request,
        parallelism=_parallelism(given.get("parallelism")),
        kind=kind,
        time_lag=flag(given, "time.lag"),
    )


def kind_options(options: Mapping[str, str], kind: str, refused: tuple[str, ...]) -> dict[str, str]:
    """The options by their lower-case names; :class:`UsageError` if one of ``refused`` (options
    ``kind`` does not take) is given."""
    given = {k.lower(): v for k, v in options.items()}
    for name in refused:
        if given.get(name):
            raise UsageError(f"option {name!r} is not one of kind {kind!r}")
    return given


def monitored_selection(given: Mapping[str, str]) -> dict[str, Any]:
    """The selection's arguments of a monitoring command's ``request_of`` (``liveness``, ``tiering``):
    ``topics``, ``partitions``, ``include.internal``, as ``-t``, ``--partitions``, ``--include-internal``."""
    topics = given.get("topics")
    return {
        "topics": [topics] if topics else None,
        "partitions": given.get("partitions") or None,
        "topic_partitions": None,
        "include_internal": flag(given, "include.internal"),
    }


def flag(given: Mapping[str, str], name: str) -> bool:
    """A ``true``/``false`` option (absent: false), as the CLI's flag; ``given``: lower-case names."""
    text = (given.get(name) or "false").strip().lower()
    if text not in ("true", "false"):
        raise UsageError(f"{name} {given[name]!r}: expected true or false")
    return text == "true"


def _isolation(text: str | None) -> Isolation:
    if not text:
        return Isolation.READ_UNCOMMITTED
    try:
        return Isolation(text.strip().lower())
    except ValueError:
        choices = ", ".join(i.value for i in Isolation)
        raise UsageError(f"isolation {text!r}: expected {choices}") from None


def _parallelism(text: str | None) -> int:
    if not text:
        return os.cpu_count() or 1
    if not text.strip().isdigit() or int(text) < 1:
        raise UsageError(f"parallelism {text!r}: expected a positive integer")
    return int(text)
