"""The DataFrame stages of ``kafka-offsets check``: collect, evaluate, roll up (classic or Connect).

Every stage is a DataFrame operation (no SparkContext, RDD or broadcast here), so a Spark
Connect session runs them as a classic one does:

* :func:`collect_frame`: the work units go in as a DataFrame of pickled units, one row (and
  one task) per unit; ``mapInArrow`` runs :func:`kafka_offsets_cli.check.collect.run_units` and
  emits flat Arrow batches of samples (:data:`.frames.SAMPLE_COLUMNS`), each once, with the
  number of the checks that route it (routing is plan data, applied in the task);
* :func:`records_frame`: one ``select`` in the JVM: each sample once per check of its route,
  decided by the check's per-record rule (:func:`kafka_offsets_cli.check.evaluate.check_rules`,
  the decision lists ``liveness`` and ``lag`` run in Python) compiled to SQL (:mod:`.decide`),
  into records (:data:`.frames.RECORD_COLUMNS`);
* :func:`rollup_frame`: ``groupBy(...).agg`` per liveness topic and per lag group, the
  statistics the shared roll-ups read (:func:`~kafka_offsets_cli.check.rollups.rollup_stats`)
  as JVM column expressions (:mod:`.tally`); one row per roll-up comes back, and
  :func:`rollup_results` decides from it with the rules ``liveness`` and ``lag`` use.

What the functions need from the plan (checks, routes, timestamp types, trends) is captured in
them: plan data, no secret. The secrets are put back into the units in the task, from a source
the session provides (:func:`localize`).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..check.collect import run_units
from ..check.evaluate import RouteIndex
from ..check.history import group_history
from ..check.plan import WorkUnit
from ..check.report import GroupResult, TopicResult
from ..check.rollups import rollup_result, state_counts
from ..check.spec import CheckDefinition, LagCheck
from ..decide import Rule
from ..errors import MonitoringStatus
from ..severity import severity
from ..tally import Stat
from .decide import sql_by_check, sql_routes
from .frames import RECORD_COLUMNS, SAMPLE_DDL, sample_batches
from .ship import localized_units
from .tally import aggregates, quote_name, sql_literal

__all__ = [
    "SecretsSource",
    "collect_frame",
    "localize",
    "record_columns",
    "record_sql",
    "records_frame",
    "rollup_frame",
    "rollup_results",
    "worst_first",
]


class SecretsSource(Protocol):
    """Where a task finds the units' secrets: ``.value``, cluster → {setting: value}.

    A broadcast variable on a classic session; on Spark Connect whatever the session ships
    (:func:`kafka_offsets_cli.spark.ship.ship_units`). Read in the task, never pickled with it.
    """

    @property
    def value(self) -> Mapping[str, Mapping[str, str]]: ...


def localize(units: Iterable[WorkUnit], secrets: SecretsSource) -> Iterator[WorkUnit]:
    """In a task: the units with their secrets (from ``secrets``) and their shipped files' paths.

    The one place units are made whole again; the session decides what ``secrets`` is.
    """
    return localized_units(units, secrets.value)


def _unit_frame(spark: Any, units: Sequence[WorkUnit]) -> tuple[Any, list[bytes]]:
    """One row, one partition and so one task per unit: ``spark.range(n)`` in ``n`` partitions,
    and the units pickled one by one, for the task's function to hold (each unpickles its own).

    The units travel with the function (Spark broadcasts a large one), not as a DataFrame: a
    DataFrame made from them (Arrow or rows) and joined to the range cost the driver's cold JVM
    about a second (``createDataFrame``, a broadcast job), and a shuffle would let adaptive
    execution merge the tiny partitions into one task.
    """
    n = len(units)
    return spark.range(0, n, 1, n), [pickle.dumps(u) for u in units]


def _units(batches: Iterator[Any], blobs: Sequence[bytes]) -> Iterator[WorkUnit]:
    """In a task: the units whose indexes its batches hold."""
    for b in batches:
        for i in b.column(0).to_pylist():
            yield pickle.loads(blobs[i])


def collect_frame(
    spark: Any,
    units: Sequence[WorkUnit],
    secrets: SecretsSource,
    debug: bool,
    routes: RouteIndex,
) -> Any:
    """A DataFrame of the samples of ``units`` (secrets already taken out), one task per unit,
    each with the number of its route in ``routes`` (the checks that evaluate it)."""

    frame, blobs = _unit_frame(spark, units)
    route = routes.route

    def collect(batches: Iterator[Any]) -> Iterator[Any]:
        # converted once, here: flat batches, no Python object leaves the task
        yield from sample_batches(run_units(localize(_units(batches, blobs), secrets), debug), route=route)

    return frame.mapInArrow(collect, SAMPLE_DDL)


def record_sql(
    routes: Sequence[Sequence[str]],
    rules: Mapping[str, Rule],
    no_time_lag: Sequence[str],
    no_loss_eta: Sequence[str] = (),
) -> tuple[str, dict[str, str], list[str]]:
    """The SQL of :func:`records_frame` (pure): the ``check`` of each route (exploded), the
    record's ``time_lag_ms`` and ``loss_eta_ms`` (null for the checks that do not measure them),
    and the record columns (:data:`.frames.RECORD_COLUMNS`)."""
    measured = {"time_lag_ms": no_time_lag, "loss_eta_ms": no_loss_eta}
    per_check = {column: _null_for(column, checks) for column, checks in measured.items()}
    decided = {
        "kind": "CASE WHEN `kind` = 'live' THEN 'liveness' ELSE 'lag' END",
        "age_ms": sql_by_check(rules, "age_ms"),
        "state": sql_by_check(rules, "state", "`state`"),
        "status": sql_by_check(rules, "status"),
        "history": "NULL",
        "error": sql_by_check(rules, "error", "`error`"),
    }
    cols = [f"CAST({decided.get(n, quote_name(n))} AS {t}) AS {quote_name(n)}" for n, t in RECORD_COLUMNS]
    return f"explode({sql_routes(routes)}) AS `check`", per_check, cols


def _null_for(column: str, checks: Sequence[str]) -> str:
    """``column``, null in the records of ``checks``."""
    if not checks:
        return quote_name(column)
    names = ", ".join(sql_literal(n) for n in checks)
    return f"CASE WHEN `check` IN ({names}) THEN NULL ELSE {quote_name(column)} END"


def records_frame(
    samples: Any,
    routes: RouteIndex,
    rules: Mapping[str, Rule],
    no_time_lag: Sequence[str],
    no_loss_eta: Sequence[str] = (),
) -> Any:
    """The records of ``samples`` (:data:`.frames.RECORD_COLUMNS`): each sample once per check of
    its route, decided by the check's rule (:func:`kafka_offsets_cli.check.evaluate.check_rules`),
    as JVM expressions (:mod:`.decide`): no Python pass over the samples. ``no_time_lag``: the lag
    checks whose records carry no time lag (``time_lag: false``, the rule reads it null too);
    ``no_loss_eta``, those without the data-loss ETA."""
    from pyspark.sql import functions as F

    explode, per_check, cols = record_sql(routes.names, rules, no_time_lag, no_loss_eta)
    # selectExpr: all the SQL text in one call to the JVM (an F.expr each is a round trip each)
    exploded = samples.selectExpr(explode, "*").withColumns({c: F.expr(e) for c, e in per_check.items()})
    return exploded.selectExpr(*cols)


_NAME = "_name"


def rollup_frame(recs: Any, stats: Sequence[Stat]) -> Any:
    """One row per roll-up: its keys (``kind``, ``check``, ``cluster``, ``_name``) and the
    statistics ``stats`` of its records (:func:`kafka_offsets_cli.check.rollups.rollup_stats`),
    computed in the JVM in one ``groupBy().agg`` (:mod:`.tally`).

    ``recs``: the records, with the ``h_*`` verdict columns when the stats read them (history).
    Liveness records roll up per (check, cluster, topic), lag records per (check, cluster, group).
    """
    from pyspark.sql import functions as F

    group = F.coalesce(F.col("group"), F.lit(""))
    name = F.when(F.col("kind") == "liveness", F.col("topic")).otherwise(group)
    return recs.withColumn(_NAME, name).groupBy("kind", "check", "cluster", _NAME).agg(*aggregates(stats))


def rollup_results(
    rows: Iterable[Mapping[str, Any]],
    checks: Mapping[str, CheckDefinition],
    *,
    timestamp_types: Mapping[tuple[str, str], str],
    trends: Mapping[tuple[str, str], Sequence[int | None]] | None,
) -> Iterator[tuple[TopicResult | GroupResult, dict[str, int]]]:
    """Each roll-up row of :func:`rollup_frame` (as a mapping) decided by the shared rules
    (:func:`~kafka_offsets_cli.check.rollups.rollup_result`), with its records' counts by state.

    With ``trends`` (history) each group's verdict is Burrow's on its partitions' verdicts and
    its lag trend (the last ``check.history.window`` runs). No pyspark here.
    """
    for t in rows:
        c = checks[t["check"]]
        cluster, name = t["cluster"], t[_NAME]
        hist = None
        if trends is not None and isinstance(c, LagCheck):
            hist = group_history(t, list(trends.get((cluster, name), []))[-c.history.window :])
        ts_type = timestamp_types.get((cluster, name))
        yield rollup_result(c, cluster, name, t, timestamp_type=ts_type, history=hist), state_counts(t)


def worst_first(recs: Any) -> Any:
    """``recs`` ordered worst first (status severity, lag, age, then identity), as the table shows them."""
    from pyspark.sql import functions as F

    sev = F.create_map(*[x for s in MonitoringStatus for x in (F.lit(s.name), F.lit(severity(s)))])
    return recs.orderBy(
        sev[F.col("status")].desc(),
        F.coalesce(F.col("lag"), F.lit(0)).desc(),
        F.coalesce(F.col("age_ms"), F.lit(0)).desc(),
        F.col("check"),
        F.col("cluster"),
        F.col("topic"),
        F.coalesce(F.col("partition"), F.lit(-1)),
    )


def record_columns() -> list[str]:
    """The record columns, in table order."""
    return [n for n, _ in RECORD_COLUMNS]
