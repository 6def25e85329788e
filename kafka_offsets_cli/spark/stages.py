"""The DataFrame stages of ``kafka-offsets check``: collect, evaluate, roll up (classic or Connect).

Every stage is a DataFrame operation (no SparkContext, RDD or broadcast here), so a Spark
Connect session runs them as a classic one does:

* :func:`collect_frame`: the work units go in as a DataFrame of pickled units, one row (and
  one task) per unit; ``mapInArrow`` runs :func:`kafka_offsets_cli.check.collect.run_units` and
  emits flat Arrow batches of samples (:data:`.frames.SAMPLE_COLUMNS`);
* :func:`evaluate_frame`: ``mapInArrow`` over the samples, every sample through the shared rules
  (:func:`kafka_offsets_cli.check.evaluate.evaluate_sample`) into records
  (:data:`.frames.RECORD_COLUMNS`);
* :func:`rollup_frame`: ``groupBy(...).applyInArrow`` per liveness topic and per lag group,
  calling the shared roll-ups (:func:`~kafka_offsets_cli.check.rollups.rollup_columns`); one
  row per roll-up comes back.

What the functions need from the plan (checks, routes, timestamp types, trends) is captured in
them: plan data, no secret. The secrets are put back into the units in the task, from a source
the session provides (:func:`localize`).
"""

from __future__ import annotations

import json
import pickle
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..check.collect import run_units
from ..check.evaluate import EvalContext, evaluate_sample
from ..check.plan import WorkUnit
from ..check.report import GroupResult, TopicResult
from ..check.rollups import rollup_columns, rollup_order
from ..check.spec import CheckDefinition, LivenessCheck
from ..errors import MonitoringStatus
from ..liveness.rules import severity
from .arrow_build import record_batch_of
from .frames import (
    RECORD_COLUMNS,
    RECORD_DDL,
    SAMPLE_DDL,
    batch_samples,
    ddl,
    record_batch,
    sample_batches,
    verdicts,
)
from .ship import localized_units

__all__ = [
    "SecretsSource",
    "collect_frame",
    "collect_records_frame",
    "evaluate_frame",
    "localize",
    "record_columns",
    "rollup_frame",
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


def collect_frame(spark: Any, units: Sequence[WorkUnit], secrets: SecretsSource, debug: bool) -> Any:
    """A DataFrame of the samples of ``units`` (secrets already taken out), one task per unit."""

    frame, blobs = _unit_frame(spark, units)

    def collect(batches: Iterator[Any]) -> Iterator[Any]:
        # converted once, here: flat batches, no Python object leaves the task
        yield from sample_batches(run_units(localize(_units(batches, blobs), secrets), debug))

    return frame.mapInArrow(collect, SAMPLE_DDL)


def collect_records_frame(
    spark: Any, units: Sequence[WorkUnit], secrets: SecretsSource, debug: bool, ctx: EvalContext
) -> Any:
    """The records of ``units``: each task collects its unit, then puts the samples through the
    shared per-record rules itself (:func:`evaluate_frame` without a pass of its own).

    For a run without history (which needs the samples themselves). ``ctx.now_ms`` is replaced
    by the task's clock read once its unit's answers are in: ages are never fresher than the
    answers, and no second pass over the samples is needed to apply one driver clock.
    """
    from ..parse.times import now_ms

    frame, blobs = _unit_frame(spark, units)

    def collect(batches: Iterator[Any]) -> Iterator[Any]:
        for unit in localize(_units(batches, blobs), secrets):
            got = list(run_units(iter((unit,)), debug))
            here = EvalContext(ctx.checks, ctx.live_routes, ctx.lag_routes, now_ms())
            yield record_batch(r for s in got for r in evaluate_sample(s, here))

    return frame.mapInArrow(collect, RECORD_DDL)


def evaluate_frame(samples: Any, ctx: EvalContext) -> Any:
    """The records of ``samples`` (a DataFrame of samples) by the shared per-record rules."""

    def evaluate(batches: Iterator[Any]) -> Iterator[Any]:
        for b in batches:
            yield record_batch(r for s in batch_samples(b) for r in evaluate_sample(s, ctx))

    return samples.mapInArrow(evaluate, RECORD_DDL)


_NAME = "_name"


def rollup_frame(
    recs: Any,
    checks: Mapping[str, CheckDefinition],
    *,
    timestamp_types: Mapping[tuple[str, str], str],
    trends: Mapping[tuple[str, str], Sequence[int | None]] | None,
    windows: Mapping[str, int],
    parallelism: int = 2,
) -> Any:
    """One row per roll-up: ``result``, a pickled :class:`TopicResult` or :class:`GroupResult`, and
    ``states``, its records' counts by state (JSON; the check's state counts are their sums).

    ``recs``: the records, with the ``h_*`` verdict columns when ``trends`` is given (history).
    Liveness records roll up per (check, cluster, topic), lag records per (check, cluster, group),
    in ``parallelism`` tasks: a repartition by number, which adaptive execution leaves as it is
    (a plain ``groupBy`` shuffle of a few MB is coalesced into one task, one core).
    """
    from pyspark.sql import functions as F

    roll = roller(checks, timestamp_types=timestamp_types, trends=trends, windows=windows)
    named = recs.withColumn(
        _NAME,
        F.when(F.col("kind") == "liveness", F.col("topic")).otherwise(F.coalesce(F.col("group"), F.lit(""))),
    )
    keys = ("kind", "check", "cluster", _NAME)
    return (
        named.repartition(max(1, parallelism), *keys).groupBy(*keys).applyInArrow(roll, ddl(_ROLLUP_COLUMNS))
    )


#: a roll-up's row: the pickled TopicResult or GroupResult, and its records' states counted (JSON)
_ROLLUP_COLUMNS = (("result", "binary"), ("states", "string"))


def roller(
    checks: Mapping[str, CheckDefinition],
    *,
    timestamp_types: Mapping[tuple[str, str], str],
    trends: Mapping[tuple[str, str], Sequence[int | None]] | None,
    windows: Mapping[str, int],
) -> Callable[[Any], Any]:
    """The ``applyInArrow`` function of :func:`rollup_frame`: one group's Arrow table to its row.

    No pyspark in it (it runs in the Python workers, and in tests without Spark).
    """
    with_history = trends is not None
    types = dict(timestamp_types)
    trend_of = dict(trends or {})
    win = dict(windows)

    def roll(table: Any) -> Any:
        import pyarrow as pa

        cols = table.to_pydict()
        c = checks[cols["check"][0]]
        cluster, name = cols["cluster"][0], cols[_NAME][0]
        result: TopicResult | GroupResult
        if isinstance(c, LivenessCheck):
            result = rollup_columns(c, cluster, name, cols, timestamp_type=types.get((cluster, name)))
        else:
            hist = None
            if with_history:
                keys = list(cols)
                judged = [i for i in rollup_order(cols) if cols["h_status"][i] is not None]
                hist = list(verdicts({k: cols[k][i] for k in keys} for i in judged))
            trend = list(trend_of.get((cluster, name), []))[-win.get(c.name, 10) :]
            result = rollup_columns(c, cluster, name, cols, history=hist, trend=trend)
        # every record is in exactly one roll-up: its states, counted here, sum to the check's
        states = Counter(cols["state"])
        row = (pickle.dumps(result), json.dumps(dict(sorted(states.items()))))
        return pa.Table.from_batches([record_batch_of(_ROLLUP_COLUMNS, [row])])

    return roll


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
